"""The check tables of the model configs (``models/base/config.py``, ``models/classifier/config.py``).

A config's per-field checks are one table: field -> ``WHOLE`` (a whole number within
``wordvec.limits``, the ranges the command line checks too), ``WHOLE_OR_NONE``, or (test
of the value, the sentence that refuses it, with {value} filled in).  Checks that relate
two fields stay in the config.  This module imports nothing heavy, so a config that the
command line reads before any kernel is loaded (the classifier's) can use it.
"""

import math
import numbers

from wordvec import limits
from wordvec.errors import WordvecError

WHOLE, WHOLE_OR_NONE = "whole", "whole or None"


def check_fields(config, checks):
    """Refuse the first field of ``config`` that fails its check in ``checks``, in one sentence."""
    for name, check in checks.items():
        value = getattr(config, name)
        if check == WHOLE_OR_NONE and value is None:
            continue
        if check in (WHOLE, WHOLE_OR_NONE):
            limits.check_int(name, value)
        elif not check[0](value):
            raise WordvecError(check[1].format(value=value))


def need(ok, message):
    """A check that relates fields: ``message`` as a ``WordvecError`` unless ``ok``."""
    if not ok:
        raise WordvecError(message)


def is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def positive_number(value):
    return is_number(value) and math.isfinite(value) and value > 0


def one_of(choices, sentence):
    """A check that ``value`` is one of ``choices``; ``sentence`` names them with {choices}."""
    return lambda value: value in choices, sentence.replace("{choices}", ", ".join(choices))


def whole_in(low, high, name):
    """A check that ``value`` is a whole number from ``low`` to ``high`` (a field whose range
    is its config's own, not ``wordvec.limits``')."""
    return (lambda value: isinstance(value, numbers.Integral) and not isinstance(value, bool) and low <= value <= high,
            f"{name} must be a whole number from {low:,} to {high:,}, not {{value!r}}")
