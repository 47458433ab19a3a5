"""Counting and encoding a text file with several threads gives exactly one thread's result."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordvec.data.corpus import Corpus
from wordvec.data.encode import encode_corpus
from wordvec.data.parallel import in_order, reading_threads
from wordvec.data.token_table import TokenTable
from wordvec.data.vocab import Vocabulary
from wordvec.errors import WordvecError

WORDS = ["a", "bb", "é", "日本", "ccc", "d", "e", "ffff", "g"]


def text_of(lines):
    return "".join(" ".join(line) + end for line, end in lines)


lines = st.lists(st.tuples(st.lists(st.sampled_from(WORDS), max_size=30), st.sampled_from(["\n", " ", "\n\n"])),
                 max_size=40)


def read(path, threads, block_size, max_document_length, max_vocab_size=None, sort=True):
    """What reading the file gives: vocabulary and encoding, or the error's sentence."""
    corpus = Corpus(path, block_size=block_size, max_document_length=max_document_length)
    try:
        vocab = Vocabulary.build(corpus, min_count=1, max_vocab_size=max_vocab_size, sort=sort, threads=threads)
    except WordvecError as error:  # pruning can leave no word: the same sentence for any threads
        return str(error)
    encoded = encode_corpus(corpus, vocab, use_cache=False, threads=threads)
    return vocab.words, vocab.counts.tolist(), vocab.corpus_tokens, encoded.ids.tolist(), encoded.offsets.tolist()


@settings(max_examples=60, deadline=None, derandomize=True)
@given(lines=lines, block_size=st.integers(8, 64), max_document_length=st.integers(1, 12),
       max_vocab_size=st.none() | st.integers(2, 6), sort=st.booleans())
def test_threads_read_exactly_what_one_thread_reads(tmp_path_factory, lines, block_size, max_document_length,
                                                     max_vocab_size, sort):
    text = text_of(lines)
    path = tmp_path_factory.mktemp("c") / "c.txt"
    path.write_text(text, encoding="utf-8")
    one = read(path, 1, block_size, max_document_length, max_vocab_size, sort)
    for threads in (2, 3):
        assert read(path, threads, block_size, max_document_length, max_vocab_size, sort) == one


def test_merging_grows_the_table_and_keeps_first_appearance_order(tmp_path):
    words = [f"token{i}" for i in range(70_000)]  # more than a fresh table holds: both tables grow
    path = tmp_path / "c.txt"
    path.write_text(" ".join(words) + "\n" + " ".join(reversed(words[:10])) + "\n")
    for threads in (1, 2):
        vocab = Vocabulary.build(Corpus(path, block_size=1 << 16), min_count=1, sort=False, threads=threads)
        assert vocab.words == words and vocab.counts[:10].tolist() == [2] * 10


@settings(max_examples=40, deadline=None, derandomize=True)
@given(lines=lines, cuts=st.lists(st.integers(0, 400), max_size=4), min_count=st.integers(1, 3))
def test_pieces_counted_apart_and_merged_in_order_give_the_built_vocabulary(tmp_path_factory, lines, cuts,
                                                                            min_count):
    """What the distributed count does: each piece counted into a table of its own, sent as
    its words' bytes, rebuilt (``TokenTable.from_bytes``) and merged in corpus order."""
    text = text_of(lines).encode("utf-8")
    ends = sorted({min(c, len(text)) for c in cuts}) + [len(text)]
    pieces, start = [], 0
    for end in ends:  # cut at the next whitespace, as the pieces are planned
        while end < len(text) and not text[end:end + 1].isspace():
            end += 1
        pieces.append(text[start:end])
        start = max(start, end)
    merged = TokenTable()
    for piece in pieces:
        table = TokenTable()
        table.count(piece)
        n = len(table)
        joined = b"".join(word.encode("utf-8") for word in table.words())
        merged.merge(TokenTable.from_bytes(joined, table.word_len[:n], table.counts[:n]))
    path = tmp_path_factory.mktemp("p") / "c.txt"
    path.write_bytes(text)
    try:
        built = Vocabulary.build(Corpus(path), min_count=min_count, threads=1)
    except WordvecError as error:
        with pytest.raises(WordvecError, match=str(error).split(":")[0]):
            Vocabulary.from_table(merged, min_count=min_count, source=Corpus(path))
        return
    vocab = Vocabulary.from_table(merged, min_count=min_count)
    assert (vocab.words, vocab.counts.tolist(), vocab.corpus_tokens) == (built.words, built.counts.tolist(),
                                                                        built.corpus_tokens)


def test_in_order_yields_every_result_in_order_and_passes_errors_on():
    assert list(in_order(lambda x: x * x, iter(range(50)), 3)) == [x * x for x in range(50)]

    def fail_at_7(x):
        if x == 7:
            raise ValueError("seven")
        return x

    with pytest.raises(ValueError, match="seven"):
        list(in_order(fail_at_7, range(20), 2))


def test_reading_threads_default_to_at_most_two():
    assert 1 <= reading_threads() <= 2
    assert reading_threads(5) == 5 and reading_threads(0) == 1
