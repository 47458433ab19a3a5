"""Messages in plain words: no object reprs, inputs named for their role, only what a file
holds, the same output formats for `embed` and `doc2vec infer`, `index` saying what it
built, `similar --docs` quoting its documents and saying how lines are numbered."""

import numpy as np
import pytest

from wordvec.cli import main
from wordvec.data import synthetic
from wordvec.data.corpus import Corpus
from wordvec.report import build_report
from wordvec.vectors.files import load_vectors


def cli(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def one_error(status, err):
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("wordvec: error: "), err
    return lines[0]


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    d = tmp_path_factory.mktemp("messages")
    synthetic.write_corpus(d / "corpus.txt", tokens=20_000, seed=0)
    with open(d / "labelled.txt", "w") as out:
        for i in range(200):
            out.write(f"__label__{'ab'[i % 2]} {'good nice' if i % 2 else 'bad awful'} film {i % 7}\n")
    small = ["--vector-size", "8", "--epochs", "2", "--workers", "1"]
    for argv in (["classify", "train", d / "labelled.txt", "-o", d / "clf.bin", "--alpha", "0.5", "--no-progress",
                  *small],
                 ["classify", "train", d / "labelled.txt", "-o", d / "clf.wv", "--alpha", "0.5", "--no-progress",
                  *small],
                 ["train", d / "corpus.txt", "-o", d / "w2v.bin", "--min-count", "2", "--no-eval", "--no-progress",
                  *small],
                 ["doc2vec", "train", d / "corpus.txt", "-o", d / "docs.d2v", "--min-count", "2", *small]):
        assert main([str(a) for a in argv]) == 0, argv
    (d / "sentences.txt").write_text("the king\nqueen of the\n")
    return d


def test_an_empty_corpus_is_named_by_its_file(tmp_path, capsys):
    (tmp_path / "empty.txt").write_text("\n  \n")
    line = one_error(*cli(capsys, "vocab", tmp_path / "empty.txt")[::2])
    assert line == f"wordvec: error: the corpus is empty: {tmp_path / 'empty.txt'} contains no tokens"


def test_a_corpus_in_a_sentence(tmp_path):
    for name in "abc":
        (tmp_path / f"{name}.txt").write_text("x\n")
    assert str(Corpus(tmp_path / "a.txt")) == str(tmp_path / "a.txt")
    assert str(Corpus(tmp_path)) == f"{tmp_path / 'a.txt'} and 2 more files"
    assert str(Corpus([["a", "b"]])) == "the in-memory corpus"
    assert repr(Corpus(tmp_path / "a.txt")).startswith("Corpus(")  # the repr stays a repr


@pytest.mark.parametrize("argv, said", [
    (["classify", "test", "{d}/clf.bin", "{d}/missing.txt"], "test file {d}/missing.txt does not exist"),
    (["classify", "predict", "{d}/clf.bin", "{d}/missing.txt"], "input file {d}/missing.txt does not exist"),
    (["classify", "train", "{d}/missing.txt", "-o", "{d}/x.bin"], "training file {d}/missing.txt does not exist"),
    (["classify", "train", "{d}/labelled.txt", "-o", "{d}/x.bin", "--valid", "{d}/missing.txt"],
     "validation file {d}/missing.txt does not exist"),
])
def test_classify_names_each_input_for_its_role(work, capsys, argv, said):
    line = one_error(*cli(capsys, *[a.format(d=work) for a in argv])[::2])
    assert line == "wordvec: error: " + said.format(d=work)


def test_classify_info_and_report_show_only_what_the_file_holds(work, capsys):
    _, from_bin, _ = cli(capsys, "classify", "info", work / "clf.bin")
    _, native, _ = cli(capsys, "classify", "info", work / "clf.wv")
    assert " lr " not in from_bin and "epoch 2" in from_bin  # fastText's .bin stores no learning rate
    assert "lr 0.5" in native  # the native save records the one trained with
    assert "lr " not in build_report(str(work / "clf.bin")).split("Labels")[0]
    assert "lr 0.5" in build_report(str(work / "clf.wv"))


@pytest.mark.parametrize("suffix", [".npy", ".txt", ".vec"])
def test_embed_and_doc2vec_infer_write_the_same_formats(work, tmp_path, capsys, suffix):
    for argv in (["embed", work / "w2v.bin", work / "sentences.txt"],
                 ["doc2vec", "infer", work / "docs.d2v", work / "sentences.txt"]):
        out = tmp_path / f"{argv[0]}{suffix}"
        status, _, err = cli(capsys, *argv, "-o", out)
        assert status == 0, err
        rows = np.load(out) if suffix == ".npy" else load_vectors(out)
        if suffix != ".npy":
            assert rows.index_to_key == ["0", "1"]  # keys: line numbers from 0
            rows = rows.vectors
        assert rows.shape == (2, 8)


def test_embed_and_doc2vec_infer_refuse_the_same_names(work, tmp_path, capsys):
    lines = [one_error(*cli(capsys, *argv, "-o", tmp_path / "out.csv")[::2])
             for argv in (["embed", work / "w2v.bin", work / "sentences.txt"],
                          ["doc2vec", "infer", work / "docs.d2v", work / "sentences.txt"])]
    assert lines[0] == lines[1] == f"wordvec: error: cannot tell the format of {tmp_path / 'out.csv'}: " \
                                   "name it .npy, .txt or .vec"


def test_index_reports_what_it_built(work, tmp_path, capsys):
    pytest.importorskip("usearch")
    vectors = tmp_path / "w2v.bin"
    vectors.symlink_to(work / "w2v.bin")
    status, out, _ = cli(capsys, "index", vectors)
    words = len(load_vectors(vectors))
    assert status == 0
    assert f"built an HNSW index of {words:,} vectors x 8 dimensions" in out and f"wrote {vectors}.usearch (" in out


def test_similar_docs_quotes_the_documents_and_says_how_lines_count(work, capsys):
    status, out, err = cli(capsys, "similar", work / "docs.d2v", "--docs", "3", "--topn", "4")
    lines = (work / "corpus.txt").read_text().splitlines()
    assert status == 0 and "counted from 0" in err and f"line 3: {' '.join(lines[3].split()[:3])}" in err
    rows = out.strip().splitlines()
    assert len(rows) == 4
    for row in rows:
        tag, score, *words = row.split()
        assert 0 <= int(tag) < len(lines) and -1 <= float(score) <= 1
        assert words[:5] == lines[int(tag)].split()[:5]  # the first words of that line, counted from 0
    status, _, err = cli(capsys, "similar", work / "docs.d2v", "--docs", str(len(lines) + 5))
    assert "lines counted from 0" in one_error(status, err)
