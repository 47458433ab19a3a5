"""Training history in every saved model: the common keys, elapsed time, JSON on disk, `wordvec info`."""

import json

import pytest

from wordvec.cli import main
from wordvec.io.history import COMMON_KEYS, append_epoch, format_table, normalise
from wordvec.models.saved import describe

MODEL_KINDS = ("word2vec", "glove", "ppmi-svd", "window", "rnnlm")


@pytest.mark.parametrize("kind", MODEL_KINDS)
def test_every_model_saves_a_history_with_the_common_keys(saved, kind):
    path = saved[kind]
    raw = json.loads((path / ("config.json" if kind == "window" else "model.json")).read_text())["history"]
    assert raw and all("elapsed_seconds" in record for record in raw)  # stored on disk, not derived
    rows = normalise(describe(path).history)
    assert [row["epoch"] for row in rows] == list(range(1, len(rows) + 1))
    assert all(set(row) == set(COMMON_KEYS) for row in rows)
    elapsed = 0.0
    for row in rows:
        assert row["seconds"] > 0
        elapsed += row["seconds"]
        assert row["elapsed_seconds"] == pytest.approx(elapsed)
        if kind == "ppmi-svd":  # one factorisation: no loss, no step size
            assert row["loss"] is None and row["learning_rate"] is None
        else:
            assert row["loss"] > 0 and row["learning_rate"] > 0 and row["words_per_sec"] > 0


def test_word2vec_learning_rate_decays_to_min_alpha(saved):
    rows = normalise(describe(saved["word2vec"]).history)
    rates = [row["learning_rate"] for row in rows]
    assert rates == sorted(rates, reverse=True) and rates[-1] == pytest.approx(1e-4)


def test_elapsed_time_continues_across_a_resumed_run(saved, tmp_path):
    from wordvec.models.word2vec.model import Word2Vec

    model = Word2Vec.load(saved["word2vec"])
    before = model.history[-1]["elapsed_seconds"]
    model.progress = False
    model.train(corpus_file=str(saved["word2vec"].parent / "corpus.txt"), epochs=1)
    model.save(tmp_path / "more.wv")
    last = describe(tmp_path / "more.wv").history[-1]
    assert last["epoch"] == 4
    assert last["elapsed_seconds"] == pytest.approx(before + last["seconds"])


def test_normalise_reads_older_records_and_other_models_names():
    legacy = [{"epoch": 1, "train_loss": 2.0, "lr": 0.1, "tokens_per_sec": 50.0, "seconds": 2.0},
              {"epoch": 2, "loss": 1.5, "alpha": 0.05, "words_per_sec": 60.0, "seconds": 3.0}, "junk"]
    rows = normalise(legacy)
    assert [(r["loss"], r["learning_rate"], r["words_per_sec"], r["elapsed_seconds"]) for r in rows] == [
        (2.0, 0.1, 50.0, 2.0), (1.5, 0.05, 60.0, 5.0)]
    history = []
    append_epoch(history, {"seconds": 1.5})
    append_epoch(history, {"seconds": 2.0})
    assert [r["elapsed_seconds"] for r in history] == [1.5, 3.5]
    assert format_table([])[:1] == [] and len(format_table(legacy)) == 3


@pytest.mark.parametrize("kind", MODEL_KINDS)
def test_info_shows_the_history_of_every_model(saved, kind, capsys):
    assert main(["info", str(saved[kind])]) == 0
    out = capsys.readouterr().out
    assert "training history" in out
    table = out.split("training history\n")[1].splitlines()
    assert table[0].split() == ["epoch", "loss", "learn", "rate", "words/s", "seconds", "elapsed"]
    assert len(table) == 1 + len(describe(saved[kind]).history)


def test_info_on_plain_vectors_has_no_history(saved, capsys):
    assert main(["info", str(saved["text"])]) == 0
    out = capsys.readouterr().out
    assert "word2vec text" in out and "training history" not in out


def test_info_on_odd_model_directories(saved, tmp_path, capsys):
    import shutil

    other = tmp_path / "other.wv"  # a model kind this version does not know, beside native vectors
    shutil.copytree(saved["glove"], other)
    meta = json.loads((other / "model.json").read_text())
    (other / "model.json").write_text(json.dumps(dict(meta, format="wordvec-future", hyperparameters=[1, 2])))
    assert main(["info", str(other)]) == 0
    out = capsys.readouterr().out
    assert "wordvec-future" in out and "training history" in out
    (other / "vocab.json").unlink()
    assert main(["info", str(other)]) == 2
    err = capsys.readouterr().err
    assert "unknown model format 'wordvec-future'" in err and err.count("\n") == 1
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "model.json").write_bytes(b"{not json")
    assert main(["info", str(broken)]) == 2
    assert "invalid JSON" in capsys.readouterr().err
