"""Extrinsic tasks: readers, splits, tag rules, CLI contract and errors (synthetic data), plus real-data checks."""

import io
import json
import lzma
import tarfile
from pathlib import Path

import numpy as np
import pytest

from wordvec.cli import main
from wordvec.errors import FormatError, WordvecError
from wordvec.tasks import data

SHARED_TASKS = Path(__file__).resolve().parents[3] / "shared" / "data" / "tasks"
needs_shared = pytest.mark.skipif(not SHARED_TASKS.is_dir(), reason=f"task data not found at {SHARED_TASKS}")


def test_brown_tag_rules_and_file_split():
    assert [data.simplify_brown_tag(t) for t in ["nn-tl", "np$-tl-hl", "fw-nn", "nn+bez", "bez*", "jj-nc", "AT"]] == [
        "nn", "np$", "nn", "nn+bez", "bez*", "jj", "at"]
    assert [data.brown_split(n) for n in (10, 20, 5, 15, 1, 44)] == ["test", "test", "valid", "valid", "train", "train"]
    assert data.parse_brown_line("The/at Fulton/np-tl 3/2/cd") == (["The", "Fulton", "3/2"], ["at", "np", "cd"])
    with pytest.raises(FormatError):
        data.parse_brown_line("no-tag-here")


def test_sst_tree_parsing():
    tokens, label = data.parse_sst_tree("(3 (2 It) (4 (2 's) (3 lovely)))")
    assert tokens == ["It", "'s", "lovely"] and label == 3
    with pytest.raises(FormatError):
        data.parse_sst_tree("not a tree")


# -- synthetic data sets ---------------------------------------------------------------


def write_brown(folder, rng):
    """A tiny Brown archive: files ca01-ca12 (ca05 valid, ca10 test)."""
    folder.mkdir()
    words = {"at": ["the", "a"], "nn": ["dog", "cat", "house"], "vbd": ["saw", "liked"], "np-tl": ["Paris", "Rome"]}
    with tarfile.open(folder / data.BROWN_ARCHIVE, "w:xz") as tar:
        for number in range(1, 13):
            lines = []
            for _ in range(30):
                tags = ["at", "nn", "vbd", "at", "nn"] if rng.random() < 0.7 else ["np-tl", "vbd", "at", "nn"]
                lines.append("\t" + " ".join(f"{rng.choice(words[t])}/{t}" for t in tags) + " ./.")
            payload = "\n\n".join(lines).encode()
            info = tarfile.TarInfo(f"package/ca{number:02d}")
            info.size = len(payload)
            tar.addfile(info, io.BytesIO(payload))
    return folder


def write_conll(folder, rng):
    folder.mkdir()
    for split in ("train", "valid", "test"):
        sentences = []
        for _ in range(60 if split == "train" else 20):
            city = rng.choice(["Paris", "Berlin", "Madrid"])
            name = rng.choice(["John", "Mary"])
            sentences.append(f"{name} NNP B-NP I-PER\nvisited VBD B-VP O\n{city} NNP B-NP I-LOC\n. . O O")
        with lzma.open(folder / f"{split}.txt.xz", "wt") as handle:
            handle.write("\n\n".join(sentences) + "\n")
    return folder


def write_sst(folder, rng):
    (folder / "trees").mkdir(parents=True)
    def trees(n):
        lines = []
        for _ in range(n):
            label = int(rng.integers(0, 5))
            word = ["awful", "bad", "plain", "good", "great"][label]
            lines.append(f"({label} (2 a) ({label} {word}))")
        return "\n".join(lines) + "\n"
    with lzma.open(folder / "trees" / "train.txt.xz", "wt") as handle:
        handle.write(trees(200))
    (folder / "trees" / "dev.txt").write_text(trees(50))
    (folder / "trees" / "test.txt").write_text(trees(50))
    return folder


def run_cli(capsys, *argv):
    status = main(["task", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_read_brown_splits_by_file_number(tmp_path):
    splits = data.read_brown(write_brown(tmp_path / "brown", np.random.default_rng(0)))
    assert [len(splits[s][0]) for s in ("train", "valid", "test")] == [300, 30, 30]
    assert {t for tags in splits["train"][1] for t in tags} == {"at", "nn", "vbd", "np", "."}


def test_pos_cli_json_contract(tmp_path, capsys):
    folder = write_brown(tmp_path / "brown", np.random.default_rng(1))
    status, out, _ = run_cli(capsys, "pos", "--data", str(folder), "--epochs", "3", "--json")
    assert status == 0
    result = json.loads(out)
    assert result["task"] == "pos" and set(result) == {"task", "valid", "test"}
    assert result["test"]["accuracy"] > 0.9  # the tags follow from the words here


def test_ner_cli_json_contract_with_vectors(tmp_path, capsys):
    from wordvec.vectors.keyed import KeyedVectors

    folder = write_conll(tmp_path / "conll", np.random.default_rng(2))
    rng = np.random.default_rng(3)
    vectors = tmp_path / "vectors.txt"
    KeyedVectors(["paris", "berlin", "john", "visited"], rng.normal(size=(4, 5))).save_word2vec_format(vectors)
    status, out, _ = run_cli(capsys, "ner", "--data", str(folder), "--vectors", str(vectors), "--fine-tune",
                             "--hidden", "8", "--epochs", "3", "--json")
    assert status == 0
    result = json.loads(out)
    assert set(result["test"]) >= {"f1", "precision", "recall"}
    assert result["test"]["f1"] > 0.9


def test_sentiment_cli_json_contract(tmp_path, capsys):
    folder = write_sst(tmp_path / "sst", np.random.default_rng(4))
    status, out, _ = run_cli(capsys, "sentiment", "--data", str(folder), "--epochs", "15", "--json")
    assert status == 0
    result = json.loads(out)
    assert result["test"]["accuracy"] > 0.8 and result["test"]["accuracy_binary"] > 0.8


def test_missing_data_and_bad_vectors_are_one_sentence_errors(tmp_path, capsys):
    for task in ("ner", "pos", "sentiment", "charlm"):
        status, out, err = run_cli(capsys, task, "--data", str(tmp_path / "absent"))
        assert status == 2 and err.startswith("wordvec: error:") and err.count("\n") == 1, err
    folder = write_conll(tmp_path / "conll", np.random.default_rng(5))
    bad = tmp_path / "bad.txt"
    bad.write_text("2 3\nparis 0.1 0.2\nberlin 0.3\n")  # rows shorter than the header's 3 dimensions
    status, _, err = run_cli(capsys, "ner", "--data", str(folder), "--vectors", str(bad))
    assert status == 2 and "bad.txt" in err and "Traceback" not in err
    status, _, err = run_cli(capsys, "ner", "--data", str(folder), "--vectors", str(tmp_path / "none.bin"))
    assert status == 2 and "none.bin" in err
    from wordvec.vectors.keyed import KeyedVectors

    good = tmp_path / "good.txt"
    KeyedVectors(["paris"], np.ones((1, 4))).save_word2vec_format(good)
    status, _, err = run_cli(capsys, "ner", "--data", str(folder), "--vectors", str(good), "--dim", "50")
    assert status == 2 and "--dim 50" in err and "4-dimensional" in err


# -- real data (skipped when ../shared is absent) ---------------------------------------


@needs_shared
def test_charlm_on_dinosaur_names_with_plot(tmp_path, capsys):
    plot = tmp_path / "chars.png"
    status, out, _ = run_cli(capsys, "charlm", "--data", str(SHARED_TASKS / "charlm"), "--epochs", "3",
                             "--plot", str(plot), "--json")
    assert status == 0
    result = json.loads(out)
    # 28 symbols (27 letters-and-newline, maybe a few more): uniform guessing costs log(28) ≈ 3.33 nats.
    assert 1.0 < result["test"]["cross_entropy"] < 2.6
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_shared
def test_real_conll_and_sst_sizes():
    sentences, tags = data.read_conll(SHARED_TASKS / "conll2003" / "test.txt.xz")
    assert sum(len(s) for s in sentences) == 46435  # eng.testb, as the data README states
    assert {t for seq in tags for t in seq} <= {"O", "I-PER", "B-PER", "I-LOC", "B-LOC", "I-ORG", "B-ORG", "I-MISC", "B-MISC"}
    splits = data.read_sst(SHARED_TASKS / "sst")
    assert [len(splits[s][0]) for s in ("train", "valid", "test")] == [8544, 1101, 2210]
