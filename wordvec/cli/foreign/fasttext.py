"""``wordvec fasttext``: fastText's command line, as it is.

    wordvec fasttext skipgram -input data.txt -output model        # model.bin + model.vec
    echo "king queen" | wordvec fasttext print-word-vectors model.bin
    wordvec fasttext nn model.bin 10                                # "Query word? " on stdin
    wordvec fasttext analogies model.bin                            # A - B + C, as fastText
    wordvec fasttext supervised -input train.txt -output clf        # wraps `wordvec classify`

Commands and flags are fastText 0.9.2's (``main.cc``, ``args.cc``) with its defaults:
skipgram/cbow lr 0.05, dim 100, ws 5, epoch 5, minCount 5, neg 5, loss ns, bucket
2000000, minn 3, maxn 6, thread 12, t 1e-4; supervised lr 0.1, minCount 1, minn/maxn 0,
loss softmax.  skipgram/cbow train wordvec's subword ``Word2Vec`` (``wordvec.models.word2vec.fasttext``)
and write ``OUTPUT.bin`` (fastText's format: fastText and gensim load it) and
``OUTPUT.vec``; supervised/test/test-label/predict/predict-prob/quantize run
``wordvec classify`` (``wordvec.cli.classify``).  Vectors print as fastText prints them
(5 significant digits, each followed by a space), similarities with 6.

Where wordvec differs (docs/migrating.md): no ``</s>`` word in models it trains; an
unknown flag or a malformed value is refused in one sentence; ``analogies`` stops at the
end of its input (fastText loops on); more threads than cores are not started;
``-saveOutput`` and ``-qout`` are not offered.  ``-maxn 0``
trains plain word vectors (no n-gram rows), written as fastText writes them (bucket 0).

Autotune (``supervised`` with ``-autotune-validation FILE``, ``-autotune-metric``,
``-autotune-predictions``, ``-autotune-duration`` seconds (300), ``-autotune-modelsize``)
is ``wordvec classify train --autotune-*`` (``wordvec.models.classifier.autotune``): it
prints fastText's progress line and "Training again with best arguments" (at -verbose 2),
keeps the searched flags given by hand, and writes OUTPUT.bin, or OUTPUT.ftz (quantized, at
most the size asked) with a model size, and OUTPUT.vec. Where fastText ignores an
``-autotune-*`` flag without ``-autotune-validation`` or aborts on a metric or size it
cannot read, these are refused in one sentence (exit 2).
"""

import argparse
import logging
import os
import struct
import sys

import numpy as np

from wordvec import limits
from wordvec.cli import gate
from wordvec.cli import main as wordvec_main
from wordvec.cli.common import single_dash_flags
from wordvec.data.labels import EOS
from wordvec.data.subword import ngram_buckets, ngrams
from wordvec.errors import VocabularyError, WordvecError
from wordvec.io import fasttext_bin
from wordvec.io.atomic import atomic_write
from wordvec.models.classifier.autotune import AutotuneSettings
from wordvec.models.classifier.model import Classifier
from wordvec.models.base.config import available_cores
from wordvec.models.word2vec.fasttext import FastText, load_facebook_vectors, save_facebook_model

TRAINING = ("skipgram", "cbow", "supervised")
QUERIES = ("print-word-vectors", "print-sentence-vectors", "nn", "analogies")
CLASSIFY = ("test", "test-label", "predict", "predict-prob", "quantize")

USAGE = """\
usage: wordvec fasttext <command> <args>

The commands supported by fasttext are:

  supervised              train a supervised classifier
  quantize                quantize a model to reduce the memory usage
  test                    evaluate a supervised classifier
  test-label              print labels with precision and recall scores
  predict                 predict most likely labels
  predict-prob            predict most likely labels with probabilities
  skipgram                train a skipgram model
  cbow                    train a cbow model
  print-word-vectors      print word vectors given a trained model
  print-sentence-vectors  print sentence vectors given a trained model
  nn                      query for nearest neighbors
  analogies               query for analogies (A - B + C)
  print-ngrams            print ngrams given a trained model and word
  dump                    dump arguments,dictionary,input/output vectors

Differences from fastText: docs/migrating.md.
"""

# flag -> (type, fastText's name); bool flags take no value
FLAGS = {
    "-input": (str, "input"), "-output": (str, "output"), "-lr": (float, "lr"), "-lrUpdateRate": (int, "lrUpdateRate"),
    "-dim": (int, "dim"), "-ws": (int, "ws"), "-epoch": (int, "epoch"), "-minCount": (int, "minCount"),
    "-minCountLabel": (int, "minCountLabel"), "-neg": (int, "neg"), "-wordNgrams": (int, "wordNgrams"),
    "-loss": (str, "loss"), "-bucket": (int, "bucket"), "-minn": (int, "minn"), "-maxn": (int, "maxn"),
    "-thread": (int, "thread"), "-t": (float, "t"), "-label": (str, "label"), "-verbose": (int, "verbose"),
    "-pretrainedVectors": (str, "pretrainedVectors"), "-seed": (int, "seed"), "-cutoff": (int, "cutoff"),
    "-dsub": (int, "dsub"), "-saveOutput": (bool, "saveOutput"), "-qnorm": (bool, "qnorm"),
    "-retrain": (bool, "retrain"), "-qout": (bool, "qout"),
    "-autotune-validation": (str, "autotuneValidationFile"), "-autotune-metric": (str, "autotuneMetric"),
    "-autotune-predictions": (int, "autotunePredictions"), "-autotune-duration": (int, "autotuneDuration"),
    "-autotune-modelsize": (str, "autotuneModelSize"),
}
AUTOTUNE_FLAGS = ("-autotune-metric", "-autotune-predictions", "-autotune-duration", "-autotune-modelsize")
# what autotune searches: fastText's names -> `wordvec classify train`'s flags; one given is passed on (kept)
SEARCHED = {"lr": "--lr", "dim": "--dim", "epoch": "--epoch", "wordNgrams": "--word-ngrams", "minn": "--minn",
            "maxn": "--maxn", "bucket": "--bucket", "loss": "--loss"}
UNSUPERVISED_DEFAULTS = {"lr": 0.05, "lrUpdateRate": 100, "dim": 100, "ws": 5, "epoch": 5, "minCount": 5,
                         "minCountLabel": 0, "neg": 5, "wordNgrams": 1, "loss": "ns", "bucket": 2_000_000,
                         "minn": 3, "maxn": 6, "thread": 12, "t": 1e-4, "label": "__label__", "verbose": 2,
                         "pretrainedVectors": None, "seed": 0, "cutoff": 0, "dsub": 2, "saveOutput": False,
                         "qnorm": False, "retrain": False, "qout": False, "input": None, "output": None,
                         "autotuneValidationFile": None, "autotuneMetric": "f1", "autotunePredictions": 1,
                         "autotuneDuration": 300, "autotuneModelSize": ""}
SUPERVISED_CHANGES = {"loss": "softmax", "minCount": 1, "minn": 0, "maxn": 0, "lr": 0.1}
LOSSES = {"hs": "hs", "ns": "ns", "softmax": "softmax", "one-vs-all": "ova", "ova": "ova"}


def register(subparsers):
    parser = subparsers.add_parser(
        "fasttext",
        description=USAGE, formatter_class=argparse.RawDescriptionHelpFormatter, add_help=False)
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="a fastText command and its arguments")
    parser.set_defaults(run=run)


def run(args):
    if not args.arguments or args.arguments[0] in ("-h", "--help", "help"):
        print(USAGE, file=sys.stderr)
        return 0 if args.arguments else 1
    command, rest = args.arguments[0], args.arguments[1:]
    if command in TRAINING:
        values = parse_flags(command, rest)
        gate.check_paths(*files_of(command, values),
                         text_inputs=[values["input"], values["autotuneValidationFile"]])
        return _train(command, values)
    if command in CLASSIFY:
        return _classify(command, rest)
    if command in QUERIES:
        return _query(command, rest)
    if command == "print-ngrams":
        return _print_ngrams(rest)
    if command == "dump":
        return _dump(rest)
    raise WordvecError(f"unknown fastText command {command!r}; choose one of "
                       f"{', '.join(TRAINING + CLASSIFY + QUERIES + ('print-ngrams', 'dump'))}")


def parse_flags(command, arguments):
    """fastText's options with the defaults of ``command``; one sentence for anything wrong."""
    values = dict(UNSUPERVISED_DEFAULTS, **(SUPERVISED_CHANGES if command in ("supervised", "quantize") else {}))
    given = single_dash_flags(
        arguments, {flag: kind for flag, (kind, _) in FLAGS.items()},
        unknown=lambda flag: f"unknown fastText option {flag!r}" + (
            "" if flag.startswith("-") else " (an argument without a dash)"),
        missing=lambda flag: f"{flag} needs a value")
    values.update((FLAGS[flag][1], value) for flag, value in given.items())
    values["given"] = frozenset(FLAGS[flag][1] for flag in given)
    if values["loss"] not in LOSSES:
        raise WordvecError(f"Unknown loss: {values['loss']} (choose hs, ns, softmax or one-vs-all)")
    for name, flag in (("vector_size", "dim"), ("window", "ws"), ("epochs", "epoch"), ("negative", "neg"),
                       ("threads", "thread")) + ((("bucket", "bucket"),) if values["bucket"] else ()):
        limits.check_int(name, values[flag], option=f"-{flag}")  # the ranges wordvec train checks
    if not values["input"] or not values["output"]:
        raise WordvecError("Empty input or output path: -input and -output are required")
    _check_autotune(command, values, given)
    return values


def _check_autotune(command, values, given):
    """fastText's -autotune-* flags: for supervised only, each beside -autotune-validation
    (fastText ignores them without it), and a metric string fastText can read."""
    named = [flag for flag in ("-autotune-validation",) + AUTOTUNE_FLAGS if flag in given]
    if named and command != "supervised":
        raise WordvecError(f"{named[0]} is for supervised training only")
    stray = next((flag for flag in AUTOTUNE_FLAGS if flag in given), None)
    if stray and not values["autotuneValidationFile"]:
        raise WordvecError(f"{stray} needs -autotune-validation (the labelled file autotune scores its trials on)")
    if values["autotuneValidationFile"]:  # read when parsed, as fastText's args.cc reads the metric
        AutotuneSettings(values["autotuneValidationFile"], values["autotuneMetric"], values["autotunePredictions"],
                         values["autotuneDuration"], values["autotuneModelSize"]).parsed()


def files_of(command, values):
    """The output gate's marks of a training or quantize command line: ([(path written,
    kind)], [paths read]); -output is a prefix, as in fastText."""
    prefix = values["output"]
    if command == "quantize":
        return [(prefix + ".ftz", gate.FILE)], [prefix + ".bin", values["input"]]
    return ([(model_path(values), gate.FILE), (prefix + ".vec", gate.FILE)],
            [values["input"], values["pretrainedVectors"], values.get("autotuneValidationFile")])


def model_path(values):
    """OUTPUT.bin, or OUTPUT.ftz when autotune quantizes to a model size (fastText's main.cc)."""
    quantized = values.get("autotuneValidationFile") and values.get("autotuneModelSize")
    return values["output"] + (".ftz" if quantized else ".bin")


# ----------------------------------------------------------------------------- training

def _train(command, values):
    if values["saveOutput"] or values["qout"]:
        raise WordvecError("-saveOutput and -qout are not supported by wordvec's fastText command line")
    if values["verbose"] < 2:  # fastText's -verbose: 0 silent, 1 the dictionary's sizes, 2 also progress
        logging.getLogger().setLevel(logging.WARNING)
    if command == "supervised":
        return _train_supervised(values)
    if values["pretrainedVectors"]:
        raise WordvecError("-pretrainedVectors is supported for supervised training only")
    loss = LOSSES[values["loss"]]
    if loss == "ova":
        raise WordvecError("-loss one-vs-all is a classifier's loss; skipgram and cbow take ns, hs or softmax")
    model = FastText(
        corpus_file=None, sg=int(command == "skipgram"), hs=int(loss == "hs"),
        negative=values["neg"] if loss == "ns" else 0, vector_size=values["dim"], alpha=values["lr"],
        min_alpha=0.0, window=values["ws"], min_count=values["minCount"], sample=values["t"],
        seed=values["seed"], workers=min(values["thread"], available_cores()), epochs=values["epoch"],
        min_n=values["minn"], max_n=values["maxn"], bucket=values["bucket"], ns_exponent=0.5,
        word_ngrams=int(values["maxn"] > 0),  # -maxn 0: no character n-grams, plain word vectors
        shuffle=False, progress=values["verbose"] >= 2, **({"loss": "softmax"} if loss == "softmax" else {}))
    model.build_vocab(corpus_file=values["input"])
    _announce(values, model.vocab.corpus_tokens, len(model.vocab), 0)
    model.train()
    save_facebook_model(model, values["output"] + ".bin")
    write_vec(values["output"] + ".vec", model.wv.index_to_key, model.wv.vectors)
    return 0


def _train_supervised(values):
    path = model_path(values)
    flags = ["classify", "train", values["input"], "-o", path,
             "--min-count", str(values["minCount"]), "--min-count-label", str(values["minCountLabel"]),
             "--threads", str(min(values["thread"], available_cores())),
             "--label", values["label"], "--seed", str(values["seed"])]
    tuned = bool(values["autotuneValidationFile"])
    for name, flag in SEARCHED.items():  # classify's defaults are fastText's; autotune keeps the ones given
        if not tuned or name in values["given"]:
            flags += [flag, LOSSES[values[name]] if name == "loss" else str(values[name])]
    if tuned:
        flags += ["--autotune-validation", values["autotuneValidationFile"],
                  "--autotune-metric", values["autotuneMetric"],
                  "--autotune-predictions", str(values["autotunePredictions"]),
                  "--autotune-duration", str(values["autotuneDuration"])]
        flags += ["--autotune-model-size", values["autotuneModelSize"]] if values["autotuneModelSize"] else []
    if values["pretrainedVectors"]:
        flags += ["--pretrained-vectors", values["pretrainedVectors"]]
    if values["verbose"] < 2:
        flags = ["--quiet", *flags, "--no-progress"]
    status = wordvec_main(flags)
    if status:
        return status
    model = Classifier.load(path)  # fastText also writes the word vectors
    _announce(values, model.dictionary.ntokens, model.dictionary.nwords, len(model.labels))
    write_vec(values["output"] + ".vec", model.words, np.stack([model.get_word_vector(w) for w in model.words])
              if model.words else np.zeros((0, model.W_in.shape[1]), np.float32))
    return 0


def _announce(values, tokens, words, labels):
    """fastText's lines at -verbose 1 and above (on stderr)."""
    if values["verbose"] >= 1:
        print(f"Read {tokens // 1_000_000}M words\nNumber of words:  {words}\nNumber of labels: {labels}",
              file=sys.stderr)


def _classify(command, rest):
    if command == "quantize":
        values = parse_flags(command, rest)
        gate.check_paths(*files_of(command, values))
        if values["qout"]:
            raise WordvecError("-qout (quantizing the output matrix) is not supported")
        flags = ["classify", "quantize", values["output"] + ".bin", "-o", values["output"] + ".ftz",
                 "--cutoff", str(values["cutoff"]), "--dsub", str(values["dsub"])]
        flags += ["--qnorm"] if values["qnorm"] else []
        flags += ["--retrain", "--input", values["input"], "--epoch", str(values["epoch"]),
                  "--lr", str(values["lr"])] if values["retrain"] else []
        return wordvec_main(flags)
    if not 2 <= len(rest) <= 4:
        raise WordvecError(f"usage: wordvec fasttext {command} <model> <{'test-data' if 'test' in command else 'input'}>"
                           " [<k>] [<th>]")
    flags = ["classify", "test" if command.startswith("test") else "predict", rest[0], rest[1]]
    if len(rest) > 2:
        flags += ["-k", rest[2]]
    if len(rest) > 3:
        flags += ["--threshold", rest[3]]
    flags += {"test-label": ["--per-label"], "predict-prob": ["--probabilities"]}.get(command, [])
    return wordvec_main(flags)


# ----------------------------------------------------------------------------- vectors and queries

def format_vector(vector):
    """fastText's ``operator<<(Vector)``: setprecision(5), each value followed by a space."""
    return "".join(f"{float(value):.5g} " for value in vector)


def write_vec(path, words, vectors):
    """fastText's ``.vec``: "nwords dim", then "word v1 v2 ... " per word."""
    with atomic_write(path, "w", encoding="utf-8") as handle:
        handle.write(f"{len(words)} {vectors.shape[1]}\n")
        handle.writelines(f"{word} {format_vector(row)}\n" for word, row in zip(words, vectors))


class WordVectors:
    """fastText's word vectors of a model file: ``vector(word)`` (zeros for a word without any
    row, as fastText) and the unit-length vectors of the dictionary's words for nn/analogies."""

    def __init__(self, path):
        if not os.path.isfile(path):
            raise WordvecError(f"cannot access {path}: no such fastText model file")
        self.classifier = Classifier.load(path) if _is_supervised(path) else None
        self.kv = None if self.classifier is not None else load_facebook_vectors(path)
        self.dim = self.classifier.W_in.shape[1] if self.classifier is not None else self.kv.vector_size
        self._units = None

    @property
    def words(self):
        return self.classifier.words if self.classifier is not None else self.kv.index_to_key

    def vector(self, word):
        if self.classifier is not None:
            return self.classifier.get_word_vector(word)
        try:
            return self.kv.get_vector(word)
        except VocabularyError:
            return np.zeros(self.dim, dtype=np.float32)

    def sentence_vector(self, line):
        if self.classifier is not None:
            return self.classifier.get_sentence_vector(line)
        total, count = np.zeros(self.dim, dtype=np.float32), 0
        for word in line.split():
            vector = self.vector(word)
            norm = np.linalg.norm(vector)
            if norm > 0:
                total += vector / norm
                count += 1
        return total / count if count else total

    def nearest(self, query, k, banned):
        """[(similarity, word)] of the k words closest to ``query``, without ``banned`` (fastText's getNN)."""
        if self._units is None:
            matrix = np.stack([self.vector(w) for w in self.words]) if self.classifier is not None else self.kv.vectors
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            self._units = (matrix / np.where(norms > 0, norms, 1)).astype(np.float32)
        query_norm = np.linalg.norm(query)
        scores = self._units @ query / (query_norm if abs(query_norm) >= 1e-8 else 1.0)
        order = np.argsort(-scores, kind="stable")
        words = self.words
        return [(float(scores[i]), words[i]) for i in order if words[i] not in banned][:k]


def _is_supervised(path):
    """The model id in a fastText file's header (magic, version, 12 int32 args: model is the 8th)."""
    with open(path, "rb") as handle:
        head = handle.read(40)
    if len(head) < 40 or struct.unpack_from("<i", head)[0] != fasttext_bin.MAGIC:
        return False  # not fastText's: the reader says so in one sentence
    return struct.unpack_from("<i", head, 36)[0] == 3


def _tokens(stream):
    for line in stream:
        yield from line.split()


def _query(command, rest):
    arity = {"print-word-vectors": (1, 1), "print-sentence-vectors": (1, 1), "nn": (1, 2), "analogies": (1, 2)}
    low, high = arity[command]
    if not low <= len(rest) <= high:
        raise WordvecError(f"usage: wordvec fasttext {command} <model>" + (" [<k>]" if high == 2 else ""))
    k = 10
    if len(rest) == 2:
        if not rest[1].lstrip("-").isdigit() or int(rest[1]) < 1:
            raise WordvecError(f"k needs to be 1 or higher, not {rest[1]!r}")
        k = int(rest[1])
    if command == "analogies":
        print(f"Loading model {rest[0]}", flush=True)
    vectors = WordVectors(rest[0])
    out = sys.stdout
    if command == "print-word-vectors":
        for word in _tokens(sys.stdin):
            out.write(f"{word} {format_vector(vectors.vector(word))}\n")
    elif command == "print-sentence-vectors":
        for line in sys.stdin:
            out.write(format_vector(vectors.sentence_vector(line.rstrip("\n"))) + "\n")
    elif command == "nn":
        _interactive_nn(vectors, k, out)
    else:
        _interactive_analogies(vectors, k, out)
    out.flush()
    return 0


def _print_ngrams(rest):
    """fastText's print-ngrams: the word's own row (if in the dictionary), then each character
    n-gram's row, each as "substring v1 ... vD " (fastText's getNgramVectors)."""
    if len(rest) != 2:
        raise WordvecError("usage: wordvec fasttext print-ngrams <model> <word>")
    path, word = rest
    model = fasttext_bin.read_fasttext(path)
    if model.prune_index is not None:
        raise WordvecError(f"{path} is a pruned (quantized) model: print-ngrams needs every n-gram row")
    matrix = model.input.dense() if isinstance(model.input, fasttext_bin.QuantizedMatrix) else model.input
    nwords, args = model.nwords, model.args
    pieces = []
    if word in model.words[:nwords]:
        pieces.append((word, matrix[model.words.index(word)]))
    if args["maxn"] > 0 and word != EOS:
        rows = nwords + ngram_buckets(word, args["minn"], args["maxn"], args["bucket"])
        pieces.extend(zip(ngrams(word, args["minn"], args["maxn"]), matrix[rows]))
    sys.stdout.writelines(f"{piece} {format_vector(vector)}\n" for piece, vector in pieces)
    return 0


DUMP_ARGS = (("dim", "dim"), ("ws", "ws"), ("epoch", "epoch"), ("minCount", "min_count"), ("neg", "neg"),
             ("wordNgrams", "word_ngrams"), ("loss", "loss"), ("model", "model"), ("bucket", "bucket"),
             ("minn", "minn"), ("maxn", "maxn"), ("lrUpdateRate", "lr_update_rate"), ("t", "t"))
DUMP_NAMES = {"loss": {1: "hs", 2: "ns", 3: "softmax", 4: "one-vs-all"}, "model": {1: "cbow", 2: "sg", 3: "sup"}}


def _dump(rest):
    """fastText's dump: args, dict ("word count word|label"), input or output ("m n", rows)."""
    if len(rest) != 2 or rest[1] not in ("args", "dict", "input", "output"):
        raise WordvecError("usage: wordvec fasttext dump <model> <option>, option one of args, dict, input, output")
    path, option = rest
    model = fasttext_bin.read_fasttext(path)
    out = sys.stdout
    if option == "args":
        for shown, key in DUMP_ARGS:
            value = model.args[key]
            value = DUMP_NAMES[key].get(value, value) if key in DUMP_NAMES else value
            out.write(f"{shown} {value:.6g}\n" if key == "t" else f"{shown} {value}\n")
    elif option == "dict":
        out.write(f"{len(model.words)}\n")
        out.writelines(f"{word} {count} {'label' if kind else 'word'}\n"
                       for word, count, kind in zip(model.words, model.counts.tolist(), model.types.tolist()))
    else:
        matrix = model.input if option == "input" else model.output
        if isinstance(matrix, fasttext_bin.QuantizedMatrix):
            raise WordvecError(f"{path} is quantized: dump {option} is not supported for quantized models")
        out.write(f"{matrix.shape[0]} {matrix.shape[1]}\n")
        for row in matrix:
            out.write(" ".join(f"{float(v):.6g}" for v in row) + "\n")
    return 0


def _print_neighbours(pairs, out):
    for similarity, word in pairs:
        out.write(f"{word} {similarity:.6g}\n")


def _interactive_nn(vectors, k, out):
    prompt = "Query word? "
    out.write(prompt)
    out.flush()
    for word in _tokens(sys.stdin):
        _print_neighbours(vectors.nearest(vectors.vector(word), k, {word}), out)
        out.write(prompt)
        out.flush()


def _interactive_analogies(vectors, k, out):
    """fastText's order: A - B + C, each vector scaled to unit length (plus 1e-8) first."""
    prompt = "Query triplet (A - B + C)? "
    out.write(prompt)
    out.flush()
    words = _tokens(sys.stdin)
    while True:
        triplet = [next(words, None) for _ in range(3)]
        if None in triplet:
            return
        query = np.zeros(vectors.dim, dtype=np.float32)
        for word, sign in zip(triplet, (1.0, -1.0, 1.0)):
            vector = vectors.vector(word)
            query += np.float32(sign / (np.linalg.norm(vector) + 1e-8)) * vector
        _print_neighbours(vectors.nearest(query, k, set(triplet)), out)
        out.write(prompt)
        out.flush()
