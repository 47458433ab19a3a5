"""``wordvec demo``: train on a built-in synthetic corpus (or yours) and show what was learned."""

import argparse
import time
from pathlib import Path

from wordvec.cli import gate
from wordvec.cli.common import ranged
from wordvec.cli.train.command import default_workers
from wordvec.data import synthetic
from wordvec.data.corpus import Corpus
from wordvec.data.encode import default_cache_dir
from wordvec.data.vocab import Vocabulary
from wordvec.models.word2vec.model import Word2Vec
from wordvec.vectors.evaluate import evaluate_all, evaluate_analogies, format_report

EPILOG = """\
The built-in corpus is generated on the fly (no download): English-like text whose
co-occurrences encode four relations (country-capital, male-female, singular-plural,
present-past).  A model trained on it should solve most of the matching analogies,
such as paris : france :: rome : ?.  With --corpus, the demo trains on your text and
evaluates on the bundled Google analogies, WordSim-353 and SimLex-999 sets.

examples:
  wordvec demo
  wordvec demo --model sg --epochs 3
  wordvec demo --corpus my_text.txt.gz --min-count 5
"""

SHOWCASE = [("man", "king", "woman"), ("france", "paris", "japan"), ("cat", "cats", "horse"),
            ("walk", "walked", "swim"), ("boy", "girl", "prince"), ("italy", "rome", "egypt"),
            ("man", "woman", "uncle"), ("eat", "ate", "fly")]
NEIGHBOUR_WORDS = ["queen", "paris", "dogs", "wrote"]


def register(subparsers):
    parser = subparsers.add_parser(
        "demo",
        description="Generate a synthetic corpus (or read --corpus), train word2vec on it, and print "
                    "solved analogies and nearest neighbours.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", metavar="FILE", help="train on this text instead of the built-in corpus")
    parser.add_argument("--tokens", type=ranged("tokens"), default=2_000_000, metavar="N",
                        help="size of the built-in corpus in tokens (default 2,000,000)")
    parser.add_argument("--model", choices=("sg", "cbow"), default="cbow", help="word2vec architecture (default cbow)")
    parser.add_argument("--vector-size", type=ranged("vector_size"), default=100, metavar="N", help="dimensions (default 100)")
    parser.add_argument("--epochs", type=ranged("epochs"), default=5, metavar="N", help="epochs (default 5)")
    parser.add_argument("--min-count", type=ranged("min_count"), default=5, metavar="N", help="min count (default 5)")
    parser.add_argument("--workers", type=ranged("workers"), default=None, metavar="N", help="threads (default: all cores)")
    parser.add_argument("--seed", type=ranged("seed"), default=1, metavar="N", help="random seed (default 1)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)
    gate.mark(parser, inputs=[gate.Input("corpus", text=True)])


def run(args):
    if args.corpus:
        corpus_path, questions = Path(args.corpus), None
    else:
        corpus_path, questions = _synthetic_files(default_cache_dir() / "demo", args.tokens)
    start = time.perf_counter()
    vocab = Vocabulary.build(Corpus(corpus_path), min_count=args.min_count)
    print(f"corpus {corpus_path}: {vocab.corpus_tokens:,} tokens, {len(vocab):,} words seen at least "
          f"{args.min_count} times (counted in {time.perf_counter() - start:.1f} s)")
    print("most frequent: " + ", ".join(vocab.words[:12]))
    model = _train(corpus_path, args, workers=args.workers or default_workers())
    print()
    if questions is not None:
        _show_synthetic_results(model.wv, questions)
    else:
        print(format_report(evaluate_all(model.wv)))
    _show_neighbours(model.wv, [w for w in NEIGHBOUR_WORDS if w in model.wv] or model.wv.index_to_key[100:104])
    return 0


def _synthetic_files(directory, tokens):
    directory.mkdir(parents=True, exist_ok=True)
    corpus = directory / f"synthetic-{tokens}.txt"
    questions = directory / "synthetic-questions.txt"
    if not corpus.exists():
        start = time.perf_counter()
        synthetic.write_corpus(corpus, tokens=tokens, seed=0)
        print(f"generated the built-in corpus ({tokens:,} tokens) in {time.perf_counter() - start:.1f} s")
    synthetic.write_questions(questions)
    return corpus, questions


def _train(corpus_path, args, workers):
    print(f"training {args.model}, {args.vector_size} dimensions, {args.epochs} epochs, {workers} threads ...")
    start = time.perf_counter()
    model = Word2Vec(corpus_file=str(corpus_path), sg=int(args.model == "sg"), vector_size=args.vector_size,
                     epochs=args.epochs, min_count=args.min_count, workers=workers, seed=args.seed,
                     progress=not args.no_progress)
    last = model.history[-1] if model.history else {}
    loss = f", final loss {last['loss']:.4f}" if "loss" in last else ""
    print(f"trained in {time.perf_counter() - start:.1f} s{loss}")
    return model


def _show_synthetic_results(kv, questions):
    result = evaluate_analogies(kv, questions, restrict_vocab=None)
    print(f"analogies solved: {result['total']:.1%} of {result['questions']:,} "
          f"(3CosAdd over the whole vocabulary)")
    for name, section in result["sections"].items():
        print(f"  {name:<18} {section['accuracy']:.1%}")
    print("\nexamples (a : b :: c : ?):")
    for a, b, c in SHOWCASE:
        if all(w in kv for w in (a, b, c)):
            (answer, score), = kv.most_similar(positive=[b, c], negative=[a], topn=1)
            print(f"  {a} : {b} :: {c} : {answer}  ({score:.2f})")


def _show_neighbours(kv, words):
    print("\nnearest neighbours:")
    for word in words:
        neighbours = ", ".join(w for w, _ in kv.most_similar(word, topn=5))
        print(f"  {word:<10} {neighbours}")
