"""Word Mover's Distance (Kusner et al. 2015), as gensim 4.4's ``KeyedVectors.wmdistance``.

For two documents with normalised bags of words d1, d2 (count / document length, words
without a vector dropped first) and the Euclidean distances c(i, j) between the (unit, if
``norm``) vectors of word i of the first and word j of the second:

    WMD = min over T >= 0 of  sum_ij T_ij c(i, j)   subject to  sum_j T_ij = d1_i,  sum_i T_ij = d2_j

a transportation problem.  gensim solves it with POT's ``emd2``; here it is the same
linear programme solved exactly by SciPy's HiGHS (no extra dependency).  gensim's edge
cases are kept: a document left empty gives inf, a single distinct word in both gives 0,
and an all-zero distance matrix gives inf.
"""

import logging
from collections import Counter

import numpy as np

from wordvec.errors import WordvecError

logger = logging.getLogger(__name__)


def _bag(document):
    """(distinct words in first-seen order, their share of the document)."""
    counts = Counter(document)
    words = list(counts)
    return words, np.array([counts[w] / len(document) for w in words], dtype=np.float64)


def transport_cost(supply, demand, costs):
    """The minimal cost of moving ``supply`` (m,) onto ``demand`` (n,) at ``costs`` (m x n)."""
    from scipy.optimize import linprog  # here, not at the top: every load_vectors would pay ~0.1 s and ~15 MB

    m, n = costs.shape
    rows = np.kron(np.eye(m), np.ones((1, n)))   # sum_j T_ij = supply_i
    columns = np.kron(np.ones((1, m)), np.eye(n))  # sum_i T_ij = demand_j
    result = linprog(costs.ravel(), A_eq=np.vstack([rows, columns]), b_eq=np.concatenate([supply, demand]),
                     bounds=(0, None), method="highs")
    if result.status != 0:
        raise WordvecError(f"the word mover's distance could not be solved ({result.message})")
    return float(result.fun)


def wmdistance(kv, document1, document2, norm=True):
    """gensim's ``wmdistance`` on ``kv``: documents are lists of words."""
    kept1 = [token for token in document1 if token in kv]
    kept2 = [token for token in document2 if token in kv]
    if len(kept1) < len(document1) or len(kept2) < len(document2):
        logger.info("Removed %d and %d OOV words from document 1 and 2 (respectively).",
                    len(document1) - len(kept1), len(document2) - len(kept2))
    if not kept1 or not kept2:
        logger.warning("At least one of the documents had no words that were in the vocabulary.")
        return float("inf")
    if len(set(kept1) | set(kept2)) == 1:
        return 0.0
    words1, supply = _bag(kept1)
    words2, demand = _bag(kept2)
    vectors1 = np.array([kv.get_vector(w, norm=norm) for w in words1], dtype=np.float64)
    vectors2 = np.array([kv.get_vector(w, norm=norm) for w in words2], dtype=np.float64)
    from scipy.spatial.distance import cdist  # (see transport_cost)

    costs = cdist(vectors1, vectors2)
    if abs(costs.sum()) < 1e-8:
        logger.info("The distance matrix is all zeros. Aborting (returning inf).")
        return float("inf")
    return transport_cost(supply, demand, costs)
