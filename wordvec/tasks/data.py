"""Readers for the extrinsic-task data sets, in their original formats.

Each reader returns plain Python lists (sentences as token lists, labels as tag lists) so
that the models stay independent of file formats. Compressed files (``.xz``, ``.gz``,
``.bz2``) are read directly, through the corpus reader's opener.
A missing folder or file is a :class:`WordvecError` naming what is absent.
"""

import lzma
import os
import re
import tarfile

from wordvec.data.corpus import open_text, split_tokens
from wordvec.errors import FormatError, WordvecError


def require_folder(directory, task, needs):
    """Raise a one-sentence WordvecError if ``directory`` lacks any of ``needs`` (file names)."""
    if not os.path.isdir(directory):
        raise WordvecError(f"the {task} task needs its data folder, and {directory} does not exist")
    missing = [name for name in needs if not os.path.exists(os.path.join(directory, name))]
    if missing:
        raise WordvecError(f"the {task} task needs {', '.join(missing)} in {directory}, which is absent")


# -- Brown corpus (POS) -----------------------------------------------------------------

BROWN_ARCHIVE = "brown_tagged_original.tar.xz"
_BROWN_FILE = re.compile(r"(?:^|/)c[a-r](\d\d)$")
_BROWN_SUFFIXES = ("-tl", "-hl", "-nc")


def brown_split(file_number):
    """test: number a multiple of 10 (ca10, ca20, …); valid: number ending in 5; train: the rest."""
    if file_number % 10 == 0:
        return "test"
    if file_number % 10 == 5:
        return "valid"
    return "train"


def simplify_brown_tag(tag):
    """Drop the title/headline/cited-word suffixes and the foreign-word prefix; keep compounds.

    "nn-tl" → "nn", "np$-tl-hl" → "np$", "fw-nn" → "nn", "nn+bez" stays "nn+bez".
    """
    tag = tag.lower()
    if tag.startswith("fw-"):
        tag = tag[3:]
    stripped = True
    while stripped:
        stripped = False
        for suffix in _BROWN_SUFFIXES:
            if tag.endswith(suffix) and len(tag) > len(suffix):
                tag, stripped = tag[: -len(suffix)], True
    return tag


def parse_brown_line(line, path="", line_number=None):
    """One sentence line of ``word/tag`` tokens → (words, simplified tags)."""
    words, tags = [], []
    for item in split_tokens(line):
        word, slash, tag = item.rpartition("/")
        if not slash or not word or not tag:
            raise FormatError(path, line_number, f"token {item!r} is not of the form word/tag")
        words.append(word)
        tags.append(simplify_brown_tag(tag))
    return words, tags


def read_brown(directory):
    """{"train"|"valid"|"test": (sentences, tags)} from the Brown archive, split by file number."""
    require_folder(directory, "pos", [BROWN_ARCHIVE])
    archive = os.path.join(directory, BROWN_ARCHIVE)
    splits = {name: ([], []) for name in ("train", "valid", "test")}
    try:
        with tarfile.open(archive, "r:xz") as tar:
            for member in tar:
                match = _BROWN_FILE.search(member.name)
                if not member.isfile() or not match:
                    continue
                sentences, tags = splits[brown_split(int(match.group(1)))]
                try:
                    text = tar.extractfile(member).read().decode("utf-8")
                except UnicodeDecodeError as error:
                    raise FormatError(f"{archive}:{member.name}", None, f"not valid UTF-8 text ({error.reason})") from None
                for number, line in enumerate(text.split("\n"), 1):  # not splitlines(): U+2028 ... are text
                    if line.strip():
                        words, line_tags = parse_brown_line(line, f"{archive}:{member.name}", number)
                        sentences.append(words)
                        tags.append(line_tags)
    except (tarfile.TarError, lzma.LZMAError, EOFError, OSError) as error:
        raise WordvecError(f"{archive} is not a readable .tar.xz archive ({error})") from None
    if not splits["train"][0]:
        raise WordvecError(f"{archive} holds no Brown files (package/ca01 … package/cr09)")
    return splits


# -- CoNLL-2003 (NER) -------------------------------------------------------------------

CONLL_FILES = {"train": "train.txt.xz", "valid": "valid.txt.xz", "test": "test.txt.xz"}


def read_conll(path):
    """(sentences, NER tags) from a CoNLL-2003 file: `token … tag` per line, blank line between
    sentences, -DOCSTART- lines skipped. The tag is the last column."""
    sentences, tags, words, labels = [], [], [], []
    with open_text(path) as handle:
        for number, line in enumerate(handle, 1):
            fields = split_tokens(line)
            if not fields or fields[0] == "-DOCSTART-":
                if words:
                    sentences.append(words)
                    tags.append(labels)
                words, labels = [], []
                continue
            if len(fields) < 2:
                raise FormatError(path, number, "expected a token and a tag separated by a space")
            words.append(fields[0])
            labels.append(fields[-1])
    if words:
        sentences.append(words)
        tags.append(labels)
    return sentences, tags


def read_conll_splits(directory):
    require_folder(directory, "ner", CONLL_FILES.values())
    return {split: read_conll(os.path.join(directory, name)) for split, name in CONLL_FILES.items()}


# -- Stanford Sentiment Treebank --------------------------------------------------------

SST_FILES = {"train": "trees/train.txt.xz", "valid": "trees/dev.txt", "test": "trees/test.txt"}
_SST_LEAF = re.compile(r"\(\d ([^()\s]+)\)")


def parse_sst_tree(line, path="", line_number=None):
    """(tokens, root label 0–4) from one PTB-style SST tree."""
    line = line.strip()
    if not (line.startswith("(") and len(line) > 3 and line[1] in "01234"):
        raise FormatError(path, line_number, "expected a tree such as (3 (2 It) (4 works))")
    tokens = _SST_LEAF.findall(line)
    if not tokens:
        raise FormatError(path, line_number, "the tree has no leaves")
    return tokens, int(line[1])


def read_sst(directory):
    """{"train"|"valid"|"test": (sentences, root labels)} from the SST PTB trees."""
    require_folder(directory, "sentiment", SST_FILES.values())
    splits = {}
    for split, name in SST_FILES.items():
        path = os.path.join(directory, name)
        with open_text(path) as handle:
            pairs = [parse_sst_tree(line, path, n) for n, line in enumerate(handle, 1) if line.strip()]
        splits[split] = ([p[0] for p in pairs], [p[1] for p in pairs])
    return splits


# -- plain text, one sequence per line (character LM) -----------------------------------


def read_lines(source):
    """Non-empty lines of a text file, or of every .txt/.txt.xz file in a folder (sorted)."""
    if os.path.isdir(source):
        paths = sorted(os.path.join(source, n) for n in os.listdir(source) if n.endswith((".txt", ".txt.xz")))
        if not paths:
            raise WordvecError(f"the charlm task needs a .txt file in {source}, and there is none")
    elif os.path.exists(source):
        paths = [source]
    else:
        raise WordvecError(f"the charlm task needs a text file or folder, and {source} does not exist")
    lines = []
    for path in paths:
        try:
            with open_text(path) as handle:
                lines.extend(line.rstrip("\n") for line in handle if line.strip())
        except UnicodeDecodeError as error:
            raise FormatError(path, None, f"not UTF-8 text ({error.reason})") from None
    if not lines:
        raise WordvecError(f"{source} holds no text")
    return lines
