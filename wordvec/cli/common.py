"""Argument types and argument groups shared by several commands."""

import argparse


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


def _number(text, kind):
    try:
        return kind(text)
    except ValueError:
        noun = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"must be {noun}, not {text!r}") from None


def add_corpus_arguments(parser, min_count_default=5):
    """CORPUS plus the options that decide how it is read and counted."""
    parser.add_argument("corpus", metavar="CORPUS",
                        help="text file (.txt, .gz, .bz2, .xz; one document per line, or one huge "
                             "line like text8) or a directory of such files")
    group = parser.add_argument_group("reading the corpus")
    group.add_argument("--min-count", type=positive_int, default=min_count_default, metavar="N",
                       help=f"ignore words seen fewer than N times (default {min_count_default})")
    group.add_argument("--max-vocab-size", type=positive_int, default=None, metavar="N",
                       help="bound memory while counting by pruning rare words beyond N distinct words")
    group.add_argument("--lowercase", action="store_true", help="lowercase the text before counting")
    group.add_argument("--max-document-length", type=positive_int, default=10_000, metavar="N",
                       help="split documents longer than N tokens (default 10000)")
