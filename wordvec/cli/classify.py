"""`wordvec classify train|test|predict|quantize`: fastText's supervised mode.

    fastText                                            wordvec
    fasttext supervised -input T -output M [opts]       wordvec classify train T -o M.bin [opts]
    fasttext test M.bin TEST [k] [th]                   wordvec classify test M.bin TEST [-k K] [--threshold TH]
    fasttext test-label M.bin TEST [k] [th]             wordvec classify test M.bin TEST --per-label
    fasttext predict[-prob] M.bin FILE|- [k] [th]       wordvec classify predict M.bin FILE|- [-k K] [--probabilities]
    fasttext quantize -input T -output M [opts]         wordvec classify quantize M.bin -o M.ftz [--cutoff N]
                                                          [--retrain --input T] [--qnorm] [--dsub 2]
    fasttext supervised ... -autotune-validation V      wordvec classify train T -o M.bin --autotune-validation V
      [-autotune-metric f1] [-autotune-duration 300]      [--autotune-metric f1] [--autotune-duration 300]
      [-autotune-modelsize 2M]  (writes M.ftz)            [--autotune-model-size 2M] (with -o M.ftz)

MODEL is a fastText ``.bin``/``.ftz`` file (written by fastText or by wordvec) or a
native directory / ``.wv``; ``-o`` picks the format by the name the same way.
"""

import argparse
import importlib
import sys
from pathlib import Path

import numpy as np

from wordvec.cli import gate
from wordvec.cli.common import finite_float, nonnegative_float, nonnegative_int, positive_float, positive_int
from wordvec.data.label_stream import text_blocks
from wordvec.errors import WordvecError
from wordvec.io.fasttext_bin import MAGIC
from wordvec.models.classifier.files import check_replaceable, is_native
from wordvec.models.classifier.predict import Meter, best_labels, file_meter, load_predictor


def register(subparsers):
    parser = subparsers.add_parser("classify", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="classify_command", metavar="COMMAND", required=True)
    named = _named_subcommand(getattr(subparsers, "argv", ()))
    for name, add in SUBCOMMANDS.items():
        if named is None or name == named:  # a line that names one needs only its parser (~1.5 ms of a predict)
            add(commands)


def _named_subcommand(argv):
    """The classify subcommand ``argv`` names, or None (none, or an unknown one: then all
    are built, for the help and the error)."""
    words = [word for word in argv if not word.startswith("-")]  # classify's options take no value
    named = words[1] if len(words) > 1 and words[0] == "classify" else None
    return named if named in SUBCOMMANDS else None


def _register_train(commands):
    # deferred: its dataclass and checks are ~1 ms of every predict process, which never trains
    from wordvec.models.classifier.config import ClassifierConfig
    defaults = ClassifierConfig()
    sub = commands.add_parser("train", help="train a classifier on fastText-format lines (__label__x words ...)")
    sub.add_argument("train", metavar="TRAIN", help="training file or directory (plain, .gz, .bz2, .xz)")
    sub.add_argument("-o", "--output", required=True, metavar="MODEL",
                     help="MODEL.bin: fastText's format; a directory or NAME.wv: wordvec's native format")
    sub.add_argument("--valid", metavar="FILE", help="report P@1 on this file after every epoch")
    # the settings autotune searches default to None here: one given is kept as given (run_train)
    sub.add_argument("--lr", type=positive_float, help=f"learning rate (default {defaults.lr})")
    sub.add_argument("--epoch", type=positive_int, help=f"epochs (default {defaults.epoch})")
    sub.add_argument("--dim", type=positive_int, help=f"vector size (default {defaults.dim})")
    sub.add_argument("--word-ngrams", type=positive_int, help=f"word n-grams up to N (default {defaults.word_ngrams})")
    sub.add_argument("--min-count", type=nonnegative_int, default=1, help="minimal word count (default 1)")
    sub.add_argument("--min-count-label", type=nonnegative_int, default=0, help="minimal label count (default 0)")
    sub.add_argument("--minn", type=nonnegative_int, help="shortest character n-gram (default 0: none)")
    sub.add_argument("--maxn", type=nonnegative_int, help="longest character n-gram (default 0: none)")
    sub.add_argument("--bucket", type=nonnegative_int, help=f"n-gram buckets (default {defaults.bucket})")
    sub.add_argument("--loss", choices=("softmax", "hs", "ova"), help=f"output layer (default {defaults.loss})")
    sub.add_argument("--threads", type=positive_int, default=defaults.threads, help="training threads (default 2)")
    sub.add_argument("--label", default="__label__", help="label prefix (default __label__)")
    sub.add_argument("--pretrained-vectors", metavar="VEC", help="initialise word rows from these vectors (.vec, ...)")
    sub.add_argument("--seed", type=nonnegative_int, default=0, help="random seed (default 0)")
    sub.add_argument("--no-shuffle", action="store_true",
                     help="read the documents in the file's order, as fastText does (default: in an order drawn "
                          "once from --seed, so that a file sorted by label trains as a shuffled one)")
    sub.add_argument("--no-progress", action="store_true", help="no progress line")
    tune = sub.add_argument_group(
        "autotune (fastText's)", "search the settings that score best on a validation file for a while, then "
        "train with them; --alpha, --epochs, --vector-size, --word-ngrams, --min-n, --max-n, --bucket and --loss, "
        "when given, are kept as given")
    tune.add_argument("--autotune-validation", metavar="FILE", help="labelled lines the trials are scored on")
    tune.add_argument("--autotune-metric", metavar="METRIC", help="f1 (default), f1:LABEL, "
                      "precisionAtRecall:P[:LABEL] or recallAtPrecision:P[:LABEL], P in percent")
    tune.add_argument("--autotune-predictions", type=int, metavar="K",
                      help="labels predicted per validation line (default 1; -1: all)")
    tune.add_argument("--autotune-duration", type=finite_float, metavar="SECONDS",
                      help="time for the search (default 300); the final training follows it")
    tune.add_argument("--autotune-model-size", metavar="SIZE", help="quantize every trial and the model to fit "
                      "SIZE bytes (2M, 500K, ...); the output is then MODEL.ftz or a directory")
    sub.set_defaults(run=run_train)
    gate.mark(sub, outputs=[MODEL_OUTPUT], inputs=[gate.Input("train", text=True), gate.Input("valid", text=True),
                                                  gate.Input("autotune_validation", text=True), "pretrained_vectors"])


def _register_test(commands):
    sub = commands.add_parser("test", help="N, P@k and R@k on a labelled file, as fastText's test")
    sub.add_argument("model", metavar="MODEL")
    sub.add_argument("test", metavar="TEST")
    sub.add_argument("-k", type=positive_int, default=1, help="labels predicted per line (default 1)")
    sub.add_argument("--threshold", type=nonnegative_float, default=0.0, help="minimal probability (default 0)")
    sub.add_argument("--per-label", action="store_true", help="also precision, recall and F1 of every label")
    sub.add_argument("--json", action="store_true", help="print one JSON object instead")
    sub.set_defaults(run=run_test, return_freed_buffers=False)  # see _register_predict
    gate.mark(sub, inputs=["model", gate.Input("test", text=True)])


def _register_predict(commands):
    sub = commands.add_parser("predict", help="the most likely labels of every line, as fastText's predict")
    sub.add_argument("model", metavar="MODEL")
    sub.add_argument("input", metavar="FILE", help="one document per line; - reads standard input")
    sub.add_argument("-k", type=int, default=1, help="labels per line (default 1; -1: all)")
    sub.add_argument("--threshold", type=nonnegative_float, default=0.0, help="minimal probability (default 0)")
    sub.add_argument("--probabilities", action="store_true", help="print each label's probability after it "
                     "(fastText's predict-prob)")
    # glibc's default malloc: with the mmap threshold pinned (wordvec.memory) every NumPy
    # temporary of a block is a fresh mapping, faulted in and zeroed (~50 ms of a genre predict)
    sub.set_defaults(run=run_predict, return_freed_buffers=False)
    gate.mark(sub, inputs=["model", gate.Input("input", text=True)])


def _register_quantize(commands):
    sub = commands.add_parser("quantize", help="shrink a model by product quantization (fastText's .ftz)")
    sub.add_argument("model", metavar="MODEL")
    sub.add_argument("-o", "--output", required=True, metavar="SMALL", help="SMALL.ftz (or a native directory)")
    sub.add_argument("--cutoff", type=nonnegative_int, default=0, help="keep only the N input rows of largest norm")
    sub.add_argument("--retrain", action="store_true", help="retrain after the cutoff (needs --input)")
    sub.add_argument("--input", metavar="TRAIN", help="training data for --retrain")
    sub.add_argument("--epoch", type=positive_int, help="epochs of the retraining (default: the model's)")
    sub.add_argument("--lr", type=positive_float, help="learning rate of the retraining (default: the model's)")
    sub.add_argument("--threads", type=positive_int, help="threads of the retraining")
    sub.add_argument("--qnorm", action="store_true", help="quantize the row norms separately")
    sub.add_argument("--dsub", type=positive_int, default=2, help="values per sub-vector (default 2)")
    sub.set_defaults(run=run_quantize)
    gate.mark(sub, outputs=[MODEL_OUTPUT], inputs=["model", gate.Input("input", text=True)])


def _register_info(commands):
    sub = commands.add_parser("info", help="a classifier's settings, labels, training history and the words "
                              "that point most to each label")
    sub.add_argument("model", metavar="MODEL")
    sub.add_argument("--top", type=positive_int, default=8, help="indicative words per label (default 8)")
    sub.set_defaults(run=run_info)
    gate.mark(sub, inputs=["model"])


def _model_files(path):
    """A classifier output: a native directory or a fastText file, by its name."""
    return [(path, gate.DIRECTORY if is_native(path) else gate.FILE)]


def _same_model_kind(path):
    """An existing output must be a classifier save: a native one, or a fastText file."""
    if path.is_dir():
        check_replaceable(path)
    else:
        gate.file_magic(MAGIC.to_bytes(4, "little"), "a fastText model")(path)


MODEL_OUTPUT = gate.Output("output", _model_files, _same_model_kind)


def _compiled():
    """``wordvec.models.classifier.model``, imported when a command trains, quantizes or reads a
    model with character n-grams: it loads Numba and the compiled kernels (~0.6 s), which
    ``predict`` and ``test`` of the other models never need (``classifier_predict``)."""
    return importlib.import_module("wordvec.models.classifier.model")


def _predictor(path):
    """The NumPy predictor of the model, or the compiled one for character n-grams."""
    return load_predictor(path) or _compiled().CompiledPredictor.load(path)


def run_info(args):
    model = _compiled().Classifier.load(args.model)
    d, config = model.dictionary, model.config
    print(f"file        {args.model}\nmodel       {model.model} ({'quantized' if model.quantized else 'dense'})")
    print(f"words       {d.nwords}  labels {len(d.labels)}  rows {model.W_in.shape[0]}  dim {model.W_in.shape[1]}")
    # a fastText .bin/.ftz stores no learning rate (and its epoch is fastText's argument): only a native save
    # (read, as it loaded, from a directory or .wv) records them
    recorded = f"  epoch {config.epoch}  lr {config.lr}" if is_native(args.model) else f"  epoch {config.epoch}"
    print(f"settings    loss {config.loss}  word_ngrams {d.word_ngrams}  bucket {d.bucket}  minn {d.minn}  "
          f"maxn {d.maxn}{recorded}")
    for record in model.history:
        extra = f"  valid P@1 {record['valid_p@1']:.4f}" if "valid_p@1" in record else ""
        print(f"epoch {record['epoch']:3d}  loss {record['loss']:.6f}  {record['seconds']:.2f} s{extra}")
    from wordvec.report.classifier import indicative_words  # the report's choice, the same words

    for i, (label, words) in enumerate(indicative_words(model, args.top).items()):
        print(f"{label} ({d.label_counts[i]}): {' '.join(words)}")
    return 0


def _require_file(path, noun):
    """The one sentence for an input that is not there, naming it for its role."""
    if path is not None and path != "-" and not Path(path).exists():
        raise WordvecError(f"{noun} {path} does not exist")


# the flags autotune searches (their config fields) and its own flags (their dests)
SEARCHED = ("lr", "epoch", "dim", "word_ngrams", "minn", "maxn", "bucket", "loss")
AUTOTUNE_FLAGS = ("autotune_metric", "autotune_predictions", "autotune_duration", "autotune_model_size")


def run_train(args):
    from wordvec.models.classifier.config import ClassifierConfig  # see _register_train
    given = {name: getattr(args, name) for name in SEARCHED if getattr(args, name) is not None}
    settings = _autotune_settings(args, frozenset(given))  # its strings are checked before any file is read
    _require_file(args.train, "training file")
    _require_file(args.valid, "validation file")
    config = ClassifierConfig(**given, min_count=args.min_count, min_count_label=args.min_count_label,
                              threads=args.threads, label=args.label, pretrained_vectors=args.pretrained_vectors,
                              seed=args.seed, shuffle=not args.no_shuffle,
                              verbose=0 if args.no_progress or args.quiet else 1).checked()
    if settings is not None:
        model = _autotuned(args, config, settings)
    else:
        model = _compiled().Classifier(config=config).fit(args.train, args.valid)
    for record in model.history if not args.quiet else ():
        extra = f" valid P@1 {record['valid_p@1']:.4f}" if "valid_p@1" in record else ""
        print(f"epoch {record['epoch']}: loss {record['loss']:.6f}{extra}", file=sys.stderr)
    model.save(args.output)
    return 0


def _autotune_settings(args, fixed):
    """The ``AutotuneSettings`` of the --autotune-* flags (None without --autotune-validation),
    their strings and numbers checked."""
    if args.autotune_validation is None:
        stray = next((name for name in AUTOTUNE_FLAGS if getattr(args, name) is not None), None)
        if stray is not None:
            raise WordvecError(f"--{stray.replace('_', '-')} needs --autotune-validation FILE (the labelled lines "
                               "autotune scores its trials on)")
        return None
    from wordvec.models.classifier.autotune import AutotuneSettings  # loads the compiled kernels, as training does
    settings = AutotuneSettings(
        validation=args.autotune_validation, metric=args.autotune_metric or "f1",
        predictions=1 if args.autotune_predictions is None else args.autotune_predictions,
        duration=300.0 if args.autotune_duration is None else args.autotune_duration,
        model_size=args.autotune_model_size or "", fixed=fixed)
    settings.parsed()
    if settings.model_size and not is_native(args.output) and not args.output.lower().endswith(".ftz"):
        raise WordvecError(f"--autotune-model-size writes a quantized model: name the output MODEL.ftz or a "
                           f"directory, not {args.output}")
    return settings


def _autotuned(args, config, settings):
    """The model autotune finds (``wordvec.models.classifier.autotune``), its search on stderr."""
    from wordvec.models.classifier import autotune
    show = not (args.quiet or args.no_progress)
    found = autotune.search(config, args.train, settings,
                            on_trial=(lambda trial: print(autotune.progress_line(trial), end="", file=sys.stderr,
                                                          flush=True)) if show else None)
    if show:
        print("\nTraining again with best arguments", file=sys.stderr)  # fastText's line
    if not args.quiet:
        print(autotune.summary(found, settings), file=sys.stderr)
    return autotune.final_model(found, args.train, args.valid).model


def run_test(args):
    _require_file(args.test, "test file")
    predictor = _predictor(args.model)
    meter = file_meter(predictor, args.test, args.k, args.threshold)
    if args.json:
        import json  # only here: ~1 ms of every predict and test process otherwise
        print(json.dumps({"N": meter.n, f"P@{args.k}": meter.precision, f"R@{args.k}": meter.recall}))
        return 0
    if args.per_label:
        _print_per_label(predictor.labels, meter)
    print(f"N\t{meter.n}\nP@{args.k}\t{_g3(meter.precision)}\nR@{args.k}\t{_g3(meter.recall)}")
    return 0


def _g3(value):
    """C++'s ``setprecision(3)`` of a double, as fastText prints it."""
    return "-nan" if value != value else f"{value:.3g}"


def _print_per_label(labels, meter: Meter):
    precision, recall, f1 = meter.label_scores()
    for i, label in enumerate(labels):
        print(f"F1-Score : {_score(f1[i])}  Precision : {_score(precision[i])}  "
              f"Recall : {_score(recall[i])}   {label}")


def _score(value):
    return "--------" if value != value else f"{value:.6f}"


def run_predict(args):
    _require_file(args.input, "input file")
    predictor = _predictor(args.model)
    source = sys.stdin.buffer if args.input == "-" else None
    blocks = _stdin_blocks(source) if source is not None else text_blocks(args.input)
    out = sys.stdout
    names = predictor.labels
    for block in blocks:
        encoded = predictor.encode(block)
        if args.k == 1 and not args.probabilities:  # fastText's default: one label a line, all lines at once
            out.write(_best_lines(predictor, encoded, names, args.threshold))
            continue
        lines = []
        for ids, probabilities in predictor.top_k(encoded, args.k, args.threshold):
            if args.probabilities:
                lines.append(" ".join(f"{names[i]} {_g6(p)}" for i, p in zip(ids, probabilities)))
            else:
                lines.append(" ".join(names[i] for i in ids))
        out.write("\n".join(lines) + "\n")
    return 0


def _best_lines(predictor, encoded, names, threshold):
    """The lines of ``predict -k 1``: each document's best label (an empty line for none),
    chosen and named by array operations (a tuple of lists per document was ~2 ms of
    SST's 1,821 sentences)."""
    best = best_labels(predictor.probabilities(encoded), np.diff(encoded.row_offsets) == 0, threshold)
    named = np.array(names + [""], dtype=object)  # -1: the empty name after the labels
    return "\n".join(named[best].tolist()) + "\n"


def _g6(value):
    """C++'s default ostream formatting of a double (6 significant digits)."""
    return f"{value:.6g}"


def _stdin_blocks(handle):
    while True:
        block = handle.read(1 << 22)
        if not block:
            return
        rest = handle.readline()
        yield block + rest if block.endswith(b"\n") or not rest else block + rest


SUBCOMMANDS = {"train": _register_train, "test": _register_test, "predict": _register_predict,
               "quantize": _register_quantize, "info": _register_info}


def run_quantize(args):
    if args.retrain and (args.input is None or args.cutoff == 0):  # fastText retrains only after a cutoff
        raise WordvecError("--retrain needs --cutoff N and --input TRAIN (the data to retrain the kept rows on)")
    _require_file(args.input, "training file")
    model = _compiled().Classifier.load(args.model)
    _compiled().check_supervised(model, args.model)
    small = model.quantize(cutoff=args.cutoff, retrain=args.retrain, qnorm=args.qnorm, dsub=args.dsub,
                           input=args.input, epoch=args.epoch, lr=args.lr, threads=args.threads)
    small.save(args.output)
    return 0

