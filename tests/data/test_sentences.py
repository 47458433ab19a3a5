"""gensim's streamed corpora (wordvec.data.sentences) give what gensim's give, on the same
files: plain, compressed, file objects, directories, limits and long lines."""

import bz2
import io

import pytest
from gensim.models import doc2vec as gensim_doc2vec
from gensim.models import word2vec as gensim_word2vec

from wordvec.data.sentences import LineSentence, PathLineSentences, TaggedDocument, TaggedLineDocument
from wordvec.errors import FormatError, WordvecError

TEXT = "the quick brown fox\n\njumps over  the lazy dog\nzäh ünd\n"


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "b.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "a.txt.bz2").write_bytes(bz2.compress("one two three four five\n".encode()))
    return tmp_path


@pytest.mark.parametrize("limit", [None, 2])
@pytest.mark.parametrize("length", [10_000, 3])
def test_line_sentence_equals_gensims(folder, limit, length):
    for name in ("b.txt", "a.txt.bz2"):
        path = str(folder / name)
        ours = LineSentence(path, max_sentence_length=length, limit=limit)
        theirs = gensim_word2vec.LineSentence(path, max_sentence_length=length, limit=limit)
        assert list(ours) == list(theirs)
        assert list(ours) == list(ours)  # restartable


def test_line_sentence_rewinds_a_file_object():
    handle = io.BytesIO(TEXT.encode())
    sentences = LineSentence(handle)
    assert list(sentences) == list(sentences) == [line.split() for line in TEXT.splitlines() if line.split()]


@pytest.mark.parametrize("limit", [None, 1])
def test_path_line_sentences_equals_gensims(folder, limit):
    ours = PathLineSentences(str(folder), max_sentence_length=4, limit=limit)
    assert list(ours) == list(gensim_word2vec.PathLineSentences(str(folder), max_sentence_length=4, limit=limit))
    assert list(PathLineSentences(str(folder / "b.txt"))) == list(LineSentence(str(folder / "b.txt")))


def test_path_line_sentences_refuses_a_missing_path(tmp_path):
    with pytest.raises(ValueError, match="neither a file nor a directory") as raised:
        PathLineSentences(str(tmp_path / "absent"))
    assert isinstance(raised.value, WordvecError)


def test_tagged_documents_equal_gensims(folder):
    path = str(folder / "b.txt")
    ours, theirs = list(TaggedLineDocument(path)), list(gensim_doc2vec.TaggedLineDocument(path))
    assert ours == theirs and [d.tags for d in ours] == [[0], [1], [2], [3]]
    assert str(TaggedDocument(["a"], [0])) == str(gensim_doc2vec.TaggedDocument(["a"], [0])) == "TaggedDocument<['a'], [0]>"
    assert TaggedDocument(words=["a"], tags=["x"]).tags == ["x"]


def test_bytes_that_are_not_utf8_are_one_format_error(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"good line\nbad \xff byte\n")
    with pytest.raises(FormatError, match="line 2: bytes that are not UTF-8"):
        list(LineSentence(str(path)))
    with pytest.raises(ValueError):
        list(TaggedLineDocument(str(path)))


def test_a_source_that_is_not_a_file_is_refused():
    with pytest.raises(WordvecError, match="must be a file name or an open file, not int"):
        list(LineSentence(3))
