"""Static sentence models against their teacher and peers, side by side in one run.

Systems: the teacher (all-MiniLM-L6-v2, run by sentence-transformers on torch, 2 threads),
wordvec's distilled model (``wordvec static distill``, 256 dimensions), model2vec's own
``distill`` of the same teacher (float32, 256), wordvec's model trained toward the teacher
from its distilled one, and mean-pooled sg-ns word vectors (wordvec Word2Vec on the first
lines of wordbench-10m).  Figures: logistic-regression accuracy on SST-2 and on imdb and
genre subsets, encoding speed (sentences/s on the SST-2 test sentences), time to distill
and to train (the teacher's speed on the first 500 SST-2 test sentences, the others' on all
1,821).  The teacher is slow on 2 shared cores, so the tasks are subsets (sizes in
the record) and the teacher reads at most --max-seq-length tokens of a document; the
training corpus is the tasks' training texts without labels.  The teacher's vectors for
training come from sentence-transformers (equal to wordvec's NumPy teacher within 1e-5,
tests/static/test_distill.py) because it is ~3x faster here.

    nice python benchmarks/bench_static.py --teacher /tmp/minilm --wordvec-distilled DIR \\
        --wordvec-distill-seconds S
"""

import argparse
import lzma
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_doc2vec import classify, read_sst2  # noqa: E402
from lib.records import Record, measure  # noqa: E402

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def read_docs(name, n_train, n_test, seed=0):
    out = {}
    rng = np.random.default_rng(seed)
    for split, n in (("train", n_train), ("test", n_test)):
        with lzma.open(DATA / "tasks" / "docs" / f"{name}.{split}.txt.xz", "rt", encoding="utf-8") as handle:
            rows = [line.rstrip("\n").split(" ", 1) for line in handle]
        chosen = rng.choice(len(rows), size=min(n, len(rows)), replace=False)
        out[split] = ([rows[i][1] if len(rows[i]) > 1 else "" for i in chosen], [rows[i][0] for i in chosen])
    return out


def tasks(args):
    sst = read_sst2()
    rng = np.random.default_rng(1)
    train = rng.choice(len(sst["train"][0]), size=min(args.sst_train, len(sst["train"][0])), replace=False)
    found = {"sst2": {"train": ([" ".join(sst["train"][0][i]) for i in train], [sst["train"][1][i] for i in train]),
                      "test": ([" ".join(s) for s in sst["test"][0]], list(sst["test"][1]))}}
    for name in ("imdb", "genre"):
        found[name] = read_docs(name, args.docs_train, args.docs_test)
    return found


def accuracy(encode, data):
    return {name: classify(encode(split["train"][0]), split["train"][1], encode(split["test"][0]), split["test"][1])
            for name, split in data.items()}


def speed(encode, sentences):
    encode(sentences[:50])  # warm (compilation, caches)
    started = time.perf_counter()
    encode(sentences)
    return len(sentences) / (time.perf_counter() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teacher", required=True)
    parser.add_argument("--wordvec-distilled", required=True, help="`wordvec static distill TEACHER -o DIR`")
    parser.add_argument("--wordvec-distill-seconds", type=float, required=True, help="that command's wall time")
    parser.add_argument("--sst-train", type=int, default=2000)
    parser.add_argument("--docs-train", type=int, default=300)
    parser.add_argument("--docs-test", type=int, default=200)
    parser.add_argument("--max-seq-length", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--w2v-lines", type=int, default=100_000, help="characters / 60 of wordbench-10m")
    parser.add_argument("--name", default="static-sst2-imdb-genre")
    args = parser.parse_args()

    import torch
    from sentence_transformers import SentenceTransformer

    import model2vec
    from model2vec.distill import distill as m2v_distill
    from wordvec.models.static.model import StaticModel
    from wordvec.models.word2vec.model import Word2Vec

    torch.set_num_threads(2)
    data = tasks(args)
    record = Record(args.name, note=(
        f"2 shared cores (load in the record); SST-2: {args.sst_train} training sentences (random), the whole "
        f"test split; imdb and genre: {args.docs_train} training / {args.docs_test} test documents (random); "
        f"the teacher reads at most {args.max_seq_length} tokens; training toward the teacher on the tasks' "
        f"training texts without labels; logistic regression (scikit-learn) on each system's vectors"))
    sizes = {name: {split: len(d[split][0]) for split in d} for name, d in data.items()}
    speed_sentences = data["sst2"]["test"][0]

    teacher = SentenceTransformer(args.teacher, device="cpu")
    teacher.max_seq_length = args.max_seq_length
    unnormalized = SentenceTransformer(modules=[teacher[0], teacher[1]], device="cpu")
    cache = {}

    def teacher_encode(texts):
        key = (texts[0], len(texts)) if texts else None
        if key not in cache:
            cache[key] = unnormalized.encode(texts, batch_size=32)
        vectors = cache[key]
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)

    quality, fields = measure(lambda: accuracy(teacher_encode, data))
    record.add_run(system="teacher", config="all-MiniLM-L6-v2 (sentence-transformers, torch, 2 threads)",
                   quality=quality, sizes=sizes, speed_sentences=500,
                   sentences_per_second=speed(teacher.encode, speed_sentences[:500]),
                   **fields)
    print("teacher", quality, flush=True)
    record.save()

    ours = StaticModel.load(args.wordvec_distilled)
    quality, fields = measure(lambda: accuracy(ours.encode, data))
    record.add_run(system="wordvec", config="distilled, 256 dims", quality=quality,
                   distill_seconds=args.wordvec_distill_seconds,
                   sentences_per_second=speed(ours.encode, speed_sentences), **fields)
    print("wordvec distilled", quality, flush=True)
    record.save()

    started = time.perf_counter()
    theirs = m2v_distill(args.teacher, pca_dims=256, quantize_to="float32")
    m2v_seconds = time.perf_counter() - started
    quality, fields = measure(lambda: accuracy(lambda t: theirs.encode(t), data))
    record.add_run(system="model2vec", config=f"distill, 256 dims (model2vec {model2vec.__version__})",
                   quality=quality, distill_seconds=m2v_seconds,
                   sentences_per_second=speed(lambda t: theirs.encode(t), speed_sentences), **fields)
    print("model2vec distilled", quality, flush=True)
    record.save()

    corpus = [t for d in data.values() for t in d["train"][0] if t.strip()]
    targets = unnormalized.encode(corpus, batch_size=32)
    trained = StaticModel.load(args.wordvec_distilled)
    _, train_fields = measure(lambda: trained.fit(corpus, targets=targets, epochs=args.epochs, threads=2))
    quality, fields = measure(lambda: accuracy(trained.encode, data))
    record.add_run(system="wordvec", config=f"trained toward the teacher ({len(corpus)} texts, {args.epochs} epochs)",
                   quality=quality, train_seconds=train_fields["wall_seconds"],
                   losses=[h["loss"] for h in trained.history],
                   sentences_per_second=speed(trained.encode, speed_sentences), **fields)
    print("wordvec trained", quality, flush=True)
    record.save()

    with lzma.open(DATA / "corpus" / "wordbench-10m.txt.xz", "rt", encoding="utf-8") as handle:
        words = handle.read(args.w2v_lines * 60).split()  # its lines are whole documents
        lines = [words[i:i + 1000] for i in range(0, len(words), 1000)]
    started = time.perf_counter()
    w2v = Word2Vec(lines, sg=1, vector_size=100, min_count=3, epochs=3, workers=2, seed=1)
    w2v_seconds = time.perf_counter() - started
    kv = w2v.wv

    def mean_pool(texts):
        return kv.embed([t.lower().split() for t in texts], pooling="mean")

    quality, fields = measure(lambda: accuracy(mean_pool, data))
    record.add_run(system="wordvec", config=f"sg-ns 100d mean-pooled ({args.w2v_lines} lines of wordbench-10m)",
                   quality=quality, train_seconds=w2v_seconds,
                   sentences_per_second=speed(mean_pool, speed_sentences), **fields)
    print("sg-ns mean", quality, flush=True)
    print(record.save())


if __name__ == "__main__":
    main()
