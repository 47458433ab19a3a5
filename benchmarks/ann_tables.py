"""benchmarks/README's approximate-search tables, from bench_ann.py's record.

``tables(load_record)`` gives tables.py its entries: ``ann-3000000`` (the saved 3M index
against exact search in one process, and the same measurement on trained vectors) and
``ann-3000000-tune`` (index settings over the first rows).  Each table uses the latest
run of each stage in benchmarks/results/vectors/ann-3000000.json.
"""

from pathlib import Path

RECORD = "ann-3000000"


def _latest(record, stage):
    runs = [run for run in record["runs"] if run.get("stage") == stage]
    if not runs:
        raise KeyError(f"{RECORD}.json has no run of the stage {stage!r}")
    return runs[-1]


def _provenance(run):
    return (f"{run['stage']}: commit {run['commit'][:7]}, {run['started'][:16].replace('T', ' ')} UTC, "
            f"1-min load {run['load_before'][0]:.1f} → {run['load_after'][0]:.1f}")


def _config(config):
    return f"M {config['connectivity']}, ef_add {config['expansion_add']}, {config['dtype']}"


def queries_table(load_record):
    """Recall@10 and queries/s of most_similar_batch(approximate=True) against the exact search,
    at each ef: the saved 3M index (query stage) and trained vectors (trained stage)."""
    record = load_record(RECORD)
    build, query, trained = (_latest(record, stage) for stage in ("build", "query", "trained"))
    small = {e["ef_search"]: e for e in trained["by_ef"]}
    lines = [f"| ef | {query['rows']:,} composed: recall@10 | approximate q/s | × exact | API over raw usearch "
             f"| {trained['rows']:,} trained: recall@10 | approximate q/s | × exact |", "|---|---|---|---|---|---|---|---|"]
    for e in query["by_ef"]:
        t = small.get(e["ef_search"])
        other = (f"{t['recall_at_10']:.3f} | {t['qps']:,.0f} | {t['speedup_over_exact']:.1f}×" if t else "– | – | –")
        lines.append(f"| {e['ef_search']} | {e['recall_at_10']:.3f} | {e['qps']:,.0f} | "
                     f"**{e['speedup_over_exact']:.1f}×** | {100 * (e['seconds'] / e['raw_search_seconds'] - 1):+.0f}% "
                     f"| {other} |")
    single, exact = query["single_approximate"], query["single_exact"]
    return lines + [
        "", f"Exact batched search (`most_similar_batch`, same process, median of 3 calls): {query['exact_qps']:,.0f} "
            f"q/s over {query['rows']:,} rows, {trained['exact_qps']:,.0f} q/s over {trained['rows']:,}. "
            f"3M index: {_config(query['index_config'])}, built in {build['build_seconds']:.0f} s on "
            f"{build['threads']} threads, {query['index_mb']:,.0f} MB, reloaded "
            f"{'mapped' if query['index_mapped'] else 'into memory'} and checked against the words in "
            f"{query['index_reload_seconds']:.1f} s. Trained `{Path(trained['vectors']).name}`: "
            f"{_config(trained['config'])}, built in {trained['build_seconds']:.1f} s. One query at a time over the "
            f"3M rows (`most_similar(w, approximate=True)`, ef {single['ef_search']}, {single['queries']:,} words): "
            f"p50 {single['p50_ms']:.2f} ms, p99 {single['p99_ms']:.2f} ms; exact `most_similar(w)` p50 "
            f"{exact['p50_ms']:.0f} ms ({exact['queries']} words).",
        "", f"`{RECORD}.json`, runs {_provenance(build)}; {_provenance(query)}; {_provenance(trained)}."]


def tune_table(load_record):
    """Index settings over the first rows of the composed matrix (in memory, same queries)."""
    run = _latest(load_record(RECORD), "tune")
    efs = [e["ef_search"] for e in run["tune"][0]["by_ef"]]
    lines = ["| setting | build s | " + " | ".join(f"ef {ef}: recall / × exact" for ef in efs) + " |",
             "|---|---|" + "---|" * len(efs)]
    for row in run["tune"]:
        cells = " | ".join(f"{e['recall_at_10']:.3f} / {e['speedup_over_exact']:.1f}×" for e in row["by_ef"])
        lines.append(f"| {_config(row['config'])} | {row['build_seconds']:.1f} | {cells} |")
    first = run["tune"][0]
    return lines + ["", f"First {first['rows']:,} rows; exact {first['exact_qps']:,.0f} q/s; {_provenance(run)}."]


def tables(load_record):
    return {"ann-3000000": lambda: queries_table(load_record), "ann-3000000-tune": lambda: tune_table(load_record)}
