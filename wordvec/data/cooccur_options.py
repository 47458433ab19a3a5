"""The options of co-occurrence counting, checked and read without counting: the window's
weights and the memory limit (``wordvec.data.cooccur`` counts; this module leaves SciPy
out of the models that only check or estimate these options)."""

import math
import re

import numpy as np

from wordvec.errors import WordvecError

WEIGHTINGS = ("harmonic", "uniform")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?i?b?)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_memory(size):
    """'256MB' / '2GB' / '1.5g' / 1048576 -> bytes (powers of 1024)."""
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        value = int(size)
    else:
        match = _SIZE.match(str(size))
        if not match:
            raise WordvecError(f"cannot read memory size {size!r}; write it like 256MB or 2GB")
        unit = (match.group(2) or "").lower()[:1]
        value = int(float(match.group(1)) * _UNITS[unit])
    if value < 2**20:
        raise WordvecError(f"memory limit {size!r} is too small; give at least 1MB")
    return value


def weight_scale(window, weighting):
    """Integer unit count per co-occurrence: 1/d * scale is an integer for all d <= window."""
    if weighting == "uniform":
        return 1
    lcm = math.lcm(*range(1, window + 1))
    return lcm if lcm < 2**31 else 2**30  # units must fit the int32 pair buffer


def weight_units(window, weighting):
    """int32[window+1]: the weight of distance d, in units of 1/scale (index 0 unused)."""
    scale = weight_scale(window, weighting)
    d = np.arange(1, window + 1)
    if weighting == "uniform":
        units = np.ones(window, np.int64)
    else:
        units = np.rint(scale / d).astype(np.int64)
    return np.concatenate([[0], units]).astype(np.int32)


def check_options(window, weighting):
    if int(window) != window or window < 1:
        raise WordvecError(f"window must be a positive whole number of tokens, got {window}")
    if weighting not in WEIGHTINGS:
        raise WordvecError(f"weighting must be one of {', '.join(WEIGHTINGS)}, got {weighting!r}")
