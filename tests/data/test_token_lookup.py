"""wordvec.data.token_lookup: fastText's readWord over a whole block, and the exact NumPy
token index, against plain Python on hostile bytes."""

import numpy as np
import pytest

from wordvec.data.token_lookup import TokenIndex, scan

SEPARATORS = b" \t\n\v\f\r\0"


def python_tokens(block):
    """readWord by hand: runs of non-separator bytes, and every newline on its own."""
    tokens, start = [], None
    for i, c in enumerate(block):
        if c in SEPARATORS:
            if start is not None:
                tokens.append((start, i))
                start = None
            if c == 10:
                tokens.append((i, i + 1))
        elif start is None:
            start = i
    if start is not None:
        tokens.append((start, len(block)))
    return tokens


def hostile_block(seed, n=3000):
    rng = np.random.default_rng(seed)
    alphabet = np.frombuffer(SEPARATORS + b"ab\x80\xff\xc3\xa9x", dtype=np.uint8)
    block = alphabet[rng.integers(0, len(alphabet), n)].tobytes()
    return block + b"y" * 40 + b" " + b"z" * 17 + b"\n\n\n" + b"tail-without-newline"


@pytest.mark.parametrize("seed", range(4))
def test_scan_is_readword(seed):
    block = hostile_block(seed)
    tokens = scan(block)
    expected = python_tokens(block)
    assert list(zip(tokens.starts.tolist(), tokens.ends.tolist())) == expected
    assert tokens.newline.tolist() == [block[s:e] == b"\n" for s, e in expected]


def test_scan_of_nothing_and_separators_only():
    assert len(scan(b"")) == 0
    assert len(scan(b" \t\0\r\v\f ")) == 0
    assert scan(b"\n\n").newline.tolist() == [True, True]


def test_index_finds_exactly_its_tokens():
    words = [b"a", b"ab", b"abcdefgh", b"abcdefghi", b"abcdefgh" * 2, b"abcdefgh" * 2 + b"x", b"\xff\x80", b"b" * 300,
             b"ab", b"with space", b"nul\0", b""]  # "ab" twice (the last wins); three no text can hold
    index = TokenIndex.of(words, np.arange(len(words)) * 10)
    block = b" ".join([b"a", b"ab", b"abc", b"abcdefgh", b"abcdefghi", b"abcdefgh" * 2, b"abcdefgh" * 2 + b"x",
                       b"abcdefgh" * 2 + b"y", b"\xff\x80", b"\xff", b"b" * 300, b"b" * 299, b"with", b"nul"]) + b"\n"
    tokens = scan(block)
    codes = index.lookup(block, tokens.starts, tokens.ends).tolist()
    assert codes == [0, 80, -1, 20, 30, 40, 50, -1, 60, -1, 70, -1, -1, -1, -1]


@pytest.mark.parametrize("seed", range(3))
def test_index_against_a_dict(seed):
    rng = np.random.default_rng(seed)
    vocabulary = list(dict.fromkeys(bytes(rng.integers(97, 100, rng.integers(1, 24)).astype(np.uint8))
                                    for _ in range(3000)))
    index = TokenIndex.of(vocabulary, np.arange(len(vocabulary)))
    text = [vocabulary[i] if i < len(vocabulary) else b"q%d" % i for i in rng.integers(0, 2 * len(vocabulary), 5000)]
    block = b" ".join(text) + b"\n"
    tokens = scan(block)
    known = {w: i for i, w in enumerate(vocabulary)}
    words = ~tokens.newline
    codes = index.lookup(block, tokens.starts[words], tokens.ends[words])
    assert codes.tolist() == [known.get(t, -1) for t in text]
