"""Hypothesis-damaged copies of the files the migration paths read: word2vec.c's
vocabulary (``-read-vocab``) and a frozen gensim-style phrase model (JSON).  A reader must
return something consistent or raise a ``WordvecError`` naming the file, never another
exception; through the CLI, exit 2 with one sentence and no output file."""

import io
import sys

import numpy as np
from hypothesis import HealthCheck, given, settings

from wordvec.cli import main
from wordvec.errors import WordvecError
from wordvec.io import word2vec_c
from wordvec.models.phrases.model import FrozenPhrases, Phrases

from .test_corrupt_files import EDITS, damage

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)

VOCAB = b"</s> 40\nthe 30\nof 20\nz\xc3\xbcrich 9\nand 5\n"


@SETTINGS
@given(EDITS)
def test_a_damaged_c_vocabulary_reads_or_fails_in_one_sentence(tmp_path_factory, edits):
    path = tmp_path_factory.mktemp("vocab") / "vocab.txt"
    path.write_bytes(damage(VOCAB, edits))
    try:
        words, counts = word2vec_c.read_vocab(path)
    except WordvecError as error:
        assert "vocab.txt" in str(error) and "\n" not in str(error)
        return
    assert len(words) == len(set(words)) == len(counts) > 0
    assert counts.dtype == np.int64 and (counts >= 0).all() and all(w and " " not in w for w in words)


@SETTINGS
@given(EDITS)
def test_a_damaged_vocabulary_through_the_command_line(tmp_path_factory, edits):
    root = tmp_path_factory.mktemp("cli")
    (root / "vocab.txt").write_bytes(damage(VOCAB, edits))
    (root / "corpus.txt").write_text("the of and the of zürich and the\n" * 30)
    old_stderr, sys.stderr = sys.stderr, io.StringIO()
    try:
        status = main(["word2vec", "-train", str(root / "corpus.txt"), "-read-vocab", str(root / "vocab.txt"),
                       "-save-vocab", str(root / "saved.txt"), "-min-count", "1", "-debug", "0"])
        err = sys.stderr.getvalue()
    finally:
        sys.stderr = old_stderr
    if status != 0:
        assert status == 2 and err.startswith("wordvec: error: ") and err.count("\n") == 1
        assert not (root / "saved.txt").exists()


@SETTINGS
@given(EDITS)
def test_damaged_frozen_phrases_load_or_fail_in_one_sentence(tmp_path_factory, edits):
    root = tmp_path_factory.mktemp("phrases")
    corpus = [["new", "york", "is", "big"], ["new", "york", "city"], ["hot", "dog", "stand"]] * 5
    Phrases(corpus, min_count=1, threshold=0.1).freeze().save(root / "phrases.json")
    path = root / "phrases.json"
    path.write_bytes(damage(path.read_bytes(), edits))
    try:
        frozen = FrozenPhrases.load(path)
    except WordvecError as error:
        assert "phrases.json" in str(error) and "\n" not in str(error)
        return
    frozen[["new", "york", "hot", "dog"]]  # usable: joins or not, never an exception
