"""`wordvec task ner|pos|sentiment|charlm`: train the window classifier on an extrinsic task.

Every task reads its folder (--data), trains with early stopping on the validation split
and reports its standard metric on valid and test; --json prints
{"task": ..., "valid": {...}, "test": {...}}.
"""

import argparse
import json
import os

from wordvec.cli import gate
from wordvec.cli.common import nonnegative_float, positive_float, ranged
from wordvec.errors import WordvecError
from wordvec.models.window.model import check_replaceable
from wordvec.tasks.charlm import run_charlm
from wordvec.tasks.ner import run_ner
from wordvec.tasks.pos import run_pos
from wordvec.tasks.sentiment import run_sentiment

TASKS = {
    "ner": ("named-entity recognition on CoNLL-2003; entity-level F1 as conlleval",
            "DIR holds train.txt.xz, valid.txt.xz and test.txt.xz in the CoNLL-2003 format (token POS chunk "
            "NER, IOB1 tags). Reports entity-level precision, recall and F1 (fractions) computed as the CoNLL "
            "conlleval script does; early stopping on the valid F1."),
    "pos": ("part-of-speech tagging on the Brown corpus; token accuracy",
            "DIR holds brown_tagged_original.tar.xz (read directly, never extracted). Split by file number: "
            "test = files whose number is a multiple of 10 (ca10, ca20, ...), valid = files whose number ends "
            "in 5 (ca05, ca15, ...), train = the rest. Tags: the -tl, -hl and -nc suffixes and the fw- prefix "
            "are removed (nn-tl -> nn, fw-nn -> nn); compound tags such as nn+bez are kept whole. Reports "
            "token accuracy."),
    "sentiment": ("sentence sentiment on the Stanford Sentiment Treebank; average of word vectors -> softmax",
                  "DIR holds trees/train.txt.xz, trees/dev.txt and trees/test.txt (PTB trees, root label = "
                  "sentence label). Reports 5-class accuracy and binary accuracy (neutral sentences dropped, "
                  "0-1 negative, 3-4 positive, a separate binary model). --window and --hidden do not apply."),
    "charlm": ("character model: next character from the previous M characters; cross-entropy",
               "--data is a text file or a folder of .txt files (e.g. tasks/charlm with dinos.txt); each line "
               "is a lowercased sequence ended by a newline the model also predicts. Lines i %% 10 == 0 are "
               "test, i %% 10 == 5 valid. --window is M, the number of previous characters (default 4). Reports "
               "cross-entropy in nats per character; --plot FILE.png draws the character embeddings in 2-D."),
}


def register(subparsers):
    parser = subparsers.add_parser("task", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    tasks = parser.add_subparsers(dest="task", metavar="COMMAND", required=True)
    for name, (summary, details) in TASKS.items():
        sub = tasks.add_parser(name, help=summary, description=f"{summary}.\n\n{details}")
        sub.add_argument("--data", required=True, metavar="DIR", help="the task's data folder (e.g. ../shared/data/tasks/conll2003)")
        if name != "charlm":
            sub.add_argument("--vectors", metavar="FILE", help="initialise E from these word vectors (.bin, .txt/.vec, "
                             ".glove, or a native .wv directory); lowercased lookup, unknown words share a learned UNK row")
            sub.add_argument("--fine-tune", action="store_true", help="also update the pretrained vectors (default: frozen)")
        sub.add_argument("--hidden", type=ranged("hidden_layer"), default=0, metavar="N", help="units of a tanh hidden layer (default 0: none, as in seed 000)")
        sub.add_argument("--window", type=ranged("task_window"), default=None, metavar="M",
                         help="context: m tokens left and right (default 2); for charlm, M previous characters (default 4)")
        sub.add_argument("--epochs", type=ranged("epochs"), default=None, metavar="N", help="maximum epochs (early stopping on valid)")
        sub.add_argument("--seed", type=ranged("seed"), default=1, metavar="N", help="random seed (default 1)")
        sub.add_argument("--json", action="store_true", help="print one JSON object with the valid and test scores")
        sub.add_argument("--lr", "--alpha", dest="alpha", type=positive_float, default=None, help="AdaGrad/SGD step size (default 0.05; for ner and pos 0.02 with --hidden)")
        sub.add_argument("--l2", type=nonnegative_float, default=None, help="L2 penalty λ on the weights and the embedding rows used (default 0)")
        sub.add_argument("--optimizer", choices=("adagrad", "sgd"), default=None, help="default adagrad")
        sub.add_argument("--batch-size", type=ranged("batch_size"), default=None, metavar="B")
        sub.add_argument("--patience", type=ranged("patience"), default=None, metavar="N", help="epochs without valid improvement before stopping")
        sub.add_argument("--dim", dest="vector_size", type=ranged("vector_size"), default=None, metavar="D",
                         help="embedding size when E is random (default 50; 10 for charlm)")
        if name == "charlm":
            sub.add_argument("--plot", metavar="FILE", help="write a PNG of the character embeddings (needs matplotlib)")
        if name in ("ner", "pos"):
            sub.add_argument("--save", metavar="DIR", help="save the trained classifier (config.json + .npy arrays)")
        sub.set_defaults(run=run)
        outputs = {"charlm": [gate.Output("plot")], "ner": [gate.Output("save", gate.directory, check_replaceable)],
                   "pos": [gate.Output("save", gate.directory, check_replaceable)]}
        gate.mark(sub, outputs=outputs.get(name, []), inputs=["data", "vectors"])


def run(args):
    for option in ("hidden", "epochs", "batch_size", "patience", "vector_size"):
        value = getattr(args, option, None)
        if value is not None and value < (0 if option in ("hidden", "patience") else 1):
            raise WordvecError(f"--{option.replace('_', '-')} must be a {'non-negative' if option in ('hidden', 'patience') else 'positive'} integer, not {value}")
    if args.window is not None and args.window < (1 if args.task == "charlm" else 0):
        raise WordvecError(f"--window must be {'positive' if args.task == 'charlm' else 'non-negative'}, not {args.window}")
    _check_outputs(args)
    options = {key: getattr(args, key) for key in ("alpha", "l2", "optimizer", "batch_size", "patience", "vector_size")}
    common = dict(hidden=args.hidden, epochs=args.epochs, seed=args.seed, **options)
    if args.window is not None:
        common["window"] = args.window
    if args.task == "charlm":
        result, model = run_charlm(args.data, plot=args.plot, **common)
    else:
        common.update(vectors=args.vectors, fine_tune=args.fine_tune)
        runner = {"ner": run_ner, "pos": run_pos, "sentiment": run_sentiment}[args.task]
        result, model = runner(args.data, **common)
    if getattr(args, "save", None):
        model.save(args.save)
    if args.json:
        print(json.dumps({key: result[key] for key in ("task", "valid", "test")}))
    else:
        print(format_result(result))
    return 0


PLOT_FORMATS = (".png", ".pdf", ".svg", ".jpg", ".jpeg", ".eps", ".ps", ".tif", ".tiff", ".webp")


def _check_outputs(args):
    """--plot's image format is checked before training, so a bad name does not cost the run
    (the output gate has checked that --plot and --save can be written)."""
    if getattr(args, "plot", None):
        if os.path.splitext(args.plot)[1].lower() not in PLOT_FORMATS:
            raise WordvecError(f"cannot tell the image format of --plot {args.plot}; "
                               f"use one of {', '.join(PLOT_FORMATS)}")


def format_result(result):
    lines = [f"task: {result['task']}"]
    for split in ("valid", "test"):
        scores = ", ".join(f"{key} {value:.4f}" for key, value in result[split].items() if isinstance(value, float))
        lines.append(f"{split}: {scores}")
    if result.get("plot"):
        lines.append(f"character embeddings plotted to {result['plot']}")
    return "\n".join(lines)
