"""Memory that must stay bounded whatever the input, and the one definition of whitespace
shared by the tokenizer and every writer."""

import tracemalloc

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordvec.data.corpus import MAX_TOKEN_BYTES, WHITESPACE, Corpus, is_token, split_tokens

from . import world
from .harness import run_cli_measured

MB = 1 << 20


def test_a_file_with_no_whitespace_is_read_in_bounded_memory(base, tmp_path):
    """32 MB without a single space: one token, cut at MAX_TOKEN_BYTES; the process grows by
    a few blocks, not by the file (it grew by ~2.8x the file before the reader bounded it)."""
    big = tmp_path / "one-token.txt"
    world.no_whitespace_file(big, 32 * MB)
    small, small_peak = run_cli_measured("vocab", base / "corpus.txt", "--min-count", "1")
    result, peak = run_cli_measured("vocab", big, "--min-count", "1", "--max-vocab-size", "2")
    assert small.returncode == 0 and result.returncode == 0, result.stderr[-2000:]
    assert "1 words" in result.stdout  # one token: its first MAX_TOKEN_BYTES bytes
    assert peak - small_peak < 16 * MB, (peak / MB, small_peak / MB)


def test_the_text_writer_formats_row_blocks_not_the_whole_matrix(tmp_path):
    from wordvec.io.formats import read_word2vec_text, write_word2vec_text

    vectors = np.random.default_rng(0).standard_normal((8000, 20)).astype(np.float32)  # 640 kB
    words = [f"w{i}" for i in range(len(vectors))]
    tracemalloc.start()
    try:
        write_word2vec_text(tmp_path / "v.txt", words, vectors)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * vectors.nbytes, peak / vectors.nbytes  # tolist() of it all took ~12x
    read_words, read_vectors, _ = read_word2vec_text(tmp_path / "v.txt")
    assert read_words == words and np.array_equal(read_vectors, vectors)


# Any character but ASCII whitespace (and lone surrogates, which are not text).
TOKEN = st.text(st.characters(blacklist_characters=WHITESPACE, blacklist_categories=("Cs",)), min_size=1,
                max_size=12)
SEPARATOR = st.text(st.sampled_from(" \t\v\f\r"), min_size=1, max_size=3)
UNICODE_SPACES = st.sampled_from(["\u00a0", "\u2028", "\u2029", "\x85", "\x1c", "\x1d", "\x1e", "\x1f",
                                  "\u3000", "\u2009"])


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(lines=st.lists(st.lists(st.one_of(TOKEN, st.builds("".join, st.lists(st.one_of(TOKEN, UNICODE_SPACES),
                                                                            min_size=2, max_size=4))),
                               min_size=1, max_size=6), min_size=1, max_size=5),
       separator=SEPARATOR)
def test_tokenizer_readers_and_writers_agree_on_whitespace(tmp_path_factory, lines, separator):
    """Every token the compiled tokenizer makes (U+00A0, U+2028, U+0085, U+001C... inside
    it) is split the same way by the Python readers and round-trips through every writer."""
    from wordvec.io.formats import read_native, write_native
    from wordvec.vectors.keyed import KeyedVectors
    from wordvec.vectors.files import load_vectors
    from wordvec.data.vocab import Vocabulary

    directory = tmp_path_factory.mktemp("ws")
    # a token longer than MAX_TOKEN_BYTES is cut (the test below holds that), not kept whole
    lines = [[t for t in line if t.strip(WHITESPACE) == t and t and len(t.encode()) <= MAX_TOKEN_BYTES]
             for line in lines]
    text = "".join(separator.join(line) + "\n" for line in lines)
    (directory / "c.txt").write_text(text, encoding="utf-8")
    expected = [line for line in lines if line]
    assert [split_tokens(line) for line in text.split("\n") if split_tokens(line)] == expected
    assert list(Corpus(str(directory / "c.txt"))) == expected  # the Python path
    vocab = Vocabulary.build(Corpus(str(directory / "c.txt")), min_count=1)  # the compiled path
    assert sorted(vocab.words) == sorted({t for line in expected for t in line})
    assert all(is_token(word) for word in vocab.words)
    kv = KeyedVectors(vocab.words, np.arange(len(vocab) * 2, dtype=np.float32).reshape(-1, 2))
    for name in ("v.txt", "v.bin", "v.glove", "v.wv"):
        kv_path = directory / name
        if name == "v.wv":
            write_native(kv_path, kv.index_to_key, kv.vectors)
            assert read_native(kv_path)[0] == vocab.words
        else:
            from wordvec.vectors.files import save_vectors

            save_vectors(kv, kv_path)
            assert load_vectors(kv_path).index_to_key == vocab.words, name


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.text(st.characters(blacklist_characters=WHITESPACE, blacklist_categories=("Cs",)),
                        min_size=30, max_size=120), min_size=1, max_size=4))
def test_long_tokens_are_cut_the_same_way_everywhere(tmp_path_factory, tokens):
    from wordvec.data.vocab import Vocabulary

    path = tmp_path_factory.mktemp("long") / "c.txt"
    path.write_text(" ".join(tokens) + "\n", encoding="utf-8")
    python_path = next(iter(Corpus(str(path))))
    compiled = Vocabulary.build(Corpus(str(path), block_size=64), min_count=1).words  # tokens cross blocks
    assert sorted(set(python_path)) == sorted(compiled)
    for token, cut in zip(tokens, python_path):
        raw, kept = token.encode("utf-8"), cut.encode("utf-8")
        if len(raw) <= MAX_TOKEN_BYTES:
            assert cut == token
        else:  # the longest whole-character prefix of at most MAX_TOKEN_BYTES bytes
            assert raw.startswith(kept) and MAX_TOKEN_BYTES - 4 < len(kept) <= MAX_TOKEN_BYTES
