"""`wordvec lm train|eval|sample`: the command-line contract and its error messages."""

import json
import math

import numpy as np
import pytest

from wordvec.cli import main

NAMES = ["aachenosaurus", "abelisaurus", "brachiosaurus", "ceratops", "diplodocus", "raptor"] * 4


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "train.txt").write_text("\n".join(NAMES) + "\n", encoding="utf-8")
    (tmp_path / "valid.txt").write_text("abelisaurus\nceratosaurus\n", encoding="utf-8")
    (tmp_path / "words.txt").write_text("the cat sat\nthe dog sat\n" * 10, encoding="utf-8")
    return tmp_path


def train(files, *extra, level="char"):
    source = files / ("train.txt" if level == "char" else "words.txt")
    return main(["-q", "lm", "train", str(source), "--valid", str(source), "--level", level, "--cell", "lstm",
                 "--hidden", "16", "--embedding", "8", "--epochs", "2", "--bptt", "8", "--batch-size", "4",
                 "--lr", "0.01", "--clip", "1", "--seed", "3", "--no-progress", "-o", str(files / "m"), *extra])


def test_train_eval_sample_round_trip(files, capsys):
    assert train(files, "--tie") == 0
    out = capsys.readouterr().out
    assert "epoch 2: train ppl" in out and "valid ppl" in out
    assert main(["lm", "eval", str(files / "m"), str(files / "valid.txt"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"cross_entropy", "perplexity", "tokens"}
    assert result["tokens"] == len("abelisaurus\nceratosaurus\n")  # every char and line end
    assert result["perplexity"] == pytest.approx(math.exp(result["cross_entropy"]))
    assert 0 < result["cross_entropy"] < math.log(20)  # better than uniform over the alphabet
    assert main(["lm", "sample", str(files / "m"), "-n", "4", "--temperature", "0.7", "--seed", "5"]) == 0
    first = capsys.readouterr().out
    assert len(first.splitlines()) == 4
    main(["lm", "sample", str(files / "m"), "-n", "4", "--temperature", "0.7", "--seed", "5"])
    assert capsys.readouterr().out == first


def test_checkpoint_is_npy_and_json_and_resume_adds_epochs(files, capsys):
    assert train(files) == 0
    meta = json.loads((files / "m" / "model.json").read_text())
    assert meta["vocabulary"]["level"] == "char" and len(meta["history"]) == 2
    assert meta["training"]["optimizer"] == "adam"
    assert (files / "m" / "state" / "m.W.npy").exists()
    np.load(files / "m" / "params" / "W.npy", allow_pickle=False)
    assert train(files, "--resume", "--epochs", "3") == 0
    meta = json.loads((files / "m" / "model.json").read_text())
    assert [h["epoch"] for h in meta["history"]] == [1, 2, 3]
    capsys.readouterr()
    assert train(files, "--resume", "--hidden", "32") == 2
    assert "conflicts" in capsys.readouterr().err


def test_word_level_maps_unseen_words_to_unk(files, capsys):
    assert train(files, level="word") == 0
    (files / "new.txt").write_text("the zebra sat\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["lm", "eval", str(files / "m"), str(files / "new.txt"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tokens"] == 4  # the <unk> zebra, sat, and <eos>


@pytest.mark.parametrize(
    "argv, message",
    [
        (["lm", "train", "{d}/absent.txt", "-o", "{d}/m"], "file not found"),
        (["lm", "train", "{d}/train.txt", "--bptt", "0", "-o", "{d}/m"], "--bptt: must be a whole number from 1"),
        (["lm", "train", "{d}/empty.txt", "-o", "{d}/m"], "has no tokens"),
        (["lm", "eval", "{d}/absent_model", "{d}/valid.txt"], "model not found"),
        (["lm", "eval", "{d}/train.txt", "{d}/valid.txt"], "not a usable wordvec language model"),
        (["lm", "sample", "{d}", "-n", "2"], "model.json is missing"),
    ],
)
def test_bad_input_gets_one_sentence_and_exit_2(files, capsys, argv, message):
    (files / "empty.txt").write_text("\n\n", encoding="utf-8")
    try:
        status = main([a.format(d=files) for a in argv])
    except SystemExit as exit:  # a usage error found by argparse (one line too)
        status = exit.code
    assert status == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_char_model_refuses_text_with_unseen_characters(files, capsys):
    assert train(files) == 0
    (files / "odd.txt").write_text("tyrannosaurus rex\n", encoding="utf-8")  # 'y', 'x', ' ' unseen
    capsys.readouterr()
    assert main(["lm", "eval", str(files / "m"), str(files / "odd.txt")]) == 2
    assert "never saw in training" in capsys.readouterr().err


def test_corrupt_checkpoint_array_is_reported(files, capsys):
    assert train(files) == 0
    (files / "m" / "params" / "W.npy").write_bytes(b"garbage")
    capsys.readouterr()
    assert main(["lm", "eval", str(files / "m"), str(files / "valid.txt")]) == 2
    assert "W.npy: not a valid NumPy array file" in capsys.readouterr().err
