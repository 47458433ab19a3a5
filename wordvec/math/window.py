"""Window classifier: softmax over M concatenated embeddings, p(y|x) = softmax(xᵀ(I⊗E)W).

Two implementations of the same gradients:

* the **reference** (:func:`kronecker_log_likelihood`, :func:`kronecker_gradients`)
  follows seed 000 ("Embedding derivative derivation") literally: x is the MV×1
  concatenation of one-hot vectors, R = I⊗E is built explicitly, and dL/dE is
  assembled with the commutation matrix K and the vec-transpose. It costs O(M²V²) memory
  and is only for tiny sizes (tests, documentation).
* the **efficient** form (:func:`window_loss_and_gradients`) gathers the rows of E that
  the window names, does two (or three) dense matmuls, and scatter-adds the input
  gradient back into the rows with ``np.add.at`` (fancy ``+=`` would drop a token that
  appears twice in one window). It also covers what the trained model adds to the seed:
  a bias, an optional tanh hidden layer, a second feature table (the case embedding) and
  the L2 penalty of seed 002 ("Problem Formulation").

Notation. Seed 000 calls the embedding width H; here, following the project's names,
it is D (H is the hidden layer). V vocabulary, M window tokens, C classes, B batch.
Matrices are column-major in the seed (vec stacks columns), so reshapes below use
``order="F"`` wherever the seed's vec appears.
"""

import numpy as np

# ---------------------------------------------------------------------------
# Reference form (seed 000), for tiny V, M, D only
# ---------------------------------------------------------------------------


def vec(A):
    """vec(A): the columns of A stacked into one column (seed 000, Minka's notation)."""
    return np.asarray(A).reshape(-1, 1, order="F")


def commutation_matrix(p, q):
    """K_{p,q}, the pq×pq permutation with K_{p,q} vec(A) = vec(Aᵀ) for every p×q matrix A."""
    K = np.zeros((p * q, p * q))
    for i in range(p):
        for j in range(q):
            # A[i, j] sits at i + j*p in vec(A) and at j + i*q in vec(Aᵀ).
            K[j + i * q, i + j * p] = 1.0
    return K


def vec_transpose(A, p):
    """A^{(p)}: each column of the m×n matrix A, reshaped column-major into p×(m/p), stacked.

    The result is (p·n)×(m/p). Minka's identities hold: A^{(1)} = Aᵀ, A^{(m)} = vec(A),
    and (A^{(p)})^{(p)} = A.
    """
    A = np.asarray(A)
    m, n = A.shape
    if m % p:
        raise ValueError(f"vec-transpose needs p to divide the row count ({p} does not divide {m})")
    return np.vstack([A[:, j].reshape(p, m // p, order="F") for j in range(n)])


def one_hot_windows(word_ids, V):
    """x_n for every window: the MV×1 concatenations [x_1ᵀ … x_Mᵀ]ᵀ, as an N×MV matrix."""
    N, M = word_ids.shape
    X = np.zeros((N, M * V))
    for i in range(M):
        X[np.arange(N), i * V + word_ids[:, i]] = 1.0
    return X


def kronecker_log_likelihood(word_ids, labels, E, W):
    """The seed's objective L = Σ_n log p(y_n|x_n, W, E) with Θ = (I⊗E)W built explicitly.

    Shapes: word_ids (N, M) ints in [0, V), labels (N,), E (V, D), W (M·D, C) whose
    column c is W_c. Seed 000, sections "Softmax with embeddings" and "Log likelihood".
    """
    N, M = word_ids.shape
    V = E.shape[0]
    X = one_hot_windows(word_ids, V)  # N × MV
    R = np.kron(np.eye(M), E)  # MV × MD, the block-diagonal I⊗E
    scores = X @ R @ W  # N × C, entry (n, c) = x_nᵀ (I⊗E) W_c
    log_Z = _logsumexp(scores)
    return float(np.sum(scores[np.arange(N), labels] - log_Z))


def kronecker_gradients(word_ids, labels, E, W):
    """dL/dW and dL/dE of the seed's log likelihood (gradient *ascent* direction).

    dL/dW_c = Σ_n (y_nc − p_nc) ((I⊗E)ᵀ x_n)                        (seed 000, "Derivative
    with respect to the weights"; the seed writes the row x_nᵀ(I⊗E), here its column).

    dL/dE follows the seed's section "Derivative with respect to the embeddings": rewrite
    I⊗E = K_{M,V}(E⊗I)K_{D,M}, so that with a_n = K_{M,V}ᵀ x_n and b_c = K_{D,M} W_c,
    x_nᵀ(I⊗E)W_c = a_nᵀ(E⊗I)b_c = tr((a_n^{(M)})ᵀ b_c^{(M)} Eᵀ), and therefore

        dL/dE = Σ_n Σ_c (y_nc − p_nc) (a_n^{(M)})ᵀ b_c^{(M)}        (V×D).

    The seed's last line, K_{D,M}^{(M)ᵀ}(W_c x_nᵀ K_{M,V})^{(M)ᵀ}, multiplies a D×M²D by a
    D×M²V matrix and so cannot be evaluated as printed; the expression above is what its
    steps (commutation matrix, then vec-transpose to move dE last) give. Written out, it
    is Σ_i x_{n,i} w_{c,i}ᵀ: "the outer product of the features and weights rearranged
    into the shape of E", as the seed says.
    """
    N, M = word_ids.shape
    V, D = E.shape
    C = W.shape[1]
    X = one_hot_windows(word_ids, V)
    R = np.kron(np.eye(M), E)
    # The commutation identity the seed relies on; cheap to assert at these sizes.
    K_MV, K_DM = commutation_matrix(M, V), commutation_matrix(D, M)
    assert np.allclose(K_MV @ np.kron(E, np.eye(M)) @ K_DM, R)
    scores = X @ R @ W
    P = np.exp(scores - _logsumexp(scores)[:, None])
    Y = np.zeros((N, C))
    Y[np.arange(N), labels] = 1.0
    residual = Y - P  # (y_nc − p_nc)

    dW = np.zeros_like(W)
    dE = np.zeros_like(E)
    for n in range(N):
        x_n = X[n][:, None]  # MV × 1
        a_n = vec_transpose(K_MV.T @ x_n, M)  # M × V
        for c in range(C):
            dW[:, c] += residual[n, c] * (R.T @ x_n)[:, 0]
            b_c = vec_transpose(K_DM @ W[:, c][:, None], M)  # M × D
            dE += residual[n, c] * (a_n.T @ b_c)
    return {"W": dW, "E": dE}


def _logsumexp(scores):
    top = scores.max(axis=1)
    return top + np.log(np.exp(scores - top[:, None]).sum(axis=1))


# ---------------------------------------------------------------------------
# Efficient form: gather rows, matmul, scatter-add
# ---------------------------------------------------------------------------


def gather_windows(table, ids):
    """Rows of ``table`` (V×D) named by ``ids`` (B×M), concatenated per window: B×(M·D).

    This is xᵀ(I⊗E) without building either factor: block i of the result is x_iᵀE.
    """
    B, M = ids.shape
    return table[ids].reshape(B, M * table.shape[1])


def scatter_window_gradient(dX, ids, D):
    """Inverse of :func:`gather_windows` for gradients: (rows, dRows) with unique rows.

    dX is B×(M·D); every window slot's D-block is added into the row it was read from.
    ``np.add.at`` adds repeated rows (a token twice in a window) correctly.
    """
    rows, inverse = np.unique(ids.reshape(-1), return_inverse=True)
    grad_rows = np.zeros((rows.size, D), dtype=dX.dtype)
    np.add.at(grad_rows, inverse.reshape(-1), dX.reshape(-1, D))
    return rows, grad_rows


def softmax_cross_entropy(logits, labels):
    """Mean −log softmax(logits)[label] over the batch, and its gradient dlogits = (P − Y)/B."""
    B = logits.shape[0]
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_Z = np.log(np.exp(shifted).sum(axis=1))
    loss = float(np.mean(log_Z - shifted[np.arange(B), labels]))
    dlogits = np.exp(shifted - log_Z[:, None])
    dlogits[np.arange(B), labels] -= 1.0
    return loss, dlogits / B


def window_forward(params, features):
    """Logits (B×C) and the hidden activations (or None) for feature matrix ``features``.

    Without a hidden layer: logits = x W + b  (seed 000 plus a bias).
    With one:              h = tanh(x W1 + b1), logits = h W2 + b2.
    """
    if "W1" in params:
        h = np.tanh(features @ params["W1"] + params["b1"])
        return h @ params["W2"] + params["b2"], h
    return features @ params["W"] + params["b"], None


def window_loss_and_gradients(params, tables, labels, l2=0.0):
    """Loss and gradients of the window classifier on one minibatch.

    params: dense weights, either {"W" (F×C), "b" (C)} or {"W1" (F×H), "b1" (H),
        "W2" (H×C), "b2" (C)}.
    tables: list of (name, table V_t×D_t, ids B×M) feature tables (the word embedding E,
        optionally the case embedding); their gathered windows are concatenated, so
        F = M·Σ_t D_t.
    labels: (B,) class ids.
    l2: λ of seed 002's penalty λ Σ θ². It covers every dense weight and, so that an
        update costs O(B·M·D) rather than O(V·D), the table rows this minibatch uses.

    Loss = mean_n −log p(y_n|x_n) + λ(Σ dense θ² + Σ_t Σ_{rows used} ‖row‖²).
    Returns (loss, dense_grads dict, sparse_grads dict name → (rows, grad_rows)).
    """
    blocks = [gather_windows(table, ids) for _, table, ids in tables]
    features = np.concatenate(blocks, axis=1) if len(blocks) > 1 else blocks[0]
    logits, hidden = window_forward(params, features)
    loss, dlogits = softmax_cross_entropy(logits, labels)

    grads = {}
    if hidden is None:
        grads["W"] = features.T @ dlogits
        grads["b"] = dlogits.sum(axis=0)
        dfeatures = dlogits @ params["W"].T
    else:
        grads["W2"] = hidden.T @ dlogits
        grads["b2"] = dlogits.sum(axis=0)
        dz = (dlogits @ params["W2"].T) * (1.0 - hidden * hidden)  # tanh' = 1 − h²
        grads["W1"] = features.T @ dz
        grads["b1"] = dz.sum(axis=0)
        dfeatures = dz @ params["W1"].T

    sparse = {}
    start = 0
    for name, table, ids in tables:
        width = ids.shape[1] * table.shape[1]
        rows, grad_rows = scatter_window_gradient(dfeatures[:, start : start + width], ids, table.shape[1])
        start += width
        if l2:
            loss += l2 * float(np.sum(table[rows] ** 2))
            grad_rows += 2.0 * l2 * table[rows]
        sparse[name] = (rows, grad_rows)
    if l2:
        for name, weight in params.items():
            loss += l2 * float(np.sum(weight**2))
            grads[name] = grads[name] + 2.0 * l2 * weight
    return loss, grads, sparse


def densify(rows, grad_rows, shape):
    """A dense V×D gradient from (rows, grad_rows), for tests and small problems."""
    dense = np.zeros(shape, dtype=grad_rows.dtype)
    dense[rows] = grad_rows
    return dense


# ---------------------------------------------------------------------------
# Averaged input: one vector per sentence (the sentiment baseline)
# ---------------------------------------------------------------------------


def average_loss_and_gradients(params, E, token_ids, sentence_of_token, labels, l2=0.0):
    """Softmax over the average of a sentence's word vectors, x = (1/n) Σ_t E[w_t].

    Seed 002 ("Problem Formulation"): softmax(W x) with x a word vector, here the mean of
    the sentence's vectors, and the penalty λ Σ θ² (over W, b and the rows used).
    token_ids (T,) and sentence_of_token (T,) list the tokens of the B sentences
    (every sentence has at least one token); labels (B,).
    Backward: dx_b = dlogits_b Wᵀ, and every token of sentence b adds dx_b / n_b to its row.
    Returns (loss, {"W", "b"}, {"E": (rows, grad_rows)}).
    """
    B = labels.shape[0]
    lengths = np.bincount(sentence_of_token, minlength=B).astype(E.dtype)
    rows, local = np.unique(token_ids, return_inverse=True)
    weight = (1.0 / lengths)[sentence_of_token]
    x = np.zeros((B, E.shape[1]), dtype=E.dtype)
    np.add.at(x, sentence_of_token, E[token_ids] * weight[:, None])
    loss, dlogits = softmax_cross_entropy(x @ params["W"] + params["b"], labels)
    grads = {"W": x.T @ dlogits, "b": dlogits.sum(axis=0)}
    dx = dlogits @ params["W"].T
    grad_rows = np.zeros((rows.size, E.shape[1]), dtype=E.dtype)
    np.add.at(grad_rows, local.reshape(-1), dx[sentence_of_token] * weight[:, None])
    if l2:
        loss += l2 * (float(np.sum(E[rows] ** 2)) + sum(float(np.sum(p**2)) for p in params.values()))
        grad_rows += 2.0 * l2 * E[rows]
        grads = {name: g + 2.0 * l2 * params[name] for name, g in grads.items()}
    return loss, grads, {"E": (rows, grad_rows)}
