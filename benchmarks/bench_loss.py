"""Why the reported skip-gram loss can rise in late epochs: online vs static loss.

    .venv/bin/python benchmarks/bench_loss.py [CORPUS] [--sg 1] [--hs 0] [--tokens 2000000]

The per-epoch loss Word2Vec reports is the *online* loss: every example's exact loss at
the parameters just before its own update.  After each epoch this script also computes
the *static* loss: one pass over the same corpus with the learning rate at 0 (the same
kernel; fixed seed for the subsampling, windows and negatives), i.e. the objective of
the parameters as they stand.  Defaults: the first ~2M tokens of wordbench-10m, one
worker, 5 epochs, alpha 0.025.
"""

import argparse
import lzma
import sys
import tempfile
from pathlib import Path

import numpy as np

from wordvec.data.encode import encode_corpus
from wordvec.kernels import word2vec as kernels
from wordvec.models.word2vec.model import Word2Vec
from wordvec.models.word2vec.epochs import EpochRunner

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "corpus"


def static_loss(model, seed=12345):
    """Mean loss per example of one pass at learning rate 0 (nothing is updated)."""
    run = EpochRunner(model, encode_corpus(model._corpus, model.vocab))
    documents = run.offsets.size - 1
    loss, stats = kernels.train_chunk(run.corpus, 0, documents, kernels.Matrices(*run.trained_matrices()),
                                      run.outputs, run.settings, kernels.make_schedule(0.0, 0.0, 0, 1, seed))
    return loss / stats[kernels.STAT_EXAMPLES]


def first_tokens(source, tokens, folder):
    """Whole lines of ``source`` (plain or .xz) up to ``tokens`` tokens, as a plain file."""
    out, seen = Path(folder) / "corpus.txt", 0
    opener = lzma.open if str(source).endswith(".xz") else open
    with opener(source, "rt", encoding="utf-8") as reader, open(out, "w", encoding="utf-8") as writer:
        for line in reader:
            if seen >= tokens:
                break
            writer.write(line)
            seen += len(line.split())
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", default=str(DATA / "wordbench-10m.txt.xz"))
    parser.add_argument("--sg", type=int, default=1)
    parser.add_argument("--hs", type=int, default=0)
    parser.add_argument("--tokens", type=int, default=2_000_000)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--alpha", type=float, default=0.025)
    args = parser.parse_args(argv)
    if not Path(args.corpus).exists():
        parser.error(f"{args.corpus} does not exist")

    def report(model, info):
        print(f"| {info['epoch']} | {info['alpha']:.4f} | {info['loss']:.4f} | {static_loss(model):.4f} |", flush=True)

    with tempfile.TemporaryDirectory() as folder:
        corpus = first_tokens(args.corpus, args.tokens, folder)
        model = Word2Vec(sg=args.sg, hs=args.hs, negative=0 if args.hs else 5, alpha=args.alpha,
                         epochs=args.epochs, workers=1, progress=False, callbacks=[report],
                         cache_dir=Path(folder) / "cache")
        model.build_vocab(corpus_file=str(corpus))
        print("| epoch | alpha at its end | online loss | static loss |")
        print("|---:|---:|---:|---:|")
        print(f"| 0 | {args.alpha:.4f} | | {static_loss(model):.4f} |", flush=True)
        model.train()
    return 0


if __name__ == "__main__":
    sys.exit(main())
