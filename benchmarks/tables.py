"""README's and benchmarks/README's comparison tables, generated from benchmarks/results/.

    .venv/bin/python benchmarks/tables.py           # rewrite every table in place
    .venv/bin/python benchmarks/tables.py --check   # exit 1 if a table differs from its records

A table sits in a markdown file between ``<!-- table:NAME -->`` and ``<!-- /table -->``;
NAME picks one of the TABLES below, which reads the records it names (records.py writes
them; a missing one is an error) and returns the table's lines, each row naming its
record.  tests/test_tables.py runs the check, so a table edited by hand, or a record
changed without regenerating, fails the suite.
"""

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # doc2vec_tables, beside this file
import doc2vec_tables  # noqa: E402
import load_tables  # noqa: E402
import ann_tables  # noqa: E402
import records  # noqa: E402
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
    return json.loads(path.read_text(encoding="utf-8"))


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
    return f"{ratio:.2f}×" if ratio < 10 else f"{ratio:.1f}×"


def _record_name(record):
    return f"`{record['name']}.json`"


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


# ----------------------------------------------------------------------------- tables

def headline_table():
    """README 'How it compares': whole runs, peak memory, vocabulary scan, evaluation."""
    word2vec, vocab, evaluation = load_record("word2vec"), load_record("vocab"), load_record("evaluate")
    lines = ["| whole run, 5 epochs (analogy / WordSim-353); peers: time and its ratio to wordvec's | wordvec "
             "| gensim 4.4.0 | word2vec C tool | record |", "|---|---|---|---|---|"]
    for config, title in CONFIG_NAMES.items():
        ours = _word2vec_summary(word2vec, config, "wordvec")
        if ours is None:
            continue
        cells = [_seconds(ours["wall"], bold=True) + _quality(ours)]
        for system, _ in PEERS:
            peer = _word2vec_summary(word2vec, config, system)
            cells.append("" if peer is None else f"{_seconds(peer['wall'])}, {_ratio(peer['wall'], ours['wall'])}"
                         + _quality(peer))
        lines.append(f"| {title} | " + " | ".join(cells) + f" | {_record_name(word2vec)} |")
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


def _provenance(records):
    """One line per record: commit, seeds, load averages (the machine was shared)."""
    parts = []
    for record in records:
        loads = [run.get("load_before") for run in record["runs"]] + [record["load_before"], record["load_after"]]
        one_minute = [load[0] for load in loads if load]
        parts.append(f"`{record['name']}.json`: commit `{record['commit'][:7]}`"
                     + (f" with {len(record['uncommitted'])} file(s) changed from it" if record.get("uncommitted") else "")
                     + f", {record['started'][:10]}, 1-min load {min(one_minute):.1f}–{max(one_minute):.1f}")
    return "Records (benchmarks/results/): " + "; ".join(parts) + "."


def _number(value, form):
    return "" if value is None else format(value, form)


def word2vec_runs_table(name="word2vec"):
    """benchmarks/README: every run of a bench_word2vec.py record, as measured."""
    record = load_record(name)
    lines = ["| config | seed | system | wall s | train s | CPU s | peak RSS MB | analogy % | WS-353 ρ | SimLex ρ "
             "| load before→after |", "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for run in record["runs"]:
        analogy, wordsim, simlex = _scores(run.get("quality"))
        lines.append(f"| {run['config']} | {run['seed']} | {run['system']} | {run['wall_seconds']:.1f} "
                     f"| {_number(run.get('train_seconds'), '.1f')} | {run['cpu_seconds']:.1f} "
                     f"| {run['peak_rss_mb']:.0f} | {_number(analogy and 100 * analogy, '.1f')} "
                     f"| {_number(wordsim, '.3f')} | {_number(simlex, '.3f')} "
                     f"| {run['load_before'][0]:.1f}→{run['load_after'][0]:.1f} |")
    return lines + ["", _provenance([record])]


def vocab_table():
    """benchmarks/README: vocabulary counting, every system of the vocab record."""
    record = load_record("vocab")
    base = record["runs"][0]["wall_seconds"]
    lines = ["| system | seconds | M tokens/s | time / wordvec (.xz) | CPU s | peak RSS MB (process so far) |",
             "|---|---:|---:|---:|---:|---:|"]
    for run in record["runs"]:
        tokens = run["quality"]["tokens"]
        lines.append(f"| {run['system']} | {run['wall_seconds']:.2f} | {tokens / run['wall_seconds'] / 1e6:.1f} "
                     f"| {run['wall_seconds'] / base:.2f}× | {run['cpu_seconds']:.2f} | {run['peak_rss_mb']:.0f} |")
    words = {run["quality"]["words_min_count_5"] for run in record["runs"]}
    counted = f"{words.pop():,} words with count ≥ 5." if len(words) == 1 else f"DIFFERENT word counts {words}."
    return lines + ["", f"Every system counted {tokens:,} tokens and {counted} {_provenance([record])}"]


def evaluate_table():
    """benchmarks/README: the Google-analogy evaluation, wordvec vs gensim, same vectors."""
    record = load_record("evaluate")
    gensim = _runs(record, system="gensim")[0]
    lines = ["| tool | seconds | gensim's time / this | correct / answered | accuracy |", "|---|---:|---:|---:|---:|"]
    for run in record["runs"]:
        quality = run["quality"]
        speed = gensim["wall_seconds"] / run["wall_seconds"]
        lines.append(f"| {run['system']} | {run['wall_seconds']:.1f} | {speed:.1f}× "
                     f"| {quality['correct']:,} / {quality['answered']:,} | {100 * quality['accuracy']:.2f}% |")
    notes = [f"Vectors: {record['vectors']}; restrict_vocab {record['restrict_vocab']:,}; best of {record['repeat']}."]
    for name, rho in (record.get("similarity") or {}).items():
        notes.append(f"{name}: Spearman ρ wordvec {rho['wordvec']:.4f}, gensim {rho['gensim']:.4f} "
                     f"({rho['covered']} pairs covered).")
    return lines + ["", " ".join(notes) + " " + _provenance([record])]


def count_table():
    """Co-occurrence counting, GloVe, PPMI-SVD (wordvec only: no peer was run), one run each."""
    record = load_record("count")
    lines = ["| run | whole command s | CPU s | peak RSS MB | work | analogy % | WS-353 ρ | SimLex ρ |",
             "|---|---:|---:|---:|---|---:|---:|---:|"]
    for run in record["runs"]:
        quality = run.get("quality") or {}
        lines.append(f"| {run['config']} | {run['wall_seconds']:.1f} | {run['cpu_seconds']:.1f} "
                     f"| {run['peak_rss_mb']:.0f} | {_count_work(run)} "
                     f"| {_number(quality.get('analogy') and 100 * quality['analogy'], '.1f')} "
                     f"| {_number(quality.get('wordsim353'), '.3f')} | {_number(quality.get('simlex999'), '.3f')} |")
    return lines + ["", _provenance([record])]


def _count_work(run):
    if run["config"] == "cooccur":
        return (f"{run['pairs']:,} pairs counted in {run['count_s']:.1f} s ({run['mpairs_per_s']:.1f}M/s), "
                f"{run['nnz']:,} non-zeros")
    if run["config"] == "glove":
        return f"{run['m_updates_per_s']:.2f}M updates/s over {run['train_s']:.1f} s of training"
    return f"SVD {run['svd_s']:.1f} s, {run['nnz_ppmi']:,} PPMI non-zeros"


def subword_table():
    """Subword skip-gram: wordvec vs gensim FastText vs fastText, one run each."""
    record = load_record("subword")
    ours = _runs(record, system="wordvec-ft")[0]["wall_seconds"]
    lines = ["| system | whole run s | time / wordvec's | CPU s | peak RSS MB | analogy % | WS-353 ρ | SimLex ρ "
             "| SimLex ρ, pairs with held-out words |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for run in record["runs"]:
        quality = run["quality"]
        in_vocab = quality.get("in_vocab") or {}
        held_out = ((quality.get("held_out_pairs") or {}).get("simlex999") or {}).get("spearman")
        lines.append(f"| {run['system']} | {run['wall_seconds']:.1f} | {_ratio(run['wall_seconds'], ours)} "
                     f"| {run['cpu_seconds']:.1f} | {run['peak_rss_mb']:.0f} "
                     f"| {_number((quality.get('analogy') or {}).get('total', 0) * 100, '.1f')} "
                     f"| {_number((in_vocab.get('wordsim353') or {}).get('spearman'), '.3f')} "
                     f"| {_number((in_vocab.get('simlex999') or {}).get('spearman'), '.3f')} "
                     f"| {_number(held_out, '.3f')} |")
    return lines + ["", _provenance([record])]


def estimate_table():
    """benchmarks/README: estimate_memory() against the measured peak of the same run."""
    record = load_record("estimate")
    lines = ["| config | flags | words | estimated MB | measured MB | error |", "|---|---|---:|---:|---:|---:|"]
    for run in record["runs"]:
        estimated, measured = run["quality"]["estimated_mb"], run["peak_rss_mb"]
        lines.append(f"| {run['config']} | `{run['flags']}` | {run['quality']['words']:,} | {estimated:.1f} "
                     f"| {measured:.1f} | {estimated / measured - 1:+.1%} |")
    return lines + ["", f"Corpus: {record['corpus']}. {_provenance([record])}"]


def _load_stage(record, stage):
    """A stage of a bench_load.py record, with the commit and time it ran at."""
    found = record["stages"][stage]
    commit = (found.get("system") or record["system"])["commit"][:7]
    return found, f"commit {commit}, finished {found['when'][:16].replace('T', ' ')} UTC, 1-min load " \
                  f"{found['load_before'][0]:.1f} → {found['load_after'][0]:.1f}"


def load_queries_table(words=3000000):
    """benchmarks/README: bench_load.py's mmap, search and ann-trained stages (those present)."""
    record = load_record(f"load-{words}")
    lines = ["| measurement | wordvec | gensim 4.4.0 | ratio | record stage |", "|---|---|---|---|---|"]
    stages = record["stages"]
    if "mmap" in stages:
        stage, provenance = _load_stage(record, "mmap")
        best = min(stage["rows"], key=lambda row: row["open_and_query_seconds"])
        worst = max(row["open_and_query_seconds"] for row in stage["rows"])
        lines.append(f"| native `mmap_mode=\"r\"` open + first `most_similar` ({len(stage['rows'])} processes) "
                     f"| **{best['open_and_query_seconds']:.2f} s** (open {best['open_seconds']:.2f} + query "
                     f"{best['first_query_seconds']:.2f}; slowest {worst:.2f}) | – | – | mmap: {provenance} |")
    if "search" in stages:
        stage, provenance = _load_stage(record, "search")
        ours, theirs, summary = stage["rows"]
        lines.append(f"| `most_similar` of {summary['queries']:,} words, top 10 | batched "
                     f"**{ours['batch_seconds']:.1f} s** (first call {ours['first_batch_seconds']:.1f} s) "
                     f"| loop {theirs['extrapolated_seconds_for_all']:.0f} s ({theirs['per_query_seconds']:.3f} s a "
                     f"word × {summary['queries']:,}; {summary['gensim_queries_timed']} timed) "
                     f"| **{summary['speedup_batched_vs_gensim_loop']:.1f}×**, top-10 agreement "
                     f"{summary['top10_agreement']:.2f} | search: {provenance} |")
    if "ann-trained" in stages:
        stage, provenance = _load_stage(record, "ann-trained")
        for row in stage["rows"]:
            cells = ", ".join(f"ef {e['ef_search']}: {e['recall_at_10']:.3f} / {e['speedup_over_exact']:.1f}×"
                              for e in row["by_ef"])
            lines.append(f"| approximate (usearch) on `{Path(row['vectors']).name}` ({row['rows']:,} rows): "
                         f"recall@10 / queries per second over exact's ({row['exact_qps']:.0f}/s) | {cells} "
                         f"| – | – | ann-trained: {provenance} |")
    return lines


# ----------------------------------------------------------------------------- classify

CLASSIFY_RECORD = "classify-20261127-interleaved-rerun"  # the current one; earlier ones keep their tables


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
            row[system] = {"p": _mean(run["p_at_1"] for run in runs),
                           "wall": _mean(run["train"]["wall_seconds"] for run in runs),
                           "cpu": _mean(run["train"]["cpu_seconds"] for run in runs),
                           "rss": max(run["train"]["peak_rss_mb"] for run in runs),
                           "predict": predict[0] if predict else None,
                           "repeated": repeated[0] if repeated else None,
                           "loads": [run["train"]["load_before"][0] for run in runs]}
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


def classify_table(name=CLASSIFY_RECORD):
    """benchmarks/README: every task and setting, both systems."""
    record = load_record(name)
    lines = ["| task | setting | seeds | P@1 fastText / wordvec (Δ points) | train wall s fastText / wordvec "
             "| speed-up | CPU s fastText / wordvec | peak RSS MB fastText / wordvec | predict docs/s fastText / wordvec "
             "(wordvec's share) | predict, test documents repeated: docs/s fastText / wordvec |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for row in _classify_rows(record):
        f, w = row["fasttext"], row["wordvec"]
        predict, repeated = _predict_cells(f, w)
        lines.append(f"| {row['task']} | {row['setting']} | {row['seeds']} | {f['p']:.4f} / {w['p']:.4f} "
                     f"({100 * (w['p'] - f['p']):+.2f}) | {f['wall']:.1f} / {w['wall']:.1f} | "
                     f"{_ratio(f['wall'], w['wall'])} | {f['cpu']:.1f} / {w['cpu']:.1f} | "
                     f"{f['rss']:.0f} / {w['rss']:.0f} | {predict} | {repeated} |")
    return lines + ["", _classify_provenance(record, name)]


def classify_summary_table():
    """README: the targets' figures per task and setting (ratios > 1: wordvec better)."""
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
    """README, benchmarks/README: the speed targets from one record: whole-process training
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


def classify_predict_table(name):
    """README: predict throughput of a record (one thread, the test file in, labels out), per
    task and setting, the first seed's models."""
    record = load_record(name)
    lines = ["| task | setting | predict docs/s fastText / wordvec (wordvec's share) "
             "| test documents repeated: docs/s fastText / wordvec |", "|---|---|---|---|"]
    for row in _classify_rows(record):
        predict, repeated = _predict_cells(row["fasttext"], row["wordvec"])
        lines.append(f"| {row['task']} | {row['setting']} | {predict} | {repeated} |")
    loads = [run["predict"]["load_before"][0] for run in record["runs"] if "predict" in run]
    return lines + ["", f"Record `{records.shown_path(name)}`: commit `{record['versions']['commit'][:7]}`, "
                        f"{record['started'][:16]}–{record.get('finished', '?')[11:16]} UTC, 1-min load before "
                        f"each predict {min(loads):.1f}–{max(loads):.1f} on 2 cores; models of the first seed."]


def _seeds_cells(record, task, setting):
    """(seeds, fastText's cell, wordvec's cell, Δ cell) of one task and setting over many
    seeds, or None with fewer than two seeds of either system."""
    p = {system: [run["p_at_1"] for run in _runs(record, task=task, setting=setting, system=system)]
         for system in ("fasttext", "wordvec")}
    if len(p["fasttext"]) < 2 or len(p["wordvec"]) < 2:
        return None
    cells = [f"{statistics.mean(v):.4f} ± {statistics.stdev(v):.4f} ({min(v):.4f}–{max(v):.4f})"
             for v in (p["fasttext"], p["wordvec"])]
    error = (statistics.variance(p["fasttext"]) / len(p["fasttext"])
             + statistics.variance(p["wordvec"]) / len(p["wordvec"])) ** 0.5
    delta = statistics.mean(p["wordvec"]) - statistics.mean(p["fasttext"])
    return len(p["wordvec"]), *cells, f"{100 * delta:+.2f} (± {100 * error:.2f})"


def _seeds_provenance(record, name):
    started, finished = record["started"][:16], record.get("finished", "?")[11:16]
    threads = record["settings"]["threads"]
    return (f"Record `{records.shown_path(name)}`: commit `{record['versions']['commit'][:7]}`, "
            f"{started}–{finished} UTC, {threads} training thread{'s' if threads > 1 else ''}; sd: the "
            "seeds' standard deviation; standard error of the difference of the means.")


def classify_seeds_table(name, task="sst2"):
    """benchmarks/README: SST P@1 over many seeds, both systems and settings: is the
    difference of the means larger than its standard error?"""
    record = load_record(name)
    lines = ["| setting | seeds | P@1 fastText: mean ± sd (min–max) | P@1 wordvec: mean ± sd (min–max) "
             "| Δ points (± standard error) |", "|---|---|---|---|---|"]
    for setting in ("unigrams", "bigrams"):
        cells = _seeds_cells(record, task, setting)
        if cells is not None:
            lines.append(f"| {setting} | " + " | ".join(str(cell) for cell in cells) + " |")
    return lines + ["", _seeds_provenance(record, name)]


def classify_seeds_tasks_table(name):
    """benchmarks/README: ``classify_seeds_table`` for every task and setting of a record."""
    record = load_record(name)
    lines = ["| task | setting | seeds | P@1 fastText: mean ± sd (min–max) | P@1 wordvec: mean ± sd (min–max) "
             "| Δ points (± standard error) |", "|---|---|---|---|---|---|"]
    for task in sorted({run["task"] for run in record["runs"]}):
        for setting in ("unigrams", "bigrams"):
            cells = _seeds_cells(record, task, setting)
            if cells is not None:
                lines.append(f"| {task} | {setting} | " + " | ".join(str(cell) for cell in cells) + " |")
    return lines + ["", _seeds_provenance(record, name)]


CLASSIFY_OVERLAP_RECORD = "classify-thread-overlap-20261126"


def classify_overlap_table():
    """benchmarks/README: do wordvec's two compiled threads overlap in time on a corpus
    (diagnostics/diag_classify_schedule.py --overlap)?"""
    record = load_record(CLASSIFY_OVERLAP_RECORD)
    lines = ["| corpus | setting | documents | tokens per thread per epoch | ms per epoch (median) "
             "| documents merged with the other thread's | epochs merging none |", "|---|---|---|---|---|---|---|"]
    for row in record["overlap"]:
        lines.append(f"| {row['corpus']} | {row['setting']} | {row['docs']} | {row['tokens_per_thread_epoch']} | "
                     f"{row['ms_per_epoch_median']:.1f} | {100 * row['merged_fraction_mean']:.0f} % | "
                     f"{row['epochs_with_no_merging']} of {row['epochs']} |")
    return lines + ["", f"Record `{records.shown_path(CLASSIFY_OVERLAP_RECORD)}`: code of commit "
                        f"`{record['versions']['commit'][:7]}` and the interleaved-streams change, uncommitted (the threads "
                        f"run a logging copy of train_streams, which it leaves unchanged), {record['started'][:16]}–"
                        f"{record.get('finished', '?')[11:16]} UTC, 1-min load {record['load_before'][0]:.1f} before, "
                        f"{record['load_after'][0]:.1f} after (own 2 threads); epochs 2-10 of seeds 1-3 (the first "
                        "compiles)."]


CLASSIFY_SCHEDULE_RECORD = "classify-schedule-20261126"
CLASSIFY_SCHEDULES = (("one_thread", "1 thread"), ("wordvec_2", "2, read on (before)"),
                      ("wordvec_2_drift", "2, random restarts (now)"), ("fasttext_2", "fastText's, in step"),
                      ("fasttext_2_random", "fastText's, racing"), ("wordvec_real_no_drift", "wordvec before"),
                      ("wordvec_real", "wordvec now"), ("fasttext_real_1", "fastText 1 thread"),
                      ("fasttext_real_2", "fastText 2 threads"))


def classify_schedule_table():
    """benchmarks/README: SST P@1 of 2-thread schedules simulated one step after another
    with wordvec's compiled step, and of real runs (diagnostics/diag_classify_schedule.py)."""
    record = load_record(CLASSIFY_SCHEDULE_RECORD)
    means = {(m["task"], m["setting"], m["schedule"]): m for m in record["means"]}
    keys = sorted({(m["task"], m["setting"]) for m in record["means"]}, key=lambda k: (k[0], k[1] != "unigrams"))
    lines = ["| task | setting | " + " | ".join(f"{label}" for _, label in CLASSIFY_SCHEDULES) + " |",
             "|---|---|" + "---|" * len(CLASSIFY_SCHEDULES)]
    for task, setting in keys:
        rows = [means[task, setting, name] for name, _ in CLASSIFY_SCHEDULES]
        cells = [f"{100 * row['mean_p_at_1']:.2f} ± {100 * row['sem']:.2f}" for row in rows]
        lines.append(f"| {task} | {setting} | " + " | ".join(cells) + " |")
    seeds = record["means"][0]["seeds"]
    return lines + ["", f"Record `{records.shown_path(CLASSIFY_SCHEDULE_RECORD)}`: commit "
                        f"`{record['versions']['commit'][:7]}`, {record['started'][:16]}–"
                        f"{record.get('finished', '?')[11:16]} UTC; P@1 in points, mean ± standard error over "
                        f"{seeds} seeds; the first five columns simulated, the last four real runs."]


CLASSIFY_SAME_INIT_RECORD = "classify-same-init-20261126"


def classify_same_init_table():
    """benchmarks/README: fastText and wordvec from the same initial rows, one thread
    (diagnostics/diag_classify_same_init.py): the same model up to floating point?"""
    record = load_record(CLASSIFY_SAME_INIT_RECORD)
    lines = ["| task | word n-grams | P@1 fastText | P@1 wordvec | Δ points | same label on test sentences |",
             "|---|---|---|---|---|---|"]
    for run in record["runs"]:
        lines.append(f"| {run['task']} | {run['word_ngrams']} | {run['p_at_1_fasttext']:.4f} | "
                     f"{run['p_at_1_wordvec']:.4f} | {100 * (run['p_at_1_wordvec'] - run['p_at_1_fasttext']):+.2f} | "
                     f"{100 * run['same_label']:.1f} % of {run['documents']} |")
    return lines + ["", f"Record `{records.shown_path(CLASSIFY_SAME_INIT_RECORD)}`: commit "
                        f"`{record['versions']['commit'][:7]}`, {record['started'][:16]} UTC."]


TABLES = {"headline": headline_table, "word2vec-runs": word2vec_runs_table,
          "word2vec-full-runs": lambda: word2vec_runs_table("word2vec-full"), "vocab": vocab_table,
          "evaluate": evaluate_table, "estimate": estimate_table, "count": count_table, "subword": subword_table,
          "load-3000000-queries": load_queries_table,
          "classify": classify_table, "classify-summary": classify_summary_table,
          "classify-20261126-drift": lambda: classify_table("classify-20261126-drift"),
          "classify-sst-seeds-writeback": lambda: classify_table("classify-sst-seeds-20261126-writeback"),
          "classify-writeback": lambda: classify_table("classify-20261126-writeback"),
          "classify-sst-seeds-predict5": lambda: classify_table("classify-sst-seeds-20261126-predict5"),
          "classify-predict5": lambda: classify_table("classify-20261126-predict5"),
          "classify-speed-sst": lambda: classify_speed_table("classify-sst-seeds-20261126-predict5"),
          "classify-speed-docs": lambda: classify_speed_table("classify-20261126-predict5"),
          "classify-thread-overlap": classify_overlap_table,
          "classify-sst-seeds-interleaved": lambda: classify_seeds_tasks_table("classify-sst-seeds-20261127-interleaved"),
          "classify-sst-bigrams-seeds-interleaved":
              lambda: classify_seeds_tasks_table("classify-sst-bigrams-seeds-20261127-interleaved"),
          "classify-sst2-30seeds-interleaved":
              lambda: classify_seeds_tasks_table("classify-sst2-30seeds-20261127-interleaved"),
          "classify-20261126": lambda: classify_table("classify-20261126"),
          "classify-20261126-predict": lambda: classify_table("classify-20261126-predict"),
          "classify-20261126-predict-scan": lambda: classify_table("classify-20261126-predict-scan"),
          "classify-predict-scan": lambda: classify_predict_table("classify-20261126-predict-scan"),
          "classify-sst-seeds-drift": lambda: classify_seeds_table("classify-sst-seeds-20261126-drift"),
          "classify-sst5-seeds-drift": lambda: classify_seeds_table("classify-sst-seeds-20261126-drift", "sst5"),
          "classify-schedule": classify_schedule_table,
          "classify-sst2-seeds": lambda: classify_seeds_table("classify-sst2-seeds-20261126"),
          "classify-sst2-seeds-1thread": lambda: classify_seeds_table("classify-sst2-seeds-1thread-20261126"),
          "classify-same-init": classify_same_init_table}
TABLES.update(doc2vec_tables.tables(load_record))  # Doc2Vec and pooled sentence vectors
TABLES.update(load_tables.tables(load_record))  # loading pretrained files at 3M rows
TABLES.update(ann_tables.tables(load_record))  # approximate search at 3M rows


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
