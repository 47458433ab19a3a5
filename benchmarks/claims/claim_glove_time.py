"""Claim (seed 002, GloVe conclusion): GloVe "consistently outperforms word2vec on the word
analogy task, given the same corpus, vocabulary, window size, and training time."

Experiment: on wordbench-10m, the same vocabulary (min_count 5: 51,241 words), window 5
(word2vec's default; GloVe's own benchmark uses 10) and D 100 for all: GloVe (x_max 10,
AdaGrad lr 0.05, W + W~, 2 threads) evaluated after 1, 2, 3, 4, 6 and 8 epochs, and
word2vec with negative sampling, 2 threads, fully trained: CBOW (alpha 0.05) and skip-gram
(alpha 0.025, the claims' baseline run) for 5 epochs each.  The equal-time points are
word2vec's measured costs; GloVe's checkpoints are dense where they fall (skip-gram's 5
epochs cost 97 CPU s on 2026-11-26, about GloVe's counting plus 2-3 epochs in the first
sweep).  (The first sweep, 2 epochs, checkpoints 1/2/4/8: ``--epochs 2 --cbow-epochs 1``.)  Cost = seconds from reading the
corpus to the end of training, in wall time and in CPU time of the process (all
threads); GloVe's includes its co-occurrence counting.  Both read the same cached
encoding of the corpus.  Evaluation time is not counted.  At each word2vec run's cost,
GloVe's accuracy at the same cost is interpolated between its checkpoints (linear in
the cost; "beyond" when the cost is outside GloVe's range).  Record:
benchmarks/results/word2vec/claims-glove_time.json.

    .venv/bin/python benchmarks/claims/claim_glove_time.py [--epochs 5] [--cbow-epochs 5]
"""

import argparse

import numpy as np

import common

CLAIM = "glove_time"
WINDOW = 5
GLOVE_CHECKPOINTS = [1, 2, 3, 4, 6, 8]
WORD2VEC_RUNS = (("cbow-ns", dict(sg=0, alpha=0.05)), ("sg-ns", dict(sg=1, alpha=0.025)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    common.add_epochs_argument(parser)
    parser.add_argument("--cbow-epochs", type=int, default=None, help="CBOW's epochs (default: --epochs)")
    args = parser.parse_args()
    epochs_of = {"sg-ns": args.epochs, "cbow-ns": args.cbow_epochs or args.epochs}
    glove = common.run({"model": "glove", "checkpoints": GLOVE_CHECKPOINTS,
                        "params": dict(vector_size=100, window=WINDOW, x_max=10.0, min_count=5, epochs=15,
                                       workers=2, seed=1)}, f"{CLAIM}: GloVe to {max(GLOVE_CHECKPOINTS)} epochs")
    points = [{"system": "GloVe", "epochs": c["epochs"], "wall_s": c["train_wall_s"], "cpu_s": c["train_cpu_s"],
               "evaluation": c["evaluation"]} for c in glove["checkpoints"]]
    entries = [(f"GloVe to {max(GLOVE_CHECKPOINTS)} epochs", glove,
                {"counting": glove["counting"], "checkpoints": glove["checkpoints"]})]
    for name, overrides in WORD2VEC_RUNS:
        epochs = epochs_of[name]
        spec = {"model": "word2vec", "params": common.word2vec_params(window=WINDOW, epochs=epochs, **overrides)}
        result = common.run(spec, f"{CLAIM}: {name} window {WINDOW}, {epochs} epochs")
        points.append({"system": name, "epochs": epochs, "wall_s": result["train_wall_s"],
                       "cpu_s": result["train_cpu_s"], "evaluation": result["evaluation"]})
        entries.append((f"{name} {epochs} epochs", result, points[-1]))
    print(f"GloVe counting: {glove['counting']['wall_s']:.1f} s wall, {glove['counting']['cpu_s']:.1f} s CPU, "
          f"{glove['counting']['nnz']:,} non-zeros")
    print("| system | epochs | cost: wall s | cost: CPU s | analogy % | semantic % | syntactic % | WS-353 rho | "
          "GloVe at the same CPU s: analogy % |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    glove_points = [p for p in points if p["system"] == "GloVe"]
    for p in points:
        e = p["evaluation"]
        same = "" if p["system"] == "GloVe" else glove_at(glove_points, p["cpu_s"])
        p["glove_at_same_cpu"] = same
        print(f"| {p['system']} | {p['epochs']} | {p['wall_s']:.0f} | {p['cpu_s']:.0f} | {common.pct(e['analogy'])} | "
              f"{common.pct(e['semantic'])} | {common.pct(e['syntactic'])} | {common.rho(e['wordsim353'])} | {same} |")
    plot(points)
    print("summary:", common.save_summary(CLAIM, {"points": points, "glove_counting": glove["counting"]}))
    print("record:", common.save_record(CLAIM, args.epochs, entries, note="cost = reading + counting + training, "
                                        "evaluation excluded; glove_at_same_cpu interpolates GloVe's checkpoints"))


def glove_at(glove_points, cpu_s):
    costs = [p["cpu_s"] for p in glove_points]
    if not costs[0] <= cpu_s <= costs[-1]:
        return "beyond" if cpu_s > costs[-1] else f"below (GloVe's first epoch ends at {costs[0]:.0f} s)"
    return common.pct(float(np.interp(cpu_s, costs, [p["evaluation"]["analogy"] for p in glove_points])))


def plot(points):
    plt = common.pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for ax, cost in zip(axes, ("cpu_s", "wall_s")):
        for system, style in (("GloVe", "o-"), ("cbow-ns", "s-"), ("sg-ns", "^-")):
            mine = [p for p in points if p["system"] == system]
            ax.plot([p[cost] for p in mine], [100 * p["evaluation"]["analogy"] for p in mine], style, label=system)
            for p in mine:
                ax.annotate(str(p["epochs"]), (p[cost], 100 * p["evaluation"]["analogy"]), fontsize=7,
                            xytext=(3, 3), textcoords="offset points")
        ax.set(xlabel=f"training cost, {'CPU' if cost == 'cpu_s' else 'wall'} seconds (reading + counting + epochs)")
    axes[0].set(ylabel="analogy accuracy % (30k words)")
    axes[0].legend()
    fig.suptitle(f"wordbench-10m, window {WINDOW}, D=100, same vocabulary; labels: epochs")
    fig.tight_layout()
    fig.savefig(common.FIGURES / "claims_glove_time.png", dpi=110)


if __name__ == "__main__":
    main()
