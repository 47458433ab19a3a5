"""The layers around a recurrent cell: embedding lookup, affine output, softmax
cross-entropy, inverted dropout.  Readable NumPy, each ``*_forward`` beside its
``*_backward``; backward functions *add* (``+=``) into gradient buffers the caller
zeroed once per step, so an array used twice (tied input/output embeddings, seed 003)
simply receives both contributions.

Shapes: N tokens (= T*B), V vocabulary, D embedding size, H hidden size.
"""

import numpy as np

IGNORE = -1  # target id that contributes nothing to the loss (padding at a stream's end)
BLOCK_ELEMENTS = 160_000  # softmax rows per block: ~640 KB of float32, within L2


# ---------------------------------------------------------------- embedding lookup
def embedding_forward(E, ids):
    """E (V, D), ids int (...) -> X (..., D).

    Seed 003 (input embedding U): h = f(U^T c) with c one-hot, i.e. a row lookup.
    """
    return E[ids]


def embedding_backward(dE, ids, dX):
    """dE (V, D) += scatter of dX (..., D) onto rows ids (...).

    Seed 003, "U_k の逆伝播": only the rows of the words that occurred get a gradient.
    ``np.add.at`` because a repeated id must receive every one of its contributions.
    """
    np.add.at(dE, ids.reshape(-1), dX.reshape(-1, dE.shape[1]))


# ---------------------------------------------------------------- affine map
def linear_forward(X, W, b=None, out=None):
    """X (N, K), W (M, K), b (M,) or None -> Y (N, M) = X W^T + b, written into ``out``
    (N, M) when given (a buffer reused across updates).

    Seed 002 output layer W_y a<t> + b_y, written for a batch of row vectors.
    """
    Y = np.matmul(X, W.T, out=out)
    if b is not None:
        Y += b
    return Y


def linear_backward(dY, X, W, dW, db=None):
    """dY (N, M) -> dX (N, K); dW (M, K) += dY^T X; db (M,) += sum_n dY."""
    dW += dY.T @ X
    if db is not None:
        db += dY.sum(axis=0)
    return dY @ W


# ---------------------------------------------------------------- softmax cross-entropy
def softmax_cross_entropy_forward(logits, targets):
    """logits (N, V), targets int (N,) with IGNORE for padding -> (loss, probs, count).

    Seed 002: J = -(1/N) sum_t log yhat<t>_{y<t>}, the mean over the N' = ``count``
    non-ignored targets; probs (N, V) = softmax(logits) row-wise (computed in place
    over ``logits``, which the caller no longer needs).
    """
    probs = logits
    # Row blocks of ~640 KB stay in cache through the four passes (for a word model's
    # 512 x 10k logits: ~10 ms less per update); every row is computed as it would be
    # alone, so the numbers are the same as in one whole-array pass.
    rows = max(1, BLOCK_ELEMENTS // max(probs.shape[1], 1))
    for start in range(0, probs.shape[0], rows):
        block = probs[start : start + rows]
        block -= block.max(axis=1, keepdims=True)  # exp cannot overflow
        np.exp(block, out=block)
        block /= block.sum(axis=1, keepdims=True)
    valid = targets != IGNORE
    count = int(valid.sum())
    picked = probs[np.flatnonzero(valid), targets[valid]]
    # The log of the normalised probability; tiny floor only guards log(0) in float32.
    loss = -np.log(np.maximum(picked, np.finfo(probs.dtype).tiny)).sum(dtype=np.float64)
    return (loss / max(count, 1)), probs, count


def softmax_cross_entropy_backward(probs, targets, count):
    """probs (N, V) -> dlogits (N, V) = (yhat - onehot(y)) / count, zero rows for IGNORE.

    Seed 003, "V_k の逆伝播": dL/dscore_k = p_k - delta_{o,k}.  Overwrites ``probs``.
    """
    dlogits = probs
    valid = targets != IGNORE
    dlogits[np.flatnonzero(valid), targets[valid]] -= 1.0
    dlogits[~valid] = 0.0
    dlogits /= max(count, 1)
    return dlogits


# ---------------------------------------------------------------- inverted dropout
def dropout_forward(X, rate, rng):
    """X (...) -> (X * mask, mask), mask = Bernoulli(1-rate) / (1-rate); identity when rate=0."""
    if rate <= 0.0:
        return X, None
    mask = (rng.random(X.shape) >= rate).astype(X.dtype) / (1.0 - rate)
    return X * mask, mask


def dropout_backward(dY, mask):
    """dY (...) -> dX = dY * mask."""
    return dY if mask is None else dY * mask
