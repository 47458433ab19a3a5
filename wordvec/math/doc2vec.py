"""Paragraph vectors (Le & Mikolov 2014) reference math: loss and gradients of ONE example.

Both models are word2vec objectives with one more input row, the document's own row
``P[doc]`` of the document matrix ``P`` (N documents x D).  The output layers are
word2vec's (``wordvec.math.word2vec``): negative sampling (seed 004 section 2, seed 002
"Negative Sampling") and hierarchical softmax (seed 002 "Hierarchical Softmax").

PV-DBOW ("distributed bag of words") is skip-gram whose input word is the document:

    h = P[doc]                       (seed 001 section 1: h copies one input row)
    J = output_layer(h, word)        for every word of the document
    dJ/dP[doc] = dJ/dh               (seed 001 section 1.4, EH)

PV-DM ("distributed memory") is CBOW whose context also holds the document's row:

    h = (P[doc] + sum_c W_in[c]) / (1 + C)    mean   (seed 001 section 2, one more row)
    h =  P[doc] + sum_c W_in[c]               sum
    dJ/dP[doc] = dJ/dW_in[c] = dJ/dh / (1 + C) (mean) or dJ/dh (sum)   (seed 001 sec. 2.3)

PV-DM with concatenation (gensim's ``dm_concat=1``) keeps every input row in a block of
its own: the hidden vector is the concatenation of T document rows (gensim's
``dm_tag_count``) and the 2W word rows of the window around the predicted word, a word
missing past either end of the document replaced by the null word's row (gensim's
``\0``), so the output rows are (T + 2W) D wide:

    h = [P[t_1]; ...; P[t_T]; W_in[s_1]; ...; W_in[s_2W]]      seed 000 "Softmax with
                                                               embeddings": x^T (I ⊗ E)
    dJ/dP[t_m] = (dJ/dh)_m,   dJ/dW_in[s_j] = (dJ/dh)_{T+j}     (block m of dJ/dh, D wide)

Every block is the row's own gradient: the SGD step (:func:`pv_dm_concat_step`) is the
plain ``W <- W - alpha dJ/dW``, and a row in several blocks takes each block's step.

Inference trains a new document's row against frozen word and output rows: the same
losses, the gradient with respect to the document row only (:func:`inference_gradient`).

The SGD step of PV-DM with the mean (:func:`pv_dm_step`) hands the document row and
every context row the full ``-alpha dJ/dh``, (1 + C) times their true gradient step,
as word2vec's CBOW does (``wordvec.math.word2vec.cbow_step``) and as gensim's
``train_document_dm`` does.  Everything else is the plain ``W <- W - alpha dJ/dW``.

Shapes: N documents, V vocabulary, D vector size, K negatives, L Huffman path length.
"""

import numpy as np

from wordvec.math.word2vec import hierarchical_softmax_output, negative_sampling_output


def _output_layer(W_second, word, negatives=None, points=None, codes=None):
    """The output layer closure: negative sampling when ``negatives`` is given, else HS."""
    if negatives is not None:
        return lambda h: negative_sampling_output(h, W_second, word, negatives)
    return lambda h: hierarchical_softmax_output(h, W_second, points, codes)


def pv_dbow(P, doc, output_layer):
    """PV-DBOW: the document row is the hidden vector.  Returns (loss, dP, dW_second)."""
    h = P[doc].astype(np.float64)
    loss, dh, d_second = output_layer(h)
    dP = np.zeros_like(P)
    dP[doc] = dh                                         # seed 001 section 1.4: v_wI -= alpha EH
    return loss, dP, d_second


def pv_dbow_negative_sampling(P, W_out, doc, word, negatives):
    """PV-DBOW with negative sampling: J = -log σ(v'_w·p_d) - Σ_k log σ(-v'_k·p_d).

    Seed 004 section 2 with r̂ = p_d (equations 2.1 for dJ/dp_d, 2.2 for the output rows),
    seed 002 "Negative Sampling" (skip-gram objective, the input word replaced by the
    document).  Returns (loss, dP (N, D), dW_out (V, D)).
    """
    return pv_dbow(P, doc, _output_layer(W_out, word, negatives=negatives))


def pv_dbow_hierarchical_softmax(P, W_inner, doc, points, codes):
    """PV-DBOW with hierarchical softmax along ``word``'s Huffman path (``points``,
    ``codes``): J = -Σ_l log σ((1 - 2 c_l) θ_l·p_d), seed 002 "Hierarchical Softmax".
    Returns (loss, dP, dW_inner)."""
    return pv_dbow(P, doc, _output_layer(W_inner, None, points=points, codes=codes))


def pv_dm(P, W_in, doc, context, mean, output_layer):
    """PV-DM: h = mean (or sum) of the document row and the context rows.

    Returns (loss, dP (N, D), dW_in (V, D), dW_second).  An empty context is allowed:
    the document row alone predicts the word (gensim does the same).
    """
    context = np.asarray(context, dtype=np.int64)
    count = 1 + context.size
    scale = 1.0 / count if mean else 1.0
    h = scale * (P[doc].astype(np.float64) + W_in[context].sum(axis=0))   # seed 001 sec. 2
    loss, dh, d_second = output_layer(h)
    dP = np.zeros_like(P)
    dP[doc] = scale * dh                                 # seed 001 sec. 2.3: (1/C) EH each
    dW_in = np.zeros_like(W_in)
    np.add.at(dW_in, context, scale * dh)                # a repeated context word gets both
    return loss, dP, dW_in, d_second


def pv_dm_negative_sampling(P, W_in, W_out, doc, context, word, negatives, mean=True):
    """PV-DM with negative sampling: seed 002 "Negative Sampling" (CBOW objective) with
    the document row added to the context, seed 004 section 2, seed 001 section 2.3.
    Returns (loss, dP, dW_in, dW_out)."""
    return pv_dm(P, W_in, doc, context, mean, _output_layer(W_out, word, negatives=negatives))


def pv_dm_hierarchical_softmax(P, W_in, W_inner, doc, context, points, codes, mean=True):
    """PV-DM with hierarchical softmax (seed 002 "Hierarchical Softmax", CBOW with the
    document row in the context).  Returns (loss, dP, dW_in, dW_inner)."""
    return pv_dm(P, W_in, doc, context, mean, _output_layer(W_inner, None, points=points, codes=codes))


def pv_dm_step(P, W_in, W_second, doc, context, grads, alpha, mean=True):
    """The kernels' PV-DM update for one example, given ``grads = (dP, dW_in, dW_second)``.

    Output rows: ``-alpha dJ/dW``.  Document and context rows: ``-alpha dJ/dh`` each,
    which for the mean is (1 + C) times their gradient step (word2vec's CBOW convention,
    ``wordvec.math.word2vec.cbow_step``); for the sum the two coincide.
    Returns the new (P, W_in, W_second).
    """
    dP, dW_in, d_second = grads
    count = 1 + np.asarray(context).size
    input_rate = alpha * count if mean else alpha
    return P - input_rate * dP, W_in - input_rate * dW_in, W_second - alpha * d_second


def inference_gradient(loss_and_grads):
    """Inference: of a model function's (loss, dP, ...) keep (loss, dP) -- the word and
    output rows are frozen, so the document row is the only parameter."""
    return loss_and_grads[0], loss_and_grads[1]


def initial_document_vector(D, uniforms):
    """A new document row from D uniforms in [0, 1): (u - 0.5) / D, as word2vec initialises
    its input rows (and gensim its document rows)."""
    return ((np.asarray(uniforms, dtype=np.float64) - 0.5) / D).astype(np.float32)


def inference_rate(alpha, min_alpha, epoch, epochs):
    """Inference's learning rate in ``epoch`` (0-based) of ``epochs``: linear from alpha
    down to min_alpha over the epochs, gensim's ``infer_vector`` schedule."""
    return alpha - (alpha - min_alpha) * epoch / max(epochs - 1, 1)


def concat_slots(sentence, i, window, null_word):
    """The 2W words around position i of ``sentence`` (i itself left out), in order, the
    positions past either end filled with ``null_word``: the word blocks of PV-DM with
    concatenation (gensim's ``train_document_dm_concat``; the window never shrinks)."""
    n = len(sentence)
    return np.array([sentence[j] if 0 <= j < n else null_word for j in range(i - window, i + window + 1) if j != i],
                    dtype=np.int64)


def pv_dm_concat(P, W_in, tags, slots, output_layer):
    """PV-DM with concatenation: h = [P[t_1]; ...; P[t_T]; W_in[s_1]; ...; W_in[s_2W]]
    (seed 000 "Softmax with embeddings", the input x^T (I ⊗ E)); each row's gradient is
    its block of dJ/dh, summed over the blocks it fills.  Returns (loss, dP (N, D),
    dW_in (V, D), dW_second ((T + 2W) D wide))."""
    tags, slots = np.asarray(tags, dtype=np.int64), np.asarray(slots, dtype=np.int64)
    D = P.shape[1]
    h = np.concatenate([P[tags].astype(np.float64).ravel(), W_in[slots].astype(np.float64).ravel()])
    loss, dh, d_second = output_layer(h)
    blocks = dh.reshape(tags.size + slots.size, D)      # block m: dJ/dh_m
    dP = np.zeros_like(P)
    np.add.at(dP, tags, blocks[:tags.size])
    dW_in = np.zeros_like(W_in)
    np.add.at(dW_in, slots, blocks[tags.size:])          # the null word fills many blocks
    return loss, dP, dW_in, d_second


def pv_dm_concat_negative_sampling(P, W_in, W_out, tags, slots, word, negatives):
    """PV-DM with concatenation and negative sampling: J = -log σ(v'_w·h) - Σ_k log σ(-v'_k·h)
    with h the concatenation (:func:`pv_dm_concat`; seed 004 section 2, equations 2.1 and
    2.2 with r̂ = h).  Returns (loss, dP, dW_in, dW_out)."""
    return pv_dm_concat(P, W_in, tags, slots, _output_layer(W_out, word, negatives=negatives))


def pv_dm_concat_hierarchical_softmax(P, W_in, W_inner, tags, slots, points, codes):
    """PV-DM with concatenation and hierarchical softmax along the predicted word's
    Huffman path (seed 002 "Hierarchical Softmax", h the concatenation of
    :func:`pv_dm_concat`).  Returns (loss, dP, dW_in, dW_inner)."""
    return pv_dm_concat(P, W_in, tags, slots, _output_layer(W_inner, None, points=points, codes=codes))


def pv_dm_concat_step(P, W_in, W_second, grads, alpha):
    """The kernels' update for one example of PV-DM with concatenation, given ``grads =
    (dP, dW_in, dW_second)``: every row ``W <- W - alpha dJ/dW`` (each block is its row's
    own gradient, so no row takes more than its gradient step).  Returns the new
    (P, W_in, W_second)."""
    dP, dW_in, d_second = grads
    return P - alpha * dP, W_in - alpha * dW_in, W_second - alpha * d_second
