"""Output paths of the library's writers and of the commands: ``wordvec.io.paths`` decides
whether a path may be written (the same check the command line's output gate runs);
``check_vectors_output`` adds the format: the name must say which vector format to write
(``formats.detect_format``).
"""

from functools import partial

from wordvec.io.atomic import check_existing
from wordvec.errors import WordvecError
from wordvec.io import formats
from wordvec.io.paths import DIRECTORY, FILE, check_output_path

__all__ = ["DIRECTORY", "FILE", "check_output", "check_vectors_output"]


def check_output(path, inputs=(), kind=FILE, replaceable=None):
    """Refuse (``WordvecError``) an output path that the command could not or must not write;
    ``replaceable(path)`` raises when an existing ``path`` is not a save it may replace
    (checked under the lock that swaps take: ``wordvec.io.atomic.check_existing``)."""
    same_kind = partial(check_existing, check_replaceable=replaceable) if replaceable else None
    check_output_path(path, kind, [source for source in inputs if source is not None], same_kind)


def check_vectors_output(path, inputs=(), fmt=None):
    """``check_output`` for a vectors file or native directory; returns its format."""
    if not str(path).strip():
        raise WordvecError("the output path is empty")
    kind = formats.detect_format(path, fmt)  # an unknown extension is refused here, not after training
    if kind == "native":
        check_output(path, inputs, DIRECTORY, replaceable=formats.check_replaceable)
    else:
        check_output(path, inputs, FILE)
    return kind
