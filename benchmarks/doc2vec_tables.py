"""The Doc2Vec and pooling tables of README.md / benchmarks/README.md, from the records
``bench_doc2vec.py`` writes.  ``benchmarks/tables.py`` renders them (:func:`tables`: one
table per record, never two runs in one table); run alone, this prints them:

    .venv/bin/python benchmarks/doc2vec_tables.py doc2vec-20261126-dbow doc2vec-genre ...

Per (dataset, model): the quality of the trained test vectors (the protocol) and of the
inferred ones, averaged over the record's seeds; training and inference seconds averaged
over the seeds, and the speed-up as the median of the seeds' own ratios (their range
beside it); and the targets, each met (yes) or not (no): quality within 0.5
points of gensim's or better, whole-process training >= 2.5x, inference >= 5x (by the
median speed-up).
"""

import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # records, beside this file
import records  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
DATASETS = {"imdb": ("imdb", "error"), "sst2": ("SST-2", "error"), "genre": ("genre", "accuracy")}
MODELS = {"dbow": "PV-DBOW", "dbow-words": "PV-DBOW + dbow_words", "dm-mean": "PV-DM mean"}
TARGETS = {"points": 0.5, "training": 2.5, "inference": 5.0}


def _percent(dataset, accuracy):
    """The dataset's metric in percent: error (imdb, SST-2) or accuracy (genre)."""
    return 100 * (1 - accuracy) if DATASETS[dataset][1] == "error" else 100 * accuracy


def _mean(values):
    return statistics.fmean(values)


def _pairs(record):
    """{(dataset, config): {seed: {system: run}}} of the Doc2Vec runs, in record order."""
    pairs = {}
    for run in record["runs"]:
        if run["config"] in MODELS:
            pairs.setdefault((run["dataset"], run["config"]), {}).setdefault(run["seed"], {})[run["system"]] = run
    return pairs


def _speed(gensim, wordvec, key):
    """(median speed-up, 'g / w = **median×** (range)'): the seconds are the seeds' means,
    the speed-up the median of the seeds' own ratios (one disturbed run moves a mean of
    seconds far more than a median of ratios)."""
    g, w = _mean([r[key] for r in gensim]), _mean([r[key] for r in wordvec])
    ratios = [a[key] / b[key] for a, b in zip(gensim, wordvec)]
    median = statistics.median(ratios)
    spread = f" ({min(ratios):.2f}–{max(ratios):.2f})" if len(ratios) > 1 else ""
    return median, f"{g:.1f} / {w:.1f} s, **{median:.2f}×**{spread}"


def doc2vec_rows(record):
    """The table's lines for one record."""
    lines = ["| dataset | model | epochs | seeds | gensim % trained / inferred | wordvec % trained / inferred | "
             "Δ points | training: gensim / wordvec, speed-up | inference: gensim / wordvec, speed-up | targets: quality, "
             "training, inference | load |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (dataset, config), seeds in _pairs(record).items():
        complete = [s for s in seeds.values() if set(s) == {"gensim", "wordvec"}]
        if not complete:
            continue
        gensim, wordvec = [s["gensim"] for s in complete], [s["wordvec"] for s in complete]
        quality = {}
        for name, runs in (("gensim", gensim), ("wordvec", wordvec)):
            quality[name] = [_mean([_percent(dataset, r["quality"][f"accuracy_{kind}"]) for r in runs])
                             for kind in ("trained", "inferred")]
        delta = quality["wordvec"][0] - quality["gensim"][0]
        worse = delta if DATASETS[dataset][1] == "error" else -delta
        training, training_cell = _speed(gensim, wordvec, "wall_seconds")
        inference, inference_cell = _speed(gensim, wordvec, "infer_seconds")
        met = ["yes" if ok else "no" for ok in (worse <= TARGETS["points"], training >= TARGETS["training"],
                                                  inference >= TARGETS["inference"])]
        runs = gensim + wordvec
        load = f"{min(r['load_before'][0] for r in runs):.1f}–{max(r['load_after'][0] for r in runs):.1f}"
        lines.append("| " + " | ".join([
            f"{DATASETS[dataset][0]} ({DATASETS[dataset][1]})", MODELS[config], str(wordvec[0]["epochs"]),
            ",".join(str(r["seed"]) for r in wordvec),
            " / ".join(f"{q:.2f}" for q in quality["gensim"]), " / ".join(f"{q:.2f}" for q in quality["wordvec"]),
            f"{delta:+.2f}", training_cell, inference_cell, ", ".join(met), load]) + " |")
    lines.append("")
    lines.append(_provenance(record))
    return lines


def pooling_rows(record):
    """Sentence vectors pooled from word vectors: accuracy and speed of each pooling."""
    lines = ["| dataset | pooling | accuracy % | sentences/s (whole `embed` call) |", "|---|---|---|---|"]
    for run in record["runs"]:
        if run["config"].startswith("pool-"):
            lines.append(f"| {run['dataset']} | {run['config'][5:]} | {100 * run['quality']['accuracy']:.2f} | "
                         f"{run['sentences_per_second']:,.0f} |")
        elif run["config"] == "pooling-kernel":
            lines.append(f"| compiled pooling alone | {run['sentences']:,} sentences of {run['tokens_per_sentence']} "
                         f"words, D = {run['vector_size']}, one thread | | {run['sentences_per_second']:,.0f} |")
    lines.append("")
    lines.append(_provenance(record))
    return lines


def _provenance(record):
    return (f"Record `{records.shown_path(record['name'])}`, commit `{record['commit'][:7]}`, "
            f"load {record['load_before'][0]:.1f} → {record['load_after'][0]:.1f}, CPU {record['system']['cpu']}.")


def _load(name):
    return json.loads(records.record_path(name, RESULTS).read_text(encoding="utf-8"))


def tables(load_record):
    """{table name: a function giving its lines}, each reading its record through
    ``load_record`` (benchmarks/tables.py's, which names a missing record)."""
    def table(rows, name):
        return lambda: rows(load_record(name))

    late_runs = ["doc2vec-20261126T2000-dbow", "doc2vec-20261126T2000-dm-mean", "doc2vec-20261126T2000-genre",
                 "doc2vec-20261126T2000-genre-seeds", "doc2vec-20261126T2000-genre-dbow-5seeds"] + [
        f"doc2vec-20261126-s13-dbow-words-{seed}" for seed in (1, 2, 3)]  # dbow-words: one seed per locked run
    return {**{name: table(doc2vec_rows, name) for name in late_runs},
            "doc2vec-20261126T2000-pooling": table(pooling_rows, "doc2vec-20261126T2000-pooling"),
            "doc2vec-20261126-dbow": table(doc2vec_rows, "doc2vec-20261126-dbow"),
            "doc2vec-20261126-dm-mean": table(doc2vec_rows, "doc2vec-20261126-dm-mean"),
            "doc2vec-20261126-dbow-words": table(doc2vec_rows, "doc2vec-20261126-dbow-words"),
            "doc2vec-3seeds": table(doc2vec_rows, "doc2vec-3seeds"),
            "doc2vec-imdb": table(doc2vec_rows, "doc2vec-imdb"),
            "doc2vec-genre": table(doc2vec_rows, "doc2vec-genre"),
            "doc2vec-imdb-dbow-words": table(doc2vec_rows, "doc2vec-imdb-dbow-words"),
            "pooling-imdb": table(pooling_rows, "doc2vec-imdb"),
            "pooling-genre": table(pooling_rows, "doc2vec-genre")}


def main(names):
    for name in names:
        record = _load(name)
        print("\n".join(doc2vec_rows(record)))
        if any(run["config"].startswith("pool") for run in record["runs"]):
            print()
            print("\n".join(pooling_rows(record)))
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
