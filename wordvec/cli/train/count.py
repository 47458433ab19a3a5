"""The flags of ``wordvec train`` for GloVe and PPMI-SVD (``--model glove|svd``).

``wordvec.cli.train.command`` defines the shared flags and calls ``add_arguments``; the flags
reach the models through ``wordvec.cli.train.options``.
"""

from wordvec.cli.common import finite_float, positive_float, ranged


def add_arguments(parser):
    count = parser.add_argument_group("GloVe and PPMI-SVD (--model glove|svd)")
    count.add_argument("--asymmetric", action="store_true",
                       help="count only the left context (GloVe's -symmetric 0)")
    count.add_argument("--weighting", choices=("harmonic", "uniform"), default=None,
                       help="co-occurrence weights: harmonic = 1/distance (glove default), "
                            "uniform = plain counts (svd default)")
    count.add_argument("--memory", default="2GB", metavar="SIZE",
                       help="memory for co-occurrence counting, e.g. 256MB (default 2GB)")
    glove = parser.add_argument_group("GloVe (--model glove; default window 10, epochs 15)")
    glove.add_argument("--x-max", type=float, default=100.0, metavar="F",
                       help="weighting cutoff x_max of f(x) = min(1, (x/x_max)^power) (default 100)")
    glove.add_argument("--power", type=float, default=0.75, metavar="F",
                       help="exponent of the weighting function, the paper's alpha (default 0.75)")
    glove.add_argument("--learning-rate", type=float, default=0.05, metavar="F",
                       help="AdaGrad learning rate (glove.c's -eta; default 0.05)")
    glove.add_argument("--glove-output", choices=("sum", "word"), default="sum",
                       help="vectors written: W + W~ (sum, default) or the word vectors W alone")
    svd = parser.add_argument_group("PPMI-SVD (--model svd; default window 5, uniform weights)")
    svd.add_argument("--cds", type=positive_float, default=0.75, metavar="F",
                     help="context distribution smoothing exponent (default 0.75)")
    svd.add_argument("--shift", type=positive_float, default=1.0, metavar="K",
                     help="subtract log K from the PMI (default 1: no shift)")
    svd.add_argument("--eig", type=finite_float, default=0.5, metavar="P",
                     help="word vectors U S^P (default 0.5)")
    svd.add_argument("--add-context", action="store_true", help="add the context vectors C S^P")
    svd.add_argument("--transform", choices=("ppmi", "log", "raw"), default="ppmi",
                     help="matrix factorised: ppmi (default), log(1 + X) or raw counts")
    svd.add_argument("--svd-solver", choices=("randomized", "arpack"), default="randomized",
                     help="randomized SVD (default) or scipy's ARPACK svds (exact; similar time on wordbench-10m)")
    svd.add_argument("--power-iterations", type=ranged("power_iterations"), default=8, metavar="N",
                     help="power iterations of the randomized SVD (default 8)")

