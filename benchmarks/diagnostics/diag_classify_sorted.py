"""Is the second thread's per-epoch move (``drift_positions``) what costs wordvec accuracy
on a label-sorted training file? wordvec only, with and without the move, on the file
as it comes and sorted by label, a few seeds, in this process (lr 0.5, epoch 25, dim 100,
2 threads).

    python benchmarks/diagnostics/diag_classify_sorted.py --train genre.train.txt --test genre.test.txt \
        --seeds 1 2 3 --name classify-sorted-drift-20261127
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/
from lib.records import Record, measure  # noqa: E402

import wordvec.fasttext as fasttext  # noqa: E402
from wordvec.models.classifier import training as classifier_training  # noqa: E402

MOVE = classifier_training.drift_positions


def sorted_copy(path, folder):
    lines = Path(path).read_bytes().splitlines(keepends=True)
    target = Path(folder) / "sorted.train.txt"
    target.write_bytes(b"".join(sorted(lines, key=lambda line: line.split(b" ", 1)[0])))
    return str(target)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", required=True)
    parser.add_argument("--test", required=True)
    parser.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3])
    parser.add_argument("--epoch", type=int, default=25)
    parser.add_argument("--scratch", default="/tmp")
    parser.add_argument("--name", default="classify-sorted-drift")
    options = parser.parse_args()
    record = Record(options.name, note="wordvec only; 2 threads; machine shared with other jobs")
    files = {"as given": options.train, "sorted": sorted_copy(options.train, options.scratch)}
    for order, path in files.items():
        for seed in options.seeds:
            for variant in ("drift", "no drift"):
                classifier_training.drift_positions = MOVE if variant == "drift" else (lambda *args: None)
                model, fields = measure(lambda: fasttext.train_supervised(
                    path, lr=0.5, epoch=options.epoch, dim=100, thread=2, seed=seed, verbose=0))
                p_at_1 = model.test(options.test)[1]
                record.add_run(system="wordvec", config=f"{order}, {variant}", seed=seed, quality={"p@1": p_at_1},
                               **fields)
                print(order, variant, seed, round(p_at_1, 4), flush=True)
                record.save()
    classifier_training.drift_positions = MOVE


if __name__ == "__main__":
    main()
