import bz2
import gzip
import lzma

import pytest

from wordvec.data.corpus import Corpus
from wordvec.errors import WordvecError

TEXT = "the cat sat\non the mat\n\n  a  dog\tbarked \n"
DOCS = [["the", "cat", "sat"], ["on", "the", "mat"], ["a", "dog", "barked"]]


@pytest.mark.parametrize("suffix,opener", [(".txt", open), (".gz", gzip.open), (".bz2", bz2.open), (".xz", lzma.open)])
def test_reads_plain_and_compressed_files(tmp_path, suffix, opener):
    path = tmp_path / f"corpus{suffix}"
    with opener(path, "wb") as handle:
        handle.write(TEXT.encode())
    assert list(Corpus(path)) == DOCS
    assert list(Corpus(path)) == DOCS  # re-iterable


def test_directory_reads_files_in_order_without_joining_documents(tmp_path):
    (tmp_path / "b.txt").write_text("three four")  # no trailing newline
    (tmp_path / "a.txt").write_text("one two")
    (tmp_path / ".hidden").write_text("never")
    assert list(Corpus(tmp_path)) == [["one", "two"], ["three", "four"]]


def test_giant_single_line_is_streamed_in_blocks_without_cutting_tokens(tmp_path):
    words = [f"w{i % 997}x{i % 13}" for i in range(50_000)]
    path = tmp_path / "text8"
    path.write_text(" ".join(words))  # one line, no newline at all
    corpus = Corpus(path, block_size=1000, max_document_length=10_000)
    docs = list(corpus)
    assert [len(d) for d in docs] == [10_000] * 5
    assert sum(docs, []) == words


def test_long_documents_are_split_at_max_document_length(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(" ".join(map(str, range(25))) + "\nx y\n")
    docs = list(Corpus(path, max_document_length=10))
    assert [len(d) for d in docs] == [10, 10, 5, 2]
    assert docs[2][-1] == "24"


def test_lowercase_option(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("The CAT Été\n")
    assert list(Corpus(path, lowercase=True)) == [["the", "cat", "été"]]
    assert list(Corpus(path)) == [["The", "CAT", "Été"]]


def test_invalid_utf8_is_replaced_counted_and_reported_once(tmp_path, caplog):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"good \xff\xfe word\nmore \xc3 text\n")
    corpus = Corpus(path)
    with caplog.at_level("WARNING"):
        docs = list(corpus)
    assert docs == [["good", "\ufffd\ufffd", "word"], ["more", "\ufffd", "text"]]
    assert corpus.decode_errors == 3
    warnings = [r for r in caplog.records if "UTF-8" in r.getMessage()]
    assert len(warnings) == 1 and "bad.txt" in warnings[0].getMessage()


def test_iterable_of_token_lists(tmp_path):
    docs = [["A", "b"], [], ["c"]]
    assert list(Corpus(docs, lowercase=True)) == [["a", "b"], ["c"]]


def test_generator_is_refused_with_explanation():
    with pytest.raises(WordvecError, match="one-shot iterator"):
        Corpus(doc for doc in [["a"]])


def test_strings_instead_of_token_lists_are_refused():
    with pytest.raises(WordvecError, match="lists of tokens"):
        list(Corpus(["a sentence as one string"]))


def test_missing_path_is_one_clear_error(tmp_path):
    with pytest.raises(WordvecError, match="does not exist"):
        Corpus(tmp_path / "nope.txt")
