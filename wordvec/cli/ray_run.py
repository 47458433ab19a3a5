"""``--ray [ADDRESS]`` for ``wordvec vocab``, ``cooccur`` and ``train``: the same work on a
Ray cluster (``wordvec.distributed``).  Ray itself, and the distributed counting and
training (which load SciPy: ~0.25 s of every local ``wordvec train`` otherwise), are
imported only when the flag is used."""

import time

from wordvec.cli.common import nonnegative_int, positive_int
from wordvec.cli.train.options import COUNT_MODELS, model_from_flags
from wordvec.cli.train.output import report, save_trained
from wordvec.data.corpus import Corpus
from wordvec.data.encode import encode_corpus
from wordvec.distributed import DEFAULT_HOT_ROWS, DEFAULT_SYNC, DEFAULT_SYNC_EVERY, GLOVE_SYNC_EVERY, SYNC_MODES
from wordvec.errors import WordvecError

RAY_HELP = ("run on a Ray cluster: ADDRESS (HOST:PORT of a `ray start --head`, or 'auto') or, "
            "without one, a private local cluster; needs the ray extra (pip install -e '.[ray]')")


def add_ray_argument(parser):
    group = parser.add_argument_group("Ray cluster")
    group.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS", help=RAY_HELP)
    return group


def add_training_arguments(parser):
    group = add_ray_argument(parser)
    group.add_argument("--workers-per-node", type=positive_int, default=None, metavar="N",
                       help="with --ray: training workers (Ray actors, one core each) per node "
                            "(default: the node's CPUs)")
    group.add_argument("--sync", choices=SYNC_MODES, default=DEFAULT_SYNC,
                       help=f"with --ray: combine replicas by sparse deltas of the rows touched, added "
                            f"(sparse-sum) or averaged over the workers that touched a row (sparse), or by "
                            f"averaging whole models (average); default {DEFAULT_SYNC}")
    group.add_argument("--sync-every", type=positive_int, default=None, metavar="N",
                       help=f"with --ray: synchronise every row after N words (GloVe: co-occurrences) per "
                            f"worker (default {DEFAULT_SYNC_EVERY:,} words, GloVe {GLOVE_SYNC_EVERY:,} "
                            f"co-occurrences)")
    group.add_argument("--hot-rows", type=nonnegative_int, default=None, metavar="N",
                       help="with --ray, word2vec: also synchronise the N busiest rows of each matrix (the "
                            "most frequent words', their Huffman nodes) every --hot-sync-every words "
                            f"(default {DEFAULT_HOT_ROWS:,}; 0: off)")
    group.add_argument("--hot-sync-every", type=positive_int, default=None, metavar="N",
                       help="with --hot-rows: words per worker between syncs of the hot rows "
                            "(default: a tenth of --sync-every)")


def count_vocabulary(args):
    """(vocabulary, invalid UTF-8 sequences replaced) counted on the cluster."""
    from wordvec.distributed import cluster, counting
    with cluster.connect(args.ray):
        vocab, info = counting.count_vocabulary(
            args.corpus, min_count=args.min_count, max_vocab_size=args.max_vocab_size,
            lowercase=args.lowercase, max_document_length=args.max_document_length)
    return vocab, info["decode_errors"]


def count_cooccurrences(args, dtype):
    """(vocabulary, X, info) counted on the cluster."""
    from wordvec.distributed import cluster, counting
    with cluster.connect(args.ray):
        return counting.count_cooccurrences(
            args.corpus, window=args.window, symmetric=not args.asymmetric, weighting=args.weighting,
            memory=args.memory, min_count=args.min_count, max_vocab_size=args.max_vocab_size,
            lowercase=args.lowercase, max_document_length=args.max_document_length, dtype=dtype)


def train(args, output_format):
    """``wordvec train --ray``: count on the cluster, then train data-parallel there."""
    from wordvec.distributed import cluster, counting, training
    if args.model == "svd":
        raise WordvecError("--ray trains word2vec (sg, cbow) and glove; PPMI-SVD has no data-parallel "
                           "training (count its matrix with `wordvec cooccur --ray`)")
    if getattr(args, "subwords", False):
        raise WordvecError("--ray does not train subword vectors yet (their n-gram rows are not "
                           "synchronised); drop --subwords or --ray")
    if args.model in COUNT_MODELS and (args.hot_rows is not None or args.hot_sync_every is not None):
        raise WordvecError("--hot-rows and --hot-sync-every are for word2vec; GloVe's workers update "
                           "disjoint entries of X, every row alike")
    if args.hot_sync_every is not None and args.hot_rows == 0:
        raise WordvecError("--hot-sync-every needs hot rows; drop --hot-rows 0")
    given = {"sync_every": args.sync_every, "hot_rows": args.hot_rows, "hot_sync_every": args.hot_sync_every}
    options = dict(workers_per_node=args.workers_per_node, sync=args.sync,  # else each trainer's default
                   **{name: value for name, value in given.items() if value is not None})
    model = model_from_flags(args)  # bad options before a cluster is started
    started = time.perf_counter()
    with cluster.connect(args.ray):
        if args.model in COUNT_MODELS:
            vocab, matrix, info = counting.count_cooccurrences(
                args.corpus, window=model.window, symmetric=model.symmetric, weighting=model.weighting,
                memory=model.memory, min_count=model.min_count, max_vocab_size=model.max_vocab_size,
                lowercase=model.lowercase, max_document_length=model.max_document_length)
            model.set_cooccurrence(vocab.words, vocab.counts, matrix)
            model.counting = info
            training.train_glove(model, **options)
        else:
            vocab, _ = counting.count_vocabulary(
                args.corpus, min_count=model.min_count, max_vocab_size=model.max_vocab_size,
                lowercase=model.lowercase, max_document_length=model.max_document_length)
            model.set_vocabulary(vocab)
            corpus = Corpus(args.corpus, lowercase=model.lowercase, max_document_length=model.max_document_length)
            training.train_word2vec(model, encode_corpus(corpus, vocab), **options)
    if not args.json:
        print(f"trained on the Ray cluster in {time.perf_counter() - started:.1f} s "
              f"({model.history[-1]['workers']} workers, {model.history[-1]['restarts']} restarts)")
    save_trained(model, args.output, output_format)
    return report(model.wv, args, history=model.history)
