"""Claim (seed 002, "Problem Formulation"): "Generally, narrower window sizes lead to better
performance in syntactic tests while wider windows lead to better performance in
semantic tests."

Experiment: skip-gram with negative sampling (the claims' baseline: D 100, 5 epochs,
seed 1) on wordbench-10m at windows 2, 5 and 10; the Google analogy set's semantic and
syntactic sections (restricted to the 30k most frequent words), and WordSim-353 /
SimLex-999.  Record: benchmarks/results/word2vec/claims-window.json.

    .venv/bin/python benchmarks/claims/claim_window.py [--windows 2,5,10] [--seeds 1] [--epochs 5]
"""

import argparse

import common

CLAIM = "window"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--windows", default="2,5,10")
    parser.add_argument("--seeds", default="1")
    common.add_epochs_argument(parser)
    args = parser.parse_args()
    windows = [int(w) for w in args.windows.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    rows, entries = [], []
    for seed in seeds:
        for window in windows:
            spec = {"model": "word2vec", "params": common.word2vec_params(window=window, seed=seed,
                                                                            epochs=args.epochs)}
            result = common.run(spec, f"{CLAIM}: sg-ns window {window} seed {seed}, {args.epochs} epochs")
            ev = result["evaluation"]
            entries.append((f"sg-ns window {window} seed {seed}", result, ev))
            rows.append({"window": window, "seed": seed, "analogy": ev["analogy"], "semantic": ev["semantic"],
                         "syntactic": ev["syntactic"], "wordsim353": ev["wordsim353"], "simlex999": ev["simlex999"],
                         "train_wall_s": result["train_wall_s"]})
    print("| window | seed | analogy % | semantic % | syntactic % | WS-353 rho | SimLex rho | train s |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['window']} | {r['seed']} | {common.pct(r['analogy'])} | {common.pct(r['semantic'])} | "
              f"{common.pct(r['syntactic'])} | {common.rho(r['wordsim353'])} | {common.rho(r['simlex999'])} | "
              f"{r['train_wall_s']:.0f} |")
    plot(rows, windows, args.epochs)
    print("summary:", common.save_summary(CLAIM, {"rows": rows}))
    print("record:", common.save_record(CLAIM, args.epochs, entries, note=f"sg-ns, D 100, {args.epochs} epochs, "
                                        "one training run per lock acquisition"))


def plot(rows, windows, epochs):
    plt = common.pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    for key, style in (("semantic", "o-"), ("syntactic", "s-"), ("analogy", "^--")):
        means = [sum(r[key] for r in rows if r["window"] == w) / sum(r["window"] == w for r in rows) for w in windows]
        ax.plot(windows, [100 * m for m in means], style, label=key if key != "analogy" else "all")
    ax.set(xlabel="window (max. distance)", ylabel="analogy accuracy %", xticks=windows,
           title=f"sg-ns, D=100, {epochs} epochs, wordbench-10m")
    ax.legend()
    fig.tight_layout()
    fig.savefig(common.FIGURES / "claims_window.png", dpi=110)


if __name__ == "__main__":
    main()
