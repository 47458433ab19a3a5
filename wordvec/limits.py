"""The ranges of the sizes and counts a user can ask for, in one table.

The command line checks them in its argument types (``wordvec.cli.common.ranged``), so a
bad value fails before any file is read; the model constructors check the same table
(:func:`check_int`), so library users get the same sentence.  The ceilings are far
beyond any useful setting and below the values that exhaust memory or time before a
single word is trained (a window of 10^9 tokens allocated 7.9 GB of context buffer; a
million negatives per pair "hang" for days); whatever passes is then held to the memory
actually available by ``wordvec.models.base.estimate``.
"""

import math
import numbers

from wordvec.errors import WordvecError

UINT64_MAX = 2**64 - 1

# name: (lowest, highest) allowed, inclusive
LIMITS = {
    "vector_size": (1, 100_000),
    "window": (1, 1_000),            # tokens on each side; typical 2-10, GloVe up to ~15
    "negative": (0, 1_000),          # noise words per pair; typical 5-20
    "epochs": (1, 100_000),
    "workers": (1, 1_024),
    "min_count": (1, 2**62),
    "max_vocab_size": (1, 2**31 - 1),  # ids are int32
    "min_n": (1, 1_000),             # subword character n-grams (fastText's minn/maxn)
    "max_n": (1, 1_000),
    "bucket": (1, 2**31 - 1),        # n-gram rows; bucket ids are int32
    "max_document_length": (1, 100_000_000),
    "seed": (0, UINT64_MAX),         # the generators take 64-bit states; negative seeds are refused
    "tokens": (1, 1_000_000_000),    # demo's synthetic corpus: 10^9 tokens is ~6 GB of text
    "hidden": (1, 100_000),          # a language model's hidden units
    "hidden_layer": (0, 100_000),    # the window classifier's tanh layer (0: none)
    "task_window": (0, 1_000),       # the window classifier's context (0: the word alone)
    "embedding": (1, 100_000),
    "bptt": (1, 100_000),
    "batch_size": (1, 1_000_000),
    "threads": (1, 1_024),
    "lines": (1, 1_000_000),
    "max_length": (1, 10_000_000),
    "power_iterations": (0, 1_000),
    "patience": (0, 100_000),
    "top": (0, 2**31 - 1),
    "max_updates": (1, 2**62),
    "max_vocab": (1, 2**31 - 1),
    "passes": (1, 100),              # phrase passes: each joins one more word at most
    "dim": (1, 100_000),             # the classifier's (fastText's names)
    "epoch": (1, 100_000),
    "word_ngrams": (1, 1_000),       # fastText's wordNgrams; typical 1-3
}


def check_int(name, value, option=None):
    """``value`` if it is a whole number within ``LIMITS[name]``, else a one-sentence
    ``WordvecError`` naming ``option`` (default: ``name``)."""
    low, high = LIMITS[name]
    label = option or name
    if high == UINT64_MAX:
        allowed = f"from {low} to 2**64 - 1"
    elif high >= 2**62:
        allowed = f"of at least {low:,}"
    else:
        allowed = f"from {low:,} to {high:,}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise WordvecError(f"{label} must be a whole number {allowed}, not {value!r}")
    if not low <= value <= high:
        raise WordvecError(f"{label} must be a whole number {allowed}, not {value:,}")
    return int(value)


def check_number(label, value, low=None, high=None, low_open=False, high_open=False):
    """A finite real number in [low, high] (``*_open``: excluding that end); else a
    one-sentence ``WordvecError``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise WordvecError(f"{label} must be a finite number, not {value!r}")
    too_low = low is not None and (value <= low if low_open else value < low)
    too_high = high is not None and (value >= high if high_open else value > high)
    if too_low or too_high:
        left = "any" if low is None else ("(" if low_open else "[") + f"{low:g}"
        right = "any" if high is None else f"{high:g}" + (")" if high_open else "]")
        raise WordvecError(f"{label} must be in {left}, {right}, not {value:g}")
    return float(value)


def parse_whole(text):
    """A whole number written plainly or in scientific notation (``2000000``, ``2e6``);
    ``None`` if ``text`` is neither."""
    text = str(text).strip().replace("_", "")
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return None
    if math.isfinite(value) and value == int(value):
        return int(value)
    return None
