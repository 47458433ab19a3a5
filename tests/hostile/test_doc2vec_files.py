"""Hostile inputs for the Doc2Vec and sentence-embedding readers: damaged model
directories, counts files and document files are read into something consistent or
refused with a ``WordvecError`` (one sentence, exit 2 from the CLI), never a crash."""

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordvec.data.documents import build_vocabulary, encode_documents, read_documents
from wordvec.errors import WordvecError
from wordvec.models.doc2vec.model import Doc2Vec
from wordvec.vectors.embed import read_counts

from .harness import assert_clean_failure, run_main
from .test_corrupt_files import EDITS, damage

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
DOCUMENTS = "the cat sat on the mat\n\nthe dog sat on a log\ncats and dogs\n"


@pytest.fixture(scope="module", params=[dict(hs=1), dict(dm_concat=1, window=2)], ids=["pv-dm", "pv-dm-concat"])
def saved_model(request):
    """PV-DM, and PV-DM with concatenation (output rows 5 D wide, the null word in the
    vocabulary: a damaged window, tag count or vocabulary must not reach the kernels)."""
    directory = Path(tempfile.mkdtemp(prefix="wordvec-d2v-hostile-"))
    (directory / "docs.txt").write_text(DOCUMENTS)
    Doc2Vec(corpus_file=str(directory / "docs.txt"), dm=1, vector_size=32, min_count=1, epochs=1,
            workers=1, **request.param).save(directory / "m.d2v")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@SETTINGS
@given(name=st.sampled_from(["model.json", "vocab.json", "doc_vectors.npy", "output_vectors.npy",
                             "inner_vectors.npy", "vectors.npy"]), edits=EDITS)
def test_a_damaged_model_loads_consistently_or_is_refused(saved_model, name, edits):
    work = Path(tempfile.mkdtemp(prefix="wordvec-d2v-damaged-"))
    try:
        shutil.copytree(saved_model / "m.d2v", work / "m.d2v")
        target = work / "m.d2v" / name
        target.write_bytes(damage(target.read_bytes(), edits))
        try:
            model = Doc2Vec.load(work / "m.d2v")
        except WordvecError:
            return
        V, D = len(model.vocab), model.config.vector_size
        assert model.W_in.shape == (V, D) and model.P.shape == (len(model.tags), D)
        vector = model.infer_vector(["the", "cat"], epochs=2)  # the kernels run on what was read
        assert vector.shape == (D,)
    finally:
        shutil.rmtree(work, ignore_errors=True)


@SETTINGS
@given(edits=EDITS)
def test_a_damaged_counts_file_reads_or_names_its_problem(edits):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "counts.txt"
        path.write_bytes(damage(b"the 120\ncat 7\nsat 3\n", edits))
        try:
            counts = read_counts(path)
        except WordvecError as error:
            assert "counts.txt" in str(error)
            return
        assert counts and all(isinstance(c, int) and c >= 0 for c in counts.values())


@SETTINGS
@given(data=st.binary(max_size=300))
def test_any_bytes_are_documents_one_per_line(data):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "docs.txt"
        path.write_bytes(b"the cat sat\n" + data)
        vocab = build_vocabulary(path, min_count=1)
        encoded = encode_documents(path, vocab)
        text = path.read_bytes()
        assert encoded.offsets.size - 1 == text.count(b"\n") + (not text.endswith(b"\n"))  # \r is no line end
        assert encoded.ids.min() >= 0 and encoded.ids.max() < len(vocab)
        assert np.all(np.diff(encoded.offsets) >= 0) and encoded.offsets[-1] == encoded.ids.size
        _assert_one_reading_equals_two(path, "line", vocab, encoded)


def _assert_one_reading_equals_two(path, tags, vocab, encoded):
    """read_documents (one pass) gives what build_vocabulary + encode_documents give."""
    vocab_once, encoded_once = read_documents(path, tags, min_count=vocab.min_count)
    assert vocab_once.words == vocab.words and list(vocab_once.counts) == list(vocab.counts)
    assert vocab_once.corpus_tokens == vocab.corpus_tokens
    for name in ("ids", "offsets", "rows"):
        np.testing.assert_array_equal(getattr(encoded_once, name), getattr(encoded, name))
    assert encoded_once.tags == encoded.tags


def test_one_reading_equals_two_with_first_token_tags(tmp_path):
    """Tags shared by several lines, a long token cut to a known word, bytes that are not
    UTF-8, words under min_count: the same vocabulary (ties in first-seen order) and ids."""
    long_word = "x" * 100
    lines = [b"a the cat sat", b"b a dog \xff sat " + long_word.encode() + b"yz", b"a the end " + long_word.encode(),
             b"c", b"b \xff the"]
    path = tmp_path / "docs.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    vocab = build_vocabulary(path, "first-token", min_count=2)
    assert long_word in vocab.words and "\ufffd" in vocab.words and "cat" not in vocab.words
    _assert_one_reading_equals_two(path, "first-token", vocab, encode_documents(path, vocab, "first-token"))


def test_cli_refuses_a_model_with_a_broken_description(saved_model, tmp_path):
    shutil.copytree(saved_model / "m.d2v", tmp_path / "m.d2v")
    manifest = tmp_path / "m.d2v" / "model.json"
    meta = json.loads(manifest.read_text())
    meta["config"]["vector_size"] = 64
    manifest.write_text(json.dumps(meta))
    result = run_main("doc2vec", "infer", tmp_path / "m.d2v", saved_model / "docs.txt", "-o", tmp_path / "v.npy")
    assert_clean_failure(result, "m.d2v")
    assert not (tmp_path / "v.npy").exists()


def test_cli_embed_refuses_a_binary_counts_file(saved_model, tmp_path):
    (tmp_path / "counts.txt").write_bytes(b"\x00\xff\xfe 12\n")
    result = run_main("embed", saved_model / "m.d2v", saved_model / "docs.txt", "-o", tmp_path / "e.npy",
                      "--pooling", "sif", "--counts", tmp_path / "counts.txt")
    assert_clean_failure(result, "counts.txt")
    assert not (tmp_path / "e.npy").exists()


@pytest.mark.parametrize("edit, phrase", [
    (lambda meta, vocab: meta["config"].update(dm_tag_count=2), "output_vectors.npy"),  # rows 5 D wide, not 6 D
    (lambda meta, vocab: meta["config"].update(window=3), "output_vectors.npy"),
    (lambda meta, vocab: vocab["words"].__setitem__(vocab["words"].index("\0"), "nul"), "null word"),
])
def test_a_concatenation_model_whose_layer_or_null_word_does_not_fit_is_refused(tmp_path, edit, phrase):
    """PV-DM with concatenation reads its output rows as (T + 2 window) D wide and pads
    with the null word: a description that changes either is refused, never run."""
    (tmp_path / "docs.txt").write_text(DOCUMENTS)
    Doc2Vec(corpus_file=str(tmp_path / "docs.txt"), dm=1, dm_concat=1, window=2, vector_size=32, min_count=1,
            epochs=1, workers=1).save(tmp_path / "m.d2v")
    manifest, vocabulary = tmp_path / "m.d2v" / "model.json", tmp_path / "m.d2v" / "vocab.json"
    meta, vocab = json.loads(manifest.read_text()), json.loads(vocabulary.read_text())
    edit(meta, vocab)
    manifest.write_text(json.dumps(meta))
    vocabulary.write_text(json.dumps(vocab))
    with pytest.raises(WordvecError, match=phrase):
        Doc2Vec.load(tmp_path / "m.d2v")
