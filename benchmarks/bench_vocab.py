"""Vocabulary counting throughput: wordvec vs gensim's vocabulary scan vs a Python Counter.

    .venv/bin/python benchmarks/bench_vocab.py [--corpus ../shared/data/corpus/wordbench-10m.txt.xz] [--repeat 3]

Each system counts the same corpus in the same run (best of ``--repeat``); wordvec reads
the compressed file directly (decompression included), and also the decompressed text
to show the counting cost alone, on the library's default threads (at most 2) and on one
(``wordvec.data.parallel``: the same vocabulary).  Prints tokens/s and the ratios
wordvec / peer.
"""

import argparse
import collections
import lzma
import shutil
import tempfile
from pathlib import Path

from lib.records import Record, measure

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "data" / "corpus" / "wordbench-10m.txt.xz"


def best_of(repeat, function):
    """(seconds, result, measured) of the fastest of ``repeat`` runs (records.measure fields)."""
    runs = [measure(function) for _ in range(repeat)]
    result, measured = min(runs, key=lambda run: run[1]["wall_seconds"])
    return measured["wall_seconds"], result, measured


def wordvec_count(path, threads=None):
    from wordvec.data.corpus import Corpus
    from wordvec.data.vocab import Vocabulary

    vocab = Vocabulary.build(Corpus(path), min_count=5, threads=threads)
    return vocab.corpus_tokens, len(vocab)


def counter_count(path):
    counts, total = collections.Counter(), 0
    with (lzma.open(path, "rt") if str(path).endswith(".xz") else open(path)) as handle:
        for line in handle:
            tokens = line.split()
            counts.update(tokens)
            total += len(tokens)
    return total, sum(1 for c in counts.values() if c >= 5)


def gensim_count(path):
    from gensim.models import Word2Vec

    model = Word2Vec(vector_size=10, min_count=5, workers=1)
    model.build_vocab(corpus_file=str(path))
    return model.corpus_total_words, len(model.wv)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--record", default="vocab", help="write benchmarks/results/<family>/RECORD.json ('' for none)")
    parser.add_argument("--note", default="", help="a sentence kept in the record (how the machine was)")
    args = parser.parse_args()
    record = Record(args.record, note=args.note) if args.record else None
    wordvec_count(args.corpus)  # compile (or load cached) kernels outside the timing
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "corpus.txt"
        with lzma.open(args.corpus) as source, open(plain, "wb") as target:
            shutil.copyfileobj(source, target, 1 << 24)
        rows = [("wordvec (.xz, decompression included)", *best_of(args.repeat, lambda: wordvec_count(args.corpus))),
                ("wordvec (plain text)", *best_of(args.repeat, lambda: wordvec_count(plain))),
                ("wordvec (plain text, 1 thread)", *best_of(args.repeat, lambda: wordvec_count(plain, threads=1))),
                ("gensim 4.4 build_vocab (plain text)", *best_of(1, lambda: gensim_count(plain))),
                ("Python Counter (plain text)", *best_of(1, lambda: counter_count(plain)))]
    print(f"corpus: {args.corpus}")
    print(f"{'system':<42} {'seconds':>8} {'tokens':>12} {'words>=5':>9} {'M tokens/s':>11}")
    for name, seconds, (tokens, words), measured in rows:
        print(f"{name:<42} {seconds:>8.2f} {tokens:>12,} {words:>9,} {tokens / seconds / 1e6:>11.1f}")
        if record is not None:
            record.add_run(system=name, config="vocabulary scan, min_count 5", **measured,
                           repeat=args.repeat if name.startswith("wordvec") else 1,
                           quality={"tokens": tokens, "words_min_count_5": words})
    base = rows[0][1]
    for name, seconds, *_ in rows[3:]:
        print(f"wordvec (.xz) is {seconds / base:.1f}x faster than {name}")
    if record is not None:
        record.data["corpus"] = str(args.corpus)
        print(f"record: {record.save()}")


if __name__ == "__main__":
    main()
