"""Checkpoints and resume for ``wordvec train`` (word2vec and GloVe).

``wordvec.cli.train.command`` adds these flags (``add_arguments``) and trains through
:func:`train_model`, which trains or resumes the model with a checkpointer that writes
checkpoints while it trains and turns Ctrl-C into "finish the current chunk, write a
checkpoint, exit 130 naming the command that resumes".  The mechanism itself is
``wordvec.io.checkpoint``.
"""

import argparse
import logging
import shlex
import shutil
import sys
from pathlib import Path

from wordvec.cli.train.options import run_settings
from wordvec.errors import WordvecError
from wordvec.io import checkpoint
from wordvec.io.formats import json_safe

log = logging.getLogger(__name__)
RESUMABLE = ("sg", "cbow", "glove")
IGNORED_OPTIONS = ("workers",  # may differ between the interrupted run and its resumption
                   # gensim's vocabulary/window options: no flag sets them, so a command
                   # line run always has their defaults, and checkpoints written before they existed resume
                   "sorted_vocab", "max_final_vocab", "shrink_windows")


def add_arguments(parser):
    group = parser.add_argument_group(
        "checkpoints (word2vec and GloVe)",
        "Ctrl-C during training finishes the current chunk (GloVe: epoch), writes a checkpoint "
        "and exits, naming the command that resumes; with --workers 1 the resumed run gives "
        "bitwise the vectors of an uninterrupted one.")
    group.add_argument("--checkpoint-every", metavar="EVERY", default=None, type=_every,
                       help="also write a checkpoint every EVERY: a duration (30s, 10min, 2h) or a "
                            "number of words (500kw, 5Mw, 2000000w; GloVe counts its non-zero "
                            "updates); GloVe checkpoints at the end of the epoch in which one falls due")
    group.add_argument("--checkpoint", metavar="DIR", default=None,
                       help="where checkpoints go (default OUT.checkpoint); removed once OUT is written")
    group.add_argument("--resume", metavar="CHECKPOINT", default=None,
                       help="continue the run saved in CHECKPOINT; give the same corpus and options "
                            "as the interrupted run (its command is in the interrupt message)")


def _every(text):
    try:
        return checkpoint.parse_every(text)
    except WordvecError as error:
        raise argparse.ArgumentTypeError(str(error).replace(f"--checkpoint-every {text!r} ", "", 1)) from None


def checkpoint_path(args):
    return Path(args.checkpoint) if args.checkpoint else Path(str(args.output) + ".checkpoint")


def check_arguments(args):
    """Up-front checks (before the corpus is read); returns the parsed --checkpoint-every."""
    if args.model not in RESUMABLE:
        if args.resume or args.checkpoint_every or args.checkpoint:
            raise WordvecError(f"--checkpoint-every, --checkpoint and --resume apply to word2vec and GloVe; "
                               f"--model {args.model} trains in one step")
        return None
    every = args.checkpoint_every  # (kind, amount) from the argument type
    path = checkpoint_path(args)
    if path.exists() and not (path / checkpoint.FILE).is_file():
        raise WordvecError(f"refusing to write checkpoints to {path}: it exists and is not a wordvec checkpoint "
                           f"(choose another with --checkpoint DIR)")
    if path.resolve() == Path(args.output).resolve():
        raise WordvecError(f"the checkpoint directory and the output are both {path}; choose another --checkpoint")
    return every


def train_model(args, model, corpus):
    """Train ``model`` (built by the caller, so that its options are checked before the
    corpus is read) on ``corpus``, writing checkpoints; with ``--resume``, the model of
    the checkpoint instead, with this run's settings.  Returns the trained model; the
    caller writes OUT and then calls :func:`finished`.  :func:`check_arguments` has run."""
    if args.model not in RESUMABLE:
        return model.fit(corpus_file=corpus)
    corpus_parts = json_safe(corpus.fingerprint_parts())
    options = {k: v for k, v in model.hyperparameters().items() if k not in IGNORED_OPTIONS}
    if args.resume:
        meta = checkpoint.read_metadata(args.resume)
        checkpoint.check_same_run(meta, args.resume, args.model, corpus_parts, options)
        model = type(model).load(args.resume, workers=args.workers, **run_settings(args))
        log.info("resuming %s from %s (%d epochs done)", args.model, args.resume, model.epochs_trained)
    path = checkpoint_path(args)
    checkpointer = checkpoint.Checkpointer(
        path, args.checkpoint_every, metadata={"model": args.model, "corpus": corpus_parts, "options": options,
                               "command": resume_command(path)},
        resume_hint=shlex.join(resume_command(path)))
    return model.fit(corpus, checkpointer=checkpointer)


def resume_command(path):
    """This process's command line with ``--resume PATH`` in place of any earlier one."""
    argv, kept, skip = sys.argv[1:], [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--resume":
            skip = True
        elif not arg.startswith("--resume="):
            kept.append(arg)
    return ["wordvec", *kept, "--resume", str(path)]


def finished(args):
    """OUT is written: the run's checkpoint is no longer needed."""
    if args.model not in RESUMABLE:
        return
    path = checkpoint_path(args)
    if (path / checkpoint.FILE).is_file():
        shutil.rmtree(path, ignore_errors=True)
        log.info("removed the checkpoint %s (the output is written)", path)
