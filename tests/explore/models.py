"""Tiny saved models of every kind, for the info / report / serve tests (seconds to build)."""

import numpy as np

from wordvec.data import synthetic


def build_all(directory, tokens=60_000):
    """Train and save one small model of each kind under ``directory``; returns {kind: path}."""
    from wordvec.data.lm_data import LMVocab
    from wordvec.models.doc2vec.model import Doc2Vec
    from wordvec.models.count.glove import GloVe
    from wordvec.models.lm.rnn import RNNLM
    from wordvec.models.count.svd import PPMISVD
    from wordvec.models.window.model import WindowClassifier
    from wordvec.models.word2vec.model import Word2Vec

    corpus = directory / "corpus.txt"
    synthetic.write_corpus(corpus, tokens=tokens, seed=0)
    paths = {}
    w2v = Word2Vec(corpus_file=str(corpus), sg=1, vector_size=24, min_count=2, epochs=3, workers=1,
                   progress=False, cache_dir=str(directory / "cache"))
    paths["word2vec"] = directory / "w2v.wv"
    w2v.save(paths["word2vec"])
    glove = GloVe(corpus_file=str(corpus), vector_size=16, min_count=2, epochs=3, workers=1, progress=False,
                  memory="64MB", cache_dir=str(directory / "cache"))
    paths["glove"] = directory / "glove.wv"
    glove.save(paths["glove"], cooccurrence=False)
    svd = PPMISVD(corpus_file=str(corpus), vector_size=16, min_count=2, memory="64MB", progress=False,
                  cache_dir=str(directory / "cache"))
    paths["ppmi-svd"] = directory / "svd.wv"
    svd.save(paths["ppmi-svd"])

    doc2vec = Doc2Vec(corpus_file=str(corpus), dm=0, vector_size=32, min_count=2, epochs=2, workers=1)
    paths["doc2vec"] = directory / "d2v"  # vector_size 32: tests/doc2vec/test_model.py's compiled kernel
    doc2vec.save(paths["doc2vec"])

    lines = corpus.read_text(encoding="utf-8").splitlines()
    sentences = [line.split()[:12] for line in lines[:200]]
    labels = [["long" if len(word) > 4 else "short" for word in sentence] for sentence in sentences]
    window = WindowClassifier(["short", "long"], words={w for s in sentences for w in s}, window=1,
                              vector_size=8, epochs=2, progress=False)
    data = window.windows(sentences, labels)
    window.fit(data, data)
    paths["window"] = directory / "window"
    window.save(paths["window"])

    names = ["ana", "bob", "carla", "dmitri", "eve", "fatima", "gus", "hana", "ivan", "june"] * 6
    vocab = LMVocab.build(names, "char")
    lm = RNNLM(vocab, cell="lstm", hidden_size=12, embedding_size=8, seed=1)
    stream = vocab.encode(names)
    lm.fit(stream, stream[:200], epochs=2, bptt=8, batch_size=4, progress=False)
    paths["rnnlm"] = directory / "lm"
    lm.save(paths["rnnlm"])

    paths["text"] = directory / "vectors.txt"
    w2v.wv.save_word2vec_format(paths["text"])
    paths["glove-text"] = directory / "vectors.glove"
    from wordvec.vectors.files import save_vectors

    save_vectors(w2v.wv, paths["glove-text"])
    return paths


def random_vectors(words, dims=16, seed=0):
    from wordvec.vectors.keyed import KeyedVectors

    rng = np.random.default_rng(seed)
    return KeyedVectors(list(words), rng.standard_normal((len(words), dims)).astype(np.float32),
                        counts=np.arange(len(words), 0, -1) * 10)
