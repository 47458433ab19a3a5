"""The Doc2Vec and pooling tables of README.md / benchmarks/README.md, from the records
``bench_doc2vec.py`` writes (every figure there is printed here from a JSON record).

    .venv/bin/python benchmarks/doc2vec_tables.py benchmarks/results/doc2vec-imdb.json ...
"""

import json
import sys
from pathlib import Path

METRIC = {"imdb": "error", "genre": "accuracy"}


def doc2vec_rows(record):
    """One row per (dataset, config, seed): gensim's and wordvec's figures and the ratios."""
    runs = [r for r in record["runs"] if r["config"] in ("dbow", "dbow-words", "dm-mean")]
    pairs = {}
    for run in runs:
        pairs.setdefault((run["dataset"], run["config"], run["seed"]), {})[run["system"]] = run
    rows = []
    for (dataset, config, seed), pair in pairs.items():
        if set(pair) != {"gensim", "wordvec"}:
            continue
        g, w = pair["gensim"], pair["wordvec"]
        rows.append("| " + " | ".join([
            dataset, config, str(w["epochs"]), _quality(dataset, g), _quality(dataset, w),
            f"{g['wall_seconds']:.1f} / {w['wall_seconds']:.1f} = **{g['wall_seconds'] / w['wall_seconds']:.2f}x**",
            f"{g['infer_seconds']:.1f} / {w['infer_seconds']:.1f} = **{g['infer_seconds'] / w['infer_seconds']:.2f}x**",
            f"{g['peak_rss_mb']:.0f} / {w['peak_rss_mb']:.0f}",
            f"{g['load_before'][0]:.1f}-{w['load_after'][0]:.1f}"]) + " |")
    return rows


def _quality(dataset, run):
    """Trained test vectors (the protocol) / inferred test vectors, in percent."""
    q = run["quality"]
    if METRIC.get(dataset) == "error":
        return f"{100 * (1 - q['accuracy_trained']):.2f} / {100 * (1 - q['accuracy_inferred']):.2f}"
    return f"{100 * q['accuracy_trained']:.2f} / {100 * q['accuracy_inferred']:.2f}"


def pooling_rows(record):
    rows = []
    for run in record["runs"]:
        if run["config"].startswith("pool-"):
            rows.append(f"| {run['dataset']} | {run['config'][5:]} | {100 * run['quality']['accuracy']:.2f} | "
                        f"{run['sentences_per_second']:,.0f} |")
        elif run["config"] == "pooling-kernel":
            rows.append(f"| kernel alone | {run['sentences']:,} sentences of {run['tokens_per_sentence']} words, "
                        f"D = {run['vector_size']}, one thread | | {run['sentences_per_second']:,.0f} |")
    return rows


def main(paths):
    print("| dataset | model | epochs | gensim % (trained / inferred) | wordvec % (trained / inferred) | "
          "training s, gensim / wordvec | inference s, gensim / wordvec | peak RSS MB g / w | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    records = [json.loads(Path(p).read_text()) for p in paths]
    for record in records:
        for row in doc2vec_rows(record):
            print(row)
    print()
    print("| dataset | pooling | accuracy % | sentences/s (whole embed call) |")
    print("|---|---|---|---|")
    for record in records:
        for row in pooling_rows(record):
            print(row)
    for path, record in zip(paths, records):
        print(f"\n{path}: commit {record['commit'][:7]}, load {record['load_before'][0]:.1f} -> "
              f"{record.get('load_after', [float('nan')])[0]:.1f}, `{record['command_line']}`")


if __name__ == "__main__":
    main(sys.argv[1:])
