"""`wordvec report MODEL_OR_VECTORS [-o report.html]`: a self-contained HTML report."""

import argparse

from wordvec.cli import gate
from wordvec.cli.common import nonnegative_int, positive_int
from wordvec.report import write_report


def register(subparsers):
    parser = subparsers.add_parser(
        "report",
        description="Write one HTML page (plots embedded, opens offline) about a wordvec model or a\n"
                    "word2vec/GloVe vector file: configuration, corpus and vocabulary statistics with a\n"
                    "Zipf plot, training history and loss curve, analogy accuracy per section, word-pair\n"
                    "similarity, nearest neighbours of frequent and rare words and a 2-D PCA map of the\n"
                    "top words; for language models, perplexity curves and samples; for text classifiers\n"
                    "(wordvec classify, fastText .bin/.ftz), labels, loss and validation P@1 per epoch,\n"
                    "indicative words per label and, with --test, the confusion matrix; for static\n"
                    "sentence models (wordvec static), the vocabulary by kind, per-token weights, training\n"
                    "history, nearest tokens and a map of whole-word tokens.  Sections whose data the\n"
                    "input does not hold are left out.",
        epilog="examples:\n  wordvec report model.wv -o report.html\n  wordvec report vectors.bin\n"
               "  wordvec report lm.wvlm -o lm.html --samples 10\n"
               "  wordvec report classifier.bin --test test.txt -o classifier.html\n"
               "  wordvec report static-model -o static.html --top 500\n",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", metavar="MODEL_OR_VECTORS",
                        help="a wordvec model directory, a static sentence model directory, or a "
                             ".bin/.txt/.vec/.glove vector file")
    parser.add_argument("-o", "--output", default="report.html", metavar="FILE",
                        help="HTML file to write (default report.html)")
    parser.add_argument("--glove", action="store_true", help="read the input as headerless GloVe text")
    parser.add_argument("--top", type=positive_int, default=300, metavar="N",
                        help="words (static models: tokens) on the 2-D map (default 300)")
    parser.add_argument("--no-evaluate", dest="evaluate", action="store_false",
                        help="skip the analogy and similarity evaluation")
    parser.add_argument("--samples", type=nonnegative_int, default=5, metavar="N",
                        help="language models: lines to sample (default 5)")
    parser.add_argument("--test", metavar="FILE",
                        help="text classifiers: a labelled file (fastText format) for P@1 and the confusion matrix")
    parser.set_defaults(run=run)
    gate.mark(parser, outputs=[gate.Output("output")], inputs=["path", "test"])


def run(args):
    write_report(args.path, args.output, glove=args.glove, top=args.top, evaluate=args.evaluate,
                 samples=args.samples, test=args.test)
    print(f"wrote {args.output}")
    return 0
