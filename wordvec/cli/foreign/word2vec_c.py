"""``wordvec word2vec`` (also ``wordvec-word2vec``): the word2vec C tool's command line, as it is.

    wordvec word2vec -train text8 -output vectors.bin -cbow 1 -size 200 -window 8 \\
        -negative 25 -hs 0 -sample 1e-4 -threads 20 -binary 1 -iter 15

Every flag of word2vec.c, with its defaults (CBOW; alpha 0.05 for CBOW and 0.025 for
skip-gram; sample 1e-3; window 5; negative 5; hs 0; iter 5; min-count 5; size 100;
threads 12), in any order, each followed by its value.  The output files are laid out
byte for byte as the C tool writes them (``wordvec.io.word2vec_c``).  Training is
wordvec's ``Word2Vec`` with the C tool's schedule: corpus order every epoch (no
shuffling), the learning rate decaying linearly to alpha * 1e-4.  ``-hs 1 -negative 5``
trains both output layers together, as the C tool does.

Where wordvec differs (docs/migrating.md): the vocabulary has no ``</s>`` entry
(wordvec trains lines as documents instead of a line-end token, so the output has one
row fewer and ``-read-vocab`` skips a ``</s>`` line); more threads than cores are not
started; an unknown flag or a malformed value is refused in one sentence (the C tool
ignores the one and reads the other as 0).
"""

import argparse
import logging
import sys

from wordvec import limits
from wordvec.cli import gate
from wordvec.cli import main as wordvec_main
from wordvec.cli.common import single_dash_flags
from wordvec.data.vocab import Vocabulary
from wordvec.errors import WordvecError
from wordvec.io import word2vec_c
from wordvec.models.base.config import available_cores
from wordvec.models.word2vec.model import Word2Vec
from wordvec.vectors.clusters import c_tool_classes

LINE_END = "</s>"  # the C tool's token for a newline; wordvec has none

# flag: (kind, default); None = the default depends on other flags (alpha) or is "unset"
FLAGS = {
    "-train": (str, None), "-output": (str, None), "-size": (int, 100), "-window": (int, 5),
    "-sample": (float, 1e-3), "-hs": (int, 0), "-negative": (int, 5), "-threads": (int, 12),
    "-iter": (int, 5), "-min-count": (int, 5), "-alpha": (float, None), "-classes": (int, 0),
    "-debug": (int, 2), "-binary": (int, 0), "-save-vocab": (str, None), "-read-vocab": (str, None),
    "-cbow": (int, 1),
}

USAGE = """\
WORD VECTOR estimation toolkit (wordvec's word2vec.c command line)

Options:
Parameters for training:
\t-train <file>\t\tUse text data from <file> to train the model
\t-output <file>\t\tUse <file> to save the resulting word vectors / word clusters
\t-size <int>\t\tSet size of word vectors; default is 100
\t-window <int>\t\tSet max skip length between words; default is 5
\t-sample <float>\t\tDown-sample frequent words above this frequency; default is 1e-3
\t-hs <int>\t\tUse Hierarchical Softmax; default is 0 (not used)
\t-negative <int>\t\tNumber of negative examples; default is 5 (0 = not used)
\t-threads <int>\t\tUse <int> threads (default 12, at most the machine's cores)
\t-iter <int>\t\tRun more training iterations (default 5)
\t-min-count <int>\tDiscard words that appear less than <int> times; default is 5
\t-alpha <float>\t\tStarting learning rate; default is 0.025 for skip-gram and 0.05 for CBOW
\t-classes <int>\t\tOutput word classes rather than word vectors; default is 0 (vectors)
\t-debug <int>\t\tDebug mode (default 2 = progress during training; 0 = quiet)
\t-binary <int>\t\tSave the resulting vectors in binary mode; default is 0 (off)
\t-save-vocab <file>\tThe vocabulary will be saved to <file>
\t-read-vocab <file>\tThe vocabulary will be read from <file>, not built from the training data
\t-cbow <int>\t\tUse the continuous bag of words model; default is 1 (0 = skip-gram)

Differences from the C tool: docs/migrating.md (no </s> row; unknown flags refused).

Example:
wordvec word2vec -train data.txt -output vec.txt -size 200 -window 5 -sample 1e-4 -negative 5 -hs 0 -binary 0 -cbow 1 -iter 3
"""

# the output gate's marks (wordvec.cli.gate): the flags naming files written and read
OUTPUT_FLAGS = ("-output", "-save-vocab")
INPUT_FLAGS = ("-train", "-read-vocab")


def register(subparsers):
    parser = subparsers.add_parser(
        "word2vec",
        description=USAGE, formatter_class=argparse.RawDescriptionHelpFormatter, add_help=False)
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="the C tool's flags, each with its value")
    parser.set_defaults(run=run)


def parse(arguments):
    """{flag: value} for every flag, defaults filled in; one sentence for anything wrong."""
    values = {flag: default for flag, (_, default) in FLAGS.items()}
    values.update(single_dash_flags(
        arguments, {flag: kind for flag, (kind, _) in FLAGS.items()},
        unknown=lambda flag: f"unknown option {flag!r} for the word2vec command line (known: {' '.join(FLAGS)})",
        missing=lambda flag: f"Argument missing for {flag}"))
    if values["-alpha"] is None:
        values["-alpha"] = 0.05 if values["-cbow"] else 0.025
    return values


def _check(values):
    if values["-train"] is None:
        raise WordvecError("-train <file> is required: the text to learn from")
    for flag in ("-hs", "-cbow", "-binary"):
        if values[flag] not in (0, 1):
            raise WordvecError(f"{flag} takes 0 or 1, not {values[flag]}")
    for flag, name in (("-size", "vector_size"), ("-window", "window"), ("-negative", "negative"),
                       ("-iter", "epochs"), ("-min-count", "min_count"), ("-threads", "threads")):
        limits.check_int(name, values[flag], option=flag)
    if values["-classes"] < 0:
        raise WordvecError(f"-classes takes a number of classes >= 0, not {values['-classes']}")
    if not values["-hs"] and values["-negative"] == 0:
        raise WordvecError("-hs 0 with -negative 0 leaves no output layer to train; set -negative 5 or -hs 1")


def _model(values):
    alpha = values["-alpha"]
    return Word2Vec(
        vector_size=values["-size"], window=values["-window"], min_count=values["-min-count"],
        sg=0 if values["-cbow"] else 1, hs=values["-hs"], negative=values["-negative"], cbow_mean=1,
        sample=values["-sample"], alpha=alpha, min_alpha=alpha * 1e-4, epochs=values["-iter"],
        workers=min(values["-threads"], available_cores()), shuffle=False, progress=values["-debug"] >= 2)


def _read_vocabulary(path, min_count):
    words, counts = word2vec_c.read_vocab(path)
    kept = [(w, c) for w, c in zip(words, counts) if c >= min_count and w != LINE_END]
    if not kept:
        raise WordvecError(f"{path}: no word of the vocabulary file is counted -min-count ({min_count}) times")
    kept.sort(key=lambda pair: -pair[1])  # the C tool's SortVocab: by descending count
    return Vocabulary([w for w, _ in kept], [c for _, c in kept], min_count=min_count)


def run(args):
    if not args.arguments or args.arguments[0] in ("-h", "--help", "-help"):
        print(USAGE)  # as the C tool run without arguments
        return 0
    values = parse(args.arguments)
    _check(values)
    gate.check_paths(outputs=[(values[flag], gate.FILE) for flag in OUTPUT_FLAGS],
                     inputs=[values[flag] for flag in INPUT_FLAGS], text_inputs=[values["-train"]])
    logging.getLogger().setLevel(logging.WARNING if values["-debug"] == 0 else logging.INFO)
    model = _model(values)
    print(f"Starting training using file {values['-train']}", flush=True)
    if values["-read-vocab"] is not None:
        model.set_vocabulary(_read_vocabulary(values["-read-vocab"], values["-min-count"]))
    else:
        model.build_vocab(corpus_file=values["-train"])
    if values["-debug"] > 0:
        print(f"Vocab size: {len(model.vocab)}\nWords in train file: {model.vocab.corpus_tokens}", flush=True)
    if values["-save-vocab"] is not None:
        word2vec_c.write_vocab(values["-save-vocab"], model.vocab.words, model.vocab.counts)
    if values["-output"] is None:
        return 0  # as the C tool: only the vocabulary was asked for
    model.train(corpus_file=values["-train"])
    vectors = model.wv.vectors
    if values["-classes"] > 0:
        word2vec_c.write_classes(values["-output"], model.wv.index_to_key, c_tool_classes(vectors, values["-classes"]))
    else:
        word2vec_c.write_vectors(values["-output"], model.wv.index_to_key, vectors, binary=bool(values["-binary"]))
    return 0


def console_main():
    """The ``wordvec-word2vec`` console script: ``wordvec word2vec`` under the C tool's habits."""
    sys.exit(wordvec_main(["word2vec", *sys.argv[1:]]))
