"""``wordvec.math.sentence_score`` (gensim's ``Word2Vec.score``) against the hierarchical
softmax output layer it sums, and against a sentence worked by hand."""

import numpy as np
import pytest

from wordvec.data.huffman import build_huffman
from wordvec.math.output_layers import hierarchical_softmax_output, log_sigmoid
from wordvec.math.sentence_score import path_log_probability, score_sentence


def test_a_path_is_minus_the_output_layers_loss_for_each_hidden_row():
    rng = np.random.default_rng(0)
    W_inner, H = rng.normal(size=(6, 4)), rng.normal(size=(3, 4))
    points, codes = np.array([5, 2, 0]), np.array([1, 0, 1])
    expected = -sum(hierarchical_softmax_output(h, W_inner, points, codes)[0] for h in H)
    assert path_log_probability(H, W_inner, points, codes) == pytest.approx(expected, rel=1e-12)


def test_a_three_word_sentence_by_hand():
    tree = build_huffman([5, 3, 2])  # 3 words, 2 inner nodes
    rng = np.random.default_rng(1)
    W_in, W_inner = rng.normal(size=(3, 2)), rng.normal(size=(2, 2))

    def log_p(word, h):
        length = tree.lengths[word]
        signs = 1 - 2 * tree.codes[word, :length].astype(float)
        return float(np.sum(log_sigmoid(signs * (W_inner[tree.points[word, :length]] @ h))))

    ids, args = [0, 2, 1], (W_inner, tree.points, tree.codes, tree.lengths)
    by_hand_sg = log_p(0, W_in[2]) + log_p(2, W_in[0]) + log_p(2, W_in[1]) + log_p(1, W_in[2])  # window 1
    assert score_sentence(ids, W_in, *args, window=1, sg=True) == pytest.approx(by_hand_sg, rel=1e-12)
    by_hand_cbow = log_p(0, W_in[2]) + log_p(2, (W_in[0] + W_in[1]) / 2) + log_p(1, W_in[2])
    assert score_sentence(ids, W_in, *args, window=1, sg=False) == pytest.approx(by_hand_cbow, rel=1e-12)
    by_hand_sum = log_p(0, W_in[2]) + log_p(2, W_in[0] + W_in[1]) + log_p(1, W_in[2])
    assert score_sentence(ids, W_in, *args, window=1, sg=False, cbow_mean=False) == pytest.approx(by_hand_sum)
    assert score_sentence([1], W_in, *args, window=5) == 0.0  # no context, nothing to score
