"""Claim (seed 003, Language Models): "c が one-hot ベクトルであるときは、k≠i_t での逆伝播が 0
になる. そうなると出現頻度の低い単語の埋め込みが学習されない." -- with one-hot inputs the
gradient of every input row but the current word's is zero, so rare words' input
embeddings are (barely) not learned; the output embedding, by contrast, "は全て更新される"
(every row is updated at every step).

Experiment: how far each embedding row moved from its initial value, ||E_after - E_init||,
per bin of the word's training count, in (a) skip-gram with negative sampling (the claims'
baseline run: D 100, window 5, 5 epochs; W_in starts uniform in +-0.5/D, plain SGD) and
(b) the word-level LSTM language model of claim_tying.py (Adam; E and W_y start uniform
in +-0.1), seed 1, after its first ``--updates`` updates (default 100: 51k tokens, a
run of ~20 CPU seconds, so it runs without the heavy lock): the untied model's input E
and output W_y, and the tied model's E.  The skip-gram run is claim_window.py's window-5
run (cached: running that first costs nothing here).  ``--epochs`` sets the skip-gram
run's epochs only; the LM part is fixed by ``--updates``.  Record:
benchmarks/results/word2vec/claims-rare_updates.json.

    .venv/bin/python benchmarks/claims/claim_rare_updates.py [--updates 100] [--epochs 5]
"""

import argparse

import claim_tying
import common

CLAIM = "rare_updates"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--updates", type=int, default=100, help="LM updates (B x T = 512 tokens each)")
    common.add_epochs_argument(parser)
    args = parser.parse_args()
    tables = {}
    sgns = common.run({"model": "word2vec", "params": common.word2vec_params(epochs=args.epochs)},
                      f"{CLAIM}: sg-ns baseline, {args.epochs} epochs")
    tables[f"skip-gram NS, W_in (D 100, {args.epochs} epochs)"] = sgns["update_norms"]
    small = args.updates <= 150  # ~0.2 CPU s per update: small runs stay under 30 CPU s
    untied = common.run(claim_tying.lm_spec(False, 1, [args.updates]), f"{CLAIM}: LSTM untied", heavy=not small)
    tied = common.run(claim_tying.lm_spec(True, 1, [args.updates]), f"{CLAIM}: LSTM tied", heavy=not small)
    for name, result in (("untied", untied), ("tied", tied)):
        print(f"LSTM {name}: valid perplexity {result['checkpoints'][-1]['valid_ppl']:.0f} after "
              f"{args.updates} updates; process {result['process_cpu_s']} CPU s")
    tables[f"LSTM LM untied, input E ({args.updates} updates)"] = untied["update_norms"]["embedding"]
    tables[f"LSTM LM untied, output W_y ({args.updates} updates)"] = untied["update_norms"]["W_y"]
    tables[f"LSTM LM tied, E = W_y ({args.updates} updates)"] = tied["update_norms"]["embedding"]
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
    entries = [(f"skip-gram NS, {args.epochs} epochs", sgns,
                {"update_norms_W_in": sgns["update_norms"], "evaluation": sgns["evaluation"]})]
    entries += [(f"LSTM LM {name}, {args.updates} updates", result,
                 {"update_norms": result["update_norms"], "checkpoints": result["checkpoints"]})
                for name, result in (("untied", untied), ("tied", tied))]
    print("record:", common.save_record(CLAIM, args.epochs, entries, note=f"skip-gram {args.epochs} epochs; "
                                        f"LSTM LM seed 1 after {args.updates} updates (LM runs without the lock)"))


def plot(tables):
    plt = common.pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    edges = dict(zip(common.bin_labels(common.ROW_BINS), common.ROW_BINS))
    for name, bins in tables.items():
        x = [edges[label] for label in bins]
        left.plot(x, [max(b["median_moved_over_initial"], 1e-3) for b in bins.values()], "o-", label=name)
        right.plot(x, [100 * b["share_moved_under_10pct"] for b in bins.values()], "o-", label=name)
    left.set(xscale="log", yscale="log", xlabel="training count of the word (bin's lower edge)",
             ylabel="median ||E_after - E_init|| / ||E_init||  (0 drawn at 1e-3)")
    right.set(xscale="log", xlabel="training count of the word (bin's lower edge)",
              ylabel="% of rows that moved < 10% of ||E_init||")
    left.legend(fontsize=7)
    fig.suptitle("How far embedding rows move, by word frequency")
    fig.tight_layout()
    fig.savefig(common.FIGURES / "claims_rare_updates.png", dpi=110)


if __name__ == "__main__":
    main()
