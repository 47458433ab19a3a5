"""Native model directories with arrays of the wrong rows, shape, dtype or values.

The compiled kernels index these arrays without bounds checks, so a Word2Vec directory
whose output matrix has too few rows used to crash ``.train()`` with a segfault.  Every
loader now goes through ``wordvec.io.arrays`` and refuses such a directory in one sentence;
an intact one loads and trains on.
"""

import json

import numpy as np
import pytest

from wordvec.errors import WordvecError

from . import world
from .harness import digest

SMALL = dict(vector_size=8, min_count=1, epochs=1, seed=1, progress=False)


@pytest.fixture(scope="module")
def saved(tmp_path_factory, base):
    """One tiny saved model of each kind: {kind: (class, directory)}."""
    from wordvec.models.count.glove import GloVe
    from wordvec.models.count.svd import PPMISVD
    from wordvec.models.window.model import WindowClassifier
    from wordvec.models.word2vec.model import Word2Vec

    root = tmp_path_factory.mktemp("models")
    corpus = str(base / "corpus.txt")
    models = {
        "sg-ns": (Word2Vec, Word2Vec(corpus_file=corpus, sg=1, workers=1, **SMALL)),
        "cbow-hs": (Word2Vec, Word2Vec(corpus_file=corpus, sg=0, hs=1, negative=0, workers=1, **SMALL)),
        "glove": (GloVe, GloVe(corpus_file=corpus, window=3, workers=1, **SMALL)),
        "svd": (PPMISVD, PPMISVD(corpus_file=corpus, vector_size=4, window=3, min_count=1, progress=False)),
        "window": (WindowClassifier, WindowClassifier(["O", "X"], words=world.WORDS, vector_size=4, window=1)),
    }
    out = {}
    for kind, (cls, model) in models.items():
        model.save(root / kind)
        out[kind] = (cls, root / kind)
    return out


DAMAGE = [
    ("sg-ns", "output_vectors.npy", lambda a: a[:3]),  # too few rows: the kernel would read past it
    ("sg-ns", "output_vectors.npy", lambda a: a[:, :4]),
    ("sg-ns", "output_vectors.npy", lambda a: a.astype(np.int8)),
    ("sg-ns", "output_vectors.npy", lambda a: a * np.float32("nan")),
    ("cbow-hs", "inner_vectors.npy", lambda a: a[:2]),
    ("cbow-hs", "vectors.npy", lambda a: np.vstack([a, a])),
    ("glove", "glove_W.npy", lambda a: a[:-1]),
    ("glove", "glove_gradsq_b.npy", lambda a: a.astype(str)),
    ("glove", "cooccurrence_indices.npy", lambda a: a + 10_000),  # ids beyond the vocabulary
    ("glove", "cooccurrence_indptr.npy", lambda a: a[::-1].copy()),  # offsets that decrease
    ("glove", "cooccurrence_data.npy", lambda a: a[:-5]),
    ("svd", "svd_U.npy", lambda a: a.T.copy()),
    ("svd", "svd_singular_values.npy", lambda a: a * np.inf),
    ("window", "E.npy", lambda a: a[:, :2]),
    ("window", "trainable_rows.npy", lambda a: a.astype(np.float32)),
]


@pytest.mark.parametrize("kind,file,change", DAMAGE, ids=[f"{k}-{f}-{i}" for i, (k, f, _) in enumerate(DAMAGE)])
def test_a_damaged_model_directory_is_refused(saved, tmp_path, kind, file, change):
    import shutil

    cls, directory = saved[kind]
    copy = tmp_path / kind
    shutil.copytree(directory, copy)
    array = np.load(copy / file)
    world.save_array(copy / file, change(array))
    with pytest.raises(WordvecError) as raised:
        cls.load(copy)
    assert file in str(raised.value) or copy.name in str(raised.value)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("kind", ["sg-ns", "cbow-hs", "glove", "svd", "window"])
def test_intact_model_directories_load(saved, kind, tmp_path):
    """An intact directory loads into a model that saves back the very same arrays."""
    cls, directory = saved[kind]
    model = cls.load(directory)
    assert isinstance(model, cls)
    model.save(tmp_path / kind)
    arrays = sorted(p.name for p in directory.glob("*.npy"))
    assert arrays, f"no arrays in {directory}"
    assert sorted(p.name for p in (tmp_path / kind).glob("*.npy")) == arrays
    for name in arrays:
        assert digest(tmp_path / kind / name) == digest(directory / name), name


def test_a_loaded_word2vec_model_trains_on(saved, base):
    from wordvec.models.word2vec.model import Word2Vec

    model = Word2Vec.load(saved["sg-ns"][1])
    before = model.W_in.copy()
    model.train(corpus_file=str(base / "corpus.txt"), epochs=1)
    assert len(model.wv) == len(world.WORDS)
    assert np.isfinite(model.W_in).all()
    assert not np.array_equal(model.W_in, before), "training the loaded model changed nothing"


def test_a_crash_between_the_two_renames_falls_back_to_the_newest_complete_save(saved, tmp_path):
    """The state a kill -9 between "old aside" and "new in" leaves: no NAME, the old save at
    .NAME.old-*; every loader falls back to it (with a warning) and the next save cleans up."""
    import shutil

    from wordvec.models.word2vec.model import Word2Vec

    _, directory = saved["sg-ns"]
    shutil.copytree(directory, tmp_path / ".model.wv.old-123-abc")
    incomplete = tmp_path / ".model.wv.old-999-xyz"  # an older, incomplete leftover
    incomplete.mkdir()
    (incomplete / "vectors.npy").write_bytes(b"partial")
    model = Word2Vec.load(tmp_path / "model.wv")
    assert len(model.wv) == len(world.WORDS)
    model.save(tmp_path / "model.wv")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.wv"]
    assert json.loads((tmp_path / "model.wv" / "model.json").read_text())["format"] == "wordvec-word2vec"


def test_a_window_config_asking_for_a_huge_model_is_refused_before_allocating(saved, tmp_path):
    import shutil

    cls, directory = saved["window"]
    copy = tmp_path / "window"
    shutil.copytree(directory, copy)
    world.edit_json(copy / "config.json", lambda c: c.update(vector_size=10**9))
    with pytest.raises(WordvecError, match="bytes"):
        cls.load(copy)
