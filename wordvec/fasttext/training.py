"""Training and loading for ``wordvec.fasttext``: ``train_supervised_args`` (what
``train_supervised`` runs, see ``autotune``), ``train_unsupervised`` and ``load_model``.

Supervised training is wordvec's classifier (``wordvec.models.classifier.model``); unsupervised
training is wordvec's subword word2vec (``wordvec.models.word2vec.fasttext.FastText``) on the
file as fastText reads it (each line's words and ``</s>``, at most 1024 tokens a line),
with fastText's learning rate decaying linearly to 0 and its unigram^0.5 negatives.
Any ``WordvecError`` leaves as a ``FastTextError``, which is a ``ValueError`` as
fastText's are.
"""

import os
import sys

import numpy as np

from wordvec.data.label_dictionary import LabelDictionary
from wordvec.errors import WordvecError
from wordvec.fasttext.model import FastTextModel
from wordvec.fasttext.options import (UNSUPERVISED_DEFAULTS, UNSUPERVISED_NAMES, FastTextError, fasttext_errors,
                                      read_args, training_input, uses_buckets)
from wordvec.fasttext.text import training_sentences
from wordvec.io.fasttext_bin import MAGIC, read_fasttext
from wordvec.models.classifier.model import Classifier, ClassifierConfig
from wordvec.models.classifier.files import from_fasttext, is_native, load_parts
from wordvec.models.base.config import available_cores
from wordvec.models.word2vec.fasttext import FastText


def _threads(args):
    return max(1, min(int(args["thread"]), available_cores()))


def _announce(args, dictionary):
    if args["verbose"] > 0:
        print(f"Read {dictionary.ntokens // 1_000_000}M words", file=sys.stderr)
        print(f"Number of words:  {dictionary.nwords}", file=sys.stderr)
        print(f"Number of labels: {len(dictionary.labels)}", file=sys.stderr)


def supervised_config(args):
    if args["loss"] == "ns":
        raise FastTextError("loss 'ns' is not supported for supervised training (use softmax, hs or ova)")
    return ClassifierConfig(
        lr=float(args["lr"]), dim=int(args["dim"]), epoch=int(args["epoch"]), word_ngrams=int(args["wordNgrams"]),
        min_count=int(args["minCount"]), min_count_label=int(args["minCountLabel"]), minn=int(args["minn"]),
        maxn=int(args["maxn"]), bucket=int(args["bucket"]) if uses_buckets(args) else 0, loss=args["loss"],
        threads=_threads(args), label=args["label"], pretrained_vectors=args["pretrainedVectors"] or None,
        seed=int(args["seed"]), lr_update_rate=int(args["lrUpdateRate"]), shuffle=args.get("shuffle", True),
        verbose=1 if args["verbose"] >= 2 else 0)


def train_supervised_args(args, valid=None):
    """A supervised model from complete arguments (``read_args``)."""
    path = training_input(args)
    with fasttext_errors():
        if os.path.getsize(path) == 0:
            raise FastTextError("Empty vocabulary. Try a smaller -minCount value.")
        config = supervised_config(args).checked()
        classifier = Classifier(config=config).fit(path, valid)
    _announce(args, classifier.dictionary)
    args = dict(args, bucket=config.bucket, thread=config.threads)
    return FastTextModel(classifier, args["loss"], {"ws": args["ws"], "neg": args["neg"], "t": args["t"]}, args)


def train_unsupervised(*kargs, **kwargs):
    """Train skipgram (default) or cbow word vectors with character n-grams; fastText's arguments."""
    args = read_args(kargs, kwargs, UNSUPERVISED_NAMES, UNSUPERVISED_DEFAULTS)
    if args["model"] == "supervised":
        raise FastTextError("train_unsupervised trains skipgram or cbow; use train_supervised")
    if args["loss"] == "ova":
        raise FastTextError("loss 'ova' is a classifier's loss; skipgram and cbow take ns, hs or softmax")
    if args["pretrainedVectors"]:
        raise FastTextError("pretrainedVectors is supported for supervised training only")
    if not uses_buckets(args):
        args["bucket"] = 0
    path = training_input(args)
    with fasttext_errors():
        words, counts, W_in, W_out, ntokens = _train_word_vectors(path, args)
    dictionary = LabelDictionary(words, counts, [], np.zeros(0, np.int64), ntokens,
                                 args["label"], 1, int(args["bucket"]), int(args["minn"]), int(args["maxn"]))
    _announce(args, dictionary)
    config = ClassifierConfig(lr=float(args["lr"]), dim=int(args["dim"]), epoch=int(args["epoch"]),
                              min_count=int(args["minCount"]), minn=int(args["minn"]), maxn=int(args["maxn"]),
                              bucket=int(args["bucket"]), loss=args["loss"], threads=_threads(args),
                              seed=int(args["seed"]), lr_update_rate=int(args["lrUpdateRate"]))
    classifier = Classifier(dictionary, W_in, W_out, config, model=args["model"])
    args = dict(args, thread=config.threads)
    return FastTextModel(classifier, args["loss"], {"ws": args["ws"], "neg": args["neg"], "t": args["t"]}, args)


class _Sentences:
    """The training file as fastText's lines, read again at every pass."""

    def __init__(self, path, label):
        self.path, self.label = path, label

    def __iter__(self):
        return training_sentences(self.path, self.label)


def _train_word_vectors(path, args):
    subwords = args["maxn"] > 0
    loss = args["loss"]
    model = FastText(
        sg=int(args["model"] == "skipgram"), hs=int(loss == "hs"), negative=int(args["neg"]) if loss == "ns" else 0,
        vector_size=int(args["dim"]), alpha=float(args["lr"]), min_alpha=0.0, window=int(args["ws"]),
        min_count=max(1, int(args["minCount"])), sample=float(args["t"]), seed=int(args["seed"]),
        workers=_threads(args), epochs=int(args["epoch"]), min_n=max(1, int(args["minn"])),
        max_n=int(args["maxn"]) if subwords else 6, bucket=int(args["bucket"]) if subwords else 1,
        ns_exponent=0.5, word_ngrams=int(subwords), shuffle=False, progress=args["verbose"] >= 2,
        **({"loss": "softmax"} if loss == "softmax" else {}))
    sentences = _Sentences(path, args["label"])
    try:
        model.build_vocab(corpus_iterable=sentences)
    except WordvecError:
        raise FastTextError("Empty vocabulary. Try a smaller -minCount value.") from None
    if len(model.vocab) == 0:
        raise FastTextError("Empty vocabulary. Try a smaller -minCount value.")
    model.train()
    V, dim = len(model.vocab), int(args["dim"])
    matrix = np.vstack([model.W_in, model.W_ngrams]) if subwords else np.ascontiguousarray(model.W_in)
    if loss == "hs":
        output = np.vstack([model.W_inner[:V], np.zeros((1, dim), np.float32)])[:V]
    else:
        output = np.ascontiguousarray(model.W_out)
    counts = np.asarray(model.vocab.counts, dtype=np.int64)
    return list(model.vocab.words), counts, matrix, output, int(model.vocab.corpus_tokens)


def load_model(path):
    """A model from fastText's ``.bin``/``.ftz`` (any fastText 0.9.2 writes) or a wordvec
    classifier directory."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise TypeError(f"load_model takes a path, not {type(path).__name__}")
    with fasttext_errors():
        if is_native(path) and os.path.isdir(path):
            parts = load_parts(path)
            header, loss = {}, parts.config.get("loss", "softmax")
        else:
            if not os.path.isfile(path) or not os.access(path, os.R_OK):
                raise FastTextError(f"{path} cannot be opened for loading!")
            with open(path, "rb") as handle:
                head = handle.read(4)
            if len(head) < 4 or int.from_bytes(head, "little", signed=True) != MAGIC:
                raise FastTextError(f"{path} has wrong file format!")
            ft = read_fasttext(path)
            parts = from_fasttext(ft)
            header, loss = {k: ft.args[k] for k in ("ws", "neg", "t")}, ft.loss_name
    names = set(ClassifierConfig.__dataclass_fields__)
    config = ClassifierConfig(**{k: v for k, v in parts.config.items() if k in names})
    if parts.model != "supervised":
        config = ClassifierConfig(**{**config.__dict__, "loss": loss})
    classifier = Classifier(parts.dictionary, parts.W_in, parts.W_out, config, parts.history, parts.quantized,
                            parts.model)
    return FastTextModel(classifier, loss, header)
