"""Jobs that bench_word2vec.py runs inside the peers environment (benchmarks/.peers).

This file imports only gensim and the standard library, so it runs under the
peers' Python, never under wordvec's. Subcommands:

  train     train gensim 4.4.0's Word2Vec on a plain-text corpus (corpus_file mode,
            one document per line) and save word2vec binary; prints one JSON line
            with the time spent in each phase.
  phrases   learn gensim's Phrases from a corpus (LineSentence), write the phrased
            corpus and the phrases above each requested (scoring, threshold) as TSV
            (bench_phrases.py).
  evaluate  score word2vec-binary files with gensim's evaluators: Google analogies
            (3CosAdd, restrict_vocab 30000) and Spearman on WordSim-353 and
            SimLex-999; prints one JSON line per file.

Every system's vectors go through `evaluate`, so the quality columns of the
benchmark are computed by one and the same piece of code.
"""

import argparse
import json
import logging
import sys
import time


def train(args):
    from gensim.models import Word2Vec

    started = time.perf_counter()
    # Same steps as Word2Vec(corpus_file=...), split so each phase can be timed.
    model = Word2Vec(
        vector_size=args.vector_size, window=args.window, min_count=args.min_count,
        sg=args.sg, hs=args.hs, negative=args.negative, sample=args.sample,
        alpha=args.alpha, min_alpha=args.min_alpha, epochs=args.epochs,
        workers=args.workers, seed=args.seed,
    )
    model.build_vocab(corpus_file=args.corpus)
    vocab_done = time.perf_counter()
    model.train(
        corpus_file=args.corpus, total_words=model.corpus_total_words,
        epochs=model.epochs, compute_loss=False,
    )
    train_done = time.perf_counter()
    model.wv.save_word2vec_format(args.output, binary=True)
    save_done = time.perf_counter()
    print(json.dumps({
        "vocab_seconds": vocab_done - started,
        "train_seconds": train_done - vocab_done,
        "save_seconds": save_done - train_done,
        "corpus_tokens": model.corpus_total_words,
        "vocab_size": len(model.wv),
    }), flush=True)


def _analogy_summary(score, sections):
    """Accuracy overall and split into Google's semantic / syntactic ("gram*") halves."""
    tally = {"semantic": [0, 0], "syntactic": [0, 0]}
    for section in sections:
        if section["section"] == "Total accuracy":
            continue
        half = "syntactic" if section["section"].startswith("gram") else "semantic"
        tally[half][0] += len(section["correct"])
        tally[half][1] += len(section["correct"]) + len(section["incorrect"])
    return {
        "total": float(score),
        "semantic": tally["semantic"][0] / max(tally["semantic"][1], 1),
        "syntactic": tally["syntactic"][0] / max(tally["syntactic"][1], 1),
        "answered": tally["semantic"][1] + tally["syntactic"][1],
    }


def _count_questions(path):
    with open(path, encoding="utf-8") as lines:
        return sum(1 for line in lines if line.strip() and not line.startswith(":"))


def _count_pairs(path):
    with open(path, encoding="utf-8") as lines:
        return sum(1 for line in lines if line.strip() and not line.startswith("#"))


def evaluate(args):
    from gensim.models import KeyedVectors

    for path in args.vectors:
        kv = KeyedVectors.load_word2vec_format(path, binary=True)
        score, sections = kv.evaluate_word_analogies(
            args.analogies, restrict_vocab=args.restrict_vocab, case_insensitive=True
        )
        result = {"vectors": path, "vocab_size": len(kv)}
        result["analogy"] = _analogy_summary(score, sections)
        result["analogy"]["questions"] = _count_questions(args.analogies)
        result["similarity"] = {}
        for name, pairs_path in (("wordsim353", args.wordsim), ("simlex999", args.simlex)):
            pearson, spearman, oov_percent = kv.evaluate_word_pairs(
                pairs_path, delimiter="\t", case_insensitive=True
            )
            total = _count_pairs(pairs_path)
            result["similarity"][name] = {
                "spearman": float(spearman.statistic if hasattr(spearman, "statistic") else spearman[0]),
                "pairs": total,
                "covered": round(total * (1 - oov_percent / 100)),
            }
        print(json.dumps(result), flush=True)


def phrases(args):
    from gensim.models.phrases import Phrases, npmi_scorer, original_scorer
    from gensim.models.word2vec import LineSentence

    started = time.perf_counter()
    model = Phrases(LineSentence(args.corpus), min_count=args.min_count, threshold=args.threshold)
    learned = time.perf_counter()
    frozen = model.freeze()
    with open(args.output, "w", encoding="utf-8") as out:
        for sentence in LineSentence(args.corpus):
            out.write(" ".join(frozen[sentence]) + "\n")
    written = time.perf_counter()
    for spec in args.export:  # scoring:threshold:path, scored on the same counts
        scoring, threshold, path = spec.split(":", 2)
        model.scoring = {"default": original_scorer, "npmi": npmi_scorer}[scoring]
        model.threshold = float(threshold)
        with open(path, "w", encoding="utf-8") as table:
            for phrase, score in model.export_phrases().items():
                table.write(f"{phrase}\t{score!r}\n")
    print(json.dumps({"learn_seconds": learned - started, "write_seconds": written - learned,
                      "vocab_entries": len(model.vocab), "corpus_word_count": model.corpus_word_count}),
          flush=True)


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="task", required=True)
    t = sub.add_parser("train")
    t.add_argument("corpus")
    t.add_argument("output")
    for name, kind in (("vector_size", int), ("window", int), ("min_count", int), ("sg", int),
                       ("hs", int), ("negative", int), ("sample", float), ("alpha", float),
                       ("min_alpha", float), ("epochs", int), ("workers", int), ("seed", int)):
        t.add_argument("--" + name.replace("_", "-"), dest=name, type=kind, required=True)
    t.set_defaults(run=train)
    e = sub.add_parser("evaluate")
    e.add_argument("vectors", nargs="+")
    e.add_argument("--analogies", required=True)
    e.add_argument("--wordsim", required=True)
    e.add_argument("--simlex", required=True)
    e.add_argument("--restrict-vocab", type=int, default=30000)
    e.set_defaults(run=evaluate)
    p = sub.add_parser("phrases")
    p.add_argument("corpus")
    p.add_argument("output")
    p.add_argument("--min-count", type=int, required=True)
    p.add_argument("--threshold", type=float, required=True)
    p.add_argument("--export", action="append", default=[], metavar="SCORING:THRESHOLD:PATH")
    p.set_defaults(run=phrases)
    return parser


if __name__ == "__main__":
    arguments = build_parser().parse_args()
    # gensim's INFO log (progress, per-epoch words/s) goes to stderr, kept in the run log.
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(message)s")
    arguments.run(arguments)
