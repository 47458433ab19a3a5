"""Hypothesis-generated corruptions of every file wordvec reads.

A valid file is damaged by a few random edits (truncation, flipped bytes, inserted or
overwritten bytes); the reader must then either return something consistent (the right
shapes, finite numbers, a model that samples) or raise a ``WordvecError`` — never
another exception, never a crash.  In-process: every check these readers make happens in
NumPy before a compiled kernel sees the data, which is the point.
"""

import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordvec.errors import WordvecError

from . import world

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)

EDIT = st.one_of(
    st.tuples(st.just("truncate"), st.floats(0, 1)),
    st.tuples(st.just("flip"), st.floats(0, 1), st.integers(1, 8)),
    st.tuples(st.just("insert"), st.floats(0, 1), st.binary(min_size=1, max_size=16)),
    st.tuples(st.just("overwrite"), st.floats(0, 1), st.binary(min_size=1, max_size=16)),
)
EDITS = st.lists(EDIT, min_size=1, max_size=3)


def damage(data, edits):
    data = bytearray(data)
    for edit in edits:
        at = min(int(edit[1] * len(data)), max(len(data) - 1, 0))
        if edit[0] == "truncate":
            del data[at:]
        elif edit[0] == "flip":
            for i in range(at, min(at + edit[2], len(data))):
                data[i] ^= 0xFF
        elif edit[0] == "insert":
            data[at:at] = edit[2]
        else:
            data[at:at + len(edit[2])] = edit[2]
    return bytes(data)


@pytest.fixture(scope="module")
def valid(base):
    return base


def _damaged_copy(base, name, file, edits):
    """A copy of base input ``name`` (file or directory) with ``file`` inside it damaged."""
    root = Path(tempfile.mkdtemp(prefix="wordvec-fuzz-"))
    world.copy_into(base, [name], root)
    target = root / file
    target.write_bytes(damage(target.read_bytes(), edits))
    return root


def _vectors_are_consistent(kv):
    assert kv.vectors.shape == (len(kv.index_to_key), kv.vector_size)
    assert np.isfinite(kv.vectors).all()


@pytest.mark.parametrize("name,file", [("vec.txt", "vec.txt"), ("vec.bin", "vec.bin"), ("vec.glove", "vec.glove"),
                                       ("vec.wv", "vec.wv/vectors.npy"), ("vec.wv", "vec.wv/vocab.json")])
def test_damaged_vector_files(base, name, file):
    from wordvec.vectors.files import load_vectors

    @SETTINGS
    @given(EDITS)
    def check(edits):
        root = _damaged_copy(base, name, file, edits)
        try:
            _vectors_are_consistent(load_vectors(root / name))
        except WordvecError:
            pass
        finally:
            shutil.rmtree(root)

    check()


@pytest.mark.parametrize("name", ["vec.txt", "vec.bin"])
@pytest.mark.parametrize("unicode_errors", ["strict", "replace", "ignore"])
def test_damaged_word2vec_files_under_each_unicode_errors(base, name, unicode_errors):
    from wordvec.vectors.keyed import KeyedVectors

    @SETTINGS
    @given(EDITS)
    def check(edits):
        root = _damaged_copy(base, name, name, edits)
        try:
            _vectors_are_consistent(KeyedVectors.load_word2vec_format(
                root / name, binary=name.endswith(".bin"), unicode_errors=unicode_errors))
        except WordvecError:
            pass
        finally:
            shutil.rmtree(root)

    check()


@pytest.mark.parametrize("file", ["lm/params/W.npy", "lm/model.json", "lm/steps.npy"])
def test_damaged_lm_checkpoints(base, file):
    from wordvec.models.lm.rnn import RNNLM

    @SETTINGS
    @given(EDITS)
    def check(edits):
        root = _damaged_copy(base, "lm", file, edits)
        try:
            model = RNNLM.load(root / "lm")
            assert len(model.sample(2, 5, 1.0, seed=1)) == 2
        except WordvecError:
            pass
        finally:
            shutil.rmtree(root)

    check()


def _read_task(name, root):
    from wordvec.tasks.data import read_brown, read_conll_splits, read_sst

    return {"conll": read_conll_splits, "brown": read_brown, "sst": read_sst}[name](root / name)


@pytest.mark.parametrize("name,file", [("conll", "conll/train.txt.xz"), ("brown", "brown/brown_tagged_original.tar.xz"),
                                       ("sst", "sst/trees/train.txt.xz"), ("sst", "sst/trees/dev.txt")])
def test_damaged_task_data(base, name, file):
    assert _read_task(name, base)["train"][0]  # the intact data reads

    @SETTINGS
    @given(EDITS)
    def check(edits):
        root = _damaged_copy(base, name, file, edits)
        try:
            for sentences, labels in _read_task(name, root).values():
                assert len(sentences) == len(labels)
        except WordvecError:
            pass
        finally:
            shutil.rmtree(root)

    check()


@pytest.mark.parametrize("suffix", [".ids", ".offsets.npy", ".json"])
def test_damaged_cache_entries_are_never_used(base, suffix):
    """Whatever happens to a cache entry, training sees exactly the corpus's encoding."""
    from wordvec.data.corpus import Corpus
    from wordvec.data.encode import encode_corpus
    from wordvec.data.vocab import Vocabulary

    corpus = Corpus(str(base / "corpus.txt"))
    vocab = Vocabulary.build(corpus, min_count=1)
    clean = encode_corpus(corpus, vocab, use_cache=False)

    @SETTINGS
    @given(EDITS)
    def check(edits):
        cache = Path(tempfile.mkdtemp(prefix="wordvec-fuzz-cache-"))
        try:
            encode_corpus(corpus, vocab, cache_dir=cache)
            entry = next((cache / "encoded").glob("*" + suffix))
            entry.write_bytes(damage(entry.read_bytes(), edits))
            encoded = encode_corpus(corpus, vocab, cache_dir=cache)
            assert np.array_equal(encoded.ids, clean.ids) and np.array_equal(encoded.offsets, clean.offsets)
        finally:
            shutil.rmtree(cache)

    check()


def test_an_unwritable_cache_means_an_in_memory_encoding(base, tmp_path, caplog):
    from wordvec.data.corpus import Corpus
    from wordvec.data.encode import encode_corpus
    from wordvec.data.vocab import Vocabulary

    corpus = Corpus(str(base / "corpus.txt"))
    vocab = Vocabulary.build(corpus, min_count=1)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    encoded = encode_corpus(corpus, vocab, cache_dir=blocker / "cache")
    assert np.array_equal(encoded.ids, encode_corpus(corpus, vocab, use_cache=False).ids)
    assert "in memory" in caplog.text
    assert blocker.read_text() == "not a directory"


def test_damaged_cooccurrence_files(base, tmp_path_factory):
    import scipy.sparse

    from wordvec.data.cooccur import load_cooccurrence, save_cooccurrence

    source = tmp_path_factory.mktemp("cooc") / "X.npz"
    matrix = scipy.sparse.random(30, 30, density=0.2, format="csr", random_state=0, dtype=np.float32)
    save_cooccurrence(source, matrix, world.WORDS, np.arange(30), window=2, symmetric=False, weighting="uniform")

    @SETTINGS
    @given(EDITS)
    def check(edits):
        root = Path(tempfile.mkdtemp(prefix="wordvec-fuzz-"))
        try:
            (root / "X.npz").write_bytes(damage(source.read_bytes(), edits))
            X, words, counts, _ = load_cooccurrence(root / "X.npz")
            assert X.indices.size == 0 or X.indices.max() < X.shape[1]
        except WordvecError:
            pass
        finally:
            shutil.rmtree(root)

    check()
