"""Argument types and argument groups shared by several commands.

Counts and sizes are checked against the one table of ranges, ``wordvec.limits``, while
the arguments are parsed (before any file is read): ``type=ranged("window")``.  Whole
numbers may be written in scientific notation (``--tokens 2e6``).
"""

import argparse
import math
import os
import re
import sys

from wordvec import limits
from wordvec.cli import flags
from wordvec.errors import WordvecError


class Parser(argparse.ArgumentParser):
    """argparse with usage errors in wordvec's form: one line, ``wordvec: error: ...``,
    exit status 2 (subcommand parsers inherit it)."""

    def __init__(self, *args, allow_abbrev=False, **kwargs):  # --epoch is never a prefix of --epochs
        super().__init__(*args, allow_abbrev=allow_abbrev, **kwargs)

    def error(self, message):
        self.exit(2, f"wordvec: error: {explained(self, message)} (see `{self.prog} --help`)\n")

    def _parse_optional(self, arg_string):
        found = super()._parse_optional(arg_string)
        for option in found if isinstance(found, list) else [found]:  # (action, spelling, value)
            if isinstance(option, tuple) and option[0] is not None and option[1]:
                self._typed["/".join(option[0].option_strings)] = option[1]
        return found

    def parse_known_args(self, args=None, namespace=None):
        self._typed = {}  # option -> the spelling this command line gave it (for its errors)
        namespace, extras = super().parse_known_args(args, namespace)
        if extras and " " in self.prog:  # a command's own parser: its help and its flags
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras

    def _get_formatter(self):
        # argparse's own asks shutil for the width (on every add_argument, to check it), and
        # shutil imports zlib, bz2 and lzma: ~2.5 ms of every command, `classify predict`'s 0.1 s
        return self.formatter_class(prog=self.prog, width=terminal_columns() - 2)


def explained(parser, message):
    """argparse's ``message`` with the closest valid spelling of what was mistyped, and an
    option given by an alias named as typed (``argument --lr (--alpha): ...``)."""
    named = re.match(r"argument (\S+): ", message)
    typed = getattr(parser, "_typed", {}).get(named[1]) if named else None
    if typed and typed != named[1].split("/")[-1]:
        message = f"argument {typed} ({named[1]}): {message[named.end():]}"
    choice = re.match(r"argument (\S+): invalid choice: '?(.*?)'? \(choose from", message)
    if choice:
        action = next((a for a in parser._actions if a.choices and (a.metavar == choice[1] or choice[1] in
                       ("/".join(a.option_strings), str(a.dest)))), None)
        if action is None:
            return message
        word, options = choice[2], list(action.choices)
        suggestion = flags.closest(word, options)
        hint = f"; did you mean {suggestion}?" if suggestion else f" (one of {', '.join(options)})"
        if isinstance(action, argparse._SubParsersAction):
            return f"unknown command {word!r}{hint}"
        return f"{choice[1]} {word!r} is not a choice{hint}"
    missing = re.match(r"the following arguments are required: COMMAND", message)
    if missing:
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
        return f"{parser.prog} needs a COMMAND: {', '.join(commands)}"
    if message.startswith("unrecognized arguments: "):
        unknown = [w.split("=", 1)[0] for w in message.split()[2:] if w.startswith("--")]
        known = [s for a in parser._actions for s in a.option_strings if s.startswith("--")]  # as --help shows them
        suggestion = next((flags.closest(w, known) for w in unknown if flags.closest(w, known)), None)
        if suggestion:
            return f"{message}; did you mean {suggestion}?"
    return message


def terminal_columns():
    """``shutil.get_terminal_size().columns`` without importing shutil: $COLUMNS, else the
    terminal's width, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


def ranged(name):
    """An argument type: a whole number within ``limits.LIMITS[name]``."""
    def parse(text):
        value = limits.parse_whole(text)
        if value is None:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}")
        try:
            return limits.check_int(name, value, option="the value")
        except WordvecError as error:
            raise argparse.ArgumentTypeError(str(error).replace("the value ", "", 1)) from None

    parse.__name__ = name  # argparse names the type in some messages
    return parse


def positive_int(text):
    value = _number(text, int)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text}")
    return value


def nonnegative_int(text):
    value = _number(text, int)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, not {text}")
    return value


def positive_float(text):
    value = _number(text, float)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a number > 0, not {text}")
    return value


def nonnegative_float(text):
    value = _number(text, float)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be a number >= 0, not {text}")
    return value


def finite_float(text):
    return _number(text, float)


def fraction(text):
    """A probability-like rate in [0, 1), e.g. dropout."""
    value = _number(text, float)
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"must be a number from 0 up to (not including) 1, not {text}")
    return value


def _number(text, kind):
    """``text`` as a whole number (also ``2e6``) or a finite float; argparse's error otherwise."""
    value = limits.parse_whole(text) if kind is int else None
    if kind is float:
        try:
            value = float(text)
        except ValueError:
            value = None
        if value is not None and not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, not {text!r}")
    if value is None:
        noun = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"must be {noun}, not {text!r}")
    return value


def single_dash_flags(arguments, kinds, unknown, missing):
    """Another tool's command line of single-dash flags, each with its value (``-size 100
    -hs 1``), as {flag: value}; argparse would misread it (``-hs`` as ``-h s``).

    ``kinds``: flag -> int, float or str (the value's type), or bool (a switch: no value,
    True when given).  ``unknown(flag)`` and ``missing(flag)``: the tool's sentence for a
    flag it does not know and for one without its value.  Every refusal is one sentence
    (``WordvecError``); a later flag overrides an earlier one, as in the C tools.
    """
    values = {}
    position = 0
    while position < len(arguments):
        flag = arguments[position]
        if flag not in kinds:
            raise WordvecError(unknown(flag))
        kind = kinds[flag]
        if kind is bool:
            values[flag], position = True, position + 1
            continue
        if position + 1 == len(arguments):
            raise WordvecError(missing(flag))
        text = arguments[position + 1]
        try:
            values[flag] = kind(text)
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise WordvecError(f"{flag} takes {what}, not {text!r}") from None
        position += 2
    return values


def add_corpus_arguments(parser, min_count_default=5):
    """CORPUS plus the options that decide how it is read and counted."""
    parser.add_argument("corpus", metavar="CORPUS",
                        help="text file (.txt, .gz, .bz2, .xz; one document per line, or one huge "
                             "line like text8) or a directory of such files")
    group = parser.add_argument_group("reading the corpus")
    group.add_argument("--min-count", type=ranged("min_count"), default=min_count_default, metavar="N",
                       help=f"ignore words seen fewer than N times (default {min_count_default})")
    group.add_argument("--max-vocab-size", type=ranged("max_vocab_size"), default=None, metavar="N",
                       help="bound memory while counting by pruning rare words beyond N distinct words")
    group.add_argument("--lowercase", action="store_true", help="lowercase the text before counting")
    group.add_argument("--max-document-length", type=ranged("max_document_length"), default=10_000, metavar="N",
                       help="split documents longer than N tokens (default 10000)")
