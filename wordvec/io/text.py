"""What a token is: the one definition of whitespace, for reading and writing alike.

ASCII space, \\t, \\n, \\v, \\f, \\r (what ``bytes.split()`` and word2vec.c split on).  Every
other character, U+00A0, U+2028, U+0085 and U+001C-U+001F included, is part of a token.
The corpus reader (``wordvec.data.corpus``), the compiled tokenizer
(``wordvec.kernels.tokens``) and the vector writers (``wordvec.io.formats``) all take it from
here, which is why it sits below all three.
"""

import re

import numpy as np

WHITESPACE = " \t\n\v\f\r"
MAX_TOKEN_BYTES = 100  # longer tokens are cut here (at a character boundary), as word2vec.c's MAX_STRING
MAX_WORD_BYTES = 1 << 20  # a "word" of a vector file longer than this is not a word: the file is not vectors
WHITESPACE_BYTES = tuple(ch.encode() for ch in WHITESPACE)
_TOKEN = re.compile(r"[^ \t\n\v\f\r]+")


def split_tokens(text):
    """The tokens of a str, split on ``WHITESPACE`` exactly as the compiled tokenizer splits
    bytes (``str.split()`` would also split on U+00A0, U+2028, U+0085, U+001C-U+001F ...)."""
    return _TOKEN.findall(text)


def is_token(word):
    """True if ``word`` could come out of the tokenizer: non-empty, no ``WHITESPACE``."""
    return bool(word) and _TOKEN.fullmatch(word) is not None


def joined_lines(tokens, lengths=None):
    """(data, starts, ends): the byte strings ``tokens`` joined by newlines, token i being
    ``data[starts[i]:ends[i]]``, for work over all of them at once (decoding, hashing,
    lookups); ``lengths`` (int64, the tokens' lengths) if the caller has them."""
    if lengths is None:
        lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
    ends = np.cumsum(lengths + 1) - 1
    return b"\n".join(tokens), ends - lengths, ends
