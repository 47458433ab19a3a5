"""What a model is configured with, in one place per model.

``available_cores`` and ``library_workers`` are the two defaults for the number of
training threads, computed here and nowhere else:

* the command line (``wordvec train``) trains with every core this process may run on
  (``available_cores``): a user at a shell wants the machine;
* the Python API (``Word2Vec(workers=None)``) takes at most 2 (``library_workers``):
  code that embeds a model in a larger program should not take every core unasked.
"""

import os

from wordvec.data.corpus import Corpus
from wordvec.errors import WordvecError


def available_cores():
    """The cores this process may run on (its CPU affinity; all CPUs where that is unknown)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def library_workers():
    """``Word2Vec(workers=None)``'s threads: at most 2 (see the module docstring)."""
    return min(2, available_cores())


def corpus_with_options(source, lowercase, max_document_length):
    """``source`` as a ``Corpus`` read with a model's options; a ``Corpus`` given is used as
    it is (the caller opened it once for several uses), if its options are the model's."""
    if not isinstance(source, Corpus):
        return Corpus(source, lowercase=lowercase, max_document_length=max_document_length)
    if (source.lowercase, source.max_document_length) != (bool(lowercase), int(max_document_length)):
        raise WordvecError(f"the corpus was opened with lowercase={source.lowercase}, max_document_length="
                           f"{source.max_document_length}; the model asks for {lowercase}, {max_document_length}")
    return source
