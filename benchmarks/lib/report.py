"""Markdown tables for bench_word2vec.py's results (also: re-print a saved results.json).

    .venv/bin/python benchmarks/report.py benchmarks/out/word2vec-.../results.json
"""

import json
import statistics
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
    yield ("| config | seed | system | wall s | train s | train words/s | peak RSS MB | CPU s "
           "| analogy % | WS-353 ρ | SimLex ρ | load before→after |")
    yield "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    for run in results["runs"]:
        analogy, wordsim, simlex = _quality(run)
        failed = "" if run["returncode"] == 0 else f" (exit {run['returncode']})"
        yield (f"| {run['config']} | {run.get('seed', 1)} | {run['system']}{failed} | {run['wall_seconds']:.1f} "
               f"| {_number(run['train_seconds'], '.1f')} | {_number(run.get('train_words_per_sec'), ',.0f')} "
               f"| {run['peak_rss_mb']:,.0f} | {run.get('cpu_seconds', 0):.1f} "
               f"| {_number(analogy and analogy * 100, '.1f')} | {_number(wordsim, '.3f')} "
               f"| {_number(simlex, '.3f')} | {run['load_before'][0]:.1f}→{run['load_after'][0]:.1f} |")


def _mean(values):
    values = [v for v in values if v is not None]
    return statistics.fmean(values) if values else None


def averaged_runs(results):
    """{(config, system): one run-shaped dict whose figures are means over the seeds run}
    (peak RSS: the largest), with ``n`` runs and the analogy standard deviation."""
    groups = {}
    for run in results["runs"]:
        if run["returncode"] == 0:
            groups.setdefault((run["config"], run["system"]), []).append(run)
    averaged = {}
    for key, runs in groups.items():
        qualities = [_quality(run) for run in runs]
        analogy, wordsim, simlex = (_mean(column) for column in zip(*qualities))
        accuracies = [q[0] * 100 for q in qualities if q[0] is not None]
        averaged[key] = {
            "n": len(runs), "wall_seconds": _mean(r["wall_seconds"] for r in runs),
            "train_words_per_sec": _mean(r.get("train_words_per_sec") for r in runs),
            "peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
            "analogy_sd": statistics.stdev(accuracies) if len(accuracies) > 1 else None,
            "quality": {"analogy": {"total": analogy},
                        "similarity": {"wordsim353": {"spearman": wordsim}, "simlex999": {"spearman": simlex}}},
        }
    return averaged


def mean_rows(results):
    """Per config and system, the means over seeds (shown only when a config ran several)."""
    yield "| config | system | runs | wall s | train words/s | max peak RSS MB | analogy % (± sd) | WS-353 ρ | SimLex ρ |"
    yield "|---|---|---:|---:|---:|---:|---:|---:|---:|"
    for (config, system), run in averaged_runs(results).items():
        analogy, wordsim, simlex = _quality(run)
        spread = "" if run["analogy_sd"] is None else f" ± {run['analogy_sd']:.1f}"
        yield (f"| {config} | {system} | {run['n']} | {run['wall_seconds']:.1f} "
               f"| {_number(run['train_words_per_sec'], ',.0f')} | {run['peak_rss_mb']:,.0f} "
               f"| {_number(analogy and analogy * 100, '.1f')}{spread} | {_number(wordsim, '.3f')} "
               f"| {_number(simlex, '.3f')} |")


def ratio_rows(results):
    """wordvec against each peer measured in the same run, config by config (means over seeds)."""
    by_key = averaged_runs(results)
    configs = list(dict.fromkeys(run["config"] for run in results["runs"]))
    systems = list(dict.fromkeys(run["system"] for run in results["runs"]))
    variants = [system for system in systems if system.startswith("wordvec")]  # wordvec, wordvec-FLAG
    peers = [system for system in systems if not system.startswith("wordvec")]
    yield ("| config | wordvec vs | speed (peer wall / wordvec wall) | throughput wordvec/peer "
           "| peak RSS wordvec/peer | analogy Δ points | WS-353 Δρ | SimLex Δρ |")
    yield "|---|---|---:|---:|---:|---:|---:|---:|"
    for config in configs:
        for variant in variants:
            ours = by_key.get((config, variant))
            if ours is None:
                continue
            others = peers if variant == "wordvec" else ["wordvec"] + peers  # a variant vs the default too
            yield from _ratios(config, variant, ours, others, by_key)


def _ratios(config, variant, ours, others, by_key):
    for peer_name in others:
        peer = by_key.get((config, peer_name))
        if peer is None:
            continue
        label = peer_name if variant == "wordvec" else f"{peer_name} (as {variant})"
        (oa, ow, os_), (pa, pw, ps) = _quality(ours), _quality(peer)
        yield (f"| {config} | {label} | {_ratio(peer['wall_seconds'], ours['wall_seconds'])} "
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
    if any(run.get("seed", 1) != results["runs"][0].get("seed", 1) for run in results["runs"]):
        print()
        for row in mean_rows(results):
            print(row)
    rows = list(ratio_rows(results))
    if len(rows) > 2:
        print()
        for row in rows:
            print(row)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        print_table(json.load(handle))
