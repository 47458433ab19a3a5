"""Diagnostic for the Doc2Vec genre gap: do the per-thread replica rows of the frequent words
(``wordvec.models.doc2vec.model.HOT_WORDS``) cost PV-DBOW accuracy on genre?

    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/diagnostics/diag_doc2vec_hot_words.py \
        --data /tmp/d2vg/bench --seeds 1,2,3,4,5 [--hot 1024,0] [--record NAME]

wordvec's PV-DBOW alone (bench_doc2vec.py's settings: 100 dims, negative 5, min_count 2,
sample 0, 10 epochs, 2 workers), trained in this process on ``DATA/genre.all.txt`` (what
``bench_doc2vec.py --datasets genre`` prepares: train then test documents) once per
(HOT_WORDS, seed), scored as bench_doc2vec.py scores: a logistic regression on the train
documents' trained vectors, accuracy on the test documents' trained vectors. HOT_WORDS 0
trains every row Hogwild in the shared matrices, as before the replicas.
"""

import argparse
import lzma
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]  # benchmarks/
sys.path.insert(0, str(HERE))

from lib import records  # noqa: E402
from bench_doc2vec import DOCS, classify  # noqa: E402

from wordvec.models.doc2vec import model as doc2vec  # noqa: E402


def labels_of(split):
    with lzma.open(DOCS / f"genre.{split}.txt.xz", "rt", encoding="utf-8") as handle:
        return [line.split(" ", 1)[0] for line in handle]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="/tmp/d2vg/bench", help="where bench_doc2vec.py wrote genre.all.txt")
    parser.add_argument("--seeds", default="1,2,3,4,5")
    parser.add_argument("--hot", default="1024,0", help="HOT_WORDS values to compare")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--record", default="doc2vec-hot-words-genre")
    args = parser.parse_args()
    y_train, y_test = labels_of("train"), labels_of("test")
    record = records.Record(args.record, note="PV-DBOW on genre with and without per-thread replica rows")
    for hot in (int(h) for h in args.hot.split(",")):
        doc2vec.HOT_WORDS = hot
        for seed in (int(s) for s in args.seeds.split(",")):
            model, fields = records.measure(lambda: doc2vec.Doc2Vec(
                corpus_file=str(Path(args.data) / "genre.all.txt"), dm=0, dbow_words=0, vector_size=100, negative=5,
                hs=0, min_count=2, sample=0, epochs=args.epochs, workers=2, seed=seed, alpha=0.025))
            vectors = model.dv.vectors
            n = len(y_train)
            accuracy = classify(vectors[:n], y_train, vectors[n:], y_test)
            record.add_run(system="wordvec", config=f"dbow hot_words={hot}", seed=seed, epochs=args.epochs,
                           quality={"accuracy_trained": accuracy}, **fields)
            print(f"hot_words {hot} seed {seed}: accuracy {100 * accuracy:.2f} %, {fields['wall_seconds']:.1f} s",
                  flush=True)
    print("record:", record.save())


if __name__ == "__main__":
    main()
