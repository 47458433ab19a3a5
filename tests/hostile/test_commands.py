"""Hostile inputs for every command, one table row each.

A row names the base inputs it needs (copied into a fresh directory), how it damages
them, the command line, and what must happen: a clean failure whose one line holds the
given fragments, or ``OK`` (plus an optional check of the result).  Every row also
checks that no file was lost or changed: after a failure the directory is exactly as
before; after a success every input is unchanged.  Rows that could crash an interpreter
(corrupt caches and models that compiled kernels index) run as real subprocesses, in
parallel; the rest call ``wordvec.cli.main`` in-process.
"""

import concurrent.futures
import lzma
import os
from unittest import mock
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from . import world
from .harness import assert_clean_failure, digests, run_cli, run_main

OK = ()
TRAIN = ("--min-count", "1", "--vector-size", "8", "--epochs", "1", "--workers", "1", "--no-eval",
         "--no-progress", "-q")
LM_TRAIN = ("--hidden", "4", "--embedding", "3", "--epochs", "1", "--bptt", "4", "--batch-size", "2",
            "--no-progress")


@dataclass
class Case:
    name: str
    argv: tuple  # "{d}" is the case's directory
    inputs: tuple = ()  # base inputs copied into it
    expect: tuple = OK  # fragments of the error line, or OK
    damage: object = None  # function(directory) run before the command
    check: object = None  # function(directory, result) for OK rows
    outputs: tuple = ()  # files an OK row may create or replace
    subprocess: bool = False
    env: dict = field(default_factory=dict)


def _npy(name, array):
    return lambda d: world.save_array(d / name, array)


def _lm_param(array):
    return lambda d: world.save_array(d / "lm" / "params" / "W.npy", array)


def _corrupt_cache(how):
    """Encode corpus.txt into the case's own cache as `train` will, then damage the entry."""
    def damage(d):
        from wordvec.data.corpus import Corpus
        from wordvec.data.encode import encode_corpus
        from wordvec.data.vocab import Vocabulary

        corpus = Corpus(str(d / "corpus.txt"))
        encode_corpus(corpus, Vocabulary.build(corpus, min_count=1), cache_dir=d / "cache")
        stem = next((d / "cache" / "encoded").glob("*.json")).with_suffix("")
        how(stem)
    return damage


def _ids_out_of_range(stem):
    ids = np.fromfile(stem.with_suffix(".ids"), dtype=np.int32)
    ids[::5] = 100_000_000
    ids.tofile(stem.with_suffix(".ids"))


def _ids_shuffled(stem):  # every id still in range: only the checksum can tell
    ids = np.fromfile(stem.with_suffix(".ids"), dtype=np.int32)
    np.random.default_rng(0).shuffle(ids)
    ids.tofile(stem.with_suffix(".ids"))


def _offsets_huge(stem):
    offsets = np.load(stem.with_suffix(".offsets.npy"))
    offsets[1] = 10**15
    np.save(stem.with_suffix(".offsets.npy"), offsets)


def _same_vectors_as_clean_run(d, result):
    """A damaged cache must be re-encoded: the vectors equal those of the undamaged run
    ("train-clean", a subprocess row run beside this one)."""
    from wordvec.io.formats import read_word2vec_text

    words, vectors, _ = read_word2vec_text(d / "out.txt")
    clean_words, clean_vectors, _ = read_word2vec_text(d.parent / "train-clean" / "out.txt")
    assert words == clean_words and np.array_equal(vectors, clean_vectors)
    assert "damaged" in result.stderr


def _loads(path):
    def check(d, result):
        from wordvec.vectors.files import load_vectors

        assert len(load_vectors(d / path)) > 0
    return check


def _symlink(target, name):
    return lambda d: os.symlink(d / target, d / name)


def _hardlink(target, name):
    return lambda d: os.link(d / target, d / name)


def _write(name, data):
    def damage(d):
        (d / name).parent.mkdir(parents=True, exist_ok=True)
        (d / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return damage


def _both(*steps):
    def damage(d):
        for step in steps:
            step(d)
    return damage


def _xz(name, data):
    return _write(name, lzma.compress(data))


BAD_UTF8 = b"the king \xff\xfe sat\n"

CASES = [
    # -- train: outputs that must not be written --------------------------------------
    Case("train-output-is-input", ("train", "{d}/corpus.txt", "-o", "{d}/corpus.txt", *TRAIN),
         ("corpus.txt",), ("refusing", "input")),
    Case("train-output-symlink-to-input", ("train", "{d}/corpus.txt", "-o", "{d}/link.txt", *TRAIN),
         ("corpus.txt",), ("refusing", "input"), damage=_symlink("corpus.txt", "link.txt")),
    Case("train-output-hardlink-to-input", ("train", "{d}/corpus.txt", "-o", "{d}/hard.txt", *TRAIN),
         ("corpus.txt",), ("refusing", "input"), damage=_hardlink("corpus.txt", "hard.txt")),
    Case("train-output-dir-holds-input", ("train", "{d}/corpus_dir", "-o", "{d}/corpus_dir", *TRAIN),
         ("corpus_dir",), ("corpus_dir",)),
    Case("train-output-under-a-file", ("train", "{d}/corpus.txt", "-o", "{d}/corpus.txt.xz/v.bin", *TRAIN),
         ("corpus.txt", "corpus.txt.xz"), ("not a directory",)),
    Case("train-output-unknown-format", ("train", "{d}/corpus.txt", "-o", "{d}/vectors.xyz", *TRAIN),
         ("corpus.txt",), ("format",)),
    Case("train-output-foreign-directory", ("train", "{d}/corpus.txt", "-o", "{d}/mine", *TRAIN),
         ("corpus.txt",), ("refusing to replace",), damage=_write("mine/notes.md", "my notes")),
    Case("train-output-existing-directory-as-file", ("train", "{d}/corpus.txt", "-o", "{d}/out.bin", *TRAIN),
         ("corpus.txt",), ("directory",), damage=_write("out.bin/x.txt", "x")),
    Case("train-empty-output-name", ("train", "{d}/corpus.txt", "-o", "", *TRAIN), ("corpus.txt",), ("empty",)),
    # -- train: inputs ---------------------------------------------------------------
    Case("train-missing-corpus", ("train", "{d}/absent.txt", "-o", "{d}/v.bin", *TRAIN), (), ("absent.txt",)),
    Case("train-empty-corpus", ("train", "{d}/empty.txt", "-o", "{d}/v.bin", *TRAIN), ("empty.txt",), ("empty",)),
    Case("train-fake-xz", ("train", "{d}/c.txt.xz", "-o", "{d}/v.bin", *TRAIN), (),
         ("c.txt.xz", "not a valid .xz"), damage=_write("c.txt.xz", "plain text, not xz\n")),
    Case("train-truncated-gz", ("train", "{d}/corpus.txt.gz", "-o", "{d}/v.bin", *TRAIN), ("corpus.txt.gz",),
         ("truncated",), damage=lambda d: world.truncate(d / "corpus.txt.gz")),
    Case("train-corrupt-gz", ("train", "{d}/corpus.txt.gz", "-o", "{d}/v.bin", *TRAIN), ("corpus.txt.gz",),
         ("corpus.txt.gz",), damage=lambda d: world.flip_bytes(d / "corpus.txt.gz", 40, 8)),
    Case("train-truncated-bz2", ("train", "{d}/corpus.txt.bz2", "-o", "{d}/v.bin", *TRAIN), ("corpus.txt.bz2",),
         ("truncated",), damage=lambda d: world.truncate(d / "corpus.txt.bz2")),
    Case("train-truncated-xz", ("train", "{d}/corpus.txt.xz", "-o", "{d}/v.bin", *TRAIN), ("corpus.txt.xz",),
         ("truncated",), damage=lambda d: world.truncate(d / "corpus.txt.xz")),
    Case("train-invalid-utf8-corpus-trains", ("train", "{d}/c.txt", "-o", "{d}/v.txt", *TRAIN), (),
         damage=_write("c.txt", (world.corpus_text().encode() + BAD_UTF8) * 2), outputs=("v.txt",),
         check=_loads("v.txt")),
    # -- train: the encoded-corpus cache ---------------------------------------------
    Case("train-clean", ("train", "{d}/corpus.txt", "-o", "{d}/out.txt", *TRAIN), ("corpus.txt",),
         outputs=("out.txt",), check=_loads("out.txt"), subprocess=True, env={"WORDVEC_CACHE": "{d}/cache"}),
    Case("cache-ids-out-of-range", ("train", "{d}/corpus.txt", "-o", "{d}/out.txt", *TRAIN), ("corpus.txt",),
         damage=_corrupt_cache(_ids_out_of_range), check=_same_vectors_as_clean_run, outputs=("out.txt", "cache"),
         subprocess=True, env={"WORDVEC_CACHE": "{d}/cache"}),
    Case("cache-ids-in-range-but-wrong", ("train", "{d}/corpus.txt", "-o", "{d}/out.txt", *TRAIN), ("corpus.txt",),
         damage=_corrupt_cache(_ids_shuffled), check=_same_vectors_as_clean_run, outputs=("out.txt", "cache"),
         subprocess=True, env={"WORDVEC_CACHE": "{d}/cache"}),
    Case("cache-offsets-huge", ("train", "{d}/corpus.txt", "-o", "{d}/out.txt", *TRAIN), ("corpus.txt",),
         damage=_corrupt_cache(_offsets_huge), check=_same_vectors_as_clean_run, outputs=("out.txt", "cache"),
         subprocess=True, env={"WORDVEC_CACHE": "{d}/cache"}),
    Case("cache-ids-truncated", ("train", "{d}/corpus.txt", "-o", "{d}/out.txt", *TRAIN), ("corpus.txt",),
         damage=_corrupt_cache(lambda stem: world.truncate(stem.with_suffix(".ids"))),
         check=_same_vectors_as_clean_run, outputs=("out.txt", "cache"), subprocess=True, env={"WORDVEC_CACHE": "{d}/cache"}),
    Case("cache-manifest-garbage", ("train", "{d}/corpus.txt", "-o", "{d}/out.txt", *TRAIN), ("corpus.txt",),
         damage=_corrupt_cache(lambda stem: stem.with_suffix(".json").write_bytes(b"{\xff")),
         check=_same_vectors_as_clean_run, outputs=("out.txt", "cache"), subprocess=True, env={"WORDVEC_CACHE": "{d}/cache"}),
    Case("cache-directory-unwritable", ("train", "{d}/corpus.txt", "-o", "{d}/out.txt", *TRAIN), ("corpus.txt",),
         check=lambda d, r: (d / "out.txt").is_file(), outputs=("out.txt",),
         env={"WORDVEC_CACHE": "{d}/corpus.txt/cache"}),  # under a file: nothing can be created there
    # -- train: a native model directory is replaced whole -----------------------------
    Case("train-replaces-own-native-save", ("train", "{d}/corpus.txt", "-o", "{d}/vec.wv", *TRAIN),
         ("corpus.txt", "vec.wv"), outputs=("vec.wv",),
         check=lambda d, r: sorted(p.name for p in d.iterdir() if p.name.startswith(".")) == []),
    # -- vocab, cooccur ----------------------------------------------------------------
    Case("vocab-output-is-input", ("vocab", "{d}/corpus.txt", "-o", "{d}/corpus.txt"), ("corpus.txt",),
         ("refusing", "input")),
    Case("vocab-fake-bz2", ("vocab", "{d}/c.bz2"), (), ("not a valid .bz2",), damage=_write("c.bz2", "nope")),
    Case("vocab-truncated-xz", ("vocab", "{d}/corpus.txt.xz"), ("corpus.txt.xz",), ("truncated",),
         damage=lambda d: world.truncate(d / "corpus.txt.xz", 0.3)),
    Case("cooccur-output-is-input", ("cooccur", "{d}/corpus.txt", "-o", "{d}/corpus.txt"), ("corpus.txt",),
         ("refusing", "input")),
    Case("cooccur-output-unwritable", ("cooccur", "{d}/corpus.txt", "-o", "{d}/corpus.txt/x.npz"), ("corpus.txt",),
         ("not a directory",)),
    Case("phrases-output-is-input", ("phrases", "{d}/corpus.txt", "-o", "{d}/corpus.txt"), ("corpus.txt",),
         ("refusing", "input")),
    Case("phrases-export-onto-input", ("phrases", "{d}/corpus.txt", "-o", "{d}/p.txt", "--export", "{d}/corpus.txt"),
         ("corpus.txt",), ("refusing", "input")),
    Case("phrases-fake-xz", ("phrases", "{d}/c.xz", "-o", "{d}/p.txt"), (), ("not a valid .xz",),
         damage=_write("c.xz", "not xz")),
    Case("phrases-unicode-spaces-stay-in-tokens", ("phrases", "{d}/u.txt", "-o", "{d}/p.txt", "--min-count", "1",
                                                   "--threshold", "1e9"), (), outputs=("p.txt",),
         damage=_write("u.txt", "new\u00a0york is\u2028big\n" * 3),
         check=lambda d, r: (d / "p.txt").read_text(encoding="utf-8") == "new\u00a0york is\u2028big\n" * 3),
    # -- similar / analogy ------------------------------------------------------------
    Case("similar-topn-zero", ("similar", "{d}/vec.bin", "king", "--topn", "0"), ("vec.bin",), ("--topn",)),
    Case("similar-topn-negative", ("similar", "{d}/vec.bin", "king", "--topn", "-3"), ("vec.bin",), ("--topn",)),
    Case("similar-unknown-word", ("similar", "{d}/vec.bin", "zebra"), ("vec.bin",), ("zebra",)),
    Case("analogy-all-words-are-queries", ("analogy", "{d}/abc.wv", "a", "b", "c"), ("abc.wv",), ("no answer",)),
    Case("analogy-king-king-king", ("analogy", "{d}/vec.bin", "king", "king", "king"), ("vec.bin",),
         check=lambda d, r: len(r.stdout.splitlines()) == 5 and "king" not in r.stdout.split()),
    Case("analogy-restricted-to-queries", ("analogy", "{d}/vec.bin", "the", "king", "queen", "--restrict-vocab", "3"),
         ("vec.bin",), ("no answer",)),
    Case("similar-truncated-binary", ("similar", "{d}/vec.bin", "king"), ("vec.bin",), ("vec.bin",),
         damage=lambda d: world.truncate(d / "vec.bin", 0.6)),
    Case("similar-binary-header-promises-too-much", ("similar", "{d}/vec.bin", "king"), ("vec.bin",), ("header",),
         damage=lambda d: (d / "vec.bin").write_bytes(b"99999999999 300\n" + (d / "vec.bin").read_bytes()[8:])),
    Case("similar-text-nan", ("similar", "{d}/v.txt", "a"), (), ("nan",), damage=_write("v.txt", "2 2\na 1 nan\nb 1 2\n")),
    Case("similar-text-ragged", ("similar", "{d}/v.txt", "a"), (), ("line 3",), damage=_write("v.txt", "2 2\na 1 2\nb 1\n")),
    Case("similar-text-not-numbers", ("similar", "{d}/v.txt", "a"), (), ("not a number",),
         damage=_write("v.txt", "1 2\na 1 x\n")),
    Case("similar-empty-file", ("similar", "{d}/v.txt", "a"), ("empty.txt",), ("v.txt",),
         damage=_write("v.txt", "")),
    Case("similar-glove-ragged", ("similar", "{d}/vec.glove", "king"), ("vec.glove",), ("expected 8 numbers",),
         damage=lambda d: (d / "vec.glove").write_text((d / "vec.glove").read_text() + "extra 1 2\n")),
    Case("similar-native-wrong-rows", ("similar", "{d}/vec.wv", "king"), ("vec.wv",), ("shape",),
         damage=_npy("vec.wv/vectors.npy", np.zeros((3, 8), np.float32))),
    Case("similar-native-pickled-array", ("similar", "{d}/vec.wv", "king"), ("vec.wv",), ("object",),
         damage=_npy("vec.wv/vectors.npy", np.array([[{"x": 1}] * 8] * 30, dtype=object))),
    Case("similar-native-nan", ("similar", "{d}/vec.wv", "king"), ("vec.wv",), ("nan",),
         damage=_npy("vec.wv/vectors.npy", np.full((30, 8), np.nan, np.float32))),
    Case("similar-native-string-array", ("similar", "{d}/vec.wv", "king"), ("vec.wv",), ("<u",),
         damage=_npy("vec.wv/vectors.npy", np.full((30, 8), "x"))),
    Case("similar-native-vocab-garbage", ("similar", "{d}/vec.wv", "king"), ("vec.wv",), ("vocab.json",),
         damage=_write("vec.wv/vocab.json", b"\x00\x01{")),
    Case("similar-native-missing-vectors", ("similar", "{d}/vec.wv", "king"), ("vec.wv",), ("vectors.npy",),
         damage=lambda d: (d / "vec.wv" / "vectors.npy").unlink()),
    Case("similar-native-truncated-npy", ("similar", "{d}/vec.wv", "king"), ("vec.wv",), ("truncated",),
         damage=lambda d: world.truncate(d / "vec.wv" / "vectors.npy", 0.7)),
    # -- evaluate, convert, info ---------------------------------------------------------
    Case("evaluate-restrict-vocab-zero", ("evaluate", "{d}/vec.bin", "--restrict-vocab", "0"), ("vec.bin",),
         ("--restrict-vocab",)),
    Case("evaluate-missing-similarity-file", ("evaluate", "{d}/vec.bin", "--similarity", "{d}/nope.tsv"),
         ("vec.bin",), ("nope.tsv",)),
    Case("evaluate-analogies-not-questions", ("evaluate", "{d}/vec.bin", "--analogies", "{d}/q.txt"), ("vec.bin",),
         ("q.txt",), damage=_write("q.txt", "king queen\n")),
    Case("convert-onto-itself", ("convert", "{d}/vec.bin", "{d}/vec.bin"), ("vec.bin",), ("refusing", "input")),
    Case("convert-native-onto-itself", ("convert", "{d}/vec.wv", "{d}/vec.wv"), ("vec.wv",), ("refusing",)),
    Case("convert-unknown-output-format", ("convert", "{d}/vec.bin", "{d}/out.vectors"), ("vec.bin",), ("format",)),
    Case("convert-output-under-a-file", ("convert", "{d}/vec.bin", "{d}/vec.txt/x.bin"), ("vec.bin", "vec.txt"),
         ("not a directory",)),
    Case("convert-unicode-space-words", ("convert", "{d}/u.wv", "{d}/u.txt"), (), outputs=("u.txt",),
         damage=lambda d: world.keyed_vectors(["a\u00a0b", "c\u2028d", "e\x1cf", "g\x85h"]).save(d / "u.wv"),
         check=lambda d, r: __import__("wordvec.vectors.keyed").vectors.load_vectors(d / "u.txt").index_to_key
         == ["a\u00a0b", "c\u2028d", "e\x1cf", "g\x85h"]),
    Case("info-truncated-text", ("info", "{d}/vec.txt"), ("vec.txt",), ("vec.txt",),
         damage=lambda d: world.truncate(d / "vec.txt", 0.5)),
    Case("info-head-negative", ("info", "{d}/vec.bin", "--head", "-1"), ("vec.bin",), ("--head",)),
    Case("info-not-a-vectors-directory", ("info", "{d}/corpus_dir"), ("corpus_dir",), ("vocab.json",)),
    # -- task -------------------------------------------------------------------------------
    Case("task-ner-invalid-utf8", ("task", "ner", "--data", "{d}/conll", "--epochs", "1"), ("conll",),
         ("utf-8",), damage=_xz("conll/train.txt.xz", BAD_UTF8)),
    Case("task-ner-fake-xz", ("task", "ner", "--data", "{d}/conll", "--epochs", "1"), ("conll",),
         ("not a valid .xz",), damage=_write("conll/valid.txt.xz", "not xz")),
    Case("task-ner-truncated-xz", ("task", "ner", "--data", "{d}/conll", "--epochs", "1"), ("conll",),
         ("truncated",), damage=lambda d: world.truncate(d / "conll" / "test.txt.xz", 0.5)),
    Case("task-ner-no-tag-column", ("task", "ner", "--data", "{d}/conll", "--epochs", "1"), ("conll",),
         ("line 1",), damage=_xz("conll/train.txt.xz", b"lonely\n")),
    Case("task-ner-save-onto-data", ("task", "ner", "--data", "{d}/conll", "--save", "{d}/conll"), ("conll",),
         ("refusing",)),
    Case("task-pos-fake-archive", ("task", "pos", "--data", "{d}/brown"), (), ("brown_tagged_original.tar.xz",),
         damage=_write("brown/brown_tagged_original.tar.xz", "not an archive")),
    Case("task-charlm-invalid-utf8", ("task", "charlm", "--data", "{d}/c.txt"), (), ("utf-8",),
         damage=_write("c.txt", BAD_UTF8 * 3)),
    Case("task-charlm-plot-bad-extension", ("task", "charlm", "--data", "{d}/names.txt", "--plot", "{d}/chars.xyz"),
         ("names.txt",), ("--plot",)),
    # -- lm ----------------------------------------------------------------------------------
    Case("lm-train-onto-existing-model", ("lm", "train", "{d}/names.txt", "-o", "{d}/lm", *LM_TRAIN),
         ("names.txt", "lm"), ("--resume",)),
    Case("lm-train-output-is-input", ("lm", "train", "{d}/names.txt", "-o", "{d}/names.txt", *LM_TRAIN),
         ("names.txt",), ("names.txt",)),
    Case("lm-train-invalid-utf8", ("lm", "train", "{d}/c.txt", "-o", "{d}/m", *LM_TRAIN), (), ("utf-8",),
         damage=_write("c.txt", BAD_UTF8)),
    Case("lm-train-fake-gz", ("lm", "train", "{d}/c.txt.gz", "-o", "{d}/m", *LM_TRAIN), (), ("not a valid .gz",),
         damage=_write("c.txt.gz", "text")),
    Case("lm-eval-str-params", ("lm", "eval", "{d}/lm", "{d}/names.txt"), ("lm", "names.txt"), ("<u",),
         damage=lambda d: world.save_array(d / "lm/params/W.npy", np.load(d / "lm/params/W.npy").astype(str))),
    Case("lm-eval-object-params", ("lm", "eval", "{d}/lm", "{d}/names.txt"), ("lm", "names.txt"), ("object",),
         damage=_lm_param(np.array([None] * 4, dtype=object))),
    Case("lm-eval-nan-params", ("lm", "eval", "{d}/lm", "{d}/names.txt"), ("lm", "names.txt"), ("nan",),
         damage=lambda d: world.save_array(d / "lm/params/W.npy",
                                           np.load(d / "lm/params/W.npy") * np.float32("nan"))),
    Case("lm-eval-int8-params", ("lm", "eval", "{d}/lm", "{d}/names.txt"), ("lm", "names.txt"), ("int8",),
         damage=lambda d: world.save_array(d / "lm/params/W.npy",
                                           np.load(d / "lm/params/W.npy").astype(np.int8))),
    Case("lm-eval-wrong-shape-params", ("lm", "eval", "{d}/lm", "{d}/names.txt"), ("lm", "names.txt"), ("shape",),
         damage=_lm_param(np.zeros((2, 2), np.float32))),
    Case("lm-sample-bad-token", ("lm", "sample", "{d}/lm", "-n", "2"), ("lm",), ("vocabulary",),
         damage=lambda d: world.edit_json(d / "lm/model.json",
                                          lambda m: m["vocabulary"]["tokens"].__setitem__(1, 7))),
    Case("lm-sample-multichar-token", ("lm", "sample", "{d}/lm", "-n", "2"), ("lm",), ("single characters",),
         damage=lambda d: world.edit_json(d / "lm/model.json",
                                          lambda m: m["vocabulary"]["tokens"].__setitem__(1, "xy"))),
    Case("lm-sample-model-json-garbage", ("lm", "sample", "{d}/lm"), ("lm",), ("model.json",),
         damage=_write("lm/model.json", "{]")),
    Case("lm-sample-temperature-nan", ("lm", "sample", "{d}/lm", "--temperature", "nan"), ("lm",), ("--temperature",)),
    Case("lm-sample-temperature-zero", ("lm", "sample", "{d}/lm", "--temperature", "0"), ("lm",), ("--temperature",)),
    Case("lm-sample-temperature-negative", ("lm", "sample", "{d}/lm", "--temperature", "-1"), ("lm",),
         ("--temperature",)),
    Case("lm-sample-temperature-inf", ("lm", "sample", "{d}/lm", "--temperature", "inf"), ("lm",), ("temperature",)),
    Case("lm-eval-fake-xz-text", ("lm", "eval", "{d}/lm", "{d}/t.xz"), ("lm",), ("not a valid .xz",),
         damage=_write("t.xz", "rex\n")),
    Case("lm-eval-missing-state-file", ("lm", "eval", "{d}/lm", "{d}/names.txt"), ("lm", "names.txt"), ("missing",),
         damage=lambda d: (d / "lm/params/W.npy").unlink()),
    Case("lm-resume-without-adam-moments", ("lm", "train", "{d}/names.txt", "-o", "{d}/lm", "--resume", *LM_TRAIN),
         ("names.txt", "lm"), ("adam",), damage=lambda d: world.edit_json(
             d / "lm/model.json", lambda m: m.update(training={"optimizer": "adam", "optimizer_scalars": {"t": 3}}))),
    Case("lm-resume-damaged-optimizer-state", ("lm", "train", "{d}/names.txt", "-o", "{d}/lm", "--resume",
                                               *LM_TRAIN), ("names.txt", "lm"), ("optimizer",),
         damage=lambda d: world.edit_json(d / "lm/model.json", lambda m: m.update(training={"optimizer": "adam"}))),
    Case("lm-resume-damaged-rng", ("lm", "train", "{d}/names.txt", "-o", "{d}/lm", "--resume", *LM_TRAIN),
         ("names.txt", "lm"), ("random",),
         damage=lambda d: world.edit_json(d / "lm/model.json", lambda m: m.update(training={"rng": {"x": 1}}))),
    Case("lm-resume-damaged-history", ("lm", "train", "{d}/names.txt", "-o", "{d}/lm", "--resume", *LM_TRAIN),
         ("names.txt", "lm"), ("history",),
         damage=lambda d: world.edit_json(d / "lm/model.json", lambda m: m.update(history=[{"epoch": "one"}]))),
    Case("lm-eval-huge-configuration", ("lm", "eval", "{d}/lm", "{d}/names.txt"), ("lm", "names.txt"), ("bytes",),
         damage=lambda d: world.edit_json(d / "lm/model.json",
                                          lambda m: m["config"].update(hidden_size=10**9))),
    # -- demo -------------------------------------------------------------------------------
    Case("demo-fake-xz-corpus", ("demo", "--corpus", "{d}/c.txt.xz", "--no-progress"), (), ("not a valid .xz",),
         damage=_write("c.txt.xz", "plain")),
    Case("demo-missing-corpus", ("demo", "--corpus", "{d}/absent.txt", "--no-progress"), (), ("absent.txt",)),
]


def _prepare(case, base, root):
    directory = Path(root) / case.name
    directory.mkdir()
    world.copy_into(base, case.inputs, directory)
    if case.damage is not None:
        case.damage(directory)
    return directory


def _format(value, directory):
    return str(value).replace("{d}", str(directory))


def _run(case, directory):
    argv = [_format(a, directory) for a in case.argv]
    env = {k: _format(v, directory) for k, v in case.env.items()}
    if case.subprocess:
        return run_cli(*argv, env=env, timeout=300)
    with mock.patch.dict(os.environ, env):  # restored after, whatever the command did to it
        return run_main(*argv)


@pytest.fixture(scope="module")
def subprocess_runs(base, tmp_path_factory):
    """Every subprocess row, run in parallel up front: {name: (directory, before, result)}."""
    root = tmp_path_factory.mktemp("hostile-subprocess")
    prepared = {case.name: _prepare(case, base, root) for case in CASES if case.subprocess}
    before = {name: digests(d) for name, d in prepared.items()}
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        futures = {case.name: pool.submit(_run, case, prepared[case.name]) for case in CASES if case.subprocess}
    return {name: (prepared[name], before[name], future.result()) for name, future in futures.items()}


def test_the_table_is_large_and_covers_every_command():
    assert len(CASES) >= 60 and len({case.name for case in CASES}) == len(CASES)
    commands = {case.argv[0] if case.argv[0] not in ("lm", "task") else " ".join(case.argv[:2]) for case in CASES}
    assert commands >= {"train", "vocab", "cooccur", "phrases", "similar", "analogy", "evaluate", "convert", "info",
                        "task ner", "task pos", "task charlm", "lm train", "lm eval", "lm sample", "demo"}


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_hostile_input(case, base, tmp_path, request):
    if case.subprocess:
        directory, before, result = request.getfixturevalue("subprocess_runs")[case.name]
    else:
        directory = _prepare(case, base, tmp_path)
        before = digests(directory)
        result = _run(case, directory)
    after = digests(directory)
    if case.expect is not OK:
        assert_clean_failure(result, *case.expect)
        assert after == before, "a failed command changed or left files"
        return
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    outputs = {str(Path(name)) for name in case.outputs}
    changed = {name for name in before if not any(name == o or name.startswith(o + os.sep) for o in outputs)
               and after.get(name) != before[name]}
    assert not changed, f"inputs changed or lost: {sorted(changed)}"
    if case.check is not None:
        assert case.check(directory, result) is not False
