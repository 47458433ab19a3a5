"""Memory estimates: every model's ``estimate_memory`` names the arrays it allocates with
their exact sizes; a request beyond the memory available is refused in one sentence
before allocation; ``wordvec train --dry-run`` prints the estimate and trains nothing."""

import json

import numpy as np
import pytest
import scipy.sparse

from tests.hostile.harness import assert_clean_failure, run_cli
from wordvec.models.base import estimate
from wordvec.data import synthetic
from wordvec.errors import WordvecError
from wordvec.data.lm_data import LMVocab
from wordvec.models.count.glove import GloVe
from wordvec.models.lm.rnn import RNNLM
from wordvec.models.count.svd import PPMISVD
from wordvec.models.window.model import WindowClassifier
from wordvec.models.word2vec.model import Word2Vec

SENTENCES = [["the", "king", "rules", "the", "land"], ["a", "queen", "rules", "a", "land"]] * 20


@pytest.mark.parametrize("options", [dict(sg=1), dict(sg=0, loss="hs"), dict(sg=1, hs=1, negative=3),
                                     dict(sg=1, loss="softmax")], ids=["sg-ns", "cbow-hs", "sg-ns+hs", "softmax"])
def test_word2vec_estimate_names_exactly_the_matrices_it_allocates(options):
    model = Word2Vec(vector_size=12, min_count=1, workers=2, **options)
    model.build_vocab(sentences=SENTENCES)
    plan = model.estimate_memory()
    V = len(model.vocab)
    matrices = {"input vectors W_in": model.W_in, "output vectors W_out": model.W_out,
                "inner-node vectors W_inner": model.W_inner}
    for name, array in matrices.items():
        assert plan.arrays.get(name, 0) == array.nbytes, name
    assert plan.threads == 2 and plan.per_thread > 0
    resident = estimate.FLOOR_WORD2VEC + sum(plan.arrays.values()) + 2 * plan.per_thread
    assert plan.peak == max(estimate.LOADING_WORD2VEC, resident)
    assert plan.peak >= estimate.FLOOR_WORD2VEC + sum(m.nbytes for m in matrices.values())


def test_glove_and_svd_estimates_count_the_matrix_and_parameters():
    words = ["a", "b", "c", "d", "e"]
    counts = np.array([9, 8, 7, 6, 5])
    rng = np.random.default_rng(0)
    X = scipy.sparse.csr_matrix(rng.random((5, 5)) * (rng.random((5, 5)) < 0.6) + np.eye(5), dtype=np.float32)
    glove = GloVe(vector_size=4, min_count=1, epochs=1, progress=False)
    glove.set_cooccurrence(words, counts, X)
    plan = glove.estimate_memory()
    assert plan.arrays["parameters W, W~, b, b~"] == sum(p.nbytes for p in glove.params.values())
    assert plan.arrays["AdaGrad accumulators"] == sum(g.nbytes for g in glove.gradsq.values())
    assert plan.arrays["co-occurrence matrix X"] == X.data.nbytes + X.indices.nbytes + X.indptr.astype(np.int64).nbytes
    assert plan.arrays["training entries (i, j, log X, f(X))"] == glove.entries().nbytes
    before = GloVe(vector_size=4, min_count=1, memory="64MB").estimate_memory(5)
    assert before.earlier == {"co-occurrence counting (at most --memory)": 64 << 20}
    svd = PPMISVD(vector_size=2, min_count=1, progress=False)
    svd.set_cooccurrence(words, counts, X)
    assert svd.estimate_memory().arrays["factors U, C and the vectors"] == svd.U.nbytes + svd.C.nbytes + svd.vectors().nbytes


@pytest.mark.parametrize("cell, tie", [("lstm", False), ("rnn", True), ("lstm", True)])
def test_language_model_estimate_counts_its_parameters(cell, tie):
    vocab = LMVocab.build(["hello world", "help"], "char")
    model = RNNLM(vocab, cell=cell, hidden_size=7, embedding_size=5, tie_embeddings=tie)
    plan = model.estimate_memory(batch_size=4, bptt=3)
    assert plan.arrays["parameters"] == sum(p.nbytes for p in model.params.values())
    assert plan.arrays["optimizer state"] == 2 * plan.arrays["parameters"]


@pytest.mark.parametrize("tie", [False, True])
def test_attention_language_model_estimate_counts_its_parameters(tie):
    from wordvec.models.lm.attention import AttentionLM

    vocab = LMVocab.build(["hello world", "help"], "char")
    model = AttentionLM(vocab, hidden_size=11, embedding_size=6, blocks=2, context=5, tie_embeddings=tie)
    plan = model.estimate_memory(batch_size=4)
    assert plan.arrays["parameters"] == sum(p.nbytes for p in model.params.values())
    assert plan.arrays["optimizer state"] == 2 * plan.arrays["parameters"]


def test_window_classifier_estimate_counts_its_embeddings():
    model = WindowClassifier(["O", "PER"], words=["a", "b", "c"], vector_size=6, hidden=4)
    plan = model.estimate_memory()
    assert plan.arrays["embeddings E"] == model.E.nbytes
    assert plan.arrays["weights"] == sum(p.nbytes for p in model.params.values())


def test_a_request_beyond_the_memory_available_is_refused_before_allocation(monkeypatch):
    monkeypatch.setattr(estimate, "available_memory", lambda: estimate.LOADING_WORD2VEC)
    many = [[f"w{i}" for i in range(100)]] * 2
    model = Word2Vec(vector_size=100_000, min_count=1)  # 100 words: 80 MB of matrices
    with pytest.raises(WordvecError, match=r"needs an estimated .* but only 150.0 MB is available"):
        model.build_vocab(sentences=many)
    assert model.W_in is None
    with pytest.raises(WordvecError, match="language model"):
        RNNLM(LMVocab.build(["abc"], "char"), hidden_size=20_000)
    model.memory_check = False  # --no-memory-check
    model.build_vocab(sentences=many)
    assert model.W_in.shape == (100, 100_000)


def test_available_memory_is_positive_on_linux():
    available = estimate.available_memory()
    assert available is None or available > 0


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("estimate") / "corpus.txt"
    synthetic.write_corpus(path, tokens=30_000, seed=1)
    return path


def test_dry_run_prints_the_estimate_and_trains_nothing(corpus, tmp_path):
    from wordvec.data.corpus import Corpus
    from wordvec.data.vocab import Vocabulary

    env = {"WORDVEC_CACHE": str(tmp_path / "cache")}
    out = tmp_path / "out.bin"
    result = run_cli("train", corpus, "-o", out, "--model", "sg", "--loss", "hs", "--vector-size", "300",
                     "--dry-run", "--json", "-q", env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout)
    V = len(Vocabulary.build(Corpus(corpus), min_count=5))
    expected = Word2Vec(sg=1, loss="hs", vector_size=300).estimate_memory(V)
    assert report["vocabulary"] == V and report["estimate"]["peak"] == expected.peak
    assert report["estimate"]["arrays"]["inner-node vectors W_inner"] == (V - 1) * 300 * 4
    assert not out.exists()
    text = run_cli("train", corpus, "-o", out, "--model", "glove", "--dry-run", "-q", env=env)
    assert text.returncode == 0 and "estimated peak" in text.stdout and "nothing was trained" in text.stdout
    assert not out.exists()


def test_train_refuses_vectors_that_cannot_fit(tmp_path):
    """200,000 distinct words x 100,000 dimensions x 2 matrices: 160 GB, refused after the
    vocabulary scan and before a single matrix exists."""
    corpus = tmp_path / "many-words.txt"
    corpus.write_text(" ".join(f"w{i}" for i in range(200_000)) + "\n", encoding="utf-8")
    available = estimate.available_memory()
    if available is not None and available > 170 << 30:
        pytest.skip("this machine has more than 170 GB available")
    result = run_cli("train", corpus, "-o", tmp_path / "out.bin", "--vector-size", "100000", "--min-count", "1",
                     env={"WORDVEC_CACHE": str(tmp_path / "cache")})
    assert_clean_failure(result, "needs an estimated", "available", "--no-memory-check")
    assert not (tmp_path / "out.bin").exists()
