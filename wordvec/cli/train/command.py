"""``wordvec train``: learn vectors from a corpus and write them, then show what they learned."""

import argparse

from wordvec.cli import gate, ray_run
from wordvec.cli.train import checkpoint as train_checkpoint
from wordvec.cli.train import count as train_count
from wordvec.cli.train import estimate as train_estimate
from wordvec.cli.common import add_corpus_arguments, finite_float, nonnegative_float, positive_float, ranged
from wordvec.cli.train.options import COUNT_MODELS, WORD2VEC_MODELS, model_from_flags, open_corpus
from wordvec.cli.train.output import report, save_trained
from wordvec.errors import WordvecError
from wordvec.io.outputs import check_vectors_output
from wordvec.models.base.config import available_cores

EPILOG = """\
output format, chosen by the extension of -o:
  .bin           word2vec binary (loads in gensim and the word2vec C tools)
  .txt or .vec   word2vec text
  DIR or .wv     wordvec's native model directory (NumPy arrays + JSON): keeps
                 everything needed to continue training, and loads anywhere
                 vectors are accepted (wordvec similar model.wv king)

examples:
  wordvec train corpus.txt.xz -o vectors.bin --model sg
  wordvec train corpus.txt -o cbow.vec --model cbow --loss hs --epochs 10
  wordvec train text8 -o model.wv --model sg --vector-size 300 --workers 4
  wordvec train corpus.txt -o ft.wv --model sg --subwords --min-n 3 --max-n 6
      (fastText's subword model; then: wordvec similar ft.wv unseenword)
  wordvec train corpus.txt -o glove.bin --model glove --window 10 --x-max 10 --epochs 15
  wordvec train corpus.txt -o svd.bin --model svd --window 5 --cds 0.75 --eig 0.5

After training, the vectors are evaluated on the bundled Google analogies,
WordSim-353 and SimLex-999 sets (turn off with --no-eval).
"""


def register(subparsers):
    parser = subparsers.add_parser(
        "train",
        description="Learn word vectors from CORPUS and write them to OUT.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_arguments(parser)
    parser.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="where to write the vectors (format by extension, see below)")
    parser.add_argument("--model", choices=WORD2VEC_MODELS + COUNT_MODELS, default="cbow",
                        help="sg = skip-gram, cbow = continuous bag of words (default), "
                             "glove = GloVe, svd = PPMI + truncated SVD")
    shared = parser.add_argument_group("shared by all models")
    shared.add_argument("--vector-size", type=ranged("vector_size"), default=100, metavar="N",
                        help="dimension of the vectors (default 100)")
    shared.add_argument("--window", type=ranged("window"), default=None, metavar="N",
                        help="context window radius (default 5; glove 10)")
    shared.add_argument("--epochs", type=ranged("epochs"), default=None, metavar="N",
                        help="passes over the data (default 5; glove 15)")
    shared.add_argument("--workers", type=ranged("workers"), default=available_cores(), metavar="N",
                        help=f"training threads (default {available_cores()}, the cores available)")
    shared.add_argument("--seed", type=ranged("seed"), default=1, metavar="N", help="random seed (default 1)")
    shared.add_argument("--no-progress", action="store_true", help="no progress bar")
    shared.add_argument("--no-eval", action="store_true", help="skip the evaluation summary at the end")
    shared.add_argument("--json", action="store_true",
                        help="print the training history and evaluation as one JSON object on stdout")
    w2v = parser.add_argument_group("word2vec (--model sg|cbow)")
    w2v.add_argument("--loss", choices=("ns", "hs", "softmax"), default="ns",
                     help="ns = negative sampling (default), hs = hierarchical softmax, "
                          "softmax = full softmax (small vocabularies only)")
    w2v.add_argument("--negative", type=ranged("negative"), default=None, metavar="K",
                     help="negative samples (default 5; with --loss hs default 0, and K > 0 trains both "
                          "output layers together, as the C tool and gensim do)")
    w2v.add_argument("--ns-exponent", type=finite_float, default=None, metavar="F",
                     help="noise distribution exponent (default 0.75; 0.5 with --subwords, as fastText)")
    w2v.add_argument("--sample", type=nonnegative_float, default=1e-3, metavar="F",
                     help="subsampling threshold for frequent words (default 1e-3; 0 = off)")
    w2v.add_argument("--alpha", type=positive_float, default=0.025, metavar="F",
                     help="initial learning rate (default 0.025)")
    w2v.add_argument("--min-alpha", type=nonnegative_float, default=0.0001, metavar="F",
                     help="final learning rate (default 0.0001)")
    w2v.add_argument("--cbow-sum", action="store_true", help="CBOW sums context vectors instead of averaging")
    w2v.add_argument("--no-shuffle", action="store_true",
                     help="train the corpus in file order every epoch, as gensim and word2vec.c do "
                          "(default: a fresh seeded order of ~20k-token chunks each epoch)")
    w2v.add_argument("--batched", action="store_true",
                     help="skip-gram: train each window as one step on small dense products "
                          "(HogBatch; negatives shared across the window)")
    w2v.add_argument("--deterministic", action="store_true",
                     help="bitwise reproducible with several workers: fixed shards in private "
                          "replicas, merged in a fixed order (same seed and --workers, same vectors)")
    sub = parser.add_argument_group("subword vectors, fastText's model (--model sg|cbow --subwords)")
    sub.add_argument("--subwords", action="store_true",
                     help="add character n-grams to each word's input vector, so that a native save "
                          "(.wv) also gives vectors for words never seen in training")
    sub.add_argument("--min-n", type=ranged("min_n"), default=3, metavar="N",
                     help="shortest character n-gram (default 3)")
    sub.add_argument("--max-n", type=ranged("max_n"), default=6, metavar="N",
                     help="longest character n-gram (default 6)")
    sub.add_argument("--bucket", type=ranged("bucket"), default=2_000_000, metavar="N",
                     help="n-gram hash buckets (rows of the n-gram matrix; default 2000000)")
    train_count.add_arguments(parser)
    train_checkpoint.add_arguments(parser)
    train_estimate.add_arguments(parser)
    ray_run.add_training_arguments(parser)
    parser.set_defaults(run=run)
    gate.mark(parser, outputs=[gate.Output("output", gate.file_or_directory)],
              inputs=[gate.Input("corpus", text=True), "resume"])


default_workers = available_cores  # the name wordvec.cli.demo imports; one definition, in models.config


def run(args):
    if args.model in COUNT_MODELS and args.subwords:
        raise WordvecError(f"--subwords applies to --model sg or cbow, not {args.model}")
    output_format = check_vectors_output(args.output, inputs=[args.corpus])  # before hours of training
    if args.ray is not None:
        return ray_run.train(args, output_format)
    train_checkpoint.check_arguments(args)
    model = model_from_flags(args)  # the model first: bad options before a missing corpus
    corpus = open_corpus(args)
    if args.dry_run:
        return train_estimate.dry_run(args, model, corpus)
    model = train_checkpoint.train_model(args, model, corpus)
    save_trained(model, args.output, output_format)
    train_checkpoint.finished(args)
    return report(model.wv, args, history=model.history, estimate=model.estimate_memory())
