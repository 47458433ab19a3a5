"""`wordvec embed VECTORS FILE -o out.npy|out.txt`: sentence vectors by pooling word vectors.

Row i of the output is line i of FILE (an empty line, or one with no known word, gives a
zero row).  Poolings: mean, sif (Arora et al. 2017: a / (a + p(w)) weights, first
principal component removed), zipf (Model2Vec: PCA-rotated vectors, log-rank weights).
"""

import argparse
import logging
import time
from pathlib import Path

from wordvec.cli import gate, row_output
from wordvec.cli.common import nonnegative_int, positive_float
from wordvec.cli.row_output import check_rows_output, write_rows
from wordvec.errors import WordvecError
from wordvec.kernels import compiling
from wordvec.models.static.files import is_static_model
from wordvec.models.static.query import embed_file
from wordvec.vectors.embed import POOLINGS, read_counts, read_sentences
from wordvec.models.saved import load_keyed_vectors

log = logging.getLogger(__name__)

EXAMPLES = """\
examples:
  wordvec embed vectors.bin sentences.txt -o sentences.npy
  wordvec embed vectors.bin sentences.txt -o sentences.npy --pooling sif --counts vocab.txt
  wordvec embed vectors.bin sentences.txt -o sentences.txt   (word2vec text, keys 0..n-1)
  wordvec embed model.ft sentences.txt -o sentences.npy --pooling zipf   (subword vectors: OOV words too)
  wordvec embed static-model sentences.txt -o sentences.npy   (a static sentence model: its own pooling)

COUNTS is a "word count" file, one pair a line (`wordvec vocab`, word2vec -save-vocab).
Without it, a wordvec model or native save uses its own counts, and any other vectors
file its order (Zipf's law: the r-th word has frequency proportional to 1/r).
"""


def register(subparsers):
    parser = subparsers.add_parser("embed", description=__doc__.split("\n\n")[0] + "\n\n" + __doc__.split("\n\n")[1],
                                   epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("vectors", metavar="VECTORS", help="vector file or native directory (any supported format)")
    parser.add_argument("file", metavar="FILE", help="text file, one sentence or document per line")
    parser.add_argument("-o", "--output", required=True, metavar="OUT", help=row_output.HELP)
    parser.add_argument("--pooling", choices=POOLINGS, default="mean", help="how to weight the words (default mean)")
    parser.add_argument("--remove-pc", type=nonnegative_int, default=None, metavar="K",
                        help="remove the top K principal components of the sentence vectors "
                             "(default: 1 for sif, 0 otherwise)")
    parser.add_argument("--counts", metavar="COUNTS", help="word frequencies: a 'word count' file")
    parser.add_argument("--sif-a", type=positive_float, default=1e-3, metavar="A",
                        help="SIF's a in a / (a + p(w)) (default 1e-3)")
    parser.add_argument("--glove", action="store_true", help="read VECTORS as headerless GloVe text")
    parser.set_defaults(run=run_embed)
    gate.mark(parser, outputs=[gate.Output("output", same_kind=gate.file_magic(b"\x93NUMPY", "a .npy file"))],
              inputs=["vectors", gate.Input("file", text=True), "counts"])


def run_embed(args):
    check_rows_output(args.output, inputs=[args.vectors, args.file] + ([args.counts] if args.counts else []))
    if not Path(args.file).is_file():
        raise WordvecError(f"cannot read {args.file}: not a file")
    if is_static_model(args.vectors):  # a static sentence model pools with its own tokenizer
        vectors = embed_file(args.vectors, args.file)
        write_rows(args.output, vectors)
        print(f"wrote {vectors.shape[0]} sentence vectors of {vectors.shape[1]} dimensions (static model) "
              f"to {args.output}")
        return 0
    counts = read_counts(args.counts) if args.counts else None
    kv = load_keyed_vectors(args.vectors, glove=args.glove)
    sentences = read_sentences(args.file)
    started, compiled_before = time.perf_counter(), compiling.seconds()
    vectors = kv.embed(sentences, pooling=args.pooling, counts=counts, remove_pc=args.remove_pc, sif_a=args.sif_a)
    log.info("pooled %d sentences in %.2f s%s", len(sentences), time.perf_counter() - started,
             compiling.of_it(compiled_before))
    write_rows(args.output, vectors)
    print(f"wrote {vectors.shape[0]} sentence vectors of {vectors.shape[1]} dimensions ({args.pooling}) "
          f"to {args.output}")
    return 0
