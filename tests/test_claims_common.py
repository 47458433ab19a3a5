"""benchmarks/claims/common.py: frequency bins, update norms, binned analogies, the run cache."""

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "claims"))
import common  # noqa: E402

from wordvec.vectors.evaluate import BUNDLED_ANALOGIES, bundled_path, read_analogies  # noqa: E402
from wordvec.vectors.keyed import KeyedVectors  # noqa: E402


def test_bins_are_half_open_and_labelled():
    edges = (5, 30, 100)
    assert common.bin_labels(edges) == ["5-29", "30-99", "100+"]
    assert [common.bin_of(c, edges) for c in (4, 5, 29, 30, 99, 100, 10**9)] == [-1, 0, 0, 1, 1, 2, 2]


def test_update_norms_per_frequency_bin():
    rng = np.random.default_rng(0)
    before = rng.standard_normal((6, 4)).astype(np.float32)
    after = before.copy()
    after[3:] += 10.0  # only the frequent rows move
    counts = np.array([1, 2, 3, 500, 600, 700])
    norms = common.update_norms(before, after, counts, edges=(1, 100))
    assert set(norms) == {"1-99", "100+"}
    assert norms["1-99"]["rows"] == 3 and norms["1-99"]["median_moved"] == 0.0
    assert norms["1-99"]["share_moved_under_10pct"] == 1.0
    assert norms["100+"]["median_moved"] == pytest.approx(20.0, rel=1e-6)  # ||(10, 10, 10, 10)||
    assert norms["100+"]["share_moved_under_10pct"] == 0.0


def test_binned_analogies_split_by_the_rarest_word():
    """Frequent capital-country pairs are laid out so that every analogy between them is
    solvable; rare pairs are random (a question with one frequent pair can still be
    solved by chance, so the rare bin only has to do clearly worse).  Questions touching a rare word must land in the
    rare bin (and fail), the others in the frequent bin (and succeed)."""
    sections = dict(read_analogies(bundled_path(BUNDLED_ANALOGIES)))
    pairs = list(dict.fromkeys((q[0], q[1]) for q in sections["capital-common-countries"]))
    rng = np.random.default_rng(1)
    offset = rng.standard_normal(64)
    words, vectors, counts = [], [], []
    for k, (capital, country) in enumerate(pairs):
        base = rng.standard_normal(64) * 3
        frequent = k % 2 == 0
        words += [capital.lower(), country.lower()]
        vectors += [base + offset, base] if frequent else [rng.standard_normal(64) * 3, rng.standard_normal(64) * 3]
        counts += [1000, 1000] if frequent else [10, 10]
    kv = KeyedVectors(words, np.array(vectors, dtype=np.float32), counts=counts)
    count_of = {w.upper(): c for w, c in zip(words, counts)}
    result = common.binned_analogies(kv, count_of, edges=(5, 30, 100, 300))
    frequent = {c for k, p in enumerate(pairs) if k % 2 == 0 for c in p}
    known = {w.upper() for w in words}  # other sections (capital-world) reuse some of these words
    questions = [q for qs in sections.values() for q in qs if all(w in known for w in q)]
    all_frequent = sum(all(w in frequent for w in q) for q in questions)
    assert result["300+"]["answered"] == all_frequent > 0
    assert result["5-29"]["answered"] == len(questions) - all_frequent
    assert result["300+"]["total"] == 1.0
    assert result["5-29"]["total"] < 0.6
    assert result["30-99"]["answered"] == result["100-299"]["answered"] == 0


def test_run_reads_a_finished_run_without_training(tmp_path, monkeypatch):
    monkeypatch.setattr(common, "RUNS", tmp_path)
    spec = {"model": "word2vec", "params": common.word2vec_params(window=3)}
    other = {"model": "word2vec", "params": common.word2vec_params(window=4)}
    assert common.spec_path(spec) != common.spec_path(other)
    assert common.spec_path(spec) == common.spec_path(json.loads(json.dumps(spec)))
    common.spec_path(spec).write_text(json.dumps({"evaluation": {"analogy": 0.25}}))
    monkeypatch.setattr(common.subprocess, "run", lambda *a, **k: pytest.fail("must not train again"))
    assert common.run(spec)["evaluation"]["analogy"] == 0.25


def test_the_baseline_trains_five_epochs_and_two_stays_reachable():
    assert common.word2vec_params()["epochs"] == common.EPOCHS == 5
    assert common.word2vec_params(epochs=2)["epochs"] == 2
    parser = argparse.ArgumentParser()
    common.add_epochs_argument(parser)
    assert parser.parse_args([]).epochs == 5
    assert parser.parse_args(["--epochs", "2"]).epochs == 2
    for bad in ("0", "-1", "two"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--epochs", bad])
    # a 2-epoch rerun must not overwrite the 5-epoch record
    assert common.record_name("window", 5) == "claims-window"
    assert common.record_name("window", 2) == "claims-window-epochs2"


def test_a_child_run_measures_its_cost_and_peak_memory(tmp_path, monkeypatch):
    monkeypatch.setitem(common.TRAINERS, "fake", lambda spec: {"evaluation": {"analogy": spec["params"]["a"]}})
    out = tmp_path / "run.json"
    common._child(json.dumps({"model": "fake", "params": {"a": 0.5}}), str(out))
    result = json.loads(out.read_text())
    assert result["evaluation"] == {"analogy": 0.5} and result["spec"]["params"] == {"a": 0.5}
    assert result["peak_rss_mb"] > 1 and result["process_cpu_s"] >= 0 and result["process_wall_s"] >= 0
    assert "->" in result["load_before_after"]


def test_a_sweep_record_is_complete_and_keeps_each_runs_provenance(tmp_path):
    result = {"spec": {"model": "word2vec", "params": common.word2vec_params()}, "commit": "abc1234",
              "finished": "2026-11-26 14:00:00 UTC", "load_before_after": "1.0->1.2", "process_wall_s": 90.5,
              "process_cpu_s": 170.2, "peak_rss_mb": 300.0, "train_wall_s": 80.0, "train_cpu_s": 160.0}
    path = common.save_record("window", 5, [("sg-ns window 5", result, {"analogy": 0.27})], directory=tmp_path)
    assert path == tmp_path / "claims-window.json"
    record = json.loads(path.read_text())
    assert record["format"] == "wordvec-benchmark-record" and record["load_after"] is not None
    assert (record["started"], record["load_before"]) == (common.SWEEP_STARTED["started"],
                                                          common.SWEEP_STARTED["load_before"])
    (run,) = record["runs"]
    assert run["wall_seconds"] == 90.5 and run["cpu_seconds"] == 170.2 and run["peak_rss_mb"] == 300.0
    assert run["run_commit"] == "abc1234" and run["spec"]["params"]["epochs"] == 5
    assert run["quality"] == {"analogy": 0.27} and run["config"] == "sg-ns window 5"
