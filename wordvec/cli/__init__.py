"""The ``wordvec`` command line.

Each subcommand lives in its own module under ``wordvec.cli`` and exposes
``register(subparsers)``, which adds its parser (its help line comes from ``COMMANDS``) and
sets ``run=<function(args)>``.  Modules import what they use at the top
(docs/architecture.md), so ``COMMANDS`` names each command's module and ``main`` imports
only the one the command line names.

Errors from bad input are ``WordvecError``s: printed as one sentence on stderr,
exit status 2, no traceback.
"""

import argparse
import gc
import importlib
import logging
import sys
import warnings
from typing import NamedTuple

from wordvec import __version__
from wordvec.cli.common import Parser
from wordvec.cli.flags import apply_vocabulary
from wordvec.errors import WordvecError
from wordvec.memory import return_freed_buffers

class Command(NamedTuple):
    module: str  # under wordvec.cli; its register(subparsers) adds the command's parser
    help: str  # the command's line in `wordvec --help`


# Every subcommand, in the order of `wordvec --help`.  A command's module is imported only
# when the command line names it (or to build the whole parser): importing them all loads
# NumPy, Numba and SciPy, which made `wordvec --help` take 1.2-1.8 s instead of ~0.1 s
# (docs/architecture.md, "Start-up").  A module may hold several commands (vectors.py).
COMMANDS = {
    "demo": Command("demo", "train on a built-in corpus (or yours) and show the analogies learned"),
    "train": Command("train.command", "learn word vectors from a corpus (word2vec, GloVe, PPMI-SVD)"),
    "vocab": Command("vocab", "count the words of a corpus and show or save the vocabulary"),
    "phrases": Command("phrases", "detect phrases (word pairs that belong together) and join them in the text"),
    "similar": Command("vectors", "nearest neighbours of words by cosine similarity"),
    "index": Command("vectors", "build the approximate nearest-neighbour index of vectors"),
    "analogy": Command("vectors", "solve 'A is to B as C is to ?'"),
    "evaluate": Command("vectors", "analogy accuracy and word-similarity correlation"),
    "convert": Command("vectors", "convert vectors between formats"),
    "info": Command("vectors", "size, format, norms and training history of vectors or a model"),
    "doc2vec": Command("doc2vec", "document vectors: Doc2Vec (PV-DBOW, PV-DM) and inference"),
    "embed": Command("embed", "sentence vectors from word vectors (mean, SIF, Zipf+PCA) or a static model"),
    "static": Command("static", "static sentence models: distill a sentence transformer, train toward it, on pairs"),
    "cooccur": Command("cooccur", "count the word-word co-occurrence matrix of a corpus (.npz)"),
    "task": Command("task", "train the window classifier on an extrinsic task (ner, pos, sentiment, charlm)"),
    "classify": Command("classify", "text classification as fastText's supervised mode "
                                    "(train, test, predict, quantize; reads and writes fastText .bin/.ftz)"),
    "lm": Command("lm", "train, evaluate and sample language models (RNN, LSTM, attention)"),
    "report": Command("report", "write a self-contained HTML report with plots about a model or vector file"),
    "serve": Command("serve", "explore vectors in the browser: neighbours, analogies, similarity, a 2-D map"),
    "compile": Command("compile", "compile the kernels ahead of time, so that no later command compiles"),
    "word2vec": Command("foreign.word2vec_c", "the word2vec C tool's command line (-train FILE -output FILE -size ...)"),
    "fasttext": Command("foreign.fasttext",
                        "fastText's command line (skipgram|cbow|supervised|test|predict|nn|analogies|...)"),
}

# Commands that take another tool's own command line (single-dash flags such as -hs, -dim),
# which argparse would misread: their modules parse everything after the command name.
FOREIGN_COMMAND_LINES = ("word2vec", "fasttext")


DESCRIPTION = """\
Learn word embeddings and the small models built on them, with every gradient
derived by hand and executed by compiled kernels.

Start with `wordvec demo` (trains on a built-in synthetic corpus and shows the
analogies it learned), then `wordvec train YOUR_CORPUS.txt -o vectors.bin`.
Run `wordvec COMMAND --help` for the options of each command.
"""


def build_parser(commands=None, argv=()):
    """The whole command line, with the parsers of `commands` (names; None: all of them) built
    by their modules; every other command is only its name and help line. ``argv``, the
    command line to parse, lets a module with several subcommands build only the one it
    names (``classify``)."""
    parser = Parser(
        prog="wordvec", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    _add_verbosity(parser)
    parser.add_argument("--version", action="version", version=f"wordvec {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    named = [name for name in (COMMANDS if commands is None else commands) if name in COMMANDS]
    modules = {COMMANDS[name].module for name in named}
    # the others only list themselves in --help and in an unknown command's error: when every
    # named command is known they are left out (25 stub parsers took ~8 ms of `classify predict`)
    stubs = commands is None or len(named) < len(commands)
    for name, command in COMMANDS.items():
        if command.module not in modules:
            if stubs:
                subparsers.add_parser(name, help=command.help)
        elif name not in subparsers.choices:  # the module adds all its commands at once
            module = importlib.import_module(f"wordvec.cli.{command.module}")
            module.register(_TableHelp(subparsers, argv))
    for command in subparsers.choices.values():  # accept -v / -q after the command too
        _add_verbosity(command, default=argparse.SUPPRESS)
    apply_vocabulary(parser)
    return parser


class _TableHelp:
    """The subparsers as a command module sees them: each command's help line comes from
    COMMANDS; ``argv`` is the command line being parsed (empty when building them all)."""

    def __init__(self, subparsers, argv=()):
        self._subparsers, self.argv = subparsers, list(argv)

    def add_parser(self, name, **options):
        return self._subparsers.add_parser(name, help=COMMANDS[name].help, **options)


def _named_command(argv):
    """The command argv names: its first word that is not an option (-h, -v, -q take no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


def _add_verbosity(parser, default=False):
    parser.add_argument("-v", "--verbose", action="store_true", default=default, help="log debugging details")
    parser.add_argument("-q", "--quiet", action="store_true", default=default,
                        help="log only warnings and errors")


def _short_os_error(error):
    name = f" {error.filename}" if getattr(error, "filename", None) else ""
    reason = error.strerror or str(error)
    return f"cannot access{name}: {reason}"


def _unwritable_output(error):
    """The sentence for a UnicodeEncodeError: writing failed, and which encoding lacked what."""
    text = ascii(error.object[error.start:error.end]) if isinstance(error.object, str) else "a character"
    return (f"writing output failed: the output encoding {error.encoding!r} cannot represent {text}; "
            "use a UTF-8 locale or set PYTHONIOENCODING=utf-8")


def main(argv=None):
    """The ``wordvec`` command line; ``argv`` None: this process's own (the console script,
    ``python -m wordvec``), which ends when the command returns."""
    entry_point = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(commands=[_named_command(argv)], argv=argv)
    if argv and argv[0] in FOREIGN_COMMAND_LINES:
        args = parser.parse_args(argv[:1])
        args.arguments = argv[1:]
    else:
        args = parser.parse_args(argv)  # a usage error: one line, SystemExit(2)
    if args.command is None:
        parser.print_help()
        return 2
    level = logging.DEBUG if args.verbose else logging.WARNING if args.quiet else logging.INFO
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("numba").setLevel(max(level, logging.INFO))  # its DEBUG is compiler traces
    if getattr(args, "return_freed_buffers", True):  # a command may opt out (classify predict/test)
        return_freed_buffers()  # a process-wide malloc setting: only where wordvec owns the process
    status = _run(args)
    _sum_up_compiling()
    if entry_point:
        # the process ends next, and the interpreter's collections at exit would walk every
        # object alive, Numba's many among them: ~85 ms of a `classify train` (0.10 s -> 18 ms
        # from its last line to its end, measured); frozen, they are left to the OS
        gc.freeze()
    return status


def _sum_up_compiling():
    """One line at the end of a command that compiled kernels (a first run): how many, how
    long, and that later runs load them from Numba's cache."""
    compiling = sys.modules.get("wordvec.kernels.compiling")  # not imported: nothing compiled
    if compiling is not None and compiling.count():
        logging.getLogger("wordvec.kernels.compiling").info(
            "compiled %d kernels in %.1f s; later runs load them from the cache", compiling.count(),
            compiling.seconds())


def _run(args):
    """The command's exit status; bad input and the like: one sentence on stderr (the
    RuntimeWarnings of the failed work before it are dropped: the sentence says what went
    wrong; after work that succeeds they are shown at the end)."""
    held, show = [], warnings.showwarning

    def hold(message, category, *where, **options):
        if issubclass(category, RuntimeWarning):
            held.append((message, category, *where))
        else:
            show(message, category, *where, **options)

    with warnings.catch_warnings():
        warnings.showwarning = hold
        status = _run_command(args)
    if not status:
        for warning in held:
            warnings.showwarning(*warning)
    return status


def _run_command(args):
    try:
        gate = getattr(args, "gate", None)  # set by wordvec.cli.gate.mark on a command that writes or reads
        if gate is not None:
            gate.check(args)  # outputs and inputs, before any work
        status = args.run(args)
    except WordvecError as error:
        print(f"wordvec: error: {error}", file=sys.stderr)
        return getattr(error, "exit_status", 2)  # 130 for a run stopped by Ctrl-C
    except BrokenPipeError:  # output piped into `head` and closed early: not an error
        sys.stderr.close()
        return 0
    except OSError as error:  # missing file, permission denied, disk full ...
        print(f"wordvec: error: {_short_os_error(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("wordvec: interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print("wordvec: error: not enough memory for this request", file=sys.stderr)
        return 2
    except UnicodeEncodeError as error:  # printing a word the output's encoding lacks
        print(f"wordvec: error: {_unwritable_output(error)}", file=sys.stderr)
        return 2
    except UnicodeError as error:  # a reader that missed its own check: still one sentence
        print(f"wordvec: error: input is not valid UTF-8 text ({error})", file=sys.stderr)
        return 2
    return status or 0


if __name__ == "__main__":
    sys.exit(main())
