"""word2vec reference math: loss and gradients of ONE training example, in NumPy.

These functions are the specification the compiled kernels (``wordvec.kernels.word2vec``)
must match, and what the gradient-check tests differentiate numerically.  They favour
clarity over speed and return *dense* gradients (same shape as the parameter matrices).

Shapes: V vocabulary, D vector size, K negatives, L Huffman code length, C context words.

    W_in     V x D      input vectors  v_w  (the word vectors users keep)
    W_out    V x D      output vectors v'_w (full softmax, negative sampling)
    W_inner  (V-1) x D  inner-node vectors of the Huffman tree (hierarchical softmax)

Structure (after fastText's ``loss.h``): an *output layer* takes a hidden vector h and
returns (loss, dL/dh, dL/dW_out).  Skip-gram's h is one input vector; CBOW's h is the
mean (or sum) of the context vectors and dL/dh flows back to every context row
(divided by C for the mean), scattered with ``np.add.at`` because a context may repeat
a word.

Naming of a training example, as in word2vec.c and gensim: skip-gram predicts the
*output word* from one *input word* (word2vec.c feeds the context word's input vector
and predicts the centre word; the pair is symmetric over a corpus); CBOW predicts the
centre word from its context.

The SGD step the kernels take is exactly ``W <- W - alpha * dL/dW`` with every term of
the example evaluated at the parameters *before* the step (see :func:`sgd_step`), except
that CBOW with the mean hands each context row the full ``-alpha dL/dh``, as word2vec
does (see :func:`cbow_step`: C times the gradient step, measured to matter).
word2vec.c and gensim interleave: they accumulate the input-vector update from each
output row before updating that row, but a row that occurs twice in one example (a
negative equal to the target, a repeated negative) is read the second time after its
first update; our kernels read all output rows before writing any, so the step is the
true gradient step even then.  The difference is O(alpha^2) and rare.
"""

import numpy as np

from wordvec.math.output_layers import (  # noqa: F401  (the output layers word2vec trains)
    hierarchical_softmax_output,
    log_sigmoid,
    negative_sampling_output,
    sigmoid,
    softmax_output,
)


# ----------------------------------------------------------------------------------------
# Skip-gram: h = v_input.  CBOW: h = mean (or sum) of the context input vectors.
# ----------------------------------------------------------------------------------------


def _skipgram(W_in, input_word, output_layer):
    h = W_in[input_word].copy()
    loss, dh, dW_out = output_layer(h)
    dW_in = np.zeros_like(W_in)
    dW_in[input_word] = dh                               # seed 001 section 1.4: v_wI -= α EH
    return loss, dW_in, dW_out


def _cbow(W_in, context, mean, output_layer):
    context = np.asarray(context, dtype=np.int64)
    if context.size == 0:
        raise ValueError("a CBOW example needs at least one context word")
    h = W_in[context].sum(axis=0)
    scale = 1.0 / context.size if mean else 1.0
    h *= scale                                           # seed 001 section 2: h = (1/C) Σ v_wc
    loss, dh, dW_out = output_layer(h)
    dW_in = np.zeros_like(W_in)
    np.add.at(dW_in, context, scale * dh)                # seed 001 section 2.3: (1/C) EH each
    return loss, dW_in, dW_out


def skipgram_softmax(W_in, W_out, input_word, output_word):
    """Skip-gram, full softmax: -log p(output | input); seed 002 "Skip-Gram Model" (one
    term of J), seed 001 sections 1.2-1.4, seed 004 section 1.
    Returns (loss, dW_in (V, D), dW_out (V, D))."""
    return _skipgram(W_in, input_word, lambda h: softmax_output(h, W_out, output_word))


def skipgram_negative_sampling(W_in, W_out, input_word, output_word, negatives):
    """Skip-gram with negative sampling; seed 002 "Negative Sampling" (skip-gram
    objective), seed 004 section 2.  Returns (loss, dW_in, dW_out)."""
    return _skipgram(
        W_in, input_word, lambda h: negative_sampling_output(h, W_out, output_word, negatives)
    )


def skipgram_hierarchical_softmax(W_in, W_inner, input_word, points, codes):
    """Skip-gram with hierarchical softmax along the output word's Huffman path
    (``points``, ``codes``); seed 002 "Hierarchical Softmax".
    Returns (loss, dW_in, dW_inner)."""
    return _skipgram(W_in, input_word, lambda h: hierarchical_softmax_output(h, W_inner, points, codes))


def cbow_softmax(W_in, W_out, context, output_word, mean=True):
    """CBOW, full softmax; seed 001 section 2 (multi-word context), seed 002 "CBOW",
    seed 004 section 1.  ``mean=False`` uses the sum of the context vectors.
    Returns (loss, dW_in, dW_out)."""
    return _cbow(W_in, context, mean, lambda h: softmax_output(h, W_out, output_word))


def cbow_negative_sampling(W_in, W_out, context, output_word, negatives, mean=True):
    """CBOW with negative sampling; seed 002 "Negative Sampling" (CBOW objective),
    seed 004 section 2, seed 001 section 2.3 for the scatter to the context.
    Returns (loss, dW_in, dW_out)."""
    return _cbow(W_in, context, mean, lambda h: negative_sampling_output(h, W_out, output_word, negatives))


def cbow_hierarchical_softmax(W_in, W_inner, context, points, codes, mean=True):
    """CBOW with hierarchical softmax; seed 002 "Hierarchical Softmax", seed 001
    section 2.3.  Returns (loss, dW_in, dW_inner)."""
    return _cbow(W_in, context, mean, lambda h: hierarchical_softmax_output(h, W_inner, points, codes))


# ----------------------------------------------------------------------------------------
# Skip-gram, one window at a time (HogBatch): the pairs of a window share the output rows
# ----------------------------------------------------------------------------------------


def batched_logistic_output(H, W_out, rows, labels):
    """The logistic terms of a whole window at once: C hidden vectors against R output rows.

    Every row of ``H`` (C x D) meets every output row ``W_out[rows]`` (R x D) in one
    logistic regression with label ``labels[r]`` (1 or 0).  In matrix form (Ji et al.
    2016, "Parallelizing Word2Vec in Shared and Distributed Memory", HogBatch):

        S  = H O^T                       scores            (C x R),  O = W_out[rows]
        J  = -Σ_{c,r} log σ((2 y_r - 1) S_cr)
        G  = σ(S) - 1 y^T                dJ/dS             (C x R)
        dJ/dH = G O                      seed 004 (2.1), one row per hidden vector
        dJ/dO = G^T H                    seed 004 (2.2), a rank-C update of the R rows

    A row listed twice in ``rows`` (a negative equal to the target, a repeated negative)
    gets the sum of its updates (``np.add.at``), as in :func:`negative_sampling_output`.
    Shapes: H (C, D), W_out (V, D), rows (R,), labels (R,) -> loss, dH (C, D), dW_out (V, D).
    """
    rows = np.asarray(rows, dtype=np.int64)
    labels = np.asarray(labels, dtype=np.float64)
    O = W_out[rows]                                      # (R, D)
    S = H @ O.T                                          # (C, R): the small dense product
    loss = -np.sum(log_sigmoid((2.0 * labels - 1.0) * S))
    G = sigmoid(S) - labels                              # dJ/dS, labels broadcast over rows
    dH = G @ O                                           # (2.1) for every hidden vector
    dW_out = np.zeros_like(W_out)
    np.add.at(dW_out, rows, G.T @ H)                     # (2.2), repeats summed
    return float(loss), dH, dW_out


def _skipgram_window(W_in, inputs, rows, labels, W_second):
    inputs = np.asarray(inputs, dtype=np.int64)
    loss, dH, d_second = batched_logistic_output(W_in[inputs], W_second, rows, labels)
    dW_in = np.zeros_like(W_in)
    np.add.at(dW_in, inputs, dH)                         # a word twice in the window: both
    return loss, dW_in, d_second


def skipgram_negative_sampling_window(W_in, W_out, inputs, output_word, negatives):
    """Skip-gram with negative sampling over one window whose pairs share their negatives.

    J = Σ_c [ -log σ(v'_o^T v_c) - Σ_k log σ(-v'_k^T v_c) ]  over the window's input
    words c (seed 002 "Negative Sampling", skip-gram objective, summed over the pairs
    that predict the same output word o with the same K negatives), computed as the
    (C x (1+K)) product of :func:`batched_logistic_output`.

    The batched step is ``W <- W - alpha dJ/dW`` with dJ/dW taken at the parameters
    before the window: every pair reads the output rows v'_o, v'_k as they were before
    any pair of the window moved them.  The sequential per-pair steps
    (:func:`skipgram_negative_sampling` once per pair, the kernels' ``batched=False``)
    instead let pair c+1 read the rows already moved by pairs 1..c, and, when a word
    occurs twice in the window, its input row too.  The two differ by O(alpha^2) per
    window -- the staleness HogBatch accepts to turn C x (1+K) dot products and row
    updates into three small dense products.  Equal to the sum of the per-pair
    reference gradients at fixed parameters (tested).
    Returns (loss, dW_in (V, D), dW_out (V, D)).
    """
    rows = np.concatenate(([output_word], np.asarray(negatives, dtype=np.int64)))
    labels = np.zeros(rows.size)
    labels[0] = 1.0
    return _skipgram_window(W_in, inputs, rows, labels, W_out)


def skipgram_hierarchical_softmax_window(W_in, W_inner, inputs, points, codes):
    """Skip-gram with hierarchical softmax over one window: every input word c predicts
    the same output word, so every pair walks the same Huffman path (``points``,
    ``codes``).  J = Σ_c -Σ_l log σ((1 - 2 code_l) θ_l^T v_c) (seed 002 "Hierarchical
    Softmax"), the (C x L) product of :func:`batched_logistic_output` with labels
    1 - code_l.  Same batched step and the same staleness as
    :func:`skipgram_negative_sampling_window`: all pairs read the path's node vectors as
    they were before the window.  Returns (loss, dW_in, dW_inner).
    """
    labels = 1.0 - np.asarray(codes, dtype=np.float64)
    return _skipgram_window(W_in, inputs, np.asarray(points, dtype=np.int64), labels, W_inner)


def cbow_step(W_in, second, context, grads, alpha, mean=True, lockf=None):
    """word2vec's CBOW update for one example, given its gradients ``grads = (dW_in, dW_second)``.

    The output rows take the plain step ``-alpha * dL/dW``.  The context rows take
    ``-alpha * dL/dh`` each, which for the mean is C times their true gradient step
    ``-alpha * dL/dh / C`` (seed 001 section 2.3): word2vec.c and gensim do this, and we
    follow them because it matters -- with the exact 1/C step, CBOW at the usual
    alpha=0.025 learns input vectors C times more slowly (measured on wordbench-10m,
    5 epochs: Google analogy 11.7% instead of ~27%).  For the sum, dL/dv_c = dL/dh, so
    the two coincide.  ``lockf``: the input rows' learning-rate factors, as in
    :func:`sgd_step`.  Returns the new (W_in, second).
    """
    dW_in, d_second = grads
    C = np.asarray(context).size
    input_rate = alpha * C if mean else alpha
    return locked_step(W_in, dW_in, input_rate, lockf), second - alpha * d_second


def sgd_step(params, grads, alpha, lockf=None):
    """The update every kernel performs for one example: p <- p - alpha * dL/dp.

    All gradients are evaluated at the parameters before the step (see the module
    docstring for how this differs from word2vec.c's interleaved order).
    ``params`` and ``grads`` are sequences of arrays, the input vectors W_in first; returns
    new arrays.  ``lockf`` (V,): gensim's ``vectors_lockf``, a learning-rate factor per
    input row (:func:`locked_step`); the other parameters take the plain step.
    """
    first = locked_step(params[0], grads[0], alpha, lockf)
    return [first] + [p - alpha * g for p, g in zip(params[1:], grads[1:])]


def locked_step(W_in, dW_in, rate, lockf=None):
    """The input vectors' step with gensim's per-row learning-rate factors λ (``vectors_lockf``):

        v_w <- v_w - rate λ_w dL/dv_w        seed 001 section 1.4's v_wI -= α EH, row by row

    λ_w = 0 locks row w (it never moves), 1 is the plain step, and no ``lockf`` means 1 for
    every row.  gensim reads λ of row w at ``w mod len(lockf)``, so one value applies to all.
    """
    if lockf is None:
        return W_in - rate * dW_in
    lockf = np.asarray(lockf, dtype=np.float64)
    factors = lockf[np.arange(W_in.shape[0]) % lockf.size]
    return W_in - rate * factors[:, None] * dW_in
