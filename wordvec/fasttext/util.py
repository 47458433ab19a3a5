"""fastText's ``fasttext.util``: ``test``, ``find_nearest_neighbor``, ``reduce_model``
(``download_model`` fetches from the network and is left out)."""

import numpy as np


def test(predictions, labels, k=1):
    """(precision, recall) of predicted label lists against gold label lists, as fastText's test."""
    hits = 0.0
    examples = n_labels = 0
    for prediction, gold in zip(predictions, labels):
        hits += sum(1 for p in prediction if p in gold)
        examples += 1
        n_labels += len(gold)
    return hits / (k * examples), hits / n_labels


def find_nearest_neighbor(query, vectors, ban_set, cossims=None):
    """The index of the row of ``vectors`` of largest dot product with ``query``, outside ``ban_set``."""
    if cossims is None:
        cossims = np.matmul(vectors, query)
    else:
        np.matmul(vectors, query, out=cossims)
    for index in np.argsort(-cossims, kind="stable"):
        if index not in ban_set:
            return index
    raise ValueError("every row is in ban_set")


def _reduce_matrix(X_orig, dim, eigv):
    """X_orig projected on ``eigv``, or on the ``dim`` eigenvectors of largest eigenvalue of
    the covariance of its first 100,000 rows (float32 throughout; fastText takes the first
    ``dim`` that ``np.linalg.eig`` lists, in no particular order)."""
    if eigv is None:
        X = X_orig[:100000]
        X = X - X.mean(axis=0, dtype=np.float32)
        C = np.divide(np.matmul(X.T, X), X.shape[0] - 1, dtype=np.float32)
        values, U = np.linalg.eigh(C)
        eigv = np.ascontiguousarray(U[:, np.argsort(-values, kind="stable")[:dim]], dtype=np.float32)
    return np.matmul(X_orig, eigv), eigv


def reduce_model(ft_model, target_dim):
    """Reduce both matrices of ``ft_model`` to ``target_dim`` columns by PCA (in place)."""
    inp_reduced, proj = _reduce_matrix(ft_model.get_input_matrix(), target_dim, None)
    out_reduced, _ = _reduce_matrix(ft_model.get_output_matrix(), target_dim, proj)
    ft_model.set_matrices(inp_reduced, out_reduced)
    return ft_model
