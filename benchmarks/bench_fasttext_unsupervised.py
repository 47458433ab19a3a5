"""``train_unsupervised`` (skipgram and cbow) of ``wordvec.fasttext`` against fastText's
(fasttext-wheel 0.9.2), side by side on wordbench-10m.

Each (system, model) run is one child process timed whole from here: interpreter start,
import, training, and writing the vocabulary's vectors (``model.words`` without ``</s>``,
``model.get_word_vector``) as a word2vec text file.  Both are given fastText's defaults
explicitly (lr 0.05, dim 100, ws 5, epoch 5, minCount 5, neg 5, loss ns, minn 3, maxn 6,
bucket 2,000,000, t 1e-4) and 2 threads; NUMBA_NUM_THREADS and OMP_NUM_THREADS are 2 in
the children.  Wall and CPU seconds come from wait4, the peak resident memory from GNU
time (``lib.peers.run_measured``).  Each model's two systems run back to back, fastText
first, with the load average before and after each run kept (the machine is shared).

Quality, the same for both: wordvec's evaluators on ``../shared/data/eval``: Google
analogy accuracy over the questions whose words are all among the 30,000 most frequent
(restrict_vocab 30000, as bench_word2vec), WS-353 and SimLex-999 Spearman rho.

    python benchmarks/bench_fasttext_unsupervised.py                      # the record
    python benchmarks/bench_fasttext_unsupervised.py --max-tokens 200000  # a quick check

With ``--max-tokens N`` only the corpus's first N tokens are used and the record goes to
the scratch folder instead of benchmarks/results/.
"""

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "data" / "corpus" / "wordbench-10m.txt.xz"
EVAL_DIR = HERE.parent.parent / "shared" / "data" / "eval"
SYSTEMS = ("fasttext", "wordvec")
MODELS = ("skipgram", "cbow")
# fastText's unsupervised defaults, given explicitly to both systems.
SETTINGS = {"lr": 0.05, "dim": 100, "ws": 5, "epoch": 5, "minCount": 5, "neg": 5, "loss": "ns",
            "minn": 3, "maxn": 6, "bucket": 2_000_000, "t": 1e-4}


def write_vec(path, words, vectors):
    """Vectors as word2vec text: a header, then one word and its numbers a line."""
    row_format = " ".join(["%.6g"] * (len(vectors[0]) if vectors else 0))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"{len(words)} {len(vectors[0]) if vectors else 0}\n")
        for word, row in zip(words, vectors):
            handle.write(word + " " + row_format % tuple(row.tolist()) + "\n")


def child(system, model, corpus, out, threads):
    """What one timed child process does: train, then write the vocabulary's vectors."""
    if system == "fasttext":
        import fasttext
    else:
        import wordvec.fasttext as fasttext
    trained = fasttext.train_unsupervised(input=corpus, model=model, thread=threads, verbose=0,
                                          **SETTINGS)
    words = [word for word in trained.words if word != "</s>"]  # fastText's end-of-line token
    write_vec(out, words, [trained.get_word_vector(word) for word in words])


def scratch_corpus(scratch, max_tokens):
    """The corpus decompressed once into the scratch folder (its first ``max_tokens`` tokens,
    whole lines, when given)."""
    import lzma

    target = scratch / ("wordbench-10m.txt" if max_tokens is None else f"wordbench-10m.first{max_tokens}.txt")
    if target.is_file():
        return target
    partial, tokens = target.with_suffix(".part"), 0
    with lzma.open(CORPUS, "rt", encoding="utf-8") as source, open(partial, "w", encoding="utf-8") as sink:
        for line in source:
            if max_tokens is not None and tokens >= max_tokens:
                break
            sink.write(line)
            tokens += len(line.split())
    partial.rename(target)
    return target


def quality(vec_path, eval_dir):
    """Analogy accuracy (restrict_vocab 30000) and word-pair Spearman rho of a .vec file."""
    from wordvec.vectors.evaluate import evaluate_analogies, evaluate_similarity
    from wordvec.vectors.files import load_vectors

    kv = load_vectors(str(vec_path))
    analogy = evaluate_analogies(kv, eval_dir / "questions-words.txt", restrict_vocab=30000)
    similarity = {name: evaluate_similarity(kv, eval_dir / file)
                  for name, file in (("ws353", "wordsim353.tsv"), ("simlex999", "simlex999.txt"))}
    return {"analogy": analogy["total"], "analogy_semantic": analogy["semantic"],
            "analogy_syntactic": analogy["syntactic"], "analogy_answered": analogy["answered"],
            "analogy_questions": analogy["questions"],
            **{name: found["spearman"] for name, found in similarity.items()},
            "ws353_covered": similarity["ws353"]["covered"], "vocab_size": len(kv)}


def measure_run(record, args, corpus, system, model):
    """One child process, timed whole; its run is added to the record, which is saved."""
    from lib.peers import run_measured

    vec_path = args.scratch / f"{system}-{model}.vec"
    command = [sys.executable, str(Path(__file__).resolve()), "--child", system, model, str(corpus),
               str(vec_path), "--threads", str(args.threads)]
    env = dict(os.environ, NUMBA_NUM_THREADS=str(args.threads), OMP_NUM_THREADS=str(args.threads),
               PYTHONPATH=str(HERE.parent))
    load_before = os.getloadavg()
    measured = run_measured(command, args.scratch / f"{system}-{model}.log", env=env)
    load_after = os.getloadavg()
    if measured.returncode != 0:
        print(f"{system} {model} failed ({measured.returncode}), see {args.scratch}/{system}-{model}.log",
              file=sys.stderr)
    scores = quality(vec_path, args.eval_dir) if measured.returncode == 0 else None
    record.add_run(system=system, model=model,
                   config=f"{model}, fastText defaults, {args.threads} threads",
                   wall_seconds=measured.wall_seconds, cpu_seconds=measured.cpu_seconds,
                   peak_rss_mb=measured.peak_rss_mb, quality=scores, returncode=measured.returncode,
                   command=" ".join(measured.command), load_before=list(load_before), load_after=list(load_after),
                   when=time.strftime("%Y-%m-%d %H:%M:%S %Z"))
    where = record.save(None if args.max_tokens is None else args.scratch)
    figures = "" if scores is None else f", analogy {scores['analogy']:.1%}, WS353 {scores['ws353']:.3f}"
    print(f"{system:9} {model:9} {measured.wall_seconds:7.1f} s wall, {measured.cpu_seconds:7.1f} s CPU, "
          f"{measured.peak_rss_mb:6.0f} MB{figures}  -> {where}", flush=True)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", choices=MODELS, default=list(MODELS))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=None,
                        help="use only the corpus's first N tokens (a quick check; the record goes to --scratch)")
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/bench-ft-unsup"))
    parser.add_argument("--eval-dir", type=Path, default=EVAL_DIR)
    parser.add_argument("--name", default=None, help="record name (default fasttext-unsupervised-wordbench10m-DATE)")
    parser.add_argument("--child", nargs=4, metavar=("SYSTEM", "MODEL", "CORPUS", "OUT"), help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.child:
        system, model, corpus, out = args.child
        child(system, model, corpus, out, args.threads)
        return
    sys.path.insert(0, str(HERE))
    from lib.records import Record

    args.scratch.mkdir(parents=True, exist_ok=True)
    corpus = scratch_corpus(args.scratch, args.max_tokens)
    import fasttext  # noqa: F401  (fails here, before any run, if the peer is missing)
    from importlib.metadata import version

    size = "whole corpus" if args.max_tokens is None else f"first {args.max_tokens:,} tokens"
    name = args.name or time.strftime("fasttext-unsupervised-wordbench10m-%Y%m%d", time.gmtime())
    record = Record(name, versions={"fasttext-wheel": version("fasttext-wheel")}, note=(
        f"wordbench-10m ({size}); each run one child process timed whole (start, import, training, "
        f"writing the vocabulary's vectors as .vec); fastText's defaults passed to both, {args.threads} threads "
        "(train_unsupervised takes no seed in either); each model's systems back to back, fastText first; "
        "analogy: Google set, "
        "restrict_vocab 30000; ws353/simlex999: Spearman rho; wordvec's evaluators for both; one run each "
        "on a shared 2-core machine (load averages per run)"))
    for model in args.models:
        for system in SYSTEMS:
            measure_run(record, args, corpus, system, model)


if __name__ == "__main__":
    main()
