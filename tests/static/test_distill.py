"""Distillation: wordvec's NumPy teacher equals transformers and sentence-transformers on a
tiny random BERT, and the distilled model equals model2vec's own ``distill``."""

import json

import numpy as np
import pytest

from wordvec.errors import WordvecError
from wordvec.math.static_encoder import encoder
from wordvec.models.static.distill import pca, zipf_weights
from wordvec.models.static.model import StaticModel
from wordvec.models.static.teacher import Teacher

from .teacher import SENTENCES


def test_numpy_encoder_equals_transformers(tiny_teacher):
    import torch
    from transformers import AutoModel

    teacher = Teacher(tiny_teacher)
    ids = np.array([[4, 10, 20, 30, 40, 5], [4, 11, 5, 0, 0, 0]])
    mask = (np.arange(6)[None] < np.array([[6], [3]])).astype(np.int64)
    ours = encoder(ids, mask, teacher.weights, teacher.config)
    model = AutoModel.from_pretrained(str(tiny_teacher)).eval()
    with torch.no_grad():
        theirs = model(input_ids=torch.tensor(ids), attention_mask=torch.tensor(mask),
                       token_type_ids=torch.zeros(ids.shape, dtype=torch.long)).last_hidden_state.numpy()
    np.testing.assert_allclose(ours * mask[:, :, None], theirs * mask[:, :, None], atol=1e-5)


def test_teacher_sentence_vectors_equal_sentence_transformers(tiny_teacher):
    from sentence_transformers import SentenceTransformer

    ours = Teacher(tiny_teacher).embed(SENTENCES, batch_size=4)
    theirs = SentenceTransformer(str(tiny_teacher), device="cpu").encode(SENTENCES)
    np.testing.assert_allclose(ours, theirs, atol=1e-5)


def test_distill_equals_model2vec_distill(tiny_teacher, distilled):
    from model2vec.distill import distill

    theirs = distill(str(tiny_teacher), pca_dims=16, quantize_to="float32")
    assert list(theirs.tokens) == distilled.tokens
    np.testing.assert_allclose(distilled.vectors * distilled.weights[:, None], theirs.embedding, atol=1e-5)
    np.testing.assert_allclose(distilled.encode(SENTENCES), theirs.encode(SENTENCES), atol=1e-4)


def test_distilled_vocabulary_drops_unused_and_special_tokens(distilled):
    assert "[PAD]" in distilled.tokens and "[UNK]" in distilled.tokens
    assert not {"[CLS]", "[SEP]", "[MASK]", "[unused0]"} & set(distilled.tokens)
    assert json.loads(distilled.tokenizer.to_str())["post_processor"] is None


def test_pca_and_zipf_weights():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 6)) @ rng.normal(size=(6, 6))
    scores, mean, components = pca(X, 3)
    np.testing.assert_allclose(components @ components.T, np.eye(3), atol=1e-10)
    np.testing.assert_allclose(scores, (X - mean) @ components.T, atol=1e-10)
    variances = scores.var(axis=0)
    assert np.all(np.diff(variances) <= 0)
    assert np.all(scores[np.argmax(np.abs(scores), axis=0), range(3)] > 0)
    w = zipf_weights(5, 0.1)
    p = (1 / np.arange(2, 7)) / (1 / np.arange(2, 7)).sum()
    np.testing.assert_allclose(w, 0.1 / (0.1 + p))
    assert np.all(np.diff(w) > 0)


def test_bad_teachers_are_refused(tmp_path, tiny_teacher):
    with pytest.raises(WordvecError, match="no config.json"):
        StaticModel.distill(tmp_path)
    with pytest.raises(WordvecError, match="dims"):
        StaticModel.distill(tiny_teacher, dims=0)
    other = tmp_path / "roberta"
    other.mkdir()
    for name in ("model.safetensors", "tokenizer.json"):
        (other / name).write_bytes((tiny_teacher / name).read_bytes())
    (other / "config.json").write_text(json.dumps({"model_type": "roberta"}))
    with pytest.raises(WordvecError, match="BERT"):
        StaticModel.distill(other)
