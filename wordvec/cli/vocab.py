"""``wordvec vocab``: count a corpus's words; show the most frequent, or save them."""

import argparse
import time

from wordvec.cli import gate, ray_run
from wordvec.cli.common import add_corpus_arguments, ranged
from wordvec.data.corpus import Corpus
from wordvec.data.vocab import Vocabulary

EPILOG = """\
examples:
  wordvec vocab corpus.txt.xz                     # summary and the 20 most frequent words
  wordvec vocab corpus.txt --min-count 5 -o vocab.tsv
  wordvec vocab corpus/ --lowercase -o vocab.json --top 0
"""


def register(subparsers):
    parser = subparsers.add_parser(
        "vocab",
        description="Count the words of CORPUS in one streaming pass; print a summary and the most "
                    "frequent words, and optionally save the vocabulary (.json, or word<TAB>count "
                    "lines for any other extension).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_arguments(parser, min_count_default=1)
    parser.add_argument("-o", "--output", metavar="FILE", help="save the vocabulary here (.json or .tsv)")
    parser.add_argument("--top", type=ranged("top"), default=20, metavar="N", help="show the N most frequent words (default 20)")
    ray_run.add_ray_argument(parser)
    parser.set_defaults(run=run)
    gate.mark(parser, outputs=[gate.Output("output")], inputs=[gate.Input("corpus", text=True)])


def run(args):
    start = time.perf_counter()
    if args.ray is not None:
        vocab, decode_errors = ray_run.count_vocabulary(args)
    else:
        corpus = Corpus(args.corpus, lowercase=args.lowercase, max_document_length=args.max_document_length)
        vocab = Vocabulary.build(corpus, min_count=args.min_count, max_vocab_size=args.max_vocab_size)
        decode_errors = corpus.decode_errors
    seconds = time.perf_counter() - start
    print(f"{vocab.corpus_tokens:,} tokens, {len(vocab):,} words with count >= {args.min_count} "
          f"({vocab.total:,} tokens, {vocab.total / max(vocab.corpus_tokens, 1):.1%} of the corpus); "
          f"counted in {seconds:.2f} s ({vocab.corpus_tokens / max(seconds, 1e-9) / 1e6:.1f}M tokens/s)")
    if decode_errors:
        print(f"{decode_errors:,} invalid UTF-8 sequences were replaced by U+FFFD")
    if args.top > 0:
        width = max(len(w) for w in vocab.words[:args.top])
        for rank, (word, count) in enumerate(zip(vocab.words[:args.top], vocab.counts[:args.top].tolist()), 1):
            print(f"{rank:>6}  {word:<{width}}  {count:>12,}")
    if args.output:
        vocab.save(args.output)
        print(f"saved {len(vocab):,} words to {args.output}")
    return 0
