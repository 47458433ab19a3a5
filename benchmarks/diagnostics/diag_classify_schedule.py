"""Diagnostic for the SST gap with 2 threads: does fastText's 2-thread TRAVERSAL
(which document is trained when, with which lr) explain why its P@1 rises with 2 threads
and wordvec's does not?

    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/diagnostics/diag_classify_schedule.py \
        [--tasks sst2 sst5] [--settings unigrams bigrams] [--seeds 1 2 3 4 5] \
        [--out benchmarks/results/classify-schedule-DATE.json]

Every schedule below trains the same encoded documents, from the same initial rows
(``uniform_rows`` with the seed), with wordvec's compiled document step
(``kernels.classifier.document_step``), SEQUENTIALLY: a schedule is a list of (document,
lr) steps, so no Hogwild race enters; only the order and the learning rates differ.

- ``one_thread``: wordvec with one thread (documents in order, lr from the tokens read).
- ``wordvec_2``: wordvec's 2-thread schedule before ``drift_positions``: thread t starts
  at t/2 of the tokens and reads on; each epoch every thread reads its share, lr from its
  own tokens × 2; the threads meet at each epoch's end, so every epoch merges the same
  two document orders. ``wordvec_2_drift``: the schedule of ``run_epochs`` now, the same
  with thread 1 sent to a random document before each later epoch (``drift_positions``).
- ``fasttext_2``: fastText 0.9.2's trainThread with 2 threads: thread t seeks to byte
  t·size/2 (landing mid-line: that partial line has no label and only counts tokens),
  reads lines on, wrapping at EOF, until the SHARED token count reaches epoch × ntokens;
  lr = lr0 (1 - tokenCount / (epoch × ntokens)), tokenCount updated by a thread only when
  its local count passes lrUpdateRate (100); no per-epoch synchronisation.
- The two threads' steps are merged by token clock (the thread that has read fewer tokens
  goes next: equal speed per token, as compiled threads run) or, in ``*_random``, at
  random (each next step goes to thread 0 or 1 with probability 1/2, seeded): uneven
  speeds, as fastText's threads race.
- ``wordvec_real``: wordvec's own training (``run_epochs``) from the same initial rows;
  ``wordvec_real_no_drift``: the same without ``drift_positions``. Before commit 7b794b3
  that ran both threads at once (Hogwild, ``train_streams``); from it on, an SST epoch's
  streams run merged by token clock on one thread (``train_interleaved``), so
  ``wordvec_real`` is ``wordvec_2_drift`` exactly.
- ``fasttext_real_1``/``fasttext_real_2``: fastText 0.9.2 itself (the ``fasttext`` module
  in .venv, in this process) with 1 and 2 threads and the seed (its own initial rows).

Reported per schedule: P@1 on the test file, mean over the seeds.

``--overlap``: do wordvec's two compiled threads (``kernels.train_streams``, called as
``run_epochs`` calls it, from a worker thread) overlap in time at all? A copy of the
kernel logs, for every document a stream trains, how many documents the other stream has
trained so far; a document is "merged" when the other stream had started and not yet
finished its epoch. Reported per corpus (SST, and the first N documents of imdb): tokens
per thread per epoch, milliseconds per epoch, and the fraction of documents merged
(token-clock merging, as the simulation and ``kernels.train_interleaved`` do, gives ~1).
"""

import argparse
import json
import os
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parents[1]  # benchmarks/
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_classify import COMMON, SETTINGS, prepare, versions  # noqa: E402

from wordvec.data.labels import build_dictionary, encode, scan_text  # noqa: E402
from wordvec.kernels import classifier as kernels  # noqa: E402
from wordvec.models.classifier import training as classifier_training  # noqa: E402
from wordvec.models.classifier.model import Classifier, config_from_options  # noqa: E402
from wordvec.models.classifier.training import (compact_buckets, drift_positions, run_epochs,  # noqa: E402
                                                thread_starts, uniform_rows)

LR_UPDATE_RATE = 100


@numba.njit(cache=False)
def run_schedule(matrices, documents, docs, lrs, outputs, state):
    """Train ``docs[i]`` with lr ``lrs[i]``, one after another (docs[i] < 0: a step that
    only reads tokens, e.g. fastText's partial first line)."""
    scratch = kernels.new_scratch(matrices)
    for i in range(docs.shape[0]):
        d = docs[i]
        if d >= 0:  # train_document skips a document with no input row or no label
            kernels.train_document(matrices, documents, d, outputs, lrs[i], state, scratch)


def interleave(streams, clocks_random):
    """Merge per-thread step lists [(doc, lr, tokens), ...] into one: by token clock (the
    thread with fewer tokens read goes next) or, given a Generator, at random."""
    out, heads, clock = [], [0] * len(streams), [0] * len(streams)
    while any(heads[t] < len(s) for t, s in enumerate(streams)):
        live = [t for t, s in enumerate(streams) if heads[t] < len(s)]
        t = live[clocks_random.integers(len(live))] if clocks_random is not None else min(live, key=lambda u: clock[u])
        doc, lr, tokens = streams[t][heads[t]]
        out.append((doc, lr))
        heads[t] += 1
        clock[t] += tokens
    return out


def one_thread(doc_tokens, epochs, lr0):
    total, done, steps = epochs * int(doc_tokens.sum()), 0, []
    for _ in range(epochs):
        for d, n in enumerate(doc_tokens):
            steps.append((d, lr0 * max(0.0, 1 - done / total)))
            done += int(n)
    return steps


def wordvec_2(doc_tokens, epochs, lr0, random=None, threads=2, drift=None):
    """run_epochs / train_streams / train_range, thread by thread; ``drift`` (a Generator
    seeded as run_epochs seeds it): before each later epoch the threads move as in
    run_epochs (``drift_positions``); None: they never move (the schedule before it)."""
    per_epoch = int(doc_tokens.sum())
    total, share = epochs * per_epoch, per_epoch / threads
    positions = np.array(thread_starts(doc_tokens, threads), dtype=np.int64)
    n_docs = len(doc_tokens)
    merged = []
    for epoch in range(epochs):
        if drift is not None and epoch > 0:
            drift_positions(positions, n_docs, drift)
        budget = int(round(share * (epoch + 1))) - int(round(share * epoch))
        streams = []
        for t in range(threads):
            done, steps = 0, []
            while done < budget:
                if positions[t] >= len(doc_tokens):
                    positions[t] = 0
                d = positions[t]
                steps.append((d, lr0 * max(0.0, 1 - (epoch * per_epoch + threads * done) / total), int(doc_tokens[d])))
                done += int(doc_tokens[d])
                positions[t] += 1
            streams.append(steps)
        merged += interleave(streams, random)
    return merged


def fasttext_2(line_bytes, doc_tokens, epochs, lr0, random=None, threads=2):
    """fastText 0.9.2's trainThread × 2 (shared tokenCount, lrUpdateRate, byte seek),
    simulated step by step: the thread to move next is chosen by token clock or at random."""
    ntokens = int(doc_tokens.sum())
    total = epochs * ntokens
    starts = np.concatenate([[0], np.cumsum(line_bytes)])
    size = int(starts[-1])
    state = []
    for t in range(threads):
        pos = t * size // threads
        line = int(np.searchsorted(starts, pos, side="right")) - 1
        if starts[line] == pos:
            state.append({"line": line, "partial": 0})
        else:  # mid-line: the rest of it (no label) is read first; its tokens ≈ by bytes
            share = (starts[line + 1] - pos) / line_bytes[line]
            state.append({"line": line + 1, "partial": max(1, int(round(share * doc_tokens[line])))})
    token_count, local, clock = 0, [0] * threads, [0] * threads
    merged = []
    while token_count < total:  # both threads run while the shared count is below total
        t = random.integers(threads) if random is not None else min(range(threads), key=lambda u: clock[u])
        lr = lr0 * (1 - token_count / total)
        s = state[t]
        if s["partial"]:
            n, doc, s["partial"] = s["partial"], -1, 0
        else:
            if s["line"] >= len(doc_tokens):
                s["line"] = 0
            doc = s["line"]
            n = int(doc_tokens[doc])
            s["line"] += 1
        merged.append((doc, lr))
        local[t] += n
        clock[t] += n
        if local[t] > LR_UPDATE_RATE:
            token_count += local[t]
            local[t] = 0
    return merged


def prepared(task, setting, scratch):
    """Dictionary, encoded training documents and per-line byte lengths of one task."""
    train, test = prepare(task, scratch)
    config, dictionary, encoded, sources = encoded_corpus(train, setting)
    line_bytes = np.array([len(line) + 1 for line in train.read_bytes().split(b"\n")[:-1]], dtype=np.int64)
    if len(line_bytes) != encoded.n_docs:
        raise SystemExit(f"{train}: {len(line_bytes)} lines but {encoded.n_docs} documents")
    return config, dictionary, encoded, sources, line_bytes, train, test


def schedules(encoded, line_bytes, config, seed):
    tokens, epochs, lr = encoded.doc_tokens, config.epoch, config.lr
    return {"one_thread": one_thread(tokens, epochs, lr),
            "wordvec_2": wordvec_2(tokens, epochs, lr),
            "wordvec_2_random": wordvec_2(tokens, epochs, lr, np.random.default_rng(seed)),
            "wordvec_2_drift": wordvec_2(tokens, epochs, lr, drift=np.random.default_rng(seed)),
            "fasttext_2": fasttext_2(line_bytes, tokens, epochs, lr),
            "fasttext_2_random": fasttext_2(line_bytes, tokens, epochs, lr, np.random.default_rng(seed))}


def fasttext_p_at_1(train, test, config, seed, threads):
    import fasttext
    model = fasttext.train_supervised(input=str(train), lr=config.lr, epoch=config.epoch, dim=config.dim,
                                      wordNgrams=config.word_ngrams, bucket=config.bucket, loss=config.loss,
                                      thread=threads, seed=seed, verbose=0)
    return model.test(str(test))[1]


def documents_of(encoded):
    return kernels.Documents(encoded.rows, encoded.row_offsets, encoded.labels, encoded.label_offsets,
                             encoded.doc_tokens)


def p_at_1(config, dictionary, encoded, sources, seed, test, steps=None, drift=True):
    """Train from ``uniform_rows(seed)`` with ``steps`` (None: wordvec's own run_epochs,
    with or without the threads' drift)."""
    W_in = uniform_rows(dictionary.n_rows, config.dim, seed, sources)
    W_out = np.zeros((len(dictionary.labels), config.dim), dtype=np.float32)
    model = Classifier(dictionary, W_in, W_out, config)
    tree = model.hs_tree()
    if steps is None:
        model.config = replace(config, seed=seed)
        kept = classifier_training.drift_positions
        classifier_training.drift_positions = kept if drift else (lambda *unused: None)
        try:
            run_epochs(model, encoded)
        finally:
            classifier_training.drift_positions = kept
    else:
        docs = np.array([d for d, _ in steps], dtype=np.int64)
        lrs = np.array([lr for _, lr in steps], dtype=np.float64)
        run_schedule(kernels.Matrices(W_in, W_out), documents_of(encoded), docs, lrs,
                     kernels.make_outputs(model.loss_code, tree), np.array([seed + 1], dtype=np.uint64))
    return model.test(test)[1]


@numba.njit(parallel=True, cache=False)
def logged_streams(matrices, documents, outputs, schedule, streams, docs_done, seen):
    """``kernels.train_streams`` for 2 streams, one document at a time, logging in
    ``seen[t, i]`` how many documents the other stream had trained when stream t began
    its i-th document (``docs_done``: the streams' live counts, shared)."""
    positions, budgets, states = streams
    lr0, tokens_before, total_tokens = schedule
    doc_tokens = documents.doc_tokens
    n_docs = doc_tokens.shape[0]
    for t in numba.prange(2):
        scratch = kernels.new_scratch(matrices)
        done = 0
        while done < budgets[t]:
            if positions[t] >= n_docs:
                positions[t] = 0
            d = positions[t]
            seen[t, docs_done[t]] = docs_done[1 - t]
            lr = lr0 * max(0.0, 1.0 - (tokens_before + 2 * done) / total_tokens)
            kernels.train_document(matrices, documents, d, outputs, lr, states[t:t + 1], scratch)
            positions[t] = d + 1
            done += doc_tokens[d]
            docs_done[t] += 1


def overlap_of_threads(config, dictionary, encoded, sources, seed):
    """Train as run_epochs does (2 threads, drift), logging; returns per-epoch (ms, merged)."""
    W_in = uniform_rows(dictionary.n_rows, config.dim, seed, sources)
    W_out = np.zeros((len(dictionary.labels), config.dim), dtype=np.float32)
    tree = Classifier(dictionary, W_in, W_out, config).hs_tree()
    per_epoch = int(encoded.doc_tokens.sum())
    total, share = config.epoch * per_epoch, per_epoch / 2
    positions = np.array(thread_starts(encoded.doc_tokens, 2), dtype=np.int64)
    states = np.arange(1, 3, dtype=np.uint64) + np.uint64(seed * 7919)
    drift, epochs = np.random.default_rng(seed), []
    numba.set_num_threads(2)
    for epoch in range(config.epoch):
        if epoch > 0:
            drift_positions(positions, encoded.n_docs, drift)
        budgets = np.full(2, int(round(share * (epoch + 1))) - int(round(share * epoch)), np.int64)
        docs_done = np.zeros(2, np.int64)
        seen = np.full((2, encoded.n_docs * 2 + 2), -1, np.int64)
        args = (kernels.Matrices(W_in, W_out), documents_of(encoded),
                kernels.make_outputs(kernels.LOSS_CODES[config.loss], tree),
                kernels.make_schedule(config.lr, epoch * per_epoch, total), kernels.Streams(positions, budgets, states),
                docs_done, seen)
        started = time.perf_counter()
        worker = threading.Thread(target=logged_streams, args=args)
        worker.start()
        worker.join()
        seconds = time.perf_counter() - started
        merged = sum(int(np.sum((seen[t, :docs_done[t]] > 0) & (seen[t, :docs_done[t]] < docs_done[1 - t])))
                     for t in range(2))
        epochs.append((1000 * seconds, merged / docs_done.sum()))
    return epochs


def measure_overlap(args, record):
    """--overlap: the fraction of documents merged, per corpus, over the seeds."""
    imdb_train, _ = prepare("imdb", Path(args.scratch))
    corpora = {task: prepare(task, Path(args.scratch))[0] for task in args.tasks}
    for n in args.imdb_docs:
        part = Path(args.scratch) / f"imdb-first-{n}.train"
        with imdb_train.open("rb") as src:
            part.write_bytes(b"".join(line for _, line in zip(range(n), src)))
        corpora[f"imdb-first-{n}"] = part
    for name, path in corpora.items():
        for setting in args.settings:
            config, dictionary, encoded, sources = encoded_corpus(path, setting)
            epochs = [e for seed in args.seeds for e in overlap_of_threads(config, dictionary, encoded, sources,
                                                                         seed)[1:]]  # epoch 1 compiles
            row = {"corpus": name, "setting": setting, "docs": encoded.n_docs,
                   "tokens_per_thread_epoch": int(encoded.doc_tokens.sum()) // 2,
                   "ms_per_epoch_median": float(np.median([ms for ms, _ in epochs])),
                   "merged_fraction_mean": float(np.mean([m for _, m in epochs])),
                   "epochs_with_no_merging": int(sum(m == 0 for _, m in epochs)), "epochs": len(epochs)}
            record["overlap"].append(row)
            print(json.dumps(row), flush=True)


def encoded_corpus(train, setting):
    """Config, dictionary, encoded documents and row sources of a training file, as train does."""
    config, _ = config_from_options(dict(COMMON, **SETTINGS[setting], verbose=0))
    scan = scan_text(train)
    dictionary = build_dictionary(scan, config.label, config.min_count, config.min_count_label, config.word_ngrams,
                                  config.bucket, config.minn, config.maxn, source=str(train))
    encoded = encode(dictionary, scan)
    dictionary.forget_lookups()
    dictionary, sources = compact_buckets(dictionary, encoded)
    return config, dictionary, encoded, sources


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", nargs="+", default=["sst2", "sst5"])
    parser.add_argument("--settings", nargs="+", default=["unigrams", "bigrams"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--scratch", default="/tmp/wordvec-bench-classify")
    parser.add_argument("--out", default=str(HERE / "results" / "classifier" / f"classify-schedule-{time.strftime('%Y%m%d')}.json"))
    parser.add_argument("--overlap", action="store_true", help="measure whether the compiled threads overlap")
    parser.add_argument("--imdb-docs", nargs="*", type=int, default=[2000, 8000, 25000],
                        help="with --overlap: also the first N documents of imdb")
    args = parser.parse_args()
    record = {"benchmark": "diag_classify_schedule", "argv": sys.argv, "settings": COMMON, "versions": versions(),
              "started": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "load_before": os.getloadavg(), "runs": [],
              "means": [], "overlap": []}
    if args.overlap:
        measure_overlap(args, record)
        args.tasks = []
    for task in args.tasks:
        for setting in args.settings:
            config, dictionary, encoded, sources, line_bytes, train, test = prepared(task, setting, Path(args.scratch))
            results = {}
            for seed in args.seeds:
                plans = dict(schedules(encoded, line_bytes, config, seed), wordvec_real=None,
                             wordvec_real_no_drift=None)
                for name, steps in plans.items():
                    p = p_at_1(config, dictionary, encoded, sources, seed, test, steps, name != "wordvec_real_no_drift")
                    results.setdefault(name, []).append(p)
                    record["runs"].append({"task": task, "setting": setting, "seed": seed, "schedule": name,
                                           "p_at_1": p})
                for threads in (1, 2):
                    name = f"fasttext_real_{threads}"
                    p = fasttext_p_at_1(train, test, config, seed, threads)
                    results.setdefault(name, []).append(p)
                    record["runs"].append({"task": task, "setting": setting, "seed": seed, "schedule": name,
                                           "p_at_1": p})
            for name, values in results.items():
                row = {"task": task, "setting": setting, "schedule": name, "mean_p_at_1": float(np.mean(values)),
                       "sem": float(np.std(values, ddof=1) / np.sqrt(len(values))) if len(values) > 1 else None,
                       "seeds": len(values)}
                record["means"].append(row)
                print(json.dumps(row), flush=True)
    record["load_after"] = os.getloadavg()
    record["finished"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    Path(args.out).write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
