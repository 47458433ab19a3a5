"""Text as fastText reads it (``Dictionary::readWord``): tokens split on space, tab,
vertical tab, form feed, carriage return and NUL; a newline ends a line and is the token
``</s>`` (EOS). Nothing else (no Unicode spaces) separates tokens."""

import re

from wordvec.fasttext.options import FastTextError

EOS = "</s>"
BOW = "<"
EOW = ">"
MAX_LINE_SIZE = 1024  # fastText's unsupervised training reads at most this many tokens per line

_SEPARATORS = re.compile("[ \t\v\f\r\0]+")


def words_of(segment):
    """The tokens of a text without newlines."""
    return [token for token in _SEPARATORS.split(segment) if token]


def tokenize(text):
    """fastText's ``tokenize``: every token of ``text``, a newline giving ``</s>``."""
    lines = text.split("\n")
    tokens = []
    for line in lines[:-1]:
        tokens.extend(words_of(line))
        tokens.append(EOS)
    tokens.extend(words_of(lines[-1]))
    return tokens


def first_line_tokens(text):
    """The tokens fastText's getLine reads from ``text + '\\n'``: up to and including the
    first ``</s>``, be it a newline or the literal token."""
    tokens = []
    for token in tokenize(text + "\n"):
        tokens.append(token)
        if token == EOS:
            break
    return tokens


def one_line(text, what):
    """``text`` if it holds no newline, else fastText's ValueError."""
    if not isinstance(text, str):
        raise TypeError(f"{what} takes a str or a list of str, not {type(text).__name__}")
    if "\n" in text:
        raise FastTextError(f"{what} processes one line at a time (remove '\\n')")
    return text


def training_sentences(path, label_prefix):
    """An unsupervised training file as fastText trains on it: per line its words (tokens
    with the label prefix left out) and ``</s>``, cut into pieces of ``MAX_LINE_SIZE`` tokens."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="\n") as handle:
        for line in handle:
            ended = line.endswith("\n")
            tokens = [t for t in words_of(line.rstrip("\n")) if not t.startswith(label_prefix)]
            if ended:
                tokens.append(EOS)
            for start in range(0, len(tokens), MAX_LINE_SIZE):
                yield tokens[start:start + MAX_LINE_SIZE]
