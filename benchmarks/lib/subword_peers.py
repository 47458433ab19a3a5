"""Train a peer subword (or plain skip-gram) model and write its vectors; run in the peers env.

    python subword_peers.py SYSTEM CORPUS OUT_DIR EVAL_WORDS --dim 100 ... (see --help)

SYSTEM: gensim-ft (gensim 4.4.0 FastText), gensim-sg (gensim Word2Vec, plain
skip-gram), fasttext (the fastText PyPI package, skipgram), fasttext-plain (fastText with
maxn 0: plain skip-gram).  Writes OUT_DIR/vocab.vec (the vocabulary's vectors, most
frequent first) and OUT_DIR/eval.vec (vectors of every word in EVAL_WORDS the model can
give one to: n-gram vectors for unseen words), then one JSON line of timings.
bench_subword.py runs this as a child process and times the whole process.
"""

import argparse
import json
import time


def write_vec(path, words, vectors):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(f"{len(words)} {len(vectors[0]) if len(words) else 0}\n")
        for word, row in zip(words, vectors):
            handle.write(word + " " + " ".join("%.6g" % x for x in row) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("system", choices=("gensim-ft", "gensim-sg", "fasttext", "fasttext-plain"))
    parser.add_argument("corpus")
    parser.add_argument("out_dir")
    parser.add_argument("eval_words")
    for name, kind, default in (("dim", int, 100), ("window", int, 5), ("negative", int, 5),
                                ("epochs", int, 5), ("min-count", int, 5), ("min-n", int, 3),
                                ("max-n", int, 6), ("bucket", int, 2_000_000), ("threads", int, 2),
                                ("alpha", float, 0.025), ("sample", float, 1e-4), ("seed", int, 1)):
        parser.add_argument("--" + name, type=kind, default=default)
    args = parser.parse_args()
    eval_words = [w for w in open(args.eval_words, encoding="utf-8").read().split()]
    started = time.perf_counter()
    if args.system.startswith("gensim"):
        from gensim.models import FastText, Word2Vec

        common = dict(corpus_file=args.corpus, vector_size=args.dim, window=args.window,
                      negative=args.negative, epochs=args.epochs, min_count=args.min_count,
                      workers=args.threads, alpha=args.alpha, sample=args.sample, seed=args.seed, sg=1)
        if args.system == "gensim-ft":
            model = FastText(min_n=args.min_n, max_n=args.max_n, bucket=args.bucket, **common)
        else:
            model = Word2Vec(**common)
        trained = time.perf_counter()
        wv = model.wv
        words = list(wv.index_to_key)
        vocab_vectors = wv.vectors
        known = [w for w in eval_words if args.system == "gensim-ft" or w in wv.key_to_index]
        eval_vectors = [wv[w] for w in known]
    else:
        import fasttext

        model = fasttext.train_unsupervised(
            args.corpus, model="skipgram", dim=args.dim, ws=args.window, neg=args.negative,
            epoch=args.epochs, minCount=args.min_count, minn=args.min_n if args.system == "fasttext" else 0,
            maxn=args.max_n if args.system == "fasttext" else 0, bucket=args.bucket, thread=args.threads,
            lr=args.alpha, t=args.sample, verbose=0)
        trained = time.perf_counter()
        words = [w for w in model.words if w != "</s>"]  # fastText's end-of-line token
        vocab_vectors = [model.get_word_vector(w) for w in words]
        present = set(model.words)
        known = [w for w in eval_words if args.system == "fasttext" or w in present]
        eval_vectors = [model.get_word_vector(w) for w in known]
    write_vec(f"{args.out_dir}/vocab.vec", words, vocab_vectors)
    write_vec(f"{args.out_dir}/eval.vec", known, eval_vectors)
    print(json.dumps({"train_seconds": trained - started, "total_seconds": time.perf_counter() - started,
                      "vocab": len(words)}))


if __name__ == "__main__":
    main()
