"""``wordvec phrases``: join word pairs that belong together ("new york" -> "new_york")."""

import argparse
import time

from wordvec.cli import gate
from wordvec.cli.common import add_corpus_arguments, ranged
from wordvec.data.phrases import phrase_corpus
from wordvec.io.outputs import check_output

EPILOG = """\
examples:
  wordvec phrases corpus.txt.xz -o phrased.txt                     # threshold 100, min-count 5
  wordvec phrases corpus.txt -o phrased.txt --passes 2             # new_york_times too
  wordvec phrases corpus.txt -o phrased.txt --scoring npmi --threshold 0.5 --export phrases.tsv
  wordvec train phrased.txt -o vectors.bin --model sg              # vectors for the phrases

scores:
  default  (count(ab) - min_count) / (count(a) count(b)) * N, N = tokens of the corpus:
           word2phrase's scale (Mikolov et al. 2013).  gensim's default multiplies by
           |vocab| (its distinct words and pairs) instead, so our threshold T finds the
           phrases gensim finds at T * |vocab| / N; for gensim's scale itself, use
           wordvec.models.phrases.model.Phrases in Python (gensim's class, same phrases)
  npmi     normalised pointwise mutual information in [-1, 1], as gensim's npmi
"""


def register(subparsers):
    parser = subparsers.add_parser(
        "phrases",
        description="Count the words and adjacent word pairs of CORPUS, and write it to OUT with every "
                    "pair that scores above the threshold joined by the delimiter (one document per line).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_arguments(parser)
    parser.add_argument("-o", "--output", required=True, metavar="OUT", help="the rewritten text file")
    parser.add_argument("--threshold", type=float, default=None, metavar="T",
                        help="join pairs scoring above T (default 100; npmi 0.5)")
    parser.add_argument("--scoring", choices=("default", "npmi"), default="default",
                        help="the pair score (see below; default: default)")
    parser.add_argument("--passes", type=ranged("passes"), default=1, metavar="N",
                        help="rewrite N times; each pass can join a phrase with one more word or phrase")
    parser.add_argument("--delimiter", default="_", metavar="S", help="what joins a phrase's words (default _)")
    parser.add_argument("--export", metavar="FILE",
                        help="also write the last pass's phrases as phrase<TAB>count<TAB>score lines")
    parser.add_argument("--top", type=ranged("top"), default=20, metavar="N", help="show the N best phrases (default 20)")
    parser.set_defaults(run=run)
    gate.mark(parser, outputs=[gate.Output("output"), gate.Output("export")],
              inputs=[gate.Input("corpus", text=True)])


def run(args):
    if args.export:  # the gate checked both outputs against the corpus; not one over the other
        check_output(args.export, inputs=[args.corpus, args.output])
    threshold = args.threshold if args.threshold is not None else (0.5 if args.scoring == "npmi" else 100.0)
    start = time.perf_counter()
    passes = phrase_corpus(
        args.corpus, args.output, passes=args.passes, min_count=args.min_count, threshold=threshold,
        scoring=args.scoring, delimiter=args.delimiter, max_vocab_size=args.max_vocab_size,
        lowercase=args.lowercase, max_document_length=args.max_document_length)
    seconds = time.perf_counter() - start
    last = passes[-1]
    found = last.top()
    tokens = passes[0].total_tokens
    learn = sum(p.learn_seconds for p in passes)
    print(f"{tokens:,} tokens; {len(found):,} phrases above {threshold:g} in the last of {args.passes} "
          f"pass(es); wrote {args.output} in {seconds:.1f} s (counting {learn:.1f} s, "
          f"rewriting {seconds - learn:.1f} s; {tokens * args.passes / max(seconds, 1e-9) / 1e6:.1f}M tokens/s)")
    if not found:
        print(f"no pair scores above {threshold:g}: the text was copied unchanged (lower --threshold?)")
    if args.top > 0 and found:
        width = max(len(phrase) for phrase, _, _ in found[:args.top])
        for rank, (phrase, count, score) in enumerate(found[:args.top], 1):
            print(f"{rank:>6}  {phrase:<{width}}  {count:>10,}  {score:>10.4g}")
    if args.export:
        last.export(args.export)
        print(f"saved {len(found):,} phrases to {args.export}")
    return 0
