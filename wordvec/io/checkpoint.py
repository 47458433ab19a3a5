"""Checkpoints of a training run in progress: when to write one, what it holds, how to
stop cleanly on Ctrl-C, and how a resumed run checks it continues the same run.

A checkpoint is the model's own native save (``Word2Vec.save`` / ``GloVe.save``, so it
is written atomically like every model directory) plus ``checkpoint.json``::

    {"format": "wordvec-checkpoint", "version": 1, "model": "sg",
     "corpus": <Corpus.fingerprint_parts()>, "options": {<training options>},
     "command": [<argv of the run>]}

The model directory already holds the training position: the schedule (words trained,
epochs done) and, when the checkpoint falls inside an epoch, ``epoch_in_progress`` (how
many chunks of that epoch's seeded order are done, with their losses).  Because every
chunk's random state and learning rate are pure functions of (seed, epoch, chunk,
position) (``wordvec.data.schedule``), a resumed run trains the remaining chunks exactly as
the uninterrupted run would have: with one worker the vectors are bitwise identical.

``--checkpoint-every`` takes a duration or a number of words, always with a unit, so
that ``10m`` (minutes? millions?) cannot be misread: ``30s``, ``10min``, ``2h`` or
``500kw``, ``5Mw``, ``2000000w`` (k, M, G multiply; ``w``/``words`` say "words").
"""

import re
import signal
import threading
import time
from pathlib import Path

from wordvec.errors import FormatError, WordvecError
from wordvec.io.atomic import saved_directory
from wordvec.io.formats import read_json_object

FORMAT, VERSION = "wordvec-checkpoint", 1
FILE = "checkpoint.json"
TIME_UNITS = {"s": 1.0, "sec": 1.0, "min": 60.0, "h": 3600.0}
WORD_MULTIPLIERS = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9}
_EVERY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(k|M|G)?\s*(s|sec|min|h|w|words)\s*$")


class TrainingInterrupted(WordvecError):
    """Training stopped on request (Ctrl-C) after writing a checkpoint."""

    exit_status = 130  # the shell's convention for SIGINT


def parse_every(text):
    """``"10min"`` -> ("seconds", 600.0); ``"5Mw"`` -> ("words", 5000000)."""
    match = _EVERY.match(str(text))
    if not match:
        raise WordvecError(
            f"--checkpoint-every {text!r} needs a unit: a duration such as 30s, 10min or 2h, "
            f"or a number of words such as 500kw, 5Mw or 2000000w")
    number, multiplier, unit = float(match.group(1)), match.group(2) or "", match.group(3)
    if unit in TIME_UNITS:
        if multiplier:
            raise WordvecError(f"--checkpoint-every {text!r}: k/M/G multiply words, not durations (write e.g. 10min)")
        amount = number * TIME_UNITS[unit]
        kind = "seconds"
    else:
        amount = int(number * WORD_MULTIPLIERS[multiplier])
        kind = "words"
    if amount <= 0:
        raise WordvecError(f"--checkpoint-every {text!r} must be more than zero")
    return kind, amount


class Checkpointer:
    """Decides when a checkpoint is due, writes it through the model's ``save``, and
    turns the first Ctrl-C into "finish the current chunk, checkpoint, stop".

    The training loop calls :meth:`advance` after every unit of work (a chunk of
    word2vec, a block of GloVe) with the words (or updates) it trained; when it
    returns True the loop brings the model to a consistent position and calls
    :meth:`save`, which raises :class:`TrainingInterrupted` if a stop was requested.
    """

    def __init__(self, path, every=None, metadata=None, resume_hint=None):
        self.path = Path(path)
        self.kind, self.amount = every if every is not None else (None, None)
        self.metadata = dict(metadata or {})
        self.resume_hint = resume_hint
        self.stop_requested = threading.Event()
        self.written = 0
        self._words = 0
        self._last_time, self._last_words = time.monotonic(), 0

    def advance(self, words):
        """Count ``words`` more trained; True when a checkpoint is due (or a stop asked)."""
        self._words += words
        if self.stop_requested.is_set():
            return True
        if self.kind == "seconds":
            return time.monotonic() - self._last_time >= self.amount
        if self.kind == "words":
            return self._words - self._last_words >= self.amount
        return False

    def save(self, model, where):
        """Write the checkpoint (``where`` says which position, for the message), then
        stop if asked to."""
        model.save(self.path, extra_json={FILE: {"format": FORMAT, "version": VERSION, **self.metadata}})
        self.written += 1
        self._last_time, self._last_words = time.monotonic(), self._words
        if self.stop_requested.is_set():
            hint = f"; continue with: {self.resume_hint}" if self.resume_hint else ""
            raise TrainingInterrupted(f"interrupted {where}: the checkpoint {self.path} holds the run so far{hint}")

    def request_stop(self, *_):
        if self.stop_requested.is_set():  # a second Ctrl-C: stop now, without a checkpoint
            raise KeyboardInterrupt
        self.stop_requested.set()

    def handle_interrupts(self):
        """A context manager: while inside, SIGINT asks for a checkpoint and a stop
        (main thread only; elsewhere a no-op)."""
        return _SigintHandler(self.request_stop)


class _SigintHandler:
    def __init__(self, handler):
        self.handler, self.previous = handler, None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self.handler)
        return self

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
        return False


def read_metadata(path):
    """The ``checkpoint.json`` of checkpoint ``path`` (one-sentence errors)."""
    path = saved_directory(path, FILE)  # a crash mid-replace leaves the previous checkpoint aside
    if not path.exists():
        raise WordvecError(f"checkpoint not found: {path}")
    file = path / FILE
    if not file.is_file():
        raise WordvecError(f"{path} is not a wordvec training checkpoint (no {FILE}; a finished model "
                           f"continues with the library's train(), not --resume)")
    try:
        meta = read_json_object(file)
    except FormatError as error:
        raise WordvecError(f"{file} is not valid JSON ({error.problem})") from None
    if meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise WordvecError(f"{file} does not describe a {FORMAT} version {VERSION} checkpoint")
    return meta


def check_same_run(meta, path, model, corpus_parts, options):
    """Refuse to resume unless the corpus and the training options are the checkpoint's."""
    if meta.get("model") != model:
        raise WordvecError(f"the checkpoint {path} is of a --model {meta.get('model')} run, not --model {model}")
    if meta.get("corpus") != corpus_parts:
        raise WordvecError(f"the checkpoint {path} was written for another corpus (or the corpus file changed "
                           f"since): resume with the same, unchanged corpus, or start again without --resume")
    saved = meta.get("options", {})
    differing = sorted(k for k in set(saved) | set(options) if saved.get(k) != options.get(k))
    if differing:
        shown = ", ".join(f"{k} {saved.get(k)!r} (now {options.get(k)!r})" for k in differing[:3])
        raise WordvecError(f"the checkpoint {path} was trained with other options ({shown}): resume with "
                           f"the options of the interrupted run, or start again without --resume")
