"""StaticModel: pooling equals the reference, truncation and normalisation, and files that
model2vec and sentence-transformers read with the same encodings."""

import numpy as np
import pytest

from wordvec.errors import WordvecError
from wordvec.math import static as ref
from wordvec.models.static.model import StaticModel

from .teacher import SENTENCES

# sentence-transformers' StaticEmbedding keeps the unknown token (Model2Vec drops it): compared
# on sentences without one
KNOWN = ["the movie was very good", "the best song of the year", "great great music, really fun!", "a dull plot"]


def reference_encode(model, sentences, dims=None, normalize=True):
    batch = model.tokenize(sentences)
    pooled = ref.pool(batch.ids, batch.offsets, model.weights.astype(np.float64),
                      model.vectors.astype(np.float64))[:, :dims or model.dim]
    if normalize:
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        pooled = np.divide(pooled, norms, out=np.zeros_like(pooled), where=norms > 0)
    return pooled


def test_encode_is_the_weighted_mean_of_the_token_rows(distilled):
    got = distilled.encode(SENTENCES, batch_size=3)
    assert got.dtype == np.float32 and got.shape == (len(SENTENCES), 16)
    np.testing.assert_allclose(got, reference_encode(distilled, SENTENCES), atol=1e-6)
    np.testing.assert_allclose(distilled.encode(SENTENCES, normalize=False),
                               reference_encode(distilled, SENTENCES, normalize=False), atol=1e-6)
    empty = SENTENCES.index("")
    assert not got[empty].any()
    assert np.allclose(np.linalg.norm(np.delete(got, empty, axis=0), axis=1), 1.0, atol=1e-5)


def test_matryoshka_truncation_pools_the_first_dimensions(distilled):
    got = distilled.encode(SENTENCES, dims=5)
    assert got.shape == (len(SENTENCES), 5)
    np.testing.assert_allclose(got, reference_encode(distilled, SENTENCES, dims=5), atol=1e-6)
    assert distilled.encode("the movie", dims=3).shape == (3,)
    with pytest.raises(WordvecError):
        distilled.encode(SENTENCES, dims=17)
    with pytest.raises(WordvecError):
        distilled.encode(["ok", 3])


def test_unknown_tokens_are_dropped_and_long_texts_truncated(distilled):
    batch = distilled.tokenize(["the 日本 movie"])
    assert distilled.tokens.index("[UNK]") not in batch.ids.tolist()
    text = "the movie " * 400
    cut = text[:7 * distilled.encoder.median_token_length]  # Model2Vec cuts the text first
    assert len(distilled.tokenize([text], max_length=7).ids) == min(7, len(distilled.tokenize([cut]).ids))
    assert len(distilled.tokenize(["." * 400], max_length=7).ids) == 7  # 14 characters, 14 tokens


def test_model2vec_and_sentence_transformers_read_a_save_with_the_same_encodings(distilled, tmp_path):
    import model2vec
    from sentence_transformers import SentenceTransformer

    distilled.save(tmp_path / "model")
    ours = distilled.encode(SENTENCES)
    theirs = model2vec.StaticModel.from_pretrained(tmp_path / "model").encode(SENTENCES)
    np.testing.assert_allclose(theirs, ours, atol=1e-5)
    st = SentenceTransformer(str(tmp_path / "model"), device="cpu").encode(KNOWN)
    np.testing.assert_allclose(st, distilled.encode(KNOWN), atol=1e-5)
    again = StaticModel.load(tmp_path / "model")
    np.testing.assert_allclose(again.encode(SENTENCES), ours, atol=1e-6)
    assert again.projection is not None and again.normalize


def test_model2vec_saves_and_weighted_models_load(distilled, tmp_path):
    import model2vec

    weights = np.linspace(0.5, 2.0, len(distilled)).astype(np.float32)
    theirs = model2vec.StaticModel(distilled.vectors, distilled.tokenizer, weights=weights, normalize=False)
    theirs.save_pretrained(tmp_path / "m2v")
    ours = StaticModel.load(tmp_path / "m2v")
    assert not ours.normalize
    np.testing.assert_allclose(ours.encode(SENTENCES), theirs.encode(SENTENCES), atol=1e-5)


def test_sentence_transformers_static_embedding_saves_load(distilled, tmp_path):
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.models import StaticEmbedding

    import torch

    embedding = StaticEmbedding(distilled.tokenizer, embedding_weights=torch.tensor(distilled.vectors))
    st = SentenceTransformer(modules=[embedding], device="cpu")
    st.save(str(tmp_path / "st"))
    ours = StaticModel.load(tmp_path / "st")
    np.testing.assert_allclose(ours.encode(KNOWN, normalize=False), st.encode(KNOWN), atol=1e-5)
