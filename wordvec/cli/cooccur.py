"""``wordvec cooccur``: count a corpus's word-word co-occurrence matrix and save it (.npz)."""

import argparse
import sys

from wordvec.cli import gate, ray_run
from wordvec.cli.common import add_corpus_arguments, ranged
from wordvec.data.cooccur import count_cooccurrences, parse_memory, save_cooccurrence
from wordvec.data.corpus import Corpus
from wordvec.data.encode import encode_corpus
from wordvec.data.vocab import Vocabulary

EPILOG = """\
The matrix is saved in SciPy's sparse .npz layout (scipy.sparse.load_npz reads it),
with the vocabulary (words, counts) and the counting options alongside.  X[i, j] is the
(1/distance-weighted, unless --weighting uniform) number of times word j occurs within
--window tokens of word i; with --asymmetric only the words before i count.

examples:
  wordvec cooccur corpus.txt.xz -o X.npz --window 10
  wordvec cooccur corpus.txt -o X.npz --window 5 --weighting uniform --memory 256MB
"""


def register(subparsers):
    parser = subparsers.add_parser(
        "cooccur",
        description="Count the co-occurrence matrix of CORPUS within a memory limit and save it.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_arguments(parser)
    parser.add_argument("-o", "--output", required=True, metavar="X.npz", help="where to write the matrix")
    parser.add_argument("--window", type=ranged("window"), default=10, metavar="N",
                        help="context words on each side (default 10)")
    parser.add_argument("--asymmetric", action="store_true",
                        help="count only the context to the left (GloVe's -symmetric 0)")
    parser.add_argument("--weighting", choices=("harmonic", "uniform"), default="harmonic",
                        help="harmonic = 1/distance as in GloVe (default), uniform = plain counts")
    parser.add_argument("--memory", default="2GB", metavar="SIZE",
                        help="memory for counting, e.g. 256MB or 4GB (default 2GB); beyond it, "
                             "partial counts are spilled to temporary files")
    parser.add_argument("--float64", action="store_true",
                        help="store the values in float64 (default float32: 8 bytes per non-zero, not 12)")
    parser.add_argument("--tmp-dir", default=None, metavar="DIR", help="where to spill (default: the system's)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    ray_run.add_ray_argument(parser)
    parser.set_defaults(run=run)
    gate.mark(parser, outputs=[gate.Output("output", same_kind=gate.file_magic(b"PK", "a .npz file"))],
              inputs=[gate.Input("corpus", text=True)])


def run(args):
    parse_memory(args.memory)  # a bad size fails before the corpus is read
    if args.ray is not None:
        return _run_on_ray(args)
    corpus = Corpus(args.corpus, lowercase=args.lowercase, max_document_length=args.max_document_length)
    vocab = Vocabulary.build(corpus, min_count=args.min_count, max_vocab_size=args.max_vocab_size)
    encoded = encode_corpus(corpus, vocab)
    counted = count_cooccurrences(encoded.ids, encoded.offsets, len(vocab), window=args.window,
                                  symmetric=not args.asymmetric, weighting=args.weighting,
                                  memory=args.memory, tmp_dir=args.tmp_dir,
                                  dtype="float64" if args.float64 else "float32",
                                  progress=not args.no_progress and sys.stderr.isatty())
    save_cooccurrence(args.output, counted.matrix, vocab.words, vocab.counts, window=args.window,
                      symmetric=not args.asymmetric, weighting=args.weighting)
    print(f"{len(vocab):,} words, {encoded.num_tokens:,} tokens, {counted.pairs:,} pairs counted in "
          f"{counted.seconds:.1f} s ({counted.cpu_seconds:.1f} s CPU; {counted.pairs_per_second / 1e6:.2f}M pairs/s); "
          f"{counted.matrix.nnz:,} non-zeros ({counted.chunks} chunks, {counted.spilled} spilled) "
          f"written to {args.output}")
    return 0


def _run_on_ray(args):
    vocab, matrix, info = ray_run.count_cooccurrences(args, "float64" if args.float64 else "float32")
    save_cooccurrence(args.output, matrix, vocab.words, vocab.counts, window=args.window,
                      symmetric=not args.asymmetric, weighting=args.weighting)
    print(f"{len(vocab):,} words, {info['tokens']:,} tokens, {info['pairs']:,} pairs counted in "
          f"{info['seconds']:.1f} s on the Ray cluster ({info['pieces']} pieces, {info['reducers']} "
          f"reducers); {matrix.nnz:,} non-zeros written to {args.output}")
    return 0
