"""A 2-D picture of word vectors: principal component analysis of the top words.

Shared by ``wordvec report`` (a static map) and ``wordvec serve`` (the interactive map), so
the two show the same layout for the same words.
"""

import numpy as np


def pca_2d(vectors):
    """N x 2 float64 coordinates of the rows of ``vectors`` on their first two principal axes.

    The rows are scaled to unit length first (the map shows cosine neighbourhoods, not
    vector lengths), centred, and projected on the top two right singular vectors.
    Each axis's sign is fixed so that its largest loading is positive, so the picture
    does not flip between runs.  Fewer than two rows, or zero variance, give zeros.
    """
    X = np.asarray(vectors, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] < 2:
        return np.zeros((X.shape[0] if X.ndim == 2 else 0, 2))
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    X = X / np.where(norms > 0, norms, 1.0)
    X = X - X.mean(axis=0)
    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    axes = Vt[:2]
    if axes.shape[0] < 2:
        axes = np.vstack([axes, np.zeros((2 - axes.shape[0], X.shape[1]))])
    signs = np.sign(axes[np.arange(2), np.abs(axes).argmax(axis=1)])
    axes = axes * np.where(signs == 0, 1.0, signs)[:, None]
    return X @ axes.T


def explained_variance(vectors, coords):
    """Fraction of the (unit-row, centred) variance the two axes of ``coords`` explain."""
    X = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    X = X / np.where(norms > 0, norms, 1.0)
    total = float(((X - X.mean(axis=0)) ** 2).sum())
    return float((np.asarray(coords) ** 2).sum() / total) if total > 0 else 0.0
