"""`wordvec doc2vec train|infer`: paragraph vectors (PV-DBOW, PV-DM) and inference.

    wordvec doc2vec train docs.txt -o docs.d2v --dm 0 --epochs 20
    wordvec doc2vec infer docs.d2v new.txt -o new.npy
    wordvec similar docs.d2v --docs 17

Every line of CORPUS is a document; its vector is row i of the model's document
vectors (tagged "i"), or with `--tags first-token` the line's first token is its tag.
"""

import argparse
from pathlib import Path

from wordvec.cli import gate, row_output
from wordvec.cli.common import nonnegative_float, positive_float, ranged
from wordvec.cli.row_output import check_rows_output, write_rows
from wordvec.errors import WordvecError
from wordvec.io import formats
from wordvec.models.doc2vec.model import Doc2Vec, is_doc2vec_model

EXAMPLES = """\
examples:
  wordvec doc2vec train reviews.txt -o reviews.d2v --dm 0 --vector-size 100 --epochs 20
  wordvec doc2vec train tagged.txt -o tagged.d2v --tags first-token
  wordvec doc2vec infer reviews.d2v unseen.txt -o unseen.npy
  wordvec doc2vec infer reviews.d2v unseen.txt -o unseen.txt   (word2vec text, keys 0..n-1)
"""


def register(subparsers):
    parser = subparsers.add_parser("doc2vec", description=__doc__.split("\n\n")[0], epilog=EXAMPLES,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="doc2vec_command", metavar="COMMAND", required=True)
    train = commands.add_parser("train", help="train document vectors on CORPUS (one document per line)",
                                epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    train.add_argument("corpus", metavar="CORPUS", help="text file (.txt, .gz, .bz2, .xz), one document per line")
    train.add_argument("-o", "--output", required=True, metavar="MODEL", help="model directory to write")
    train.add_argument("--dm", type=int, choices=(0, 1), default=1, help="1 PV-DM (default), 0 PV-DBOW")
    train.add_argument("--vector-size", type=ranged("vector_size"), default=100, metavar="D")
    train.add_argument("--window", type=ranged("window"), default=5, metavar="N")
    train.add_argument("--min-count", type=ranged("min_count"), default=5, metavar="N")
    train.add_argument("--negative", type=ranged("negative"), default=5, metavar="K")
    train.add_argument("--hs", type=int, choices=(0, 1), default=0, help="hierarchical softmax")
    train.add_argument("--sample", type=nonnegative_float, default=1e-3, metavar="T")
    train.add_argument("--epochs", type=ranged("epochs"), default=10, metavar="N")
    train.add_argument("--dbow-words", type=int, choices=(0, 1), default=0,
                       help="PV-DBOW: also train word vectors by skip-gram")
    train.add_argument("--dm-mean", type=int, choices=(0, 1), default=1, help="PV-DM: mean (1) or sum (0)")
    train.add_argument("--dm-concat", type=int, choices=(0, 1), default=0,
                       help="PV-DM: concatenate the document and the 2 x window word vectors (gensim's dm_concat)")
    train.add_argument("--alpha", type=positive_float, default=0.025)
    train.add_argument("--min-alpha", type=nonnegative_float, default=0.0001)
    train.add_argument("--workers", type=ranged("workers"), default=None, metavar="N")
    train.add_argument("--seed", type=ranged("seed"), default=1)
    train.add_argument("--tags", choices=("line", "first-token"), default="line",
                       help="tag documents by line number (default) or by their first token")
    train.set_defaults(run=run_train)
    gate.mark(train, outputs=[gate.Output("output", gate.directory, formats.check_replaceable)],
              inputs=[gate.Input("corpus", text=True)])

    infer = commands.add_parser("infer", help="vectors of new documents (one per line of FILE)",
                                epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    infer.add_argument("model", metavar="MODEL", help="a model saved by `wordvec doc2vec train`")
    infer.add_argument("file", metavar="FILE", help="text file, one document per line")
    infer.add_argument("-o", "--output", required=True, metavar="OUT",
                       help=row_output.HELP)
    infer.add_argument("--epochs", type=ranged("epochs"), default=None, metavar="N",
                       help="passes over each document (default: the model's epochs)")
    infer.add_argument("--alpha", type=positive_float, default=None, help="start rate (default: the model's)")
    infer.add_argument("--min-alpha", type=nonnegative_float, default=None)
    infer.add_argument("--seed", type=ranged("seed"), default=None)
    infer.add_argument("--workers", type=ranged("workers"), default=None, metavar="N")
    infer.set_defaults(run=run_infer)
    gate.mark(infer, outputs=[gate.Output("output", same_kind=_document_vectors_file)],
              inputs=["model", gate.Input("file", text=True)])


def _document_vectors_file(path):
    if path.suffix.lower() == ".npy":
        gate.file_magic(b"\x93NUMPY", "a .npy file")(path)


def run_train(args):
    if not Path(args.corpus).is_file():
        raise WordvecError(f"cannot read {args.corpus}: not a file (a document corpus is one file, one document a line)")
    model = Doc2Vec(corpus_file=args.corpus, dm=args.dm, vector_size=args.vector_size, window=args.window,
                    min_count=args.min_count, negative=args.negative, hs=args.hs, sample=args.sample,
                    epochs=args.epochs, dbow_words=args.dbow_words, dm_mean=args.dm_mean, dm_concat=args.dm_concat,
                    alpha=args.alpha,
                    min_alpha=args.min_alpha, workers=args.workers, seed=args.seed, tags=args.tags)
    model.save(args.output)
    last = model.history[-1]
    print(f"trained {model.config.describe()} on {len(model.tags)} documents, {len(model.vocab)} words: "
          f"loss {last['loss']:.4f} after {model.epochs_trained} epochs; saved to {args.output}")
    return 0


def run_infer(args):
    check_rows_output(args.output, inputs=[args.model, args.file])
    if not is_doc2vec_model(args.model):
        raise WordvecError(f"{args.model} is not a model saved by `wordvec doc2vec train`")
    if not Path(args.file).is_file():
        raise WordvecError(f"cannot read {args.file}: not a file")
    model = Doc2Vec.load(args.model)
    vectors = model.infer_vectors(args.file, epochs=args.epochs, alpha=args.alpha, min_alpha=args.min_alpha,
                                  seed=args.seed, workers=args.workers)
    write_rows(args.output, vectors)
    print(f"inferred {len(vectors)} document vectors of {vectors.shape[1]} dimensions into {args.output}")
    return 0
