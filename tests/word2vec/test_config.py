"""One config per model: frozen dataclasses with every hyperparameter, the
checks of the constructors, the keys of the saved JSON, and the one flag -> field table."""

import dataclasses
import json

import numpy as np
import pytest

from wordvec.cli import build_parser
from wordvec.cli import main
from wordvec.cli.train.options import FROM_FLAGS, config_from_flags
from wordvec.data import synthetic
from wordvec.errors import WordvecError
from wordvec.models.count.config import GloVeConfig, PPMISVDConfig
from wordvec.models.word2vec.config import Word2VecConfig
from wordvec.models.count.glove import GloVe
from wordvec.models.count.svd import PPMISVD
from wordvec.models.word2vec.model import Word2Vec

# the keys of model.json's "hyperparameters" as saved before the configs existed
SAVED_KEYS = {
    Word2Vec: ["vector_size", "window", "min_count", "sg", "hs", "negative", "ns_exponent", "cbow_mean",
               "sample", "alpha", "min_alpha", "epochs", "workers", "seed", "max_vocab_size", "loss",
               "lowercase", "max_document_length", "shared_negatives", "shuffle", "batched", "deterministic",
               "subwords", "min_n", "max_n", "bucket", "sorted_vocab", "max_final_vocab", "shrink_windows"],
    GloVe: ["vector_size", "window", "x_max", "power", "learning_rate", "epochs", "min_count", "symmetric",
            "weighting", "seed", "workers", "output", "max_vocab_size", "memory", "grad_clip", "lowercase",
            "max_document_length"],
    PPMISVD: ["vector_size", "window", "min_count", "cds", "shift", "eig", "add_context", "weighting",
              "transform", "symmetric", "solver", "power_iterations", "seed", "max_vocab_size", "memory",
              "lowercase", "max_document_length"],
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("config") / "corpus.txt"
    synthetic.write_corpus(path, tokens=20_000, seed=4)
    return path


@pytest.mark.parametrize("model_class", [Word2Vec, GloVe, PPMISVD])
def test_hyperparameters_are_the_config_fields_with_the_saved_keys(model_class):
    model = model_class(vector_size=16)
    assert list(model.hyperparameters()) == SAVED_KEYS[model_class]
    assert model.hyperparameters() == dataclasses.asdict(model.config)
    assert model.vector_size == 16 and model.config.vector_size == 16
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.config.window = 3
    before = model.config
    model.window = 3  # code written for the mutable models: a checked copy of the config
    assert model.config.window == 3 and before.window != 3
    with pytest.raises(WordvecError, match="window"):
        model.window = 0
    assert model.config.window == 3


def test_gensim_style_keywords_resolve_as_before():
    assert Word2Vec(loss="hs").config == Word2VecConfig(hs=1, negative=0)
    subword = Word2Vec(subwords=True).config
    assert subword.ns_exponent == 0.5 and subword.shared_negatives is False
    plain = Word2Vec(sg=True, shuffle=0).config
    assert plain.ns_exponent == 0.75 and plain.shared_negatives is True and plain.sg == 1 and plain.shuffle is False
    with pytest.raises(WordvecError, match="either a config or hyperparameters"):
        Word2Vec(config=Word2VecConfig(), sg=1)
    with pytest.raises(TypeError):
        Word2Vec(size=100)  # gensim 3's name is refused, not ignored


@pytest.mark.parametrize("make, fragment", [
    (lambda: Word2VecConfig(window=0), "window"),
    (lambda: Word2VecConfig(negative=0), "no output layer"),
    (lambda: Word2VecConfig(min_alpha=-1.0), "min_alpha"),
    (lambda: Word2VecConfig(subwords=True, min_n=5, max_n=3), "min_n"),
    (lambda: GloVeConfig(x_max=0), "x_max"),
    (lambda: GloVeConfig(output="both"), "output"),
    (lambda: PPMISVDConfig(cds=2), "cds"),
    (lambda: PPMISVDConfig(solver="lapack"), "solver"),
])
def test_configs_check_their_fields(make, fragment):
    with pytest.raises(WordvecError, match=fragment):
        make()


@pytest.mark.parametrize("model, config_class", [("sg", Word2VecConfig), ("glove", GloVeConfig),
                                                 ("svd", PPMISVDConfig)])
def test_the_flag_table_covers_every_field(model, config_class):
    args = build_parser().parse_args(["train", "c.txt", "-o", "v.bin", "--model", model, "--workers", "1"])
    config = config_from_flags(args)
    assert isinstance(config, config_class)
    for field in dataclasses.fields(config_class):  # a field without a row must be a flag of its name
        assert field.name in FROM_FLAGS or hasattr(args, field.name), field.name
    expected = {"sg": Word2VecConfig(sg=1, workers=1), "glove": GloVeConfig(workers=1),
                "svd": PPMISVDConfig()}[model]
    assert config == expected  # the command line's defaults are the library's


def test_loss_hs_with_an_explicit_negative_trains_both_output_layers(corpus, tmp_path):
    """As the C tool (-hs 1 -negative 5) and gensim (hs=1, negative=5) do; without
    --negative, --loss hs trains hierarchical softmax alone."""
    both, alone = tmp_path / "both.wv", tmp_path / "alone.wv"
    common = ["--model", "sg", "--vector-size", "8", "--epochs", "1", "--workers", "1", "--no-progress",
              "--min-count", "2"]
    assert main(["train", str(corpus), "-o", str(both), "--loss", "hs", "--negative", "5", *common]) == 0
    assert main(["train", str(corpus), "-o", str(alone), "--loss", "hs", *common]) == 0
    trained = Word2Vec.load(both)
    assert (trained.hs, trained.negative) == (1, 5) and trained.describe() == "sg-ns+hs"
    assert np.abs(trained.W_out).sum() > 0 and np.abs(trained.W_inner).sum() > 0  # both layers learned
    single = Word2Vec.load(alone)
    assert (single.hs, single.negative, single.W_out.shape[0]) == (1, 0, 0)


def test_a_saved_model_loads_back_with_its_config(corpus, tmp_path):
    model = Word2Vec(corpus_file=str(corpus), sg=1, vector_size=8, epochs=1, workers=1, min_count=2,
                     progress=False)
    model.save(tmp_path / "m.wv")
    saved = json.loads((tmp_path / "m.wv" / "model.json").read_text())["hyperparameters"]
    assert list(saved) == SAVED_KEYS[Word2Vec]
    loaded = Word2Vec.load(tmp_path / "m.wv", workers=2)
    assert loaded.config == dataclasses.replace(model.config, workers=2)
