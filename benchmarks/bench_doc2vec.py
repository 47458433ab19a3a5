"""Doc2Vec and pooled sentence vectors: wordvec vs gensim 4.4.0, side by side in one run.

gensim's IMDB protocol (its doc2vec-IMDB notebook): train on the text of every document
(train + test, labels stripped, one document a line, tagged by line number), then a
logistic regression on the train documents' vectors, scored on the test documents'
vectors.  Both libraries get the same settings (min_count 2, sample 0, negative 5, hs 0,
window 5 (PV-DM 10, as the notebook), alpha 0.025, 2 workers, corpus_file mode).

Per run, in its own process (whole-process figures: interpreter start, imports, reading,
vocabulary and training): wall and CPU seconds to the trained model, peak RSS; then the
inference of the test documents, wordvec's one batched call against gensim's
per-document ``infer_vector`` loop (both 2 threads at most; gensim's loop is one
thread), and the error (imdb) or accuracy (genre) of the trained and of the inferred
test vectors.  Then sentence vectors pooled from word vectors (mean, SIF, Zipf+PCA over
sg-ns vectors trained here on wordbench-10m) on imdb, genre and SST-2, with the pooling's
speed.  scikit-learn is a benchmark-only dependency (``pip install -e '.[bench]'``).

    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_doc2vec.py \\
        --datasets imdb --configs dbow,dbow-words,dm-mean --epochs 20 --record doc2vec-imdb

``--tutorial``: gensim's IMDB tutorial code instead (``lib/doc2vec_tutorial.py``: a
TaggedDocument corpus in memory, ``build_vocab``, ``train``, the error rate of the trained
and of the re-inferred test vectors, ``dv.most_similar``), run once with
``import gensim.models.doc2vec as library`` and once with ``import wordvec as library``, the
code between them the same, each model and library in its own process; ``--configs``
picks the tutorial's models (dbow, dm-mean), ``--limit`` the first reviews of each split.

    flock /tmp/wordvec-bench.lock nice .venv/bin/python benchmarks/bench_doc2vec.py --tutorial \\
        --configs dbow,dm-mean --epochs 20 --record doc2vec-imdb-tutorial-20261128
"""

import argparse
import json
import lzma
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib import doc2vec_tutorial  # noqa: E402
from lib.records import Record  # noqa: E402

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
DOCS = DATA / "tasks" / "docs"
CONFIGS = {  # name -> (dm, dbow_words, dm_mean, window)
    "dbow": (0, 0, 1, 5),
    "dbow-words": (0, 1, 1, 5),
    "dm-mean": (1, 0, 1, 10),
}


# ---------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------


def prepare(dataset, out):
    """all.txt (train then test documents, labels stripped), test.txt, and the labels.
    ``sst2``: the SST-2 sentences (:func:`read_sst2`), one a line."""
    texts, labels = {}, {}
    if dataset == "sst2":
        for split, (sentences, split_labels) in read_sst2().items():
            texts[split], labels[split] = [" ".join(s) for s in sentences], list(split_labels)
    for split in () if dataset == "sst2" else ("train", "test"):
        with lzma.open(DOCS / f"{dataset}.{split}.txt.xz", "rt", encoding="utf-8") as handle:
            rows = [line.rstrip("\n").split(" ", 1) for line in handle]
        labels[split] = [r[0] for r in rows]
        texts[split] = [r[1] if len(r) > 1 else "" for r in rows]
    (out / f"{dataset}.all.txt").write_text("\n".join(texts["train"] + texts["test"]) + "\n")
    (out / f"{dataset}.test.txt").write_text("\n".join(texts["test"]) + "\n")
    return labels, texts


def read_sst2():
    """SST-2 (neutral dropped) from the PTB trees, lowercased like wordbench."""
    from wordvec.tasks.data import read_sst
    from wordvec.tasks.sentiment import binary_split

    splits = read_sst(DATA / "tasks" / "sst")
    out = {}
    for split in ("train", "test"):
        sentences, labels = binary_split(*splits[split])
        out[split] = ([[t.lower() for t in s] for s in sentences], labels)
    return out


def classify(X_train, y_train, X_test, y_test):
    """Accuracy of a logistic regression (scikit-learn, benchmark only)."""
    from sklearn.linear_model import LogisticRegression  # benchmark-only dependency

    model = LogisticRegression(max_iter=2000)
    model.fit(X_train, y_train)
    return float(np.mean(model.predict(X_test) == np.asarray(y_test)))


# ---------------------------------------------------------------------------------------
# One training run, in a child process
# ---------------------------------------------------------------------------------------


def child(args):
    """Train, save the document vectors, infer the test documents; print a JSON line."""
    import resource

    dm, dbow_words, dm_mean, window = CONFIGS[args.config]
    settings = dict(dm=dm, dbow_words=dbow_words, dm_mean=dm_mean, window=window, vector_size=100, negative=5,
                    hs=0, min_count=2, sample=0, epochs=args.epochs, workers=2, seed=args.seed, alpha=0.025)
    out = Path(args.out)
    if args.system == "wordvec":
        from wordvec.models.doc2vec.model import Doc2Vec

        model = Doc2Vec(corpus_file=str(out / f"{args.dataset}.all.txt"), **settings)
        vectors = model.dv.vectors
    else:
        from gensim.models.doc2vec import Doc2Vec  # the peer

        model = Doc2Vec(corpus_file=str(out / f"{args.dataset}.all.txt"), **settings)
        vectors = model.dv.vectors
    trained_at, usage = time.time(), resource.getrusage(resource.RUSAGE_SELF)
    np.save(out / f"{args.tag}.trained.npy", vectors)
    started = time.perf_counter()
    if args.system == "wordvec":
        inferred = model.infer_vectors(str(out / f"{args.dataset}.test.txt"))
    else:
        with open(out / f"{args.dataset}.test.txt", encoding="utf-8") as handle:
            inferred = np.stack([model.infer_vector(line.split()) for line in handle])
    infer_seconds = time.perf_counter() - started
    np.save(out / f"{args.tag}.inferred.npy", inferred)
    print(json.dumps({"trained_at": trained_at, "train_cpu": usage.ru_utime + usage.ru_stime,
                      "train_peak_rss_mb": usage.ru_maxrss / 1024, "infer_seconds": infer_seconds}))


def run_child(system, config, dataset, seed, epochs, out):
    tag = f"{system}-{config}-{dataset}-{seed}"
    command = [sys.executable, __file__, "--child", system, "--config", config, "--dataset", dataset,
               "--seed", str(seed), "--epochs", str(epochs), "--out", str(out), "--tag", tag]
    load_before, launched = os.getloadavg(), time.time()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{tag} failed (status {status})")
    result = json.loads(output.strip().splitlines()[-1])
    return tag, {"train_wall_seconds": result["trained_at"] - launched, "train_cpu_seconds": result["train_cpu"],
                 "train_peak_rss_mb": result["train_peak_rss_mb"], "infer_seconds": result["infer_seconds"],
                 "process_cpu_seconds": usage.ru_utime + usage.ru_stime, "load_before": list(load_before),
                 "load_after": list(os.getloadavg())}


def score(tag, labels, n_train, out):
    """Accuracy with the trained test vectors (the protocol) and with the inferred ones."""
    trained = np.load(out / f"{tag}.trained.npy")
    inferred = np.load(out / f"{tag}.inferred.npy")
    y_train, y_test = labels["train"], labels["test"]
    return {"accuracy_trained": classify(trained[:n_train], y_train, trained[n_train:], y_test),
            "accuracy_inferred": classify(trained[:n_train], y_train, inferred, y_test)}


# ---------------------------------------------------------------------------------------
# gensim's IMDB tutorial, the import swapped
# ---------------------------------------------------------------------------------------


def tutorial_child(args):
    """One tutorial model with one library's classes; print its results as a JSON line."""
    if args.child == "gensim":
        import gensim.models.doc2vec as library  # from gensim.models.doc2vec import Doc2Vec, TaggedDocument
    else:
        import wordvec as library  # from wordvec import Doc2Vec, TaggedDocument
    reviews = doc2vec_tutorial.read_reviews(limit=args.limit)
    results = doc2vec_tutorial.tutorial(library, reviews, (args.config,), epochs=args.epochs)
    print(json.dumps(results[args.config]))


def tutorial_runs(record, args):
    """Each tutorial model, gensim's process then wordvec's: whole-process wall and CPU
    seconds, peak RSS, the error rates and the sanity checks."""
    for config in args.configs.split(","):
        for system in ("gensim", "wordvec"):
            command = [sys.executable, __file__, "--tutorial", "--child", system, "--config", config,
                       "--epochs", str(args.epochs)] + (["--limit", str(args.limit)] if args.limit else [])
            load_before, started = os.getloadavg(), time.perf_counter()
            process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
            output = process.stdout.read()
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - started
            if status != 0:
                raise SystemExit(f"the tutorial's {config} with {system} failed (status {status})")
            result = json.loads(output.strip().splitlines()[-1])
            quality = {key: result.pop(key) for key in ("error_rate", "error_rate_inferred", "inferred_nearest_is_own")}
            record.add_run(system=system, config=config, dataset="imdb", epochs=args.epochs, wall_seconds=wall,
                           cpu_seconds=usage.ru_utime + usage.ru_stime, peak_rss_mb=usage.ru_maxrss / 1024,
                           quality=quality, load_before=list(load_before), load_after=list(os.getloadavg()),
                           **result)
            print(f"tutorial {config} {system}: {wall:.1f} s, {quality}", flush=True)
            record.save()


# ---------------------------------------------------------------------------------------
# Pooled sentence vectors
# ---------------------------------------------------------------------------------------


def word_vectors(out, epochs):
    """sg-ns vectors on wordbench-10m (wordvec's CLI, 2 workers), as a native save with counts."""
    path = out / "wordbench-sgns.wv"
    if not path.exists():
        corpus = DATA / "corpus" / "wordbench-10m.txt.xz"
        subprocess.run([str(Path(sys.executable).parent / "wordvec"), "train", str(corpus), "-o", str(path),
                        "--model", "sg", "--epochs", str(epochs), "--workers", "2", "-q"], check=True)
    from wordvec.vectors.files import load_vectors

    return load_vectors(path)


def pooling_runs(record, kv, datasets, texts_of, labels_of):
    """Each pooling on each dataset: accuracy, and sentences/s of the whole embed call."""
    for dataset in datasets:
        train, test = texts_of[dataset]
        for pooling in ("mean", "sif", "zipf"):
            started = time.perf_counter()
            E = kv.embed(train + test, pooling=pooling)
            seconds = time.perf_counter() - started
            accuracy = classify(E[:len(train)], labels_of[dataset][0], E[len(train):], labels_of[dataset][1])
            record.add_run(system="wordvec", config=f"pool-{pooling}", dataset=dataset, wall_seconds=seconds,
                           quality={"accuracy": accuracy}, sentences_per_second=len(E) / seconds)
            print(f"{dataset} {pooling}: accuracy {accuracy:.4f}, {len(E) / seconds:,.0f} sentences/s", flush=True)


def pooling_kernel_speed(record, kv, sentences=200_000, length=20, seed=0):
    """The compiled gather-and-sum alone, one thread, D = kv.vector_size: sentences/s."""
    from wordvec.kernels import pooling as kernels

    rng = np.random.default_rng(seed)
    ids = rng.integers(0, len(kv), size=sentences * length).astype(np.int32)
    offsets = np.arange(0, sentences * length + 1, length, dtype=np.int64)
    weights = np.ones(len(kv), np.float32)
    out, mean_w = np.zeros((sentences, kv.vector_size), np.float32), np.zeros(sentences)
    kernels.weighted_means(ids[:length], offsets[:2], weights, kv.vectors, out, mean_w)  # compile
    best = min(_timed(lambda: kernels.weighted_means(ids, offsets, weights, kv.vectors, out, mean_w))
               for _ in range(3))
    record.add_run(system="wordvec", config="pooling-kernel", wall_seconds=best, sentences=sentences,
                   tokens_per_sentence=length, vector_size=kv.vector_size, sentences_per_second=sentences / best)
    print(f"pooling kernel: {sentences / best:,.0f} sentences/s ({length} words, D={kv.vector_size})", flush=True)


def _timed(function):
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


# ---------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default="imdb,genre", help="imdb, genre, sst2 (SST binary, one sentence a line)")
    parser.add_argument("--configs", default="dbow,dbow-words,dm-mean")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--words-epochs", type=int, default=None, help="epochs of dbow-words (default --epochs)")
    parser.add_argument("--seeds", default="1")
    parser.add_argument("--pooling", action="store_true", help="also the pooled sentence vectors")
    parser.add_argument("--pooling-only", action="store_true")
    parser.add_argument("--sg-epochs", type=int, default=3)
    parser.add_argument("--no-sst2", action="store_true", help="pool only --datasets, not SST-2 too")
    parser.add_argument("--out", default="/tmp/bench-doc2vec")
    parser.add_argument("--record", default="doc2vec")
    parser.add_argument("--note", default="")
    parser.add_argument("--stop-by", metavar="HH:MM", help="start no new seed after this UTC time (a locked run's "
                                                           "budget); the record lists what was left out")
    parser.add_argument("--tutorial", action="store_true", help="gensim's IMDB tutorial code, the import swapped")
    parser.add_argument("--limit", type=int, help="--tutorial: the first LIMIT reviews of each split")
    parser.add_argument("--child", choices=("wordvec", "gensim"))
    parser.add_argument("--config"), parser.add_argument("--dataset"), parser.add_argument("--seed", type=int)
    parser.add_argument("--tag")
    args = parser.parse_args()
    if args.child:
        args.system = args.child
        return tutorial_child(args) if args.tutorial else child(args)
    if args.tutorial:
        record = Record(args.record, note=args.note)
        tutorial_runs(record, args)
        return print(f"record: {record.save()}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    record = Record(args.record, note=args.note)
    datasets = [d for d in args.datasets.split(",") if d]
    labels_of, texts_of = {}, {}
    for dataset in datasets:
        labels, texts = prepare(dataset, out)
        labels_of[dataset] = (labels["train"], labels["test"])
        texts_of[dataset] = ([t.split() for t in texts["train"]], [t.split() for t in texts["test"]])
        if not args.pooling_only:
            doc2vec_runs(record, args, dataset, labels, out)
        record.save()
    if args.pooling or args.pooling_only:
        kv = word_vectors(out, args.sg_epochs)
        if not args.no_sst2 and "sst2" not in datasets:
            sst = read_sst2()
            texts_of["sst2"] = (sst["train"][0], sst["test"][0])
            labels_of["sst2"] = (sst["train"][1], sst["test"][1])
        pooled = datasets + ([] if args.no_sst2 or "sst2" in datasets else ["sst2"])
        pooling_runs(record, kv, pooled, texts_of, labels_of)
        pooling_kernel_speed(record, kv)
    print(f"record: {record.save()}")


def doc2vec_runs(record, args, dataset, labels, out):
    """Each config's seeds in turn (gensim then wordvec per seed); with --stop-by, no new
    seed starts after that time (the record says which were left)."""
    for config in args.configs.split(","):
        for seed in [int(s) for s in args.seeds.split(",")]:
            if args.stop_by and time.strftime("%H:%M", time.gmtime()) >= args.stop_by:
                record.data["left_out"] = record.data.get("left_out", []) + [f"{dataset} {config} seed {seed}"]
                print(f"--stop-by {args.stop_by} UTC: {dataset} {config} seed {seed} left out", flush=True)
                record.save()
                continue
            epochs = args.words_epochs if config == "dbow-words" and args.words_epochs else args.epochs
            for system in ("gensim", "wordvec"):
                tag, figures = run_child(system, config, dataset, seed, epochs, out)
                quality = score(tag, labels, len(labels["train"]), out)
                record.add_run(system=system, config=config, dataset=dataset, seed=seed, epochs=epochs,
                               wall_seconds=figures["train_wall_seconds"], cpu_seconds=figures["train_cpu_seconds"],
                               peak_rss_mb=figures["train_peak_rss_mb"], quality=quality, **figures)
                print(f"{dataset} {config} seed {seed} {system}: train {figures['train_wall_seconds']:.1f} s, "
                      f"infer {figures['infer_seconds']:.1f} s, {quality}", flush=True)
                record.save()


if __name__ == "__main__":
    main()
