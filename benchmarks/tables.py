"""Every comparison table of README.md, benchmarks/README.md and docs/guides/, generated
from the records in benchmarks/results/ (the one place where tables are made).

    .venv/bin/python benchmarks/tables.py           # rewrite every table in place
    .venv/bin/python benchmarks/tables.py --check   # exit 1 if a table differs from its records

A table sits in a markdown file between ``<!-- table:NAME -->`` and ``<!-- /table -->``;
NAME picks one of the TABLES at the end of this file, which reads the records it names
(records.py writes them; a missing one is an error) and returns the table's lines, each
row naming its record, and under them the machine and the records' dates and commits.
tests/test_tables.py runs the check, so a table edited by hand, or a record changed
without regenerating, fails the suite.
"""

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # records, beside this file
from lib import records  # noqa: E402

RESULTS = HERE / "results"
DOCUMENTS = (HERE.parent / "README.md", HERE / "README.md", *sorted((HERE.parent / "docs" / "guides").glob("*.md")))
BLOCK = re.compile(r"(<!-- table:([a-z0-9-]+) -->\n)(.*?)(<!-- /table -->)", re.S)
CONFIG_NAMES = {"sg-ns": "skip-gram NS", "cbow-ns": "CBOW NS", "sg-hs": "skip-gram HS", "cbow-hs": "CBOW HS"}
PEERS = (("gensim", "gensim 4.4.0"), ("c", "word2vec C tool"))


class MissingRecord(Exception):
    pass


def load_record(name):
    path = records.record_path(name, RESULTS)
    if not path.is_file():
        raise MissingRecord(f"a table needs the record {path}, which is missing")
    record = json.loads(path.read_text(encoding="utf-8"))
    record.setdefault("name", name)
    return record


# ----------------------------------------------------------------------------- cells

def _mean(values):
    values = [v for v in values if v is not None]
    return statistics.fmean(values) if values else None


def _runs(record, **match):
    return [run for run in record["runs"] if all(run.get(key) == value for key, value in match.items())]


def _seconds(value, bold=False):
    text = f"{value:.1f} s" if value < 100 else f"{value:.0f} s"
    return f"**{text}**" if bold else text


def _ratio(peer, ours):
    ratio = peer / ours
    if ratio < 0.1:
        return f"{ratio:.2g}×"
    return f"{ratio:.2f}×" if ratio < 10 else f"{ratio:.1f}×"


def _number(value, form):
    return "" if value is None else format(value, form)


def _record_name(record):
    return f"`{record['name']}.json`"


# ----------------------------------------------------------------------------- provenance

def _machine(record):
    """The machine a record ran on, in the words its format keeps."""
    system = record.get("system") or {}
    if isinstance(system, dict) and system.get("cpu"):
        return f"{system['cpu'].replace('(R)', '')}, {system['cpus']} CPUs"
    found = record.get("versions") or system  # bench_classify.py's and bench_load.py's records
    memory = f", {found['memory_gb']:.0f} GB" if found.get("memory_gb") else ""
    return f"{found.get('machine', 'unknown')}, {found.get('cpus', '?')} CPUs{memory}"


def _load_rows(record):
    """bench_load.py's records: every stage's rows, each stage with its own system and time."""
    return [(stage, row) for stage in record["stages"].values() for row in stage["rows"]]


def _commits(record):
    if "stages" in record:  # bench_load.py: the commit of each row, else of its stage
        return sorted({(row.get("commit") or stage["system"]["commit"])[:7] for stage, row in _load_rows(record)})
    if "versions" in record:
        return [record["versions"]["commit"][:7]]
    return sorted({run["commit"][:7] for run in record["runs"] if run.get("commit")} or {record["commit"][:7]})


def _date(record):
    if "stages" in record:
        return max(stage["when"] for stage in record["stages"].values())[:10]
    return record["started"][:10]


def _one_minute_loads(record):
    if "stages" in record:
        loads = [row.get("load_before") for _, row in _load_rows(record)]
        loads += [stage.get(key) for stage in record["stages"].values() for key in ("load_before", "load_after")]
        return [load if isinstance(load, (int, float)) else load[0] for load in loads if load]
    loads = [record.get("load_before"), record.get("load_after")]
    for run in record["runs"]:
        loads += [run.get("load_before"), run.get("load_after")]
        loads += [(run.get("train") or {}).get("load_before")]
    return [load[0] for load in loads if isinstance(load, list) and load]


def _provenance(records_shown):
    """'Machine: ...; records: `path` (date, commit, 1-min load)' for the records of a table."""
    machines = {}
    for record in records_shown:
        machines.setdefault(_machine(record), []).append(record)
    parts = []
    for machine, group in machines.items():
        shown = []
        for record in group:
            loads = _one_minute_loads(record)
            load = f", 1-min load {min(loads):.1f}–{max(loads):.1f}" if loads else ""
            shown.append(f"`{records.shown_path(record['name'])}` ({_date(record)}, commit "
                         f"{', '.join(_commits(record))}{load})")
        parts.append(f"{machine}: " + "; ".join(shown))
    return "Ran on " + ". ".join(parts) + "."


# ----------------------------------------------------------------------------- word2vec

def _scores(quality):
    """(analogy accuracy, WS-353 rho, SimLex rho) from gensim_tasks.py's evaluation (or Nones)."""
    quality = quality or {}
    similarity = quality.get("similarity") or {}

    def rho(name):
        return (similarity.get(name) or {}).get("spearman")

    return (quality.get("analogy") or {}).get("total"), rho("wordsim353"), rho("simlex999")


def _word2vec_summary(record, config, system):
    """Mean wall seconds, analogy and WS-353 of one config and system over the record's seeds."""
    runs = _runs(record, config=config, system=system)
    if not runs:
        return None
    scores = [_scores(run.get("quality")) for run in runs]
    return {"wall": _mean([run["wall_seconds"] for run in runs]), "analogy": _mean([s[0] for s in scores]),
            "wordsim": _mean([s[1] for s in scores]), "rss": _mean([run["peak_rss_mb"] for run in runs]),
            "seeds": len(runs)}


def _quality(summary):
    if summary["analogy"] is None:
        return ""
    return f" ({100 * summary['analogy']:.1f}% / {summary['wordsim']:.3f})"


def headline_table():
    """README 'How it compares': whole runs, peak memory, vocabulary scan, evaluation."""
    word2vec, vocab, evaluation = load_record("word2vec"), load_record("vocab"), load_record("evaluate")
    lines = ["| whole run, 5 epochs (analogy / WordSim-353); peers: time and its ratio to wordvec's | wordvec "
             "| gensim 4.4.0 | word2vec C tool | record |", "|---|---|---|---|---|"]
    for config, title in CONFIG_NAMES.items():
        ours = _word2vec_summary(word2vec, config, "wordvec")
        if ours is not None:
            lines.append(f"| {title} | " + " | ".join(_word2vec_cells(word2vec, config, ours))
                         + f" | {_record_name(word2vec)} |")
    memory = {system: _word2vec_summary(word2vec, "sg-ns", system) for system in ("wordvec", "gensim", "c")}
    if memory["wordvec"]:
        ours = memory["wordvec"]["rss"]
        cells = [f"**{ours:.0f} MB**"] + [
            "" if memory[system] is None else f"{memory[system]['rss']:.0f} MB ({_ratio(memory[system]['rss'], ours)})"
            for system, _ in PEERS]
        lines.append("| peak memory (skip-gram NS) | " + " | ".join(cells) + f" | {_record_name(word2vec)} |")
    full = load_record("word2vec-full")
    lines.append(_full_corpus_row(full))
    lines.append(_vocabulary_row(vocab))
    lines.append(_evaluation_row(evaluation))
    return lines + ["", _provenance([word2vec, full, vocab, evaluation])]


def _word2vec_cells(record, config, ours):
    """wordvec's cell, then each peer's: wall time, its ratio to wordvec's, quality."""
    cells = [_seconds(ours["wall"], bold=True) + _quality(ours)]
    for system, _ in PEERS:
        peer = _word2vec_summary(record, config, system)
        cells.append("" if peer is None else f"{_seconds(peer['wall'])}, {_ratio(peer['wall'], ours['wall'])}"
                     + _quality(peer))
    return cells


def _full_corpus_row(record):
    """Full wordbench, skip-gram NS / CBOW NS: wordvec and gensim (the C tool was not run)."""
    summaries = {(config, system): _word2vec_summary(record, config, system)
                 for config in ("sg-ns", "cbow-ns") for system in ("wordvec", "gensim")}
    configs = [config for config in ("sg-ns", "cbow-ns") if summaries[config, "wordvec"] and summaries[config, "gensim"]]
    names = " / ".join(CONFIG_NAMES[config] for config in configs)
    tokens = record.get("corpus", {}).get("tokens")
    size = f"{tokens / 1e6:.0f}M tokens" if tokens else "full corpus"

    def cell(system, bold):
        times = " / ".join(_seconds(summaries[config, system]["wall"], bold=bold) for config in configs)
        scores = " / ".join(f"{100 * summaries[config, system]['analogy']:.1f}%" for config in configs
                            if summaries[config, system]["analogy"] is not None)
        return times + (f" ({scores})" if scores else "")

    ratios = ", ".join(_ratio(summaries[config, "gensim"]["wall"], summaries[config, "wordvec"]["wall"])
                       for config in configs)
    return (f"| full wordbench ({size}): {names} | {cell('wordvec', True)} | {cell('gensim', False)}, {ratios} "
            f"| | {_record_name(record)} |")


def _vocabulary_row(record):
    ours = _runs(record, system="wordvec (.xz, decompression included)")[0]
    gensim = _runs(record, system="gensim 4.4 build_vocab (plain text)")[0]
    return (f"| vocabulary scan of the .xz corpus (gensim: plain text) | {_seconds(ours['wall_seconds'], bold=True)} "
            f"| {_seconds(gensim['wall_seconds'])}, {_ratio(gensim['wall_seconds'], ours['wall_seconds'])} | "
            f"| {_record_name(record)} |")


def _evaluation_row(record):
    ours = _runs(record, system="wordvec 3cosadd")[0]
    gensim = _runs(record, system="gensim")[0]
    return (f"| Google-analogy evaluation ({record['restrict_vocab']:,} words; same answers: "
            f"{'yes' if ours['quality']['correct'] == gensim['quality']['correct'] else 'NO'}) "
            f"| {_seconds(ours['wall_seconds'], bold=True)} "
            f"| {_seconds(gensim['wall_seconds'])}, {_ratio(gensim['wall_seconds'], ours['wall_seconds'])} | "
            f"| {_record_name(record)} |")


def word2vec_table(names=("word2vec", "word2vec-full", "word2vec-cbow-ns-seeds", "word2vec-hs-seeds")):
    """benchmarks/README: every config of bench_word2vec.py's records, wordvec against each
    peer (whole process; means over the record's seeds, their number named), and the peak
    memory of each."""
    lines = ["| corpus | config | wordvec (analogy / WS-353) | gensim 4.4.0: time, its ratio to wordvec's "
             "| word2vec C tool | peak MB wordvec / gensim / C | record |", "|---|---|---|---|---|---|---|"]
    shown = []
    for name in names:
        record = load_record(name)
        shown.append(record)
        corpus = f"{Path(record['corpus']['source']).name.split('.')[0]} ({record['corpus']['tokens'] / 1e6:.0f}M tokens)"
        for config, title in CONFIG_NAMES.items():
            ours = _word2vec_summary(record, config, "wordvec")
            if ours is None:
                continue
            peaks = [_word2vec_summary(record, config, system) for system in ("wordvec", "gensim", "c")]
            peak = " / ".join("–" if p is None else f"{p['rss']:.0f}" for p in peaks)
            runs = f", mean of {ours['seeds']} seeds" if ours["seeds"] > 1 else ""
            lines.append(f"| {corpus} | {title}{runs} | " + " | ".join(_word2vec_cells(record, config, ours))
                         + f" | {peak} | {_record_name(record)} |")
    return lines + ["", _provenance(shown)]


def vocab_table():
    """benchmarks/README: vocabulary counting, every system of the vocab record."""
    record = load_record("vocab")
    base = record["runs"][0]["wall_seconds"]
    lines = ["| system | seconds | M tokens/s | time / wordvec's (.xz) | peak RSS MB (process so far) | record |",
             "|---|---:|---:|---:|---:|---|"]
    for run in record["runs"]:
        tokens = run["quality"]["tokens"]
        lines.append(f"| {run['system']} | {run['wall_seconds']:.2f} | {tokens / run['wall_seconds'] / 1e6:.1f} "
                     f"| {run['wall_seconds'] / base:.2f}× | {run['peak_rss_mb']:.0f} | {_record_name(record)} |")
    words = {run["quality"]["words_min_count_5"] for run in record["runs"]}
    counted = f"{words.pop():,} words with count ≥ 5." if len(words) == 1 else f"DIFFERENT word counts {words}."
    return lines + ["", f"Every system counted {tokens:,} tokens and {counted} {_provenance([record])}"]


def evaluate_table():
    """benchmarks/README: the Google-analogy evaluation, wordvec vs gensim, same vectors."""
    record = load_record("evaluate")
    gensim = _runs(record, system="gensim")[0]
    lines = ["| tool | seconds | gensim's time / this | correct / answered | accuracy | record |",
             "|---|---:|---:|---:|---:|---|"]
    for run in record["runs"]:
        quality = run["quality"]
        speed = gensim["wall_seconds"] / run["wall_seconds"]
        lines.append(f"| {run['system']} | {run['wall_seconds']:.1f} | {speed:.1f}× "
                     f"| {quality['correct']:,} / {quality['answered']:,} | {100 * quality['accuracy']:.2f}% "
                     f"| {_record_name(record)} |")
    notes = [f"Vectors: gensim's skip-gram NS of `word2vec.json`; restrict_vocab {record['restrict_vocab']:,}."]
    for name, rho in (record.get("similarity") or {}).items():
        notes.append(f"{name}: Spearman ρ wordvec {rho['wordvec']:.4f}, gensim {rho['gensim']:.4f} "
                     f"({rho['covered']} pairs).")
    return lines + ["", " ".join(notes) + " " + _provenance([record])]


def estimate_table():
    """benchmarks/README: estimate_memory() against the measured peak of the same run."""
    record = load_record("estimate")
    lines = ["| config | flags | words | estimated MB | measured MB | error | record |",
             "|---|---|---:|---:|---:|---:|---|"]
    for run in record["runs"]:
        estimated, measured = run["quality"]["estimated_mb"], run["peak_rss_mb"]
        lines.append(f"| {run['config']} | `{run['flags']}` | {run['quality']['words']:,} | {estimated:.1f} "
                     f"| {measured:.1f} | {estimated / measured - 1:+.1%} | {_record_name(record)} |")
    return lines + ["", f"Corpus: {record['corpus']}. {_provenance([record])}"]


# ----------------------------------------------------------------------------- subwords, counts

def subword_table(name="subword-2m"):
    """benchmarks/README: subword skip-gram, wordvec vs gensim FastText vs fastText, one run each."""
    record = load_record(name)
    ours = _runs(record, system="wordvec-ft")[0]["wall_seconds"]
    lines = ["| system | whole run s | time / wordvec's | peak RSS MB | analogy % | WS-353 ρ | SimLex ρ "
             "| SimLex ρ, pairs with held-out words | record |", "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for run in record["runs"]:
        quality = run["quality"]
        in_vocab = quality.get("in_vocab") or {}
        held_out = ((quality.get("held_out_pairs") or {}).get("simlex999") or {}).get("spearman")
        lines.append(f"| {run['system']} | {run['wall_seconds']:.1f} | {_ratio(run['wall_seconds'], ours)} "
                     f"| {run['peak_rss_mb']:.0f} "
                     f"| {_number((quality.get('analogy') or {}).get('total', 0) * 100, '.1f')} "
                     f"| {_number((in_vocab.get('wordsim353') or {}).get('spearman'), '.3f')} "
                     f"| {_number((in_vocab.get('simlex999') or {}).get('spearman'), '.3f')} "
                     f"| {_number(held_out, '.3f')} | {_record_name(record)} |")
    return lines + ["", _provenance([record])]


def fasttext_unsupervised_table(name):
    """benchmarks/README: ``train_unsupervised`` of wordvec.fasttext against fastText's, per model."""
    record = load_record(name)
    lines = ["| system | model | whole process s | fastText's time / this | analogy % | WS353 ρ | peak MB | record |",
             "|---|---|---:|---:|---:|---:|---:|---|"]
    for model in dict.fromkeys(run["model"] for run in record["runs"]):
        peer = _runs(record, model=model, system="fasttext")
        for run in _runs(record, model=model):
            quality = run["quality"] or {}
            analogy = None if quality.get("analogy") is None else 100 * quality["analogy"]
            ratio = _ratio(peer[0]["wall_seconds"], run["wall_seconds"]) if peer else ""
            lines.append(f"| {run['system']} | {model} | {run['wall_seconds']:.1f} | {ratio} "
                         f"| {_number(analogy, '.1f')} | {_number(quality.get('ws353'), '.3f')} "
                         f"| {run['peak_rss_mb']:.0f} | {_record_name(record)} |")
    return lines + ["", _provenance([record])]


def _count_row(model, cpu, evaluation, baseline, record):
    return (f"| {model} | {cpu:.0f} | {100 * evaluation['analogy']:.1f} | {evaluation['wordsim353']:.3f} "
            f"| {evaluation['simlex999']:.3f} | {evaluation['analogy'] / baseline:.2f}× | {_record_name(record)} |")


def count_table():
    """benchmarks/README: PPMI-SVD and GloVe (claims/claim_svd.py, claim_glove_time.py) against
    wordvec's skip-gram and CBOW NS on the same corpus: CPU seconds of reading, counting and
    training, and quality with the analogy accuracy's ratio to skip-gram's."""
    svd, glove = load_record("claims-svd"), load_record("claims-glove_time")
    word2vec = [run["quality"] for run in glove["runs"][1:]]
    baseline = next(quality for quality in word2vec if quality["system"] == "sg-ns")["evaluation"]["analogy"]
    lines = ["| model | CPU s (counting + training) | analogy % | WS-353 ρ | SimLex ρ | analogy / skip-gram NS's "
             "| record |", "|---|---:|---:|---:|---:|---:|---|"]
    for quality in word2vec:
        lines.append(_count_row(f"{CONFIG_NAMES.get(quality['system'], quality['system'])}, {quality['epochs']} epochs",
                                quality["cpu_s"], quality["evaluation"], baseline, glove))
    glove_run = glove["runs"][0]["quality"]
    last = glove_run["checkpoints"][-1]
    lines.append(_count_row(f"GloVe, {last['epochs']} epochs", glove_run["counting"]["cpu_s"] + last["train_cpu_s"],
                            last["evaluation"], baseline, glove))
    factorised = svd["runs"][0]["quality"]
    for name, result in factorised.items():
        if name != "counting":
            lines.append(_count_row(f"SVD: {name}", factorised["counting"]["cpu_s"] + result["svd_cpu_s"],
                                    result["evaluation"], baseline, svd))
    return lines + ["", _provenance([glove, svd])]


# ----------------------------------------------------------------------------- Doc2Vec

DOC2VEC_DATASETS = {"imdb": ("imdb", "error"), "sst2": ("SST-2", "error"), "genre": ("genre", "accuracy")}
DOC2VEC_MODELS = {"dbow": "PV-DBOW", "dbow-words": "PV-DBOW + dbow_words", "dm-mean": "PV-DM mean"}
# (dataset, model, records): the newest side-by-side runs of each; dbow-words ran one seed a record
DOC2VEC_ROWS = (("imdb", "dbow", ("doc2vec-20261126T2000-dbow",)),
                ("imdb", "dm-mean", ("doc2vec-20261126T2000-dm-mean",)),
                ("imdb", "dbow-words", tuple(f"doc2vec-20261126T2000-dbow-words-{seed}" for seed in (1, 2, 3))),
                ("genre", "dbow", ("doc2vec-20261126T2000-genre-dbow-5seeds",)),
                ("genre", "dm-mean", ("doc2vec-20261126T2000-genre-seeds",)))


def _percent(dataset, accuracy):
    """The dataset's metric in percent: error (imdb, SST-2) or accuracy (genre)."""
    return 100 * (1 - accuracy) if DOC2VEC_DATASETS[dataset][1] == "error" else 100 * accuracy


def _doc2vec_seeds(runs, dataset, config):
    """(gensim runs, wordvec runs), paired by seed, of one dataset and model."""
    by_seed = {}
    for run in runs:
        if run.get("dataset") == dataset and run["config"] == config:
            by_seed.setdefault(run["seed"], {})[run["system"]] = run
    complete = [pair for _, pair in sorted(by_seed.items()) if set(pair) == {"gensim", "wordvec"}]
    return [pair["gensim"] for pair in complete], [pair["wordvec"] for pair in complete]


def _speed_up(gensim, wordvec, key):
    """'g / w s, **median×** (range)': the seconds are the seeds' means, the speed-up the
    median of the seeds' own ratios (one disturbed run moves a mean far more than a median)."""
    ratios = [g[key] / w[key] for g, w in zip(gensim, wordvec)]
    spread = f" ({min(ratios):.2f}–{max(ratios):.2f})" if len(ratios) > 1 else ""
    return (f"{_mean(r[key] for r in gensim):.1f} / {_mean(r[key] for r in wordvec):.1f} s, "
            f"**{statistics.median(ratios):.2f}×**{spread}")


def doc2vec_table():
    """benchmarks/README: Doc2Vec against gensim 4.4.0, per dataset and model: quality of the
    trained and inferred test vectors (means over seeds), whole-process training and
    inference time with wordvec's speed-up."""
    lines = ["| dataset (metric %) | model | seeds | gensim trained / inferred | wordvec trained / inferred "
             "| Δ trained | training: gensim / wordvec, speed-up | inference: gensim / wordvec, speed-up | record |",
             "|---|---|---|---|---|---|---|---|---|"]
    shown = []
    for dataset, config, names in DOC2VEC_ROWS:
        loaded = [load_record(name) for name in names]
        shown += loaded
        gensim, wordvec = _doc2vec_seeds([run for record in loaded for run in record["runs"]], dataset, config)
        quality = {system: [_mean(_percent(dataset, r["quality"][f"accuracy_{kind}"]) for r in runs)
                            for kind in ("trained", "inferred")]
                   for system, runs in (("gensim", gensim), ("wordvec", wordvec))}
        label, metric = DOC2VEC_DATASETS[dataset]
        lines.append("| " + " | ".join([
            f"{label} ({metric})", DOC2VEC_MODELS[config], str(len(wordvec)),
            " / ".join(f"{q:.2f}" for q in quality["gensim"]), " / ".join(f"{q:.2f}" for q in quality["wordvec"]),
            f"{quality['wordvec'][0] - quality['gensim'][0]:+.2f}", _speed_up(gensim, wordvec, "wall_seconds"),
            _speed_up(gensim, wordvec, "infer_seconds"), ", ".join(_record_name(r) for r in loaded)]) + " |")
    return lines + ["", _provenance(shown)]


# the tutorial's runs, each record the same settings (the second repeats PV-DBOW twice)
DOC2VEC_TUTORIAL_RECORDS = ("doc2vec-imdb-tutorial-20261128", "doc2vec-imdb-tutorial-20261128-dbow-repeats")


def _tutorial_errors(runs):
    """Mean error % of the trained and of the re-inferred test vectors over ``runs``."""
    return [_mean(100 * run["quality"][key] for run in runs) for key in ("error_rate", "error_rate_inferred")]


def doc2vec_tutorial_table(names=DOC2VEC_TUTORIAL_RECORDS):
    """benchmarks/README: gensim's IMDB tutorial code run with gensim's classes and with
    wordvec's (bench_doc2vec.py --tutorial): per model, over its runs, the mean error % of
    the trained and of the re-inferred test vectors, wordvec minus gensim (the runs' own
    differences beside it), the share of re-inferred train reviews whose nearest trained
    vector is their own, whole-process seconds with wordvec's speed-up, and peak MB."""
    loaded = [load_record(name) for name in names]
    runs = [run for record in loaded for run in record["runs"]]
    lines = ["| model | reviews train / test, epochs | runs | error % gensim: trained / inferred "
             "| error % wordvec: trained / inferred | Δ trained / inferred (per run) | own vector nearest after "
             "re-inference: gensim / wordvec | whole process: gensim / wordvec, speed-up | peak MB gensim / wordvec "
             "| records |", "|---|---|---|---|---|---|---|---|---|---|"]
    for config in dict.fromkeys(run["config"] for run in runs):
        gensim, wordvec = ([run for run in runs if run["config"] == config and run["system"] == system]
                           for system in ("gensim", "wordvec"))
        pairs = min(len(gensim), len(wordvec))
        gensim, wordvec = gensim[:pairs], wordvec[:pairs]
        if not pairs:
            continue
        errors = {"gensim": _tutorial_errors(gensim), "wordvec": _tutorial_errors(wordvec)}
        per_run = [", ".join(f"{100 * (w['quality'][key] - g['quality'][key]):+.2f}" for g, w in zip(gensim, wordvec))
                   for key in ("error_rate", "error_rate_inferred")]
        deltas = " / ".join(f"{ours - theirs:+.2f}" + (f" ({runs_})" if pairs > 1 else "")
                            for ours, theirs, runs_ in zip(errors["wordvec"], errors["gensim"], per_run))
        own = {system: _mean(run["quality"]["inferred_nearest_is_own"] for run in group)
               for system, group in (("gensim", gensim), ("wordvec", wordvec))}
        shown = [record for record in loaded if any(run["config"] == config for run in record["runs"])]
        first = wordvec[0]
        lines.append("| " + " | ".join([
            f"{DOC2VEC_MODELS[config]} `{first['model']}`",
            f"{first['train_documents']:,} / {first['test_documents']:,}, {first['epochs']}", str(pairs),
            " / ".join(f"{e:.2f}" for e in errors["gensim"]), " / ".join(f"{e:.2f}" for e in errors["wordvec"]),
            deltas, f"{own['gensim']:.2f} / {own['wordvec']:.2f}", _speed_up(gensim, wordvec, "wall_seconds"),
            f"{_mean(r['peak_rss_mb'] for r in gensim):.0f} / {_mean(r['peak_rss_mb'] for r in wordvec):.0f}",
            ", ".join(_record_name(record) for record in shown)]) + " |")
    return lines + ["", _provenance(loaded)]


# ----------------------------------------------------------------------------- classify

CLASSIFY_RECORD = "classify-20261127-interleaved-rerun"  # every task and setting, three seeds
CLASSIFY_NEWEST = ("classify-sst-seeds-20261126-predict5", "classify-20261126-predict5")  # SST, then documents


def _classify_rows(record):
    """Per (task, setting): means over seeds of P@1, train wall/CPU seconds, max peak RSS,
    and the first seed's predict docs/s, for fastText and wordvec (bench_classify.py)."""
    rows = []
    keys = sorted({(run["task"], run["setting"]) for run in record["runs"]}, key=lambda k: (k[0], k[1] != "unigrams"))
    for task, setting in keys:
        by = {system: _runs(record, task=task, setting=setting, system=system) for system in ("fasttext", "wordvec")}
        if not by["fasttext"] or not by["wordvec"]:
            continue
        row = {"task": task, "setting": setting, "seeds": len(by["wordvec"])}
        for system, runs in by.items():
            predict = [run["predict"]["docs_per_second"] for run in runs if "predict" in run]
            repeated = [(run["predict_repeated"]["docs_per_second"],
                         run["predict_repeated"]["documents"] // run["predict"]["documents"])
                        for run in runs if "predict_repeated" in run]
            row[system] = {"p": _mean(run["p_at_1"] for run in runs), "p_all": [run["p_at_1"] for run in runs],
                           "wall": _mean(run["train"]["wall_seconds"] for run in runs),
                           "cpu": _mean(run["train"]["cpu_seconds"] for run in runs),
                           "rss": max(run["train"]["peak_rss_mb"] for run in runs),
                           "predict": predict[0] if predict else None,
                           "repeated": repeated[0] if repeated else None}
        rows.append(row)
    return rows


def _classify_provenance(record, name=CLASSIFY_RECORD):
    loads = [load for run in record["runs"] for load in (run["train"]["load_before"][0], run["train"]["load_after"][0])]
    return (f"Record `{records.shown_path(name)}`: commit `{record['versions']['commit'][:7]}`, "
            f"{record['started'][:16]}–{record.get('finished', '?')[11:16]} UTC, 1-min load {min(loads):.1f}–"
            f"{max(loads):.1f} on 2 cores; means over seeds; speed-up: fastText's wall time over wordvec's.")


def _predict_cells(f, w):
    """(one pass, repeated): docs/s fastText / wordvec (wordvec's share); a repeated run
    passes over the test documents N times in one process (throughput once started)."""
    one = (f"{f['predict']:.0f} / {w['predict']:.0f} ({_ratio(w['predict'], f['predict'])})"
           if f["predict"] and w["predict"] else "")
    repeated = ""
    if f["repeated"] and w["repeated"]:
        repeated = (f"×{w['repeated'][1]}: {f['repeated'][0]:.0f} / {w['repeated'][0]:.0f} "
                    f"({_ratio(w['repeated'][0], f['repeated'][0])})")
    return one, repeated


def _difference(f, w):
    """'Δ points (± standard error of the difference of the means)' of P@1, wordvec − fastText."""
    delta = 100 * (w["p"] - f["p"])
    if len(f["p_all"]) < 2 or len(w["p_all"]) < 2:
        return f"{delta:+.2f}"
    error = (statistics.variance(f["p_all"]) / len(f["p_all"]) + statistics.variance(w["p_all"]) / len(w["p_all"]))
    return f"{delta:+.2f} (± {100 * error ** 0.5:.2f})"


def classify_table(names=CLASSIFY_NEWEST):
    """benchmarks/README: wordvec classify against fastText 0.9.2, every task and setting of
    the newest records: P@1, whole-process training speed-up, peak memory, predict speed."""
    lines = ["| task | setting | seeds | P@1 fastText / wordvec | Δ points (± s.e.) | training: fastText / wordvec, "
             "speed-up | peak MB fastText / wordvec | predict docs/s fastText / wordvec (wordvec's share) | record |",
             "|---|---|---|---|---|---|---|---|---|"]
    shown = []
    for name in names:
        record = load_record(name)
        shown.append(record)
        for row in _classify_rows(record):
            f, w = row["fasttext"], row["wordvec"]
            predict, _ = _predict_cells(f, w)
            lines.append(f"| {row['task']} | {row['setting']} | {row['seeds']} | {f['p']:.4f} / {w['p']:.4f} "
                         f"| {_difference(f, w)} | {f['wall']:.2f} / {w['wall']:.2f} s, {_ratio(f['wall'], w['wall'])} "
                         f"| {f['rss']:.0f} / {w['rss']:.0f} | {predict} | {_record_name(record)} |")
    return lines + ["", _provenance(shown) + " Means over seeds; predict: the median of five processes, "
                                             "the first seed's model."]


def classify_calls_table(name="fasttext-predict-genre-20261127"):
    """benchmarks/README: per-call predict of the Python module against fastText's."""
    record = load_record(name)
    lines = ["| model | calls/s fastText / wordvec | wordvec's share | same label | record |", "|---|---|---|---|---|"]
    for config in dict.fromkeys(run["config"] for run in record["runs"]):
        f, w = _runs(record, config=config, system="fasttext")[0], _runs(record, config=config, system="wordvec")[0]
        lines.append(f"| {config} | {f['calls_per_second']:,.0f} / {w['calls_per_second']:,.0f} "
                     f"| {_ratio(w['calls_per_second'], f['calls_per_second'])} "
                     f"| {100 * w['quality']['same_label']:.0f} % | {_record_name(record)} |")
    return lines + ["", _provenance([record])]


def classify_sorted_table(name="classify-sorted-20261128"):
    """benchmarks/README: training files sorted by label (one file per class, concatenated):
    P@1 per seed of fastText (which reads the file's order) and wordvec (an order drawn
    from the seed)."""
    record = load_record(name)
    lines = ["| task | setting | P@1 fastText, per seed | P@1 wordvec, per seed | mean fastText / wordvec "
             "| Δ points (± s.e.) | record |", "|---|---|---|---|---|---|---|"]
    for row in _classify_rows(record):
        f, w = row["fasttext"], row["wordvec"]
        lines.append(f"| {row['task']} | {row['setting']} | {' · '.join(f'{p:.4f}' for p in f['p_all'])} "
                     f"| {' · '.join(f'{p:.4f}' for p in w['p_all'])} | {f['p']:.4f} / {w['p']:.4f} "
                     f"| {_difference(f, w)} | {_record_name(record)} |")
    settings = record["settings"]
    return lines + ["", f"lr {settings['lr']}, epoch {settings['epoch']}, dim {settings['dim']}, "
                        f"{settings['threads']} threads, seeds {', '.join(str(s) for s in sorted({r['seed'] for r in record['runs']}))}. "
                    + _provenance([record])]


CLASSIFY_AUTOTUNE_RECORDS = ("classify-autotune-genre-budget-20261127", "classify-autotune-genre-2M-exact-cutoff-20261128",
                             "classify-autotune-genre-2M-scan-once-20261128")


def classify_autotune_table(names=CLASSIFY_AUTOTUNE_RECORDS):
    """benchmarks/README: autotune against fastText's on a validation split, same budget."""
    lines = ["| task | budget | model size | system | tuned P@1 | best validation score | trials "
             "| whole process s | fastText's time / this | model bytes | record |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    shown = []
    for name in names:
        record = load_record(name)
        shown.append(record)
        settings = record["settings"]
        fasttext = {run["task"]: run["autotune"]["wall_seconds"] for run in record["runs"] if run["system"] == "fasttext"}
        for run in record["runs"]:
            tuned = run["autotune"]
            lines.append(f"| {run['task']} | {settings['duration_seconds']} s | {settings['model_size'] or '–'} "
                         f"| {run['system']} | {run['p_at_1']:.4f} | {tuned['best_validation_score']:.4f} "
                         f"| {tuned['trials']} | {tuned['wall_seconds']:.0f} "
                         f"| {_ratio(fasttext[run['task']], tuned['wall_seconds'])} | {tuned['size_bytes']:,} "
                         f"| {_record_name(record)} |")
    return lines + ["", "fastText counts the trial its timer aborts, wordvec the trials it finished; the whole "
                        "process includes the final training with the chosen settings. " + _provenance(shown)]


def classify_summary_table():
    """docs/guides/classify.md: the targets' figures per task and setting (ratios > 1: wordvec better)."""
    record = load_record(CLASSIFY_RECORD)
    lines = ["| task | setting | P@1 wordvec vs fastText | training speed-up (whole process) | peak memory "
             "| predict docs/s: test file / repeated |", "|---|---|---|---|---|---|"]
    for row in _classify_rows(record):
        f, w = row["fasttext"], row["wordvec"]
        predict = _ratio(w["predict"], f["predict"]) if f["predict"] and w["predict"] else ""
        if f["repeated"] and w["repeated"]:
            predict += f" / {_ratio(w['repeated'][0], f['repeated'][0])} (×{w['repeated'][1]})"
        lines.append(f"| {row['task']} | {row['setting']} | {w['p']:.4f} vs {f['p']:.4f} "
                     f"({100 * (w['p'] - f['p']):+.2f}) | {_ratio(f['wall'], w['wall'])} "
                     f"| {w['rss']:.0f} vs {f['rss']:.0f} MB | {predict} of fastText's |")
    return lines + ["", _classify_provenance(record)]


def classify_speed_table(name):
    """docs/guides/classify.md: the speed targets from one record: whole-process training
    time, peak memory, predict docs/s (first seed's models)."""
    record = load_record(name)
    lines = ["| task | setting | seeds | train wall s fastText / wordvec | training speed-up | peak RSS MB "
             "fastText / wordvec | predict docs/s fastText / wordvec (wordvec's share) |",
             "|---|---|---|---|---|---|---|"]
    for row in _classify_rows(record):
        f, w = row["fasttext"], row["wordvec"]
        predict, _ = _predict_cells(f, w)
        lines.append(f"| {row['task']} | {row['setting']} | {row['seeds']} | {f['wall']:.2f} / {w['wall']:.2f} | "
                     f"{_ratio(f['wall'], w['wall'])} | {f['rss']:.0f} / {w['rss']:.0f} | {predict} |")
    return lines + ["", _classify_provenance(record, name)]


# ----------------------------------------------------------------------------- pretrained files

# (record, format, limits): the newest locked run of each file and limit (bench_load.py)
LOAD_ROWS = (("load-20261127T2322-bin3m", "bin", (None,)), ("load-20261127", "bin", (500000,)),
             ("load-20261127", "bin.gz", (None, 500000)), ("load-20261127-ctext", "txt", (None, 500000)),
             ("load-20261127-ctext", "vec", (None, 500000)))
LOAD_SYSTEMS = (("wordvec", ""), ("wordvec touched", " + dict"))


def _load_runs(rows, **match):
    """The rows matching ``match``, ordered by run (0: first, 1: again)."""
    found = [row for row in rows if all(row.get(key) == value for key, value in match.items())]
    return sorted(found, key=lambda row: row.get("run", 0))


def _load_times(runs):
    return " · ".join(f"{row['wall_seconds']:.1f}" for row in runs) if runs else "–"


def _load_ratios(ours, theirs):
    if not ours or not theirs:
        return "–"
    return " · ".join(f"**{t['wall_seconds'] / o['wall_seconds']:.1f}×**" for o, t in zip(ours, theirs))


def _load_peak(runs):
    if not runs:
        return "–"
    row = max(runs, key=lambda r: r["peak_rss_mb"])
    return f"{row['peak_rss_mb']:,.0f} ({row['peak_rss_mb'] / row['matrix_mb']:.2f})"


def _check_one_reader(record):
    """A record's load rows must all have measured one reader (bench_load.reader_code)."""
    codes = {row.get("reader_code") for row in record["stages"]["load"]["rows"] if not row.get("baseline")}
    if len(codes) != 1 or None in codes:
        raise ValueError(f"{record['name']}.json: the load rows measured different code {sorted(map(str, codes))}: "
                         "re-measure them at one commit")


def load_table():
    """benchmarks/README: loading word2vec/fastText files of 3M × 300, wordvec load_vectors
    against gensim's load_word2vec_format, whole child processes; binary loads run twice
    in a row (first · again: see bench_load.stage_load)."""
    lines = ["| file | limit | wordvec wall s: first · again | gensim wall s | gensim's time / wordvec's "
             "| peak MB (× matrix) wordvec / gensim | record |", "|---|---|---|---|---|---|---|"]
    shown = {}
    for name, ext, limits in LOAD_ROWS:
        record = shown.get(name) or load_record(name)
        _check_one_reader(record)
        shown[name] = record
        rows = record["stages"]["load"]["rows"]
        for limit in limits:
            theirs = _load_runs(rows, format=ext, limit=limit, system="gensim")
            for system, suffix in LOAD_SYSTEMS:
                ours = _load_runs(rows, format=ext, limit=limit, system=system)
                if ours:
                    lines.append(f"| .{ext}{suffix} | {limit or 'all'} | {_load_times(ours)} | {_load_times(theirs)} "
                                 f"| {_load_ratios(ours, theirs)} | {_load_peak(ours)} / {_load_peak(theirs)} "
                                 f"| {_record_name(record)} |")
    return lines + ["", "gensim's whole 3M-row text loads were not run (about 12 minutes a file). "
                        + _provenance(list(shown.values()))]


def load_system_time_table(name="load-bin1m-20261128"):
    """benchmarks/README: one .bin loaded twice in a row by each system, with each run's
    system time (the host's charge for fresh memory shows there)."""
    record = load_record(name)
    _check_one_reader(record)
    rows = record["stages"]["load"]["rows"]
    theirs = _load_runs(rows, format="bin", limit=None, system="gensim")
    size_mb = record["files"]["bin"]["bytes"] / 1e6
    lines = ["| file | wordvec wall s (system s): first · again | gensim wall s (system s): first · again "
             "| gensim's time / wordvec's | record |", "|---|---|---|---|---|"]

    def timed(runs):
        return " · ".join(f"{row['wall_seconds']:.1f} ({row['sys_seconds']:.1f})" for row in runs)
    for system, suffix in LOAD_SYSTEMS:
        ours = _load_runs(rows, format="bin", limit=None, system=system)
        lines.append(f"| .bin{suffix}, {size_mb:,.0f} MB | {timed(ours)} | {timed(theirs)} "
                     f"| {_load_ratios(ours, theirs)} | {_record_name(record)} |")
    return lines + ["", _provenance([record])]


def _load_stage(name, stage):
    record = load_record(name)
    return record, record["stages"][stage]


def mapped_search_table(name="load-3000000"):
    """benchmarks/README: the native format opened with mmap_mode='r' and queried, and batched
    most_similar against gensim's one query at a time, over 3M rows (bench_load.py)."""
    record, mapped = _load_stage(name, "mmap")
    _, search = _load_stage(name, "search")
    best = min(mapped["rows"], key=lambda row: row["open_and_query_seconds"])
    worst = max(row["open_and_query_seconds"] for row in mapped["rows"])
    ours, theirs, summary = search["rows"]
    return ["| measurement | wordvec | gensim 4.4.0 | gensim's time / wordvec's | record |", "|---|---|---|---|---|",
            f"| native `mmap_mode=\"r\"` open + first `most_similar` ({len(mapped['rows'])} processes) "
            f"| **{best['open_and_query_seconds']:.2f} s** (slowest {worst:.2f}) | – | – | {_record_name(record)} |",
            f"| `most_similar` of {summary['queries']:,} words, top 10 (same top 10: "
            f"{100 * summary['top10_agreement']:.0f} %) | batched **{ours['batch_seconds']:.1f} s** "
            f"| one at a time: {theirs['extrapolated_seconds_for_all']:.0f} s ({summary['gensim_queries_timed']} timed) "
            f"| **{summary['speedup_batched_vs_gensim_loop']:.1f}×** | {_record_name(record)} |",
            "", _provenance([dict(record, stages={"mmap": mapped, "search": search})])]


# ----------------------------------------------------------------------------- approximate search

ANN_RECORD = "ann-3000000"


def _latest(record, stage):
    runs = [run for run in record["runs"] if run.get("stage") == stage]
    if not runs:
        raise KeyError(f"{ANN_RECORD}.json has no run of the stage {stage!r}")
    return runs[-1]


def _index_config(config):
    return f"M {config['connectivity']}, ef_add {config['expansion_add']}, {config['dtype']}"


def ann_table():
    """benchmarks/README: recall@10 and queries/s of most_similar_batch(approximate=True)
    against the exact search in the same process, at each ef: the saved 3M index and
    trained vectors (the latest run of each stage of bench_ann.py's record)."""
    record = load_record(ANN_RECORD)
    build, query, trained = (_latest(record, stage) for stage in ("build", "query", "trained"))
    small = {e["ef_search"]: e for e in trained["by_ef"]}
    lines = [f"| ef | {query['rows']:,} composed rows: recall@10 | q/s | × exact | {trained['rows']:,} trained rows: "
             "recall@10 | q/s | × exact | record |", "|---|---|---|---|---|---|---|---|"]
    for e in query["by_ef"]:
        t = small.get(e["ef_search"])
        other = f"{t['recall_at_10']:.3f} | {t['qps']:,.0f} | {t['speedup_over_exact']:.1f}×" if t else "– | – | –"
        lines.append(f"| {e['ef_search']} | {e['recall_at_10']:.3f} | {e['qps']:,.0f} | "
                     f"**{e['speedup_over_exact']:.1f}×** | {other} | {_record_name(record)} |")
    single, exact = query["single_approximate"], query["single_exact"]
    return lines + [
        "", f"Exact batched search: {query['exact_qps']:,.0f} q/s over {query['rows']:,} rows, "
            f"{trained['exact_qps']:,.0f} q/s over {trained['rows']:,}. 3M index: {_index_config(query['index_config'])}, "
            f"built in {build['build_seconds']:.0f} s on {build['threads']} threads, {query['index_mb']:,.0f} MB. "
            f"One query at a time over 3M rows: approximate p50 {single['p50_ms']:.2f} ms, p99 {single['p99_ms']:.2f} ms "
            f"(ef {single['ef_search']}); exact p50 {exact['p50_ms']:.0f} ms. "
            + _provenance([dict(record, runs=[build, query, trained], load_before=None, load_after=None)])]


def serve_table(name="serve-100k"):
    """benchmarks/README: `wordvec serve`'s neighbour query over HTTP, and the same query in
    process with wordvec's and gensim's most_similar (bench_serve.py), latency in ms."""
    record = load_record(name)
    gensim = {run["config"]: run["latency"] for run in _runs(record, system="gensim most_similar")}
    lines = ["| system | setting | p50 ms | p90 ms | p99 ms | requests/s | gensim's p50 / this | record |",
             "|---|---|---|---|---|---|---|---|"]
    for run in record["runs"]:
        latency, peer = run["latency"], gensim.get(run["config"])
        ratio = _ratio(peer["p50_ms"], latency["p50_ms"]) if peer and run["system"] != "gensim most_similar" else "–"
        lines.append(f"| {run['system']} | {run['config']} | {latency['p50_ms']:.1f} | {latency['p90_ms']:.1f} "
                     f"| {latency['p99_ms']:.1f} | {_number(latency.get('requests_per_sec'), ',.0f') or '–'} "
                     f"| {ratio} | {_record_name(record)} |")
    return lines + ["", f"{record['vocabulary']:,} words × {record['dimensions']} ({record['source']}), top 10. "
                        + _provenance([record])]


# ----------------------------------------------------------------------------- phrases, static models

def phrases_table(name="phrases-gensim-class"):
    """benchmarks/README: gensim's Phrases against wordvec's class and the compiled phrases."""
    record = load_record(name)
    gensim = _runs(record, system="gensim")[0]
    lines = ["| system | setting | phrases | the same as gensim's | wall s | gensim's time / this | record |",
             "|---|---|---|---|---|---|---|"]
    for run in record["runs"]:
        same = run["quality"].get("equal_to_gensim", run["system"] != "gensim" and record["summary"]["same_phrases"])
        lines.append(f"| {run['system']} | {run['config']} | {run['quality']['phrases']:,} "
                     f"| {'–' if run is gensim else ('yes' if same else 'no')} | {run['wall_seconds']:.2f} "
                     f"| {_ratio(gensim['wall_seconds'], run['wall_seconds'])} | {_record_name(record)} |")
    summary = record["summary"]
    return lines + ["", f"{summary['tokens']:,} tokens in {summary['sentences']:,} lines, in memory; gensim's table "
                        f"{summary['gensim_table_size']:,} words and pairs. " + _provenance([record])]


STATIC_RECORD = "static-tasks-retrieval-20261127"


def static_table(name=STATIC_RECORD):
    """benchmarks/README: static sentence models: logistic-regression accuracy on their
    vectors, held-out retrieval, encoding speed and memory, against the teacher, model2vec
    and pooled word vectors (bench_static.py)."""
    record = load_record(name)
    model2vec = _runs(record, system="model2vec")[0]["sentences_per_second"]
    teacher = _runs(record, system="teacher")[0]["sentences_per_second"]
    tasks = ("sst2", "imdb", "genre")
    lines = ["| system | model | accuracy % SST-2 / imdb / genre | mean | imdb halves R@1 | sentences/s "
             "| × model2vec's | × the teacher's | peak MB encoding | record |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for run in record["runs"]:
        accuracy = [100 * run["quality"][task] for task in tasks]
        r1 = run.get("retrieval_r1")
        memory = run.get("encode_peak_rss_mb")
        lines.append(f"| {run['system']} | {run['config']} | {' / '.join(f'{a:.1f}' for a in accuracy)} "
                     f"| {sum(accuracy) / len(accuracy):.1f} | {'' if r1 is None else f'{r1:.3f}'} "
                     f"| {run['sentences_per_second']:,.0f} | {_ratio(run['sentences_per_second'], model2vec)} "
                     f"| {_ratio(run['sentences_per_second'], teacher)} | {'' if memory is None else f'{memory:,.0f}'} "
                     f"| {_record_name(record)} |")
    sizes = record["runs"][0].get("sizes") or {}
    shown = "; ".join(f"{task} {size['train']:,} training / {size['test']:,} test" for task, size in sizes.items())
    return lines + ["", f"{shown}. " + _provenance([record])]


STATIC_SUMMARY = (("teacher", "the teacher"), ("distilled, ", "wordvec distilled = model2vec's `distill`"),
                  ("trained toward", "then trained toward the teacher"),
                  ("then trained on", "distilled, then trained on review halves"),
                  ("mean-pooled", "skip-gram vectors, mean-pooled"))


def static_summary_table(name=STATIC_RECORD):
    """docs/guides/static.md: the static record's main rows, model2vec's speed beside ours."""
    record = load_record(name)
    model2vec = _runs(record, system="model2vec")[0]["sentences_per_second"]
    lines = ["| | SST-2 / imdb / genre accuracy % | imdb halves R@1 | sentences/s | × model2vec's |", "|---|---|---|---|---|"]
    for part, label in STATIC_SUMMARY:
        run = next(run for run in record["runs"] if part in run["config"] or run["system"] == part)
        accuracy = " / ".join(f"{100 * run['quality'][task]:.1f}" for task in ("sst2", "imdb", "genre"))
        lines.append(f"| {label} | {accuracy} | {run['retrieval_r1']:.3f} | {run['sentences_per_second']:,.0f} "
                     f"| {_ratio(run['sentences_per_second'], model2vec)} |")
    return lines + ["", _provenance([record])]


# ----------------------------------------------------------------------------- first runs

COLD_START_RECORDS = ("cold-start-20261127", "cold-start-sizes-20261128")


def cold_start_table(names):
    """benchmarks/README: each command's first run on a fresh install against the run right
    after it, without and after `wordvec compile` (bench_cold_start.py). ``names``: records,
    oldest first; each pass of each command comes from the newest record that ran it."""
    records = [load_record(name) for name in names]
    lines = ["| command | without `wordvec compile`: first / second run | extra (compiling) "
             "| after `wordvec compile`: first / second run | extra (compiling) | record |", "|---|---|---|---|---|---|"]
    configs = dict.fromkeys(run["config"] for record in records for run in record["runs"]
                            if run["config"] != "wordvec compile")
    for config in configs:
        cells, sources = [], []
        for pass_name in ("without", "compiled"):
            found = [(record, run) for record in records
                     for run in _runs(record, config=config, **{"pass": pass_name})]
            if not found:
                cells += ["", ""]
                continue
            record, run = found[-1]
            sources.append(_record_name(record))
            cells += [f"{_seconds(run['first']['wall_seconds'])} / {_seconds(run['second']['wall_seconds'])}",
                      f"{run['extra_seconds']:+.1f} s ({run['first']['compiling_seconds']:.1f} s)"]
        lines.append(f"| {config} | " + " | ".join(cells) + f" | {' · '.join(dict.fromkeys(sources))} |")
    compiled = [(record, run) for record in records for run in _runs(record, config="wordvec compile")]
    if compiled:
        record, run = compiled[-1]
        sizes = record.get("settings", {}).get("compiled_vector_sizes", [100])
        lines += ["", f"`wordvec compile` itself (vector sizes {', '.join(map(str, sizes))} and the kernel every other "
                      f"size shares, two processes): {_seconds(run['first']['wall_seconds'])} "
                      f"({run['first']['cpu_seconds']:.0f} s of CPU), {_record_name(record)}."]
    return lines + ["", _provenance(records)]


# ----------------------------------------------------------------------------- the registry

TABLES = {"headline": headline_table, "word2vec": word2vec_table, "vocab": vocab_table,
          "evaluate": evaluate_table, "estimate": estimate_table, "count": count_table, "subword": subword_table,
          "doc2vec": doc2vec_table, "doc2vec-tutorial": doc2vec_tutorial_table,
          "classify": classify_table, "classify-calls": classify_calls_table,
          "classify-summary": classify_summary_table, "classify-autotune": classify_autotune_table,
          "classify-sorted": classify_sorted_table,
          "classify-speed-sst": lambda: classify_speed_table("classify-sst-seeds-20261126-predict5"),
          "classify-speed-docs": lambda: classify_speed_table("classify-20261126-predict5"),
          "load": load_table, "load-system-time": load_system_time_table, "mapped-search": mapped_search_table, "ann": ann_table, "serve": serve_table,
          "fasttext-unsupervised": lambda: fasttext_unsupervised_table("fasttext-unsupervised-wordbench10m-20261128"),
          "phrases": phrases_table, "static": static_table, "static-summary": static_summary_table,
          "cold-start": lambda: cold_start_table(COLD_START_RECORDS)}


# ----------------------------------------------------------------------------- documents

def render(text):
    """``text`` with every table block regenerated from the records."""
    def replace(match):
        name = match.group(2)
        if name not in TABLES:
            raise KeyError(f"unknown table {name!r}; known: {', '.join(TABLES)}")
        return match.group(1) + "\n".join(TABLES[name]()) + "\n" + match.group(4)

    return BLOCK.sub(replace, text)


def tables_in(text):
    return [match.group(2) for match in BLOCK.finditer(text)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a table is out of date")
    args = parser.parse_args(argv)
    stale = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        new = render(text)
        if new != text:
            stale.append(document)
            if not args.check:
                document.write_text(new, encoding="utf-8")
    verb = "differ from their records" if args.check else "regenerated"
    for document in stale:
        print(f"{document}: tables {verb}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
