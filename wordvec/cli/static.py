"""`wordvec static distill|train|pairs`: static sentence models (Model2Vec's kind).

    wordvec static distill all-MiniLM-L6-v2/ -o model --dims 256
    wordvec static train model corpus.txt -o model2 --teacher all-MiniLM-L6-v2/
    wordvec static pairs model2 pairs.tsv -o model3
    wordvec embed model3 sentences.txt -o sentences.npy
    wordvec similar model3 "a sentence" --sentences sentences.txt

A model is a Model2Vec directory (model.safetensors, tokenizer.json, config.json), which
`model2vec.StaticModel.from_pretrained` and sentence-transformers load as they are.
"""

import argparse
from pathlib import Path

from wordvec.cli import gate
from wordvec.cli.common import positive_float, positive_int
from wordvec.models.static.files import check_replaceable
from wordvec.models.static.model import StaticModel

EXAMPLES = """\
examples:
  wordvec static distill all-MiniLM-L6-v2/ -o minilm-static --dims 256
  wordvec static train minilm-static corpus.txt -o minilm-trained --teacher all-MiniLM-L6-v2/
  wordvec static pairs minilm-trained pairs.tsv -o minilm-pairs --matryoshka 32 64 128

TEACHER is a sentence-transformers directory of a BERT encoder (config.json,
model.safetensors, tokenizer.json; the teacher runs in NumPy, no torch).  CORPUS has one
sentence a line; the teacher's vectors of it are kept in --cache (default OUT.teacher-cache,
resumed if the run stops).  PAIRS has one anchor<TAB>positive pair a line.
"""


def register(subparsers):
    parser = subparsers.add_parser("static", description=__doc__.split("\n\n")[0], epilog=EXAMPLES,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="static_command", metavar="{distill,train,pairs}", required=True)
    distill = commands.add_parser("distill", help="a static model from a sentence transformer, without data",
                                  epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    distill.add_argument("teacher", metavar="TEACHER", help="sentence-transformers model directory")
    distill.add_argument("-o", "--output", required=True, metavar="MODEL", help="model directory to write")
    distill.add_argument("--dims", type=positive_int, default=256, metavar="D", help="PCA dimensions (default 256)")
    distill.add_argument("--sif-coefficient", type=positive_float, default=1e-4, metavar="A",
                         help="Zipf weights a / (a + p(rank)) (default 1e-4)")
    distill.set_defaults(run=run_distill)
    gate.mark(distill, outputs=[gate.Output("output", gate.directory, check_replaceable)], inputs=["teacher"])

    train = commands.add_parser("train", help="train a static model toward the teacher on unlabelled sentences",
                                epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    train.add_argument("model", metavar="MODEL", help="static model directory to start from")
    train.add_argument("corpus", metavar="CORPUS", help="text file, one sentence a line")
    train.add_argument("-o", "--output", required=True, metavar="MODEL2", help="model directory to write")
    train.add_argument("--teacher", required=True, metavar="TEACHER", help="the sentence-transformers directory")
    train.add_argument("--cache", metavar="DIR", help="where the teacher's vectors are kept (default OUT.teacher-cache)")
    train.add_argument("--epochs", type=positive_int, default=5, metavar="N")
    train.add_argument("--alpha", type=positive_float, default=0.25)
    train.add_argument("--min-alpha", type=positive_float, default=0.01)
    train.add_argument("--loss", choices=("cosine", "mse"), default="mse")
    train.add_argument("--fixed-weights", action="store_true", help="train the token rows only")
    train.add_argument("--threads", type=positive_int, default=2, metavar="N")
    train.set_defaults(run=run_train)
    gate.mark(train, outputs=[gate.Output("output", gate.directory, check_replaceable)],
              inputs=["model", gate.Input("corpus", text=True), "teacher", "cache"])

    pairs = commands.add_parser("pairs", help="train a static model contrastively on anchor<TAB>positive pairs",
                                epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    pairs.add_argument("model", metavar="MODEL", help="static model directory to start from")
    pairs.add_argument("pairs", metavar="PAIRS", help="text file, anchor<TAB>positive a line")
    pairs.add_argument("-o", "--output", required=True, metavar="MODEL3", help="model directory to write")
    pairs.add_argument("--epochs", type=positive_int, default=1, metavar="N")
    pairs.add_argument("--batch-size", type=positive_int, default=64, metavar="B")
    pairs.add_argument("--scale", type=positive_float, default=20.0, help="cosine scale of the softmax (default 20)")
    pairs.add_argument("--matryoshka", type=positive_int, nargs="+", default=(), metavar="K",
                       help="also train the first K dimensions alone (sizes summed into the loss)")
    pairs.add_argument("--alpha", type=positive_float, default=0.5)
    pairs.add_argument("--min-alpha", type=positive_float, default=0.01)
    pairs.add_argument("--fixed-weights", action="store_true", help="train the token rows only")
    pairs.set_defaults(run=run_pairs)
    gate.mark(pairs, outputs=[gate.Output("output", gate.directory, check_replaceable)],
              inputs=["model", gate.Input("pairs", text=True)])


def run_distill(args):
    model = StaticModel.distill(args.teacher, dims=args.dims, sif_coefficient=args.sif_coefficient)
    model.save(args.output)
    print(f"distilled {len(model)} tokens x {model.dim} dimensions from {args.teacher} into {args.output}")
    return 0


def run_train(args):
    model = StaticModel.load(args.model)
    earlier = len(model.history)
    cache = args.cache or str(Path(args.output)) + ".teacher-cache"
    model.fit(args.corpus, teacher=args.teacher, cache=cache, epochs=args.epochs, alpha=args.alpha,
              min_alpha=args.min_alpha, loss=args.loss, train_weights=not args.fixed_weights, threads=args.threads)
    model.save(args.output)
    losses = ", ".join(f"{h['loss']:.4f}" for h in model.history[earlier:])
    print(f"trained toward {args.teacher} ({args.loss} loss by epoch: {losses}); wrote {args.output}")
    return 0


def run_pairs(args):
    model = StaticModel.load(args.model)
    earlier = len(model.history)
    model.fit_pairs(args.pairs, epochs=args.epochs, batch_size=args.batch_size, scale=args.scale,
                    matryoshka=tuple(args.matryoshka), alpha=args.alpha, min_alpha=args.min_alpha,
                    train_weights=not args.fixed_weights)
    model.save(args.output)
    losses = ", ".join(f"{h['loss']:.4f}" for h in model.history[earlier:])
    print(f"trained on pairs (contrastive loss by epoch: {losses}); wrote {args.output}")
    return 0

