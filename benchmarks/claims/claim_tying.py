"""Claim (seed 003, Language Models): "U=V=S として重みを共有することで、更新における問題点の
解決やや汎化性能の向上が期待される" -- sharing the input and output embeddings (U = V = S)
is expected to fix the update problem (rare words' input rows get no gradient) and to
improve generalisation somewhat.

Experiment: the word-level LSTM language model of benchmarks/README.md ("Recurrent
language models"; H = D = 128, V = 10k, first 1.0M tokens of wordbench-10m, ~50k
validation tokens, Adam lr 0.005, B 16, T 32, clip 5, no dropout), tied and untied,
seeds 1, 2 and 3, validation perplexity after 800 and 1,800 updates (0.41 and 0.92
epoch; B x T = 512 tokens per update; on seed 1 the two cross near 1,300).  One seed
of the same setup is in benchmarks/README.md up to 1,800 updates.

    .venv/bin/python benchmarks/claims/claim_tying.py [--seeds 1,2,3] [--checkpoints 800,1800]
"""

import argparse
import statistics

import common

CLAIM = "tying"


def lm_spec(tied, seed, checkpoints):
    return {"model": "lm", "checkpoints": checkpoints,
            "params": dict(cell="lstm", hidden=128, embedding=128, tied=tied, seed=seed, train_tokens=1_000_000,
                           valid_tokens=50_000, vocab=10_000, bptt=32, batch_size=16, lr=0.005, clip=5.0)}


def parse(args=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--checkpoints", default="800,1800")
    args = parser.parse_args(args)
    return [int(s) for s in args.seeds.split(",")], [int(c) for c in args.checkpoints.split(",")]


def main():
    seeds, checkpoints = parse()
    runs = {}
    for seed in seeds:
        for tied in (False, True):
            runs[tied, seed] = common.run(lm_spec(tied, seed, checkpoints),
                                          f"{CLAIM}: LSTM {'tied' if tied else 'untied'} seed {seed}")
    print("| model | parameters | " + " | ".join(f"valid ppl @ {c} updates, per seed" for c in checkpoints)
          + " | mean @ last |")
    print("|---|---:|" + "---|" * len(checkpoints) + "---:|")
    summary = {}
    for tied in (False, True):
        mine = [runs[tied, s] for s in seeds]
        per_checkpoint = [[r["checkpoints"][k]["valid_ppl"] for r in mine] for k in range(len(checkpoints))]
        summary["tied" if tied else "untied"] = {"seeds": seeds, "valid_ppl": per_checkpoint,
                                                 "parameters": mine[0]["parameters"]}
        print(f"| LSTM {'tied' if tied else 'untied'} | {mine[0]['parameters']:,} | "
              + " | ".join(" / ".join(f"{p:.1f}" for p in ppl) for ppl in per_checkpoint)
              + f" | {statistics.mean(per_checkpoint[-1]):.1f} |")
    for k, c in enumerate(checkpoints):
        diffs = [t - u for t, u in zip(summary["tied"]["valid_ppl"][k], summary["untied"]["valid_ppl"][k])]
        print(f"tied - untied at {c} updates, per seed: {', '.join(f'{d:+.1f}' for d in diffs)}")
    print("summary:", common.save_summary(CLAIM, summary))


if __name__ == "__main__":
    main()
