"""From ``wordvec train``'s flags to each model's keyword arguments (all but the corpus).

One place for the mapping, shared by the local commands (``wordvec.cli.train``,
``wordvec.cli.train_count``) and the Ray path (``wordvec.cli.ray_run``).  The flags
themselves are defined next to their commands; the defaults that differ by model
(GloVe's window 10 and 15 epochs) are filled in here.
"""

from wordvec.data.corpus import Corpus
from wordvec.models.glove import GloVe
from wordvec.models.svd import PPMISVD
from wordvec.models.word2vec import Word2Vec

WORD2VEC_MODELS = ("sg", "cbow")
COUNT_MODELS = ("glove", "svd")
GLOVE_DEFAULTS = {"window": 10, "epochs": 15}
SVD_DEFAULTS = {"window": 5}


def word2vec_options(args):
    """``Word2Vec`` keyword arguments from the command line (all but the corpus)."""
    return dict(
        vector_size=args.vector_size, window=args.window or 5,
        min_count=args.min_count, sg=int(args.model == "sg"), hs=int(args.loss == "hs"),
        negative=args.negative if args.loss == "ns" else 0, ns_exponent=args.ns_exponent,
        cbow_mean=0 if args.cbow_sum else 1, sample=args.sample, alpha=args.alpha,
        min_alpha=args.min_alpha, epochs=args.epochs or 5, workers=args.workers, seed=args.seed,
        max_vocab_size=args.max_vocab_size, loss="softmax" if args.loss == "softmax" else None,
        progress=not args.no_progress, lowercase=args.lowercase,
        max_document_length=args.max_document_length, shuffle=not args.no_shuffle,
        subwords=args.subwords, min_n=args.min_n, max_n=args.max_n, bucket=args.bucket,
        batched=args.batched, deterministic=args.deterministic, memory_check=not args.no_memory_check)


def count_options(args):
    """Keyword arguments GloVe and PPMISVD share (all but the corpus)."""
    return dict(vector_size=args.vector_size, min_count=args.min_count, symmetric=not args.asymmetric,
                seed=args.seed, max_vocab_size=args.max_vocab_size, memory=args.memory,
                lowercase=args.lowercase, max_document_length=args.max_document_length,
                progress=not args.no_progress, memory_check=not args.no_memory_check)


def glove_options(args):
    """``GloVe`` keyword arguments from the command line (all but the corpus)."""
    return dict(window=args.window or GLOVE_DEFAULTS["window"], epochs=args.epochs or GLOVE_DEFAULTS["epochs"],
                x_max=args.x_max, power=args.power, learning_rate=args.learning_rate, workers=args.workers,
                weighting=args.weighting or "harmonic", output=args.glove_output, **count_options(args))


def svd_options(args):
    """``PPMISVD`` keyword arguments from the command line (all but the corpus)."""
    return dict(window=args.window or SVD_DEFAULTS["window"], cds=args.cds, shift=args.shift,
                eig=args.eig, add_context=args.add_context, transform=args.transform,
                weighting=args.weighting or "uniform", solver=args.svd_solver,
                power_iterations=args.power_iterations, **count_options(args))


MODELS = {"sg": (Word2Vec, word2vec_options), "cbow": (Word2Vec, word2vec_options),
          "glove": (GloVe, glove_options), "svd": (PPMISVD, svd_options)}


def model_from_flags(args):
    """The untrained model ``--model`` names, with the flags' settings (checked here, before
    any file is read)."""
    model_class, options = MODELS[args.model]
    return model_class(**options(args))


def run_settings(args):
    """This run's settings of a model loaded from a checkpoint (not part of what it learned)."""
    return {"workers": args.workers, "progress": not args.no_progress, "memory_check": not args.no_memory_check}


def open_corpus(args):
    """The corpus, opened once for every use of this run (counting, training, fingerprint)."""
    return Corpus(args.corpus, lowercase=args.lowercase, max_document_length=args.max_document_length)
