"""The two FNV-1a hashes of token bytes (``wordvec.io.fnv``): the NumPy version over many
tokens equals the Python specification, token by token, and the specifications equal
fastText's and the compiled kernels' hashes."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from wordvec.io import fnv

# many tokens (the vectorised steps run while more than FEW_TOKENS are left), short and
# long ones, non-ASCII bytes (signed for fastText's hash), and empty ones
TOKENS = st.lists(st.one_of(st.binary(min_size=0, max_size=6), st.binary(min_size=60, max_size=200),
                            st.sampled_from([b"a", b"\xc3\xa9", b"\xff" * 3])), min_size=0, max_size=300)


def _arrays(tokens):
    lengths = np.array([len(t) for t in tokens], dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    return np.frombuffer(b"".join(tokens), dtype=np.uint8), starts, lengths


@settings(max_examples=60, deadline=None)
@given(tokens=TOKENS, fasttext=st.booleans())
def test_many_tokens_at_once_hash_as_one_by_one(tokens, fasttext):
    blob, starts, lengths = _arrays(tokens)
    one = fnv.fasttext_fnv1a if fasttext else fnv.fnv1a64
    hashes = fnv.fnv1a_many(blob, starts, lengths, fasttext=fasttext)
    assert hashes.dtype == (np.uint32 if fasttext else np.uint64)
    assert hashes.tolist() == [one(t) for t in tokens]


def test_the_specifications_on_known_values():
    # FNV-1a's published test vectors (64-bit): "" and "a"
    assert fnv.fnv1a64(b"") == 0xcbf29ce484222325
    assert fnv.fnv1a64(b"a") == 0xaf63dc4c8601ec8c
    # fastText's Dictionary::hash reads bytes as int8: 0xC3 enters as 0xFFFFFFC3
    h = ((fnv.FASTTEXT_FNV_OFFSET ^ 0xFFFFFFC3) * fnv.FASTTEXT_FNV_PRIME) & 0xFFFFFFFF
    assert fnv.fasttext_fnv1a(b"\xc3") == h
    assert fnv.fasttext_fnv1a(b"a") == 0xe40c292c  # 32-bit FNV-1a of "a": ASCII is unsigned either way
