"""Window classifier comparison: random E vs frozen wordvec vectors vs fine-tuned ones, on POS and NER.

    .venv/bin/python benchmarks/bench_tasks.py --vectors /work/vectors/wb10m-sg100.bin \
        --tasks pos,ner --out benchmarks/out/tasks

Each row runs the same training as `wordvec task pos|ner` (early stopping on valid) and
records valid/test scores, epochs run and wall time; results go to OUT/results.json and a
Markdown table is printed. Without --vectors only the random-E rows run.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wordvec.io.atomic import save_json  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "tasks"
METRIC = {"pos": "accuracy", "ner": "f1"}


def run_one(task, init, vectors, args):
    from wordvec.tasks import run_ner, run_pos

    runner = run_pos if task == "pos" else run_ner
    hidden = args.hidden_pos if task == "pos" else args.hidden_ner
    epochs = args.epochs_pos if task == "pos" else args.epochs_ner
    start = time.perf_counter()
    result, model = runner(DATA / ("brown" if task == "pos" else "conll2003"),
                           vectors=None if init == "random" else vectors, fine_tune=init == "fine-tuned",
                           hidden=hidden, window=args.window, epochs=epochs, seed=args.seed, progress=False)
    seconds = time.perf_counter() - start
    metric = METRIC[task]
    return {"task": task, "init": init, "hidden": hidden, "window": args.window, "epochs_max": epochs,
            "epochs_run": len(model.history), "best_epoch": 1 + max(range(len(model.history)), key=lambda i: model.history[i]["valid"]),
            "valid": result["valid"][metric], "test": result["test"][metric], "seconds": round(seconds, 1),
            "scores": {split: {k: v for k, v in result[split].items() if k != "per_type"} for split in ("valid", "test")}}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vectors", help="wordvec-trained word vectors (any format wordvec reads)")
    parser.add_argument("--tasks", default="pos,ner")
    parser.add_argument("--inits", default="random,frozen,fine-tuned")
    parser.add_argument("--hidden-ner", type=int, default=100)
    parser.add_argument("--hidden-pos", type=int, default=0)
    parser.add_argument("--window", type=int, default=2)
    parser.add_argument("--epochs-ner", type=int, default=5)
    parser.add_argument("--epochs-pos", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="benchmarks/out/tasks")
    args = parser.parse_args()
    rows = []
    for task in args.tasks.split(","):
        for init in args.inits.split(","):
            if init != "random" and not args.vectors:
                print(f"skipping {task}/{init}: no --vectors", file=sys.stderr)
                continue
            row = run_one(task, init, args.vectors, args)
            print(json.dumps({k: v for k, v in row.items() if k != "scores"}), flush=True)
            rows.append(row)
            os.makedirs(args.out, exist_ok=True)
            save_json(os.path.join(args.out, f"results-{args.tasks.replace(',', '-')}-{args.inits.replace(',', '-')}.json"),
                      {"vectors": args.vectors, "argv": sys.argv, "rows": rows})
    print("\n| task | E | hidden | valid | test | epochs | time (s) |\n|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['task']} ({METRIC[r['task']]}) | {r['init']} | {r['hidden']} | {r['valid']:.4f} | {r['test']:.4f} "
              f"| {r['epochs_run']} | {r['seconds']:.0f} |")


if __name__ == "__main__":
    main()
