"""``StaticModel``: a static sentence encoder, Model2Vec's kind of model.

A subword tokenizer (the teacher's, through ``tokenizers``), one vector per token and one
weight per token; a sentence's vector is the weighted mean of its tokens' rows
(``math.static`` equation P: the weighted rows summed, divided by the token count),
optionally made unit, truncatable to its first k dimensions (Matryoshka).  Pooling is
compiled and spread over every thread (``kernels.static.pool``).

    model = StaticModel.distill("all-MiniLM-L6-v2/", dims=256)
    model.fit("corpus.txt", teacher="all-MiniLM-L6-v2/")   # toward the teacher
    model.fit_pairs("pairs.tsv")                             # anchor<TAB>positive lines
    vectors = model.encode(["a sentence", "another one"])
    model.save("model/"); StaticModel.load("model/")         # model2vec reads it too
"""

from pathlib import Path

import numpy as np

from wordvec.errors import WordvecError
from wordvec.kernels.static import Rows, Sentences, pool
from wordvec.models.base.config import config_from
from wordvec.models.static import files
from wordvec.models.static.config import DistillConfig, PairsConfig, TeacherTrainConfig
from wordvec.models.static.distill import distill
from wordvec.models.static.pairs import fit_pairs
from wordvec.models.static.teacher import Teacher
from wordvec.models.static.tokens import TokenEncoder
from wordvec.models.static.training import fit_teacher

DEFAULT_MAX_LENGTH = 512


class StaticModel:
    """Token vectors and weights with a tokenizer; see the module docstring."""

    def __init__(self, vectors, tokenizer, weights=None, normalize=True, max_length=DEFAULT_MAX_LENGTH,
                 config=None, projection=None):
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[1] == 0:
            raise WordvecError(f"the token vectors must be a rows x dimensions matrix, not {vectors.shape}")
        self.encoder = TokenEncoder(tokenizer)
        if len(vectors) != len(self.encoder.tokens):
            raise WordvecError(f"{len(vectors)} token vectors for {len(self.encoder.tokens)} tokens")
        self.vectors = vectors
        self.weights = (np.ones(len(vectors), dtype=np.float32) if weights is None
                        else np.ascontiguousarray(weights, dtype=np.float32))
        self.tokenizer = self.encoder.tokenizer
        self.normalize = bool(normalize)
        self.max_length = max_length
        self.config = dict(config or {})
        self.projection = projection
        self.history = []

    # ------------------------------------------------------------------------- basics

    @property
    def dim(self):
        return self.vectors.shape[1]

    @property
    def tokens(self):
        return self.encoder.tokens

    def __len__(self):
        return len(self.vectors)

    def __repr__(self):
        return f"StaticModel({len(self)} tokens, {self.dim} dimensions, normalize={self.normalize})"

    def tokenize(self, sentences, max_length=None):
        """Flat token ids and offsets (``kernels.static.Sentences``) of a list of sentences."""
        return self.encoder.encode(_sentence_list(sentences), max_length or self.max_length)

    def encode(self, sentences, batch_size=1024, normalize=None, dims=None, max_length=None):
        """The sentence vectors of ``sentences`` (a list of str; one str gives one vector):
        n x dims float32, unit rows if ``normalize`` (default: the model's setting)."""
        single = isinstance(sentences, str)
        sentences = _sentence_list([sentences] if single else sentences)
        dims = self.dim if dims is None else dims
        if not (isinstance(dims, int) and 1 <= dims <= self.dim):
            raise WordvecError(f"dims must be a whole number from 1 to {self.dim}, not {dims!r}")
        if not (isinstance(batch_size, int) and batch_size >= 1):
            raise WordvecError(f"batch_size must be a positive whole number, not {batch_size!r}")
        normalize = self.normalize if normalize is None else bool(normalize)
        out = np.zeros((len(sentences), dims), dtype=np.float32)
        batches = [self.encoder.encode(sentences[first:first + batch_size], max_length or self.max_length)
                   for first in range(0, len(sentences), batch_size)]
        pool(joined(batches), Rows(self.vectors, self.weights), dims, normalize, out)  # one call: one thread start
        return out[0] if single else out

    # ------------------------------------------------------------------------- making and training

    @classmethod
    def distill(cls, teacher, config=None, **settings):
        """Model2Vec's distillation of the sentence-transformers model directory ``teacher``
        (``DistillConfig``: dims=256, sif_coefficient=1e-4, ...)."""
        config = config_from(DistillConfig, config, settings)
        vectors, weights, tokenizer, projection = distill(Teacher(teacher), config)
        info = {"model_type": "model2vec", "architectures": ["StaticModel"],
                "tokenizer_name": Path(teacher).name, "apply_pca": vectors.shape[1],
                "sif_coefficient": config.sif_coefficient, "seq_length": 1000000, "pooling": "mean"}
        return cls(vectors, tokenizer, weights=weights, normalize=True, config=info, projection=projection)

    def fit(self, corpus, teacher=None, config=None, targets=None, cache=None, **settings):
        """Train toward the teacher's sentence vectors on ``corpus`` (a text file, one sentence
        a line, or a list of str): ``teacher`` is its directory, or ``targets`` its vectors
        (n x D) given directly; ``cache`` a directory keeping them (resumable).  Returns self."""
        fit_teacher(self, corpus, teacher, config_from(TeacherTrainConfig, config, settings), targets, cache)
        return self

    def fit_pairs(self, pairs, config=None, **settings):
        """Contrastive training on ``pairs`` (a file of anchor<TAB>positive lines, or a list
        of (anchor, positive)).  Returns self."""
        fit_pairs(self, pairs, config_from(PairsConfig, config, settings))
        return self

    # ------------------------------------------------------------------------- files

    def save(self, path):
        """Write the Model2Vec directory ``path`` (``models.static.files``); the training
        history goes into config.json as ``history``, which Model2Vec ignores."""
        config = dict(self.config, normalize=self.normalize, max_length=self.max_length)
        if self.history:
            config["history"] = self.history
        files.write(path, self.vectors, self.weights, self.tokenizer, config, self.projection)

    @classmethod
    def load(cls, path):
        """A model from a Model2Vec or sentence-transformers static model directory."""
        saved = files.read(path)
        config = dict(saved.config)
        history = config.pop("history", [])
        model = cls(saved.vectors, saved.tokenizer, weights=saved.weights,
                    normalize=config.get("normalize", False), max_length=config.get("max_length", DEFAULT_MAX_LENGTH),
                    config=config, projection=saved.projection)
        model.history = list(history)
        return model


def joined(batches):
    """One ``Sentences`` of the batches' sentences, in order."""
    if len(batches) == 1:
        return batches[0]
    ids = np.concatenate([batch.ids for batch in batches]) if batches else np.zeros(0, dtype=np.int32)
    sizes = np.concatenate([np.diff(batch.offsets) for batch in batches]) if batches else np.zeros(0, dtype=np.int64)
    offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    return Sentences(ids, offsets)


def _sentence_list(sentences):
    if isinstance(sentences, str):
        raise WordvecError("sentences must be a list of str, not one str")
    sentences = list(sentences)
    for sentence in sentences:
        if not isinstance(sentence, str):
            raise WordvecError(f"sentences must be str, not {type(sentence).__name__}")
    return sentences
