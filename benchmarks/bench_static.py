"""Static sentence models against their teacher and peers, side by side in one run.

Systems: the teacher (all-MiniLM-L6-v2, run by sentence-transformers on torch, 2 threads),
wordvec's distilled model (``wordvec static distill``, 256 dimensions), model2vec's own
``distill`` of the same teacher (float32, 256), wordvec's model trained toward the teacher
from its distilled one, the distilled model trained on imdb review halves (pairs),
skip-gram vectors (wordvec Word2Vec on wordbench-10m) mean- and SIF-pooled, and Doc2Vec
PV-DBOW trained on the corpus of the teacher training and inferred.

Figures: logistic-regression accuracy on SST-2 (whole) and on imdb and genre subsets;
retrieval R@1 of unseen imdb reviews' first halves against their second halves; encoding
speed and peak memory, each system alone in a child process, on its first pass over
every SST-2 sentence (the teacher on 500 of them); time to distill and to train.  The teacher reads at most
--max-seq-length tokens of a text, and its vectors (the slow part: ~75,000 texts) are kept
in --cache chunk by chunk, so a stopped run resumes.  The training corpus is the tasks'
training texts without labels and 20-token pieces of wordbench-10m.  The teacher's vectors
for training come from sentence-transformers (equal to wordvec's NumPy teacher within
1e-5, tests/static/test_distill.py) because it is faster here; wordvec's distillation runs
its own NumPy teacher.

    python benchmarks/bench_static.py --teacher all-MiniLM-L6-v2/ --teacher-only   # fill the cache
    python benchmarks/bench_static.py --teacher all-MiniLM-L6-v2/ --name static-sst2-imdb-genre-DATE
"""

import argparse
import hashlib
import json
import lzma
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_doc2vec import classify, read_sst2  # noqa: E402
from lib.records import Record, measure, peak_rss_mb_of_children  # noqa: E402

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SPEED_FILE = Path("/tmp/bench-static-speed.txt")  # written by main: every SST-2 sentence


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
    n_sst = len(sst["train"][0]) if args.sst_train <= 0 else min(args.sst_train, len(sst["train"][0]))
    train = np.sort(rng.choice(len(sst["train"][0]), size=n_sst, replace=False))
    found = {"sst2": {"train": ([" ".join(sst["train"][0][i]) for i in train], [sst["train"][1][i] for i in train]),
                      "test": ([" ".join(s) for s in sst["test"][0]], list(sst["test"][1]))}}
    for name in ("imdb", "genre"):
        found[name] = read_docs(name, args.docs_train, args.docs_test)
    return found


def wordbench_pieces(count, width=20, per_line=5):
    """``count`` texts of ``width`` tokens from wordbench-10m (its lines are whole documents
    in random order): at most ``per_line`` consecutive pieces of each line."""
    pieces = []
    with lzma.open(DATA / "corpus" / "wordbench-10m.txt.xz", "rt", encoding="utf-8") as handle:
        for line in handle:
            words = line.split()
            for first in range(0, min(len(words), width * per_line), width):
                if len(words) - first >= width // 2:
                    pieces.append(" ".join(words[first:first + width]))
            if len(pieces) >= count:
                return pieces[:count]
    return pieces


def cached_teacher(encode, texts, cache, label, chunk=4096):
    """``encode(texts)`` kept in ``cache``/``label``-<digest>/ chunk by chunk (resumable):
    the teacher is the slow part of this benchmark."""
    digest = hashlib.sha256("\n".join(texts).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    folder = Path(cache) / f"{label}-{digest}"
    folder.mkdir(parents=True, exist_ok=True)
    parts = []
    for number, first in enumerate(range(0, len(texts), chunk)):
        path = folder / f"chunk-{number:05d}.npy"
        if not path.is_file():
            started = time.perf_counter()
            vectors = np.asarray(encode(texts[first:first + chunk]), dtype=np.float32)
            np.save(path.with_suffix(".tmp.npy"), vectors)
            os.replace(path.with_suffix(".tmp.npy"), path)
            print(f"teacher {label}: {first + len(vectors)} of {len(texts)} "
                  f"({len(vectors) / (time.perf_counter() - started):.0f}/s)", flush=True)
        parts.append(np.load(path))
    return np.concatenate(parts) if parts else np.zeros((0, 0), dtype=np.float32)


def accuracy(encode, data):
    return {name: classify(encode(split["train"][0]), split["train"][1], encode(split["test"][0]), split["test"][1])
            for name, split in data.items()}


def unit(vectors):
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


# ---------------------------------------------------------------------------------------
# Encoding speed and peak memory: each system alone in a child process
# ---------------------------------------------------------------------------------------


def speed_child(system, path, count):
    """Load one system, encode the first ``count`` lines of ``SPEED_FILE`` (after 50 to warm
    caches and compilation); print sentences/s and the process's peak resident memory."""
    sentences = SPEED_FILE.read_text(encoding="utf-8").splitlines()[:count]
    if system == "teacher":
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(2)
        model = SentenceTransformer(path, device="cpu")
        encode = model.encode
    elif system == "model2vec":
        from model2vec import StaticModel as M2V

        encode = M2V.from_pretrained(path).encode
    elif system == "static":
        from wordvec.models.static.model import StaticModel

        encode = StaticModel.load(path).encode
    elif system in ("mean", "sif"):
        from wordvec.vectors.keyed import KeyedVectors

        kv = KeyedVectors.load(path)
        encode = lambda texts: kv.embed([t.split() for t in texts], pooling=system)  # noqa: E731
    else:  # doc2vec
        from wordvec.models.doc2vec.model import Doc2Vec

        model = Doc2Vec.load(path)
        encode = lambda texts: model.infer_vectors([t.split() for t in texts], workers=2)  # noqa: E731
    encode(sentences[:50])
    started = time.perf_counter()
    encode(sentences)
    seconds = time.perf_counter() - started
    print(json.dumps({"sentences_per_second": len(sentences) / seconds, "speed_sentences": len(sentences),
                      "encode_peak_rss_mb": peak_rss_mb()}))


def peak_rss_mb():
    """This process's peak resident memory since its exec (/proc's VmHWM; getrusage's
    ru_maxrss keeps the parent's peak across fork and exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return None


def speed(system, path, count):
    """``speed_child`` in its own process (2 threads): its JSON fields."""
    env = dict(os.environ, NUMBA_NUM_THREADS="2", OMP_NUM_THREADS="2", TOKENIZERS_PARALLELISM="true")
    done = subprocess.run([sys.executable, __file__, "--speed-child", system, str(path), "--speed-count", str(count)],
                          capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------------------
# Held-out retrieval: the first and second halves of unseen imdb reviews
# ---------------------------------------------------------------------------------------


def halves(texts, min_words=40):
    pairs = []
    for text in texts:
        words = text.split()
        if len(words) >= min_words:
            pairs.append((" ".join(words[:len(words) // 2]), " ".join(words[len(words) // 2:])))
    return pairs


def recall_at_1(encode, pairs):
    """The share of first halves whose nearest second half (cosine) is their own."""
    anchors, positives = unit(encode([a for a, _ in pairs])), unit(encode([p for _, p in pairs]))
    return float(np.mean(np.argmax(anchors @ positives.T, axis=1) == np.arange(len(pairs))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teacher", help="a sentence-transformers model directory (all-MiniLM-L6-v2)")
    parser.add_argument("--cache", default="/tmp/bench-static-cache", help="the teacher's vectors, kept")
    parser.add_argument("--out", default="/tmp/bench-static", help="the models made")
    parser.add_argument("--wordvec-distilled", help="reuse this `wordvec static distill` output ...")
    parser.add_argument("--wordvec-distill-seconds", type=float, help="... and its wall time")
    parser.add_argument("--sst-train", type=int, default=0, help="0: all")
    parser.add_argument("--docs-train", type=int, default=4000)
    parser.add_argument("--docs-test", type=int, default=2000)
    parser.add_argument("--corpus-pieces", type=int, default=90_000, help="20-token texts of wordbench-10m")
    parser.add_argument("--pairs-train", type=int, default=4000, help="imdb training reviews cut in halves")
    parser.add_argument("--pairs-test", type=int, default=1000, help="unseen imdb test reviews cut in halves")
    parser.add_argument("--max-seq-length", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--pair-epochs", type=int, default=1)
    parser.add_argument("--w2v-chars", type=int, default=6_000_000, help="characters of wordbench-10m for sg-ns")
    parser.add_argument("--teacher-only", action="store_true", help="fill the cache and stop")
    parser.add_argument("--name", default="static-sst2-imdb-genre")
    parser.add_argument("--speed-child", nargs=2, metavar=("SYSTEM", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--speed-count", type=int, default=1821, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.speed_child:
        return speed_child(*args.speed_child, args.speed_count)
    if not args.teacher:
        parser.error("--teacher is required")

    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(2)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = tasks(args)
    pieces = wordbench_pieces(args.corpus_pieces)
    teacher = SentenceTransformer(args.teacher, device="cpu")
    teacher.max_seq_length = args.max_seq_length
    unnormalized = SentenceTransformer(modules=[teacher[0], teacher[1]], device="cpu")

    def raw(texts, label):
        return cached_teacher(lambda t: unnormalized.encode(t, batch_size=32), texts, args.cache, label)

    vectors = {(name, split): raw(d[split][0], f"{name}-{split}") for name, d in data.items() for split in d}
    corpus = [t for d in data.values() for t in d["train"][0]] + pieces
    targets = np.concatenate([vectors[name, "train"] for name in data] + [raw(pieces, "wordbench")])
    pairs_train, pairs_test = retrieval_pairs(args)
    anchors = unit(raw([a for a, _ in pairs_test], "pairs-anchors"))
    positives = unit(raw([b for _, b in pairs_test], "pairs-positives"))
    if args.teacher_only:
        return
    keep = np.array([bool(t.strip()) for t in corpus])
    corpus, targets = [t for t, k in zip(corpus, keep) if k], targets[keep]
    del teacher, unnormalized  # the speed children load their own

    from model2vec.distill import distill as m2v_distill

    import model2vec
    from wordvec.data.sentences import TaggedDocument
    from wordvec.models.doc2vec.model import Doc2Vec
    from wordvec.models.static.model import StaticModel
    from wordvec.models.word2vec.model import Word2Vec

    speed_sentences = data["sst2"]["train"][0] + data["sst2"]["test"][0]
    record = Record(args.name, note=(
        f"2 shared cores (load in the record); SST-2: all {len(data['sst2']['train'][0])} training sentences and "
        f"the whole test split; imdb and genre: {args.docs_train} training / up to {args.docs_test} test documents "
        f"(random); the teacher reads at most {args.max_seq_length} tokens; training toward the teacher on "
        f"{len(corpus)} texts without labels (the tasks' training texts and {len(pieces)} 20-token pieces of "
        f"wordbench-10m); logistic regression (scikit-learn) on each system's vectors; sentences/s and peak memory "
        f"from a child process per system, its first pass over all {len(speed_sentences)} SST-2 sentences after "
        f"50 to warm up (the teacher: 500; 2 threads); "
        f"retrieval: R@1 of the first halves of {len(pairs_test)} unseen imdb test reviews against their second "
        f"halves, the pair trainer on {len(pairs_train)} imdb training reviews cut the same way"))
    sizes = {name: {split: len(d[split][0]) for split in d} for name, d in data.items()}
    SPEED_FILE.write_text("\n".join(speed_sentences) + "\n", encoding="utf-8")

    def add(system, config, model_path, speed_kind, quality, **fields):
        found = speed(speed_kind, model_path, 500 if speed_kind == "teacher" else len(speed_sentences))
        record.add_run(system=system, config=config, quality=quality, **found, **fields)
        print(system, config, quality, found, flush=True)
        record.save()

    teacher_quality = {name: classify(unit(vectors[name, "train"]), d["train"][1], unit(vectors[name, "test"]),
                                      d["test"][1]) for name, d in data.items()}
    teacher_r1 = float(np.mean(np.argmax(anchors @ positives.T, axis=1) == np.arange(len(pairs_test))))
    add("teacher", "all-MiniLM-L6-v2 (sentence-transformers, torch, 2 threads)", args.teacher, "teacher",
        teacher_quality, sizes=sizes, retrieval_r1=teacher_r1)

    distilled = out / "wordvec-distilled"
    if args.wordvec_distilled:
        distilled, distill_fields = Path(args.wordvec_distilled), {"wall_seconds": args.wordvec_distill_seconds}
    else:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "wordvec", "static", "distill", args.teacher, "-o", str(distilled),
                        "--dims", str(args.dims)], check=True)
        distill_fields = {"wall_seconds": time.perf_counter() - started, "peak_rss_mb": peak_rss_mb_of_children()}
    ours = StaticModel.load(distilled)
    quality, fields = measure(lambda: accuracy(ours.encode, data))
    add("wordvec", f"distilled, {args.dims} dims", distilled, "static", quality,
        distill_seconds=distill_fields["wall_seconds"], distill_peak_rss_mb=distill_fields.get("peak_rss_mb"),
        retrieval_r1=recall_at_1(ours.encode, pairs_test), **fields)

    started = time.perf_counter()
    theirs = m2v_distill(args.teacher, pca_dims=args.dims, quantize_to="float32")
    m2v_seconds = time.perf_counter() - started
    theirs.save_pretrained(str(out / "model2vec-distilled"))
    quality, fields = measure(lambda: accuracy(lambda t: theirs.encode(t), data))
    add("model2vec", f"distill, {args.dims} dims (model2vec {model2vec.__version__})", out / "model2vec-distilled",
        "model2vec", quality, distill_seconds=m2v_seconds, retrieval_r1=recall_at_1(theirs.encode, pairs_test),
        **fields)

    trained = StaticModel.load(distilled)
    _, train_fields = measure(lambda: trained.fit(corpus, targets=targets, epochs=args.epochs, threads=2,
                                                  max_length=args.max_seq_length - 2))
    trained.save(out / "wordvec-trained")
    quality, fields = measure(lambda: accuracy(trained.encode, data))
    config = trained.history and f"trained toward the teacher ({len(corpus)} texts, {args.epochs} epochs, mse)"
    add("wordvec", config, out / "wordvec-trained", "static", quality, train_seconds=train_fields["wall_seconds"],
        losses=[h["loss"] for h in trained.history], retrieval_r1=recall_at_1(trained.encode, pairs_test), **fields)

    paired = StaticModel.load(distilled)
    _, pair_fields = measure(lambda: paired.fit_pairs(pairs_train, epochs=args.pair_epochs))
    paired.save(out / "wordvec-pairs")
    quality, fields = measure(lambda: accuracy(paired.encode, data))
    add("wordvec", f"distilled, then trained on {len(pairs_train)} imdb review halves ({args.pair_epochs} epochs)",
        out / "wordvec-pairs", "static", quality, train_seconds=pair_fields["wall_seconds"],
        losses=[h["loss"] for h in paired.history], retrieval_r1=recall_at_1(paired.encode, pairs_test), **fields)

    with lzma.open(DATA / "corpus" / "wordbench-10m.txt.xz", "rt", encoding="utf-8") as handle:
        words = handle.read(args.w2v_chars).split()  # its lines are whole documents
        lines = [words[i:i + 1000] for i in range(0, len(words), 1000)]
    started = time.perf_counter()
    w2v = Word2Vec(lines, sg=1, vector_size=100, min_count=3, epochs=3, workers=2, seed=1)
    w2v_seconds = time.perf_counter() - started
    kv = w2v.wv
    kv.save(str(out / "sgns.kv"))
    for pooling in ("mean", "sif"):
        def pooled(texts, pooling=pooling):
            return kv.embed([t.lower().split() for t in texts], pooling=pooling)

        quality, fields = measure(lambda: accuracy(pooled, data))
        add("wordvec", f"sg-ns 100d, {pooling}-pooled ({len(words)} tokens of wordbench-10m)", out / "sgns.kv",
            pooling, quality, train_seconds=w2v_seconds, retrieval_r1=recall_at_1(pooled, pairs_test), **fields)

    documents = [t.lower().split() for t in corpus]
    started = time.perf_counter()
    d2v = Doc2Vec(documents=[TaggedDocument(d, [i]) for i, d in enumerate(documents)], dm=0, vector_size=100,
                  min_count=2, epochs=10, workers=2, seed=1)
    d2v_seconds = time.perf_counter() - started
    d2v.save(str(out / "doc2vec.model"))

    def inferred(texts):
        return d2v.infer_vectors([t.lower().split() for t in texts], workers=2)

    quality, fields = measure(lambda: accuracy(inferred, data))
    add("wordvec", f"Doc2Vec PV-DBOW 100d on the same {len(corpus)} texts, inferred", out / "doc2vec.model",
        "doc2vec", quality, train_seconds=d2v_seconds, retrieval_r1=recall_at_1(inferred, pairs_test), **fields)
    print(record.save())


def retrieval_pairs(args):
    """(training pairs from imdb training reviews, held-out pairs from imdb test reviews):
    first and second halves, from reviews not among the classification subsets."""
    chosen = {}
    for split, n in (("train", args.pairs_train), ("test", args.pairs_test)):
        with lzma.open(DATA / "tasks" / "docs" / f"imdb.{split}.txt.xz", "rt", encoding="utf-8") as handle:
            texts = [line.rstrip("\n").split(" ", 1)[-1] for line in handle]
        used = set(read_docs("imdb", args.docs_train, args.docs_test)[split][0])
        rng = np.random.default_rng(2)
        order = [texts[i] for i in rng.permutation(len(texts)) if texts[i] not in used]
        chosen[split] = halves(order)[:n]
    return chosen["train"], chosen["test"]


if __name__ == "__main__":
    main()
