"""The ``wordvec`` command line.

Each subcommand lives in its own module under ``wordvec.cli`` and exposes
``register(subparsers)``, which adds its parser and sets ``run=<function(args)>``.
Modules import what they use at the top (docs/architecture.md), so building the parser
loads NumPy and Numba: ``wordvec --help`` takes about a second.

Errors from bad input are ``WordvecError``s: printed as one sentence on stderr,
exit status 2, no traceback.
"""

import argparse
import importlib
import logging
import sys

from wordvec.cli.common import Parser
from wordvec.errors import WordvecError
from wordvec.memory import return_freed_buffers

# One module per subcommand (or group of subcommands); order = order in --help.
COMMAND_MODULES = [
    "demo",
    "train",
    "vocab",
    "phrases",
    "vectors",
    "doc2vec",
    "embed",
    "cooccur",
    "task",
    "classify",
    "lm",
    "report",
    "serve",
    "word2vec_c",
    "fasttext_cli",
]

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


def build_parser():
    parser = Parser(
        prog="wordvec", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    _add_verbosity(parser)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"wordvec.cli.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"wordvec.cli.{name}":
                raise
            continue  # a command not built yet
        module.register(subparsers)
    for command in subparsers.choices.values():  # accept -v / -q after the command too
        _add_verbosity(command, default=argparse.SUPPRESS)
    return parser


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
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
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
    return_freed_buffers()  # a process-wide malloc setting: only where wordvec owns the process
    try:
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
