"""The progress bar of every long loop (training epochs, counting): one place decides
whether a bar is drawn and how it looks.

A bar is drawn when the caller asks for one, stderr is a terminal (a log file gets the
per-epoch lines instead; ``terminal_only=False`` for fastText's progress line, which
fastText writes wherever stderr goes) and ``WORDVEC_NO_PROGRESS`` is unset.  Otherwise the
bar is disabled: its ``update`` and ``close`` do nothing, so callers never test for it."""

import os
import sys

from tqdm import tqdm


def drawn(enabled=True, terminal_only=True):
    """Whether a bar asked for with ``enabled`` is drawn (see the module docstring)."""
    return (bool(enabled) and os.environ.get("WORDVEC_NO_PROGRESS") is None
            and (not terminal_only or sys.stderr.isatty()))


def bar(total, description, unit="it", enabled=True, terminal_only=True, leave=False, **options):
    """A tqdm bar on stderr over ``total`` units, disabled unless :func:`drawn`."""
    return tqdm(total=total, desc=description, unit=unit, leave=leave,
                disable=not drawn(enabled, terminal_only), **options)
