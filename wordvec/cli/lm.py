"""`wordvec lm train|eval|sample`: recurrent (RNN, LSTM) and self-attention language models by hand.

    wordvec lm train TRAIN_FILE --valid FILE --level char|word --cell rnn|lstm|lstm-attention|attention
                     --hidden N --embedding N [--tie] [--blocks N] [--epochs N] [--bptt N]
                     [--batch-size N] [--lr F] [--clip F] [--seed N] -o MODEL
    wordvec lm eval MODEL FILE [--json]
    wordvec lm sample MODEL [-n N] [--temperature F] [--seed N]

Each line of a text file is one sequence followed by an end-of-line symbol.  MODEL is
a directory (npy + JSON), rewritten after every epoch; `--resume` continues it.
"""

import json
import logging
import math
import os
import sys

from wordvec.cli import gate
from wordvec.cli.common import fraction, nonnegative_float, positive_float, ranged
from wordvec.data.lm_data import LMVocab, read_lines, require_tokens
from wordvec.errors import WordvecError
from wordvec.models.lm.attention import AttentionLM
from wordvec.models.lm.checkpoint import check_replaceable
from wordvec.models.lm.training import blas_threads
from wordvec.models.lm.rnn import RNNLM

# Architecture options default to None so that --resume can tell "given" from "default".
ARCHITECTURE_DEFAULTS = {"level": "char", "cell": "lstm", "hidden": 128, "embedding": 64}


def register(subparsers):
    lm = subparsers.add_parser("lm", description=__doc__.split("\n\n")[0])
    actions = lm.add_subparsers(dest="lm_command", metavar="COMMAND", required=True)

    train = actions.add_parser("train", help="train a character- or word-level language model")
    train.add_argument("train_file", metavar="TRAIN_FILE", help="training text, one sequence per line")
    train.add_argument("--valid", metavar="FILE", help="validation text, scored after every epoch")
    train.add_argument("--level", choices=("char", "word"), help="tokens are characters or words (default char)")
    train.add_argument("--cell", choices=("rnn", "lstm", "lstm-attention", "attention"),
                       help="recurrent cell; lstm-attention: an LSTM attending to its past hidden states; "
                            "attention: a causal self-attention model (default lstm)")
    train.add_argument("--hidden", type=ranged("hidden"), metavar="N",
                       help="hidden size H; attention: the feed-forward width (default 128)")
    train.add_argument("--embedding", type=ranged("embedding"), metavar="N", help="embedding size D (default 64)")
    train.add_argument("--tie", action="store_true", help="tie input and output embeddings (seed 003)")
    train.add_argument("--blocks", type=int, default=2, metavar="N",
                       help="attention: number of self-attention blocks (default 2; its context is --bptt)")
    train.add_argument("--epochs", type=ranged("epochs"), default=10, metavar="N", help="total epochs (default 10)")
    train.add_argument("--bptt", type=ranged("bptt"), default=32, metavar="N", help="truncated-BPTT length T (default 32)")
    train.add_argument("--batch-size", type=ranged("batch_size"), default=32, metavar="N", help="parallel streams B (default 32)")
    train.add_argument("--optimizer", choices=("sgd", "adam"), default="adam", help="default adam")
    train.add_argument("--lr", type=positive_float, metavar="F", help="learning rate (default 0.002 adam, 1.0 sgd)")
    train.add_argument("--lr-decay", type=positive_float, default=1.0, metavar="F",
                       help="multiply the learning rate by F when the valid loss does not improve (default 1: off)")
    train.add_argument("--clip", type=nonnegative_float, default=5.0, metavar="F",
                       help="clip gradients to this global norm; 0 disables (default 5)")
    train.add_argument("--dropout", type=fraction, default=0.0, metavar="F", help="dropout rate (default 0)")
    train.add_argument("--relu", action="store_true", help="RNN: ReLU instead of tanh")
    train.add_argument("--identity-init", action="store_true", help="RNN: initialise W_aa to the identity")
    train.add_argument("--lowercase", action="store_true", help="lowercase the text")
    train.add_argument("--min-count", type=ranged("min_count"), default=1, metavar="N", help="word level: rarer words become <unk>")
    train.add_argument("--max-vocab", type=ranged("max_vocab"), metavar="N", help="word level: keep the N most frequent tokens")
    train.add_argument("--time-budget", type=positive_float, metavar="SECONDS", help="stop training after this long")
    train.add_argument("--max-updates", type=ranged("max_updates"), metavar="N", help="stop after N updates in all (resumable)")
    train.add_argument("--seed", type=ranged("seed"), default=1, metavar="N", help="random seed (default 1)")
    train.add_argument("--threads", type=ranged("threads"), default=1, metavar="N",
                       help="BLAS threads (default 1: the cell's small products run fastest single-threaded)")
    train.add_argument("--resume", action="store_true", help="continue training the checkpoint at -o MODEL")
    train.add_argument("--no-progress", action="store_true", help="no progress bar")
    train.add_argument("-o", "--output", required=True, metavar="MODEL",
                       help="model directory to write; an existing MODEL is refused unless --resume is given")
    train.set_defaults(run=run_train)
    gate.mark(train, outputs=[gate.Output("output", gate.directory, check_replaceable)],
              inputs=[gate.Input("train_file", text=True), gate.Input("valid", text=True)])

    evaluate = actions.add_parser("eval", help="cross-entropy and perplexity of a model on a file")
    evaluate.add_argument("model", metavar="MODEL")
    evaluate.add_argument("file", metavar="FILE")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object")
    evaluate.add_argument("--batch-size", type=ranged("batch_size"), default=16, metavar="N",
                          help="score the file as N contiguous pieces in parallel (default 16)")
    evaluate.set_defaults(run=run_eval)
    gate.mark(evaluate, inputs=["model", "file"])

    sample = actions.add_parser("sample", help="generate lines from a model")
    sample.add_argument("model", metavar="MODEL")
    sample.add_argument("-n", type=ranged("lines"), default=10, metavar="N", help="number of lines (default 10)")
    sample.add_argument("--temperature", type=positive_float, default=1.0, metavar="F", help="default 1.0")
    sample.add_argument("--max-length", type=ranged("max_length"), default=200, metavar="N", help="tokens per line at most")
    sample.add_argument("--seed", type=ranged("seed"), metavar="N", help="random seed (default: unpredictable)")
    sample.set_defaults(run=run_sample)
    gate.mark(sample, inputs=["model"])


def _load_for_resume(args):
    model = RNNLM.load(args.output)
    have = {"level": model.vocab.level, "cell": model.config.cell, "hidden": model.config.hidden_size,
            "embedding": model.config.embedding_size}
    for option, value in have.items():
        given = getattr(args, option)
        if given is not None and given != value:
            raise WordvecError(f"--{option} {given} conflicts with the checkpoint {args.output} ({value})")
    return model


def _new_model(args, opts, vocab):
    if opts["cell"] == "attention":
        if args.blocks < 1:
            raise WordvecError("--blocks must be at least 1")
        # Position vectors for --bptt positions: a segment is the whole context it sees.
        return AttentionLM(vocab, hidden_size=opts["hidden"], embedding_size=opts["embedding"], blocks=args.blocks,
                           context=args.bptt, tie_embeddings=args.tie, dropout=args.dropout, seed=args.seed)
    return RNNLM(vocab, cell=opts["cell"], hidden_size=opts["hidden"], embedding_size=opts["embedding"],
                 tie_embeddings=args.tie, activation="relu" if args.relu else "tanh",
                 identity_init=args.identity_init, dropout=args.dropout, seed=args.seed)


def run_train(args):
    if args.bptt < 1:
        raise WordvecError(f"--bptt must be at least 1 (a sequence length of {args.bptt} trains nothing)")
    if args.epochs < 1 or args.batch_size < 1:
        raise WordvecError("--epochs and --batch-size must be at least 1")
    for path in [args.train_file] + ([args.valid] if args.valid else []):
        if not os.path.isfile(path):
            raise WordvecError(f"file not found: {path}")
    if os.path.exists(args.output) and not args.resume:
        raise WordvecError(f"{args.output} already exists; pass --resume to continue training it, "
                           "or choose another -o (nothing was replaced)")
    if args.resume and os.path.isdir(args.output):
        model = _load_for_resume(args)
    else:
        if args.resume:
            logging.getLogger(__name__).warning("no checkpoint at %s yet: starting from scratch", args.output)
        opts = {k: v if getattr(args, k) is None else getattr(args, k) for k, v in ARCHITECTURE_DEFAULTS.items()}
        lines = read_lines(args.train_file, args.lowercase)
        require_tokens(lines, opts["level"], args.train_file)
        vocab = LMVocab.build(lines, opts["level"], args.lowercase, args.min_count, args.max_vocab)
        model = _new_model(args, opts, vocab)
    train_stream = model.vocab.encode_file(args.train_file)
    valid_stream = model.vocab.encode_file(args.valid) if args.valid else None
    model.fit(train_stream, valid_stream, epochs=args.epochs, bptt=args.bptt, batch_size=args.batch_size,
              lr=args.lr, optimizer=args.optimizer, clip=args.clip, lr_decay=args.lr_decay,
              progress=not args.no_progress, checkpoint=args.output, time_budget=args.time_budget,
              max_updates=args.max_updates,
              threads=args.threads)
    for record in model.history:
        valid = f", valid ppl {record['valid_perplexity']:.3f}" if "valid_perplexity" in record else ""
        print(f"epoch {record['epoch']}: train ppl {record['train_perplexity']:.3f}{valid}, "
              f"{record['tokens_per_sec']:.0f} tokens/s")
    print(f"saved {args.output} ({len(model.vocab)} tokens, {model.num_parameters} parameters)")
    return 0


def run_eval(args):
    model = RNNLM.load(args.model)
    stream = model.vocab.encode_file(args.file)
    unknown = model.vocab.unknown_rate(stream)
    if unknown > 0:
        logging.getLogger(__name__).warning("%.2f%% of the words of %s are not in the model's vocabulary "
                                            "and are scored as <unk>", 100 * unknown, args.file)
    with blas_threads(1):
        cross_entropy, tokens = model.evaluate(stream, batch_size=args.batch_size)
    result = {"cross_entropy": cross_entropy, "perplexity": math.exp(min(cross_entropy, 700.0)), "tokens": tokens}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"cross-entropy {cross_entropy:.4f} nats/token, perplexity {result['perplexity']:.3f} "
              f"over {tokens} tokens")
    return 0


def run_sample(args):
    if args.n < 1 or args.max_length < 1:
        raise WordvecError("-n and --max-length must be at least 1")
    model = RNNLM.load(args.model)
    with blas_threads(1):
        samples = model.sample(args.n, args.max_length, args.temperature, args.seed)
    for ids in samples:
        sys.stdout.write(model.vocab.decode(ids) + "\n")
    return 0
