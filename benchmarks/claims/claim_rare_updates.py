"""Claim (seed 003, Language Models): "c が one-hot ベクトルであるときは、k≠i_t での逆伝播が 0
になる. そうなると出現頻度の低い単語の埋め込みが学習されない." -- with one-hot inputs the
gradient of every input row but the current word's is zero, so rare words' input
embeddings are (barely) not learned; the output embedding, by contrast, "は全て更新される"
(every row is updated at every step).

Experiment: how far each embedding row moved from its initial value, ||E_after - E_init||,
per bin of the word's training count, in (a) skip-gram with negative sampling (the claims'
baseline run: D 100, window 5, 2 epochs; W_in starts uniform in +-0.5/D) and (b) the
word-level LSTM language model of claim_tying.py (Adam; E and W_y start uniform in
+-0.1): untied input E, untied output W_y, and tied E, seed 1.  The runs are those of
claim_noise.py / claim_tying.py (cached: running those first costs nothing here).

    .venv/bin/python benchmarks/claims/claim_rare_updates.py [--checkpoints 400,800]
"""

import argparse

import claim_tying
import common

CLAIM = "rare_updates"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoints", default="400,800", help="as for claim_tying.py (same cached run)")
    args = parser.parse_args()
    checkpoints = [int(c) for c in args.checkpoints.split(",")]
    tables = {}
    sgns = common.run({"model": "word2vec", "params": common.word2vec_params()}, f"{CLAIM}: sg-ns baseline")
    tables["skip-gram NS, W_in (D 100, 2 epochs)"] = sgns["update_norms"]
    untied = common.run(claim_tying.lm_spec(False, 1, checkpoints), f"{CLAIM}: LSTM untied seed 1")
    tied = common.run(claim_tying.lm_spec(True, 1, checkpoints), f"{CLAIM}: LSTM tied seed 1")
    updates = untied["checkpoints"][-1]["updates"]
    tables[f"LSTM LM untied, input E ({updates} updates)"] = untied["update_norms"]["embedding"]
    tables[f"LSTM LM untied, output W_y ({updates} updates)"] = untied["update_norms"]["W_y"]
    tables[f"LSTM LM tied, E = W_y ({updates} updates)"] = tied["update_norms"]["embedding"]
    for name, bins in tables.items():
        print(f"\n{name}")
        print("| training count | rows | median ||dE|| | median ||E_init|| | median ||dE|| / ||E_init|| | "
              "rows moved < 10% of ||E_init|| |")
        print("|---|---:|---:|---:|---:|---:|")
        for label, b in bins.items():
            print(f"| {label} | {b['rows']:,} | {b['median_moved']:.3f} | {b['median_initial_norm']:.3f} | "
                  f"{b['median_moved_over_initial']:.2f} | {100 * b['share_moved_under_10pct']:.1f}% |")
    plot(tables)
    print("summary:", common.save_summary(CLAIM, tables))


def plot(tables):
    plt = common.pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for name, bins in tables.items():
        labels = list(bins)
        ax.plot([common.ROW_BINS[common.bin_labels(common.ROW_BINS).index(l)] for l in labels],
                [b["median_moved_over_initial"] for b in bins.values()], "o-", label=name)
    ax.set(xscale="log", yscale="log", xlabel="training count of the word (bin's lower edge)",
           ylabel="median ||E_after - E_init|| / ||E_init||", title="How far embedding rows move, by word frequency")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(common.FIGURES / "claims_rare_updates.png", dpi=110)


if __name__ == "__main__":
    main()
