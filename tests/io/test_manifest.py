"""One loader of model.json (wordvec.io.manifest) for word2vec, GloVe and PPMI-SVD saves:
a description that is not one fails in one sentence naming model.json."""

import json

import pytest

from wordvec.data import synthetic
from wordvec.errors import FormatError, WordvecError
from wordvec.io.manifest import MANIFEST
from wordvec.models.count.glove import GloVe
from wordvec.models.count.svd import PPMISVD
from wordvec.models.word2vec.model import Word2Vec


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    root = tmp_path_factory.mktemp("manifest")
    corpus = root / "corpus.txt"
    synthetic.write_corpus(corpus, tokens=20_000, seed=2)
    options = dict(corpus_file=str(corpus), vector_size=8, min_count=2, progress=False)
    models = {Word2Vec: Word2Vec(epochs=1, workers=1, **options), GloVe: GloVe(epochs=1, workers=1, **options),
              PPMISVD: PPMISVD(**options)}
    for model_class, model in models.items():
        model.save(root / model_class.__name__)
    return root, models


@pytest.mark.parametrize("model_class", [Word2Vec, GloVe, PPMISVD])
def test_every_model_writes_the_same_manifest_layout(saved, model_class):
    root, models = saved
    meta = json.loads((root / model_class.__name__ / MANIFEST).read_text())
    assert list(meta)[:3] == ["format", "version", "hyperparameters"] and list(meta)[-1] == "history"
    assert meta["hyperparameters"] == models[model_class].hyperparameters()
    loaded = model_class.load(root / model_class.__name__)
    assert loaded.config == models[model_class].config


@pytest.mark.parametrize("model_class", [Word2Vec, GloVe, PPMISVD])
@pytest.mark.parametrize("damage", ["not json", "wrong format", "no hyperparameters", "unknown hyperparameter",
                                    "missing"])
def test_a_broken_manifest_is_one_sentence_naming_it(saved, tmp_path, model_class, damage):
    root, _ = saved
    directory = tmp_path / "copy"
    directory.mkdir()
    for file in (root / model_class.__name__).iterdir():
        (directory / file.name).write_bytes(file.read_bytes())
    meta = json.loads((directory / MANIFEST).read_text())
    if damage == "not json":
        (directory / MANIFEST).write_text("{not json")
    elif damage == "wrong format":
        (directory / MANIFEST).write_text(json.dumps({**meta, "format": "wordvec-other"}))
    elif damage == "no hyperparameters":
        (directory / MANIFEST).write_text(json.dumps({k: v for k, v in meta.items() if k != "hyperparameters"}))
    elif damage == "unknown hyperparameter":
        (directory / MANIFEST).write_text(json.dumps({**meta, "hyperparameters": {"size": 3}}))
    else:
        (directory / MANIFEST).unlink()
    with pytest.raises(WordvecError) as caught:
        model_class.load(directory)
    message = str(caught.value)
    assert len(message.splitlines()) == 1 and MANIFEST in message
    if damage != "missing":
        assert isinstance(caught.value, FormatError)
