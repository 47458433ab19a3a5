"""Markdown tables for bench_word2vec.py's results (also: re-print a saved results.json).

    .venv/bin/python benchmarks/report.py benchmarks/out/word2vec-.../results.json
"""

import json
import sys


def _number(value, fmt):
    return "n/a" if value is None else format(value, fmt)


def _ratio(ours, theirs, fmt=".2f"):
    return "n/a" if not ours or not theirs else format(ours / theirs, fmt) + "×"


def _delta(ours, theirs, scale=1.0, fmt="+.3f"):
    return "n/a" if ours is None or theirs is None else format((ours - theirs) * scale, fmt)


def _quality(run):
    quality = run.get("quality") or {}
    similarity = quality.get("similarity", {})
    return (
        quality.get("analogy", {}).get("total"),
        similarity.get("wordsim353", {}).get("spearman"),
        similarity.get("simlex999", {}).get("spearman"),
    )


def run_rows(results):
    yield ("| config | system | wall s | train s | train words/s | peak RSS MB | CPU s "
           "| analogy % | WS-353 ρ | SimLex ρ | load before→after |")
    yield "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    for run in results["runs"]:
        analogy, wordsim, simlex = _quality(run)
        failed = "" if run["returncode"] == 0 else f" (exit {run['returncode']})"
        yield (f"| {run['config']} | {run['system']}{failed} | {run['wall_seconds']:.1f} "
               f"| {_number(run['train_seconds'], '.1f')} | {_number(run.get('train_words_per_sec'), ',.0f')} "
               f"| {run['peak_rss_mb']:,.0f} | {run.get('cpu_seconds', 0):.1f} "
               f"| {_number(analogy and analogy * 100, '.1f')} | {_number(wordsim, '.3f')} "
               f"| {_number(simlex, '.3f')} | {run['load_before'][0]:.1f}→{run['load_after'][0]:.1f} |")


def ratio_rows(results):
    """wordvec against each peer measured in the same run, config by config."""
    by_key = {(run["config"], run["system"]): run for run in results["runs"] if run["returncode"] == 0}
    configs = list(dict.fromkeys(run["config"] for run in results["runs"]))
    yield ("| config | wordvec vs | speed (peer wall / wordvec wall) | throughput wordvec/peer "
           "| peak RSS wordvec/peer | analogy Δ points | WS-353 Δρ | SimLex Δρ |")
    yield "|---|---|---:|---:|---:|---:|---:|---:|"
    for config in configs:
        ours = by_key.get((config, "wordvec"))
        if ours is None:
            continue
        for peer_name in ("gensim", "c"):
            peer = by_key.get((config, peer_name))
            if peer is None:
                continue
            (oa, ow, os_), (pa, pw, ps) = _quality(ours), _quality(peer)
            yield (f"| {config} | {peer_name} | {_ratio(peer['wall_seconds'], ours['wall_seconds'])} "
                   f"| {_ratio(ours.get('train_words_per_sec'), peer.get('train_words_per_sec'))} "
                   f"| {_ratio(ours['peak_rss_mb'], peer['peak_rss_mb'])} "
                   f"| {_delta(oa, pa, 100, '+.1f')} | {_delta(ow, pw)} | {_delta(os_, ps)} |")


def print_table(results):
    machine, corpus, params = results["machine"], results["corpus"], results["params"]
    alpha = params["alpha"]
    if isinstance(alpha, dict):  # per config
        alpha = ", ".join(f"{config} {value}" for config, value in alpha.items())
    print(f"\n{machine['cpu_model']}, {machine['nproc']} CPUs, {machine['memory_gb']} GB; "
          f"versions {results['versions']}")
    print(f"corpus {results['corpus_file']} ({corpus['tokens']:,} tokens); dim {params['vector_size']}, "
          f"window {params['window']}, min_count {params['min_count']}, sample {params['sample']}, "
          f"alpha ({alpha}), epochs {params['epochs']}, workers {params['workers']}\n")
    for row in run_rows(results):
        print(row)
    rows = list(ratio_rows(results))
    if len(rows) > 2:
        print()
        for row in rows:
            print(row)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        print_table(json.load(handle))
