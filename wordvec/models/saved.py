"""What a path on disk holds: plain vectors, or one of wordvec's native model directories.

``describe(path)`` reads only the JSON of a save (never the arrays) and says which model
wrote it, with its hyperparameters, training history and corpus figures;
``load_keyed_vectors(path)`` gives the word vectors of any of them as ``KeyedVectors``:

    word2vec, glove, ppmi-svd   the native vectors inside the model directory
    doc2vec                     its word vectors (``load_document_vectors``: its documents)
    window                      the (possibly fine-tuned) embedding E of a window classifier
    classifier                  a native classifier save's words (fastText's word vectors)
    fasttext[-supervised]       a fastText .bin/.ftz: its word vectors (``load_vectors`` reads them)
    rnnlm                       the input embedding of a language model, one row per token
    vectors                     a word2vec/GloVe file or a native vectors directory

``wordvec info``, ``wordvec report`` and ``wordvec serve`` all go through here.
"""

import dataclasses
import struct
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.io import formats
from wordvec.io.sniff import FASTTEXT_MAGIC
from wordvec.models.classifier.model import Classifier
from wordvec.models.classifier.files import NATIVE_MARKER
from wordvec.models.doc2vec.model import Doc2Vec
from wordvec.models.lm.rnn import RNNLM
from wordvec.models.window.model import WindowClassifier
from wordvec.vectors.files import kind_from_bytes, load_vectors
from wordvec.vectors.keyed import KeyedVectors

MODEL_TAGS = {"wordvec-word2vec": "word2vec", "wordvec-glove": "glove", "wordvec-ppmi-svd": "ppmi-svd",
              "wordvec-rnnlm": "rnnlm", "wordvec-doc2vec": "doc2vec"}
KIND_NAMES = {"fasttext": "fastText model (word vectors, unseen words from n-grams)",
              "fasttext-supervised": "fastText classifier (its word vectors)",
              "classifier": "wordvec classifier (its word vectors)",
              "word2vec": "word2vec model", "glove": "GloVe model", "ppmi-svd": "PPMI-SVD model",
              "rnnlm": "language model", "doc2vec": "Doc2Vec model (document vectors)", "window": "window classifier", "model": "wordvec model",
              "vectors": "word vectors"}
FORMAT_NAMES = {"binary": "word2vec binary", "text": "word2vec text", "glove": "GloVe text",
                "native": "wordvec native"}


@dataclasses.dataclass
class Saved:
    path: str
    kind: str                      # a key of KIND_NAMES
    format: str                    # how the vectors are stored (FORMAT_NAMES value, or the model's own)
    hyperparameters: dict = dataclasses.field(default_factory=dict)
    history: list = dataclasses.field(default_factory=list)
    corpus: dict = dataclasses.field(default_factory=dict)   # e.g. {"tokens": N} where known
    meta: dict = dataclasses.field(default_factory=dict)     # the model's whole JSON description

    @property
    def is_model(self):
        return self.kind != "vectors"

    @property
    def title(self):
        return KIND_NAMES[self.kind]


def describe(path, glove=False):
    """A :class:`Saved` for ``path`` (reads JSON only; raises WordvecError if unreadable)."""
    path = Path(path)
    if not path.exists() and path.suffix.lower() != ".wv":
        raise WordvecError(f"cannot access {path}: no such file or directory")
    if path.is_dir():
        if (path / "model.json").is_file():
            meta = formats.read_json_object(path / "model.json")
            kind = MODEL_TAGS.get(meta.get("format"))
            if kind is not None:
                return _describe_model(path, kind, meta)
            if not (path / formats.NATIVE_META).is_file():
                raise FormatError(path / "model.json", None, f"unknown model format {meta.get('format')!r}")
            # a model this module does not know yet, saved beside native vectors: show what is generic
            return Saved(str(path), "model", f"wordvec native ({meta.get('format')})",
                         _dict(meta.get("hyperparameters") or meta.get("config")), _history(meta), {}, meta)
        if (path / "config.json").is_file() and not (path / formats.NATIVE_META).is_file():
            meta = formats.read_json_object(path / "config.json")
            if not {"classes", "words", "arrays"} <= set(meta):
                raise FormatError(path / "config.json", None, "not a saved wordvec window classifier, nor a "
                                  "static model (which needs model.safetensors and tokenizer.json beside it)")
            hyper = {k: v for k, v in meta.items() if k not in ("words", "history", "arrays")}
            return Saved(str(path), "window", "window classifier (config.json + .npy)", hyper,
                         _history(meta), {}, meta)
    if (path / NATIVE_MARKER).is_file():
        return _describe_classifier(path)
    if path.is_file() and not glove and kind_from_bytes(path, None) == "fasttext":
        return _describe_fasttext(path)
    kind = "glove" if glove else formats.detect_format(path)
    if kind == "text" and path.is_file() and not formats.has_word2vec_header(path):
        kind = "glove"
    return Saved(str(path), "vectors", FORMAT_NAMES[kind])


# a fastText file's header: magic, version, then its arguments in this order (fastText's Args::save)
FASTTEXT_ARGS = ("dim", "ws", "epoch", "minCount", "neg", "wordNgrams", "loss", "model", "bucket", "minn", "maxn",
                 "lrUpdateRate")
FASTTEXT_LOSSES, FASTTEXT_MODELS = {1: "hs", 2: "ns", 3: "softmax", 4: "ova"}, {1: "cbow", 2: "skipgram", 3: "supervised"}


def _describe_fasttext(path):
    """A fastText .bin/.ftz: its kind and the arguments its header holds (it stores no learning rate);
    the arguments follow the magic number and version, or open a file written before fastText 0.9."""
    with open(path, "rb") as handle:
        head = handle.read(8 + 4 * len(FASTTEXT_ARGS) + 8)
    start = 8 if head.startswith(FASTTEXT_MAGIC) else 0
    if len(head) < start + 4 * len(FASTTEXT_ARGS) + 8:
        raise FormatError(path, None, "not a valid fastText model: the file ends inside the arguments")
    values = dict(zip(FASTTEXT_ARGS, struct.unpack_from(f"<{len(FASTTEXT_ARGS)}i", head, start)))
    values["t"] = struct.unpack_from("<d", head, start + 4 * len(FASTTEXT_ARGS))[0]
    values["loss"] = FASTTEXT_LOSSES.get(values["loss"], values["loss"])
    model = values["model"] = FASTTEXT_MODELS.get(values["model"], values["model"])
    kind = "fasttext-supervised" if model == "supervised" else "fasttext"
    return Saved(str(path), kind, f"fastText {model} model file", values)


def _describe_classifier(path):
    meta = formats.read_json_object(path / NATIVE_MARKER)
    return Saved(str(path), "classifier", "wordvec native classifier", _dict(meta.get("config")), _history(meta), {},
                 meta)


def _classifier_word_vectors(path):
    """A classifier's words with fastText's word vectors (own row, plus character n-grams where it has them)."""
    model = Classifier.load(path)
    words = list(model.dictionary.words)
    if model.dictionary.maxn == 0:
        return KeyedVectors(words, np.asarray(model.W_in[:len(words)], dtype=np.float32))
    return KeyedVectors(words, np.stack([model.get_word_vector(w) for w in words]) if words else
                        np.zeros((0, model.W_in.shape[1]), dtype=np.float32))


def _describe_model(path, kind, meta):
    if kind == "rnnlm":
        vocab = _dict(meta.get("vocabulary"))
        hyper = dict(_dict(meta.get("config")), level=vocab.get("level"))
        hyper.update({k: v for k, v in _dict(meta.get("training")).items()
                      if k in ("optimizer", "lr", "bptt", "batch_size", "clip", "lr_decay")})
        return Saved(str(path), kind, "wordvec language model (model.json + params/*.npy)", hyper,
                     _history(meta), {"tokens in vocabulary": len(vocab.get("tokens") or []) if isinstance(vocab.get("tokens"), list) else 0}, meta)
    corpus = {}
    if isinstance(meta.get("corpus_tokens"), int):
        corpus["tokens"] = meta["corpus_tokens"]
    if kind == "doc2vec":
        if isinstance(meta.get("documents"), int):
            corpus["documents"] = meta["documents"]
        return Saved(str(path), kind, "wordvec native model", _dict(meta.get("config")), _history(meta), corpus,
                     meta)
    first = (_history(meta) or [{}])[0]
    counting = first.get("counting") if isinstance(first.get("counting"), dict) else {}
    for key in ("tokens", "pairs", "nnz"):
        if isinstance(counting.get(key), int):
            corpus.setdefault(key if key != "nnz" else "co-occurrence non-zeros", counting[key])
    return Saved(str(path), kind, "wordvec native model", _dict(meta.get("hyperparameters")),
                 _history(meta), corpus, meta)


def _dict(value):
    return dict(value) if isinstance(value, dict) else {}


def _history(meta):
    history = meta.get("history")
    return [r for r in history if isinstance(r, dict)] if isinstance(history, list) else []


def load_keyed_vectors(path, glove=False, saved=None, limit=None):
    """The word vectors of whatever ``path`` holds (see the module docstring); ``limit``: of
    a vector file, only the first ``limit`` words."""
    saved = saved or describe(path, glove)
    if saved.kind == "window":
        return WindowClassifier.load(path).wv
    if saved.kind == "rnnlm":
        model = RNNLM.load(path)
        return KeyedVectors(model.vocab.tokens, model.params["embedding"])
    if saved.kind == "classifier":
        return _classifier_word_vectors(path)
    return load_vectors(path, fmt="glove" if glove else None, limit=limit)


def load_document_vectors(path, saved=None):
    """The document vectors of a saved Doc2Vec model, keyed by its tags as text (a line tag 17
    is "17"), as the report and the explorer show and look up every key."""
    saved = saved or describe(path)
    if saved.kind != "doc2vec":
        raise WordvecError(f"{path} holds no document vectors: it is not a Doc2Vec model (`wordvec doc2vec train`)")
    dv = Doc2Vec.load(path).dv
    return KeyedVectors([str(tag) for tag in dv.index_to_key], dv.vectors)
