"""The recurrent language model end to end: gradient checks of the whole model (RNN and
LSTM, tied and untied, tied with a projection, dropout), truncated-BPTT batching,
training, checkpoints and resume, sampling, and the char/word vocabularies."""

import math

import numpy as np
import pytest

from wordvec.errors import VocabularyError, WordvecError
from wordvec.math.gradcheck import check_gradient
from wordvec.data.lm_data import END_WORD, UNK, LMVocab
from wordvec.math.softmax_ce import IGNORE
from wordvec.models.lm.training import batchify
from wordvec.models.lm.rnn import RNNLM

V, B, T = 7, 3, 5
CHAR_LINES = ["abcab", "bca", "cabbac", "aabc"]


def tiny_vocab():
    return LMVocab("char", ["\n"] + list("abcdef"))


@pytest.mark.parametrize(
    "cell, H, D, tie, activation",
    [
        ("rnn", 5, 4, False, "tanh"),
        ("rnn", 4, 4, True, "tanh"),  # tied, no projection
        ("rnn", 5, 3, True, "relu"),  # tied with projection
        ("lstm", 5, 4, False, "tanh"),
        ("lstm", 4, 4, True, "tanh"),
        ("lstm", 5, 3, True, "tanh"),
    ],
)
def test_model_gradients_match_finite_differences(cell, H, D, tie, activation):
    model = RNNLM(tiny_vocab(), cell=cell, hidden_size=H, embedding_size=D, tie_embeddings=tie,
                  activation=activation, seed=3, dtype="float64")
    assert ("W_y" in model.params) == (not tie)
    assert ("W_proj" in model.params) == (tie and H != D)
    rng = np.random.default_rng(0)
    for p in model.params.values():  # move away from the initial zeros and small values
        p += rng.normal(0, 0.3, p.shape)
    inputs = rng.integers(0, V, (B, T))
    targets = rng.integers(0, V, (B, T))
    targets[1, 2] = IGNORE
    state = tuple(rng.normal(0, 0.5, (B, H)) for _ in model.initial_state(B))
    if activation == "relu":
        state = tuple(np.abs(s) for s in state)
    loss, count, grads, _ = model.loss_and_grads(inputs, targets, state)
    assert count == B * T - 1
    # eps=1e-4: the loss is O(1) while some gate gradients are O(1e-3), so eps=1e-6 would
    # leave a central-difference round-off near the 1e-6 tolerance; truncation is O(eps^2).
    error = check_gradient(lambda: model.loss_and_grads(inputs, targets, state)[0], model.params, grads, eps=1e-4)
    print(f"{cell} tie={tie} H={H} D={D}: max relative error {error:.2e}")
    assert error < 1e-6


def test_model_gradients_with_dropout_match_finite_differences():
    model = RNNLM(tiny_vocab(), cell="lstm", hidden_size=4, embedding_size=3, dropout=0.3, seed=1,
                  dtype="float64")
    rng = np.random.default_rng(1)
    for p in model.params.values():
        p += rng.normal(0, 0.3, p.shape)
    inputs, targets = rng.integers(0, V, (B, T)), rng.integers(0, V, (B, T))
    state = model.initial_state(B)
    run = lambda: model.loss_and_grads(inputs, targets, state, np.random.default_rng(7))  # noqa: E731
    _, _, grads, _ = run()  # the same seeded rng -> the same dropout masks in every call
    assert check_gradient(lambda: run()[0], model.params, grads, eps=1e-4) < 1e-6


def test_loss_is_the_mean_negative_log_probability_of_the_targets():
    model = RNNLM(tiny_vocab(), cell="rnn", hidden_size=4, embedding_size=4, dtype="float64")
    rng = np.random.default_rng(2)
    inputs, targets = rng.integers(0, V, (2, 3)), rng.integers(0, V, (2, 3))
    loss, _, _, _ = model.loss_and_grads(inputs, targets, model.initial_state(2))
    state, nll = model.initial_state(2), 0.0
    for t in range(3):  # the same model run one step at a time
        logits, state = model.step_logits(inputs[:, t], state)
        logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        nll -= logp[np.arange(2), targets[:, t]].sum()
    assert loss == pytest.approx(nll / 6, rel=1e-10)


def test_batchify_rows_are_contiguous_streams_and_padding_scores_every_token_once():
    stream = np.arange(11)
    inputs, targets = batchify(stream, 3)
    np.testing.assert_array_equal(inputs, [[0, 1, 2], [3, 4, 5], [6, 7, 8]])
    np.testing.assert_array_equal(targets, inputs + 1)
    inputs, targets = batchify(stream, 3, pad=True)
    assert inputs.shape == (3, 4)
    scored = targets[targets != IGNORE]
    np.testing.assert_array_equal(np.sort(scored), np.arange(1, 11))
    np.testing.assert_array_equal(targets[targets != IGNORE], inputs[targets != IGNORE] + 1)


def test_training_learns_a_pattern_that_needs_the_state_carried_across_segments():
    # After "\n" the next line starts with x or y alternately, and "a" is followed by b
    # after x, by c after y: a 4-step memory, longer than bptt=3.
    lines = ["xab", "yac"] * 30
    vocab = LMVocab.build(lines, "char")
    stream = vocab.encode(lines)
    model = RNNLM(vocab, cell="lstm", hidden_size=16, embedding_size=8, seed=0)
    model.fit(stream, stream, epochs=10, bptt=3, batch_size=4, lr=0.03, progress=False, eval_batch_size=1)
    first, last = model.history[0], model.history[-1]
    assert last["valid_loss"] < 0.05 < 0.5 < first["train_loss"]
    assert math.isclose(last["valid_perplexity"], math.exp(last["valid_loss"]))
    samples = [vocab.decode(s) for s in model.sample(6, temperature=0.5, seed=0)]
    assert set(samples) == {"xab", "yac"}


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_resume_continues_exactly_where_training_stopped(tmp_path, optimizer):
    vocab = LMVocab.build(CHAR_LINES, "char")
    stream = vocab.encode(CHAR_LINES * 5)
    options = dict(bptt=4, batch_size=2, optimizer=optimizer, lr=0.1 if optimizer == "sgd" else 0.01,
                   progress=False)
    straight = RNNLM(vocab, cell="rnn", hidden_size=6, embedding_size=5, dropout=0.2, seed=4)
    straight.fit(stream, stream, epochs=3, **options)
    split = RNNLM(vocab, cell="rnn", hidden_size=6, embedding_size=5, dropout=0.2, seed=4)
    split.fit(stream, stream, epochs=2, checkpoint=tmp_path / "m", **options)
    resumed = RNNLM.load(tmp_path / "m")
    resumed.fit(stream, stream, epochs=3, **options)
    for name in straight.params:
        np.testing.assert_array_equal(resumed.params[name], straight.params[name])
    assert [h["valid_loss"] for h in resumed.history] == [h["valid_loss"] for h in straight.history]
    assert len(resumed.steps) == len(straight.steps)


def test_time_budget_stops_mid_epoch_and_resume_continues_that_epoch(tmp_path):
    """time_budget=0 stops after one update; reloading and continuing, update by update,
    ends with exactly the parameters of one uninterrupted run (carried state included)."""
    vocab = LMVocab.build(CHAR_LINES, "char")
    stream = vocab.encode(CHAR_LINES * 4)
    options = dict(epochs=2, bptt=3, batch_size=2, lr=0.01, progress=False)
    straight = RNNLM(vocab, cell="lstm", hidden_size=5, embedding_size=3, seed=2)
    straight.fit(stream, stream, **options)
    model = RNNLM(vocab, cell="lstm", hidden_size=5, embedding_size=3, seed=2)
    calls = 0
    while not (len(model.history) == 2 and model.history[-1]["complete"]):
        model.fit(stream, stream, time_budget=0, checkpoint=tmp_path / "m", **options)
        model, calls = RNNLM.load(tmp_path / "m"), calls + 1
    assert calls == len(straight.steps) > 4
    for name in straight.params:
        np.testing.assert_allclose(model.params[name], straight.params[name], rtol=1e-6, atol=1e-7)
    assert [h["tokens"] for h in model.history] == [h["tokens"] for h in straight.history]


def test_save_load_round_trip_keeps_predictions(tmp_path):
    vocab = LMVocab.build(["the cat sat", "the dog sat down"], "word")
    model = RNNLM(vocab, cell="lstm", hidden_size=6, embedding_size=4, tie_embeddings=True)
    model.save(tmp_path / "m")
    loaded = RNNLM.load(tmp_path / "m")
    assert loaded.config == model.config and loaded.vocab.tokens == vocab.tokens
    stream = vocab.encode(["the cat sat down", "a dog"])
    assert loaded.evaluate(stream) == model.evaluate(stream)
    assert loaded.sample(3, seed=5) == model.sample(3, seed=5)


def test_corrupt_checkpoints_are_refused_with_a_clear_error(tmp_path):
    model = RNNLM(LMVocab.build(CHAR_LINES, "char"), cell="rnn", hidden_size=3, embedding_size=2)
    model.save(tmp_path / "m")
    np.save(tmp_path / "m" / "params" / "W_aa.npy", np.zeros((2, 2), dtype=np.float32))
    with pytest.raises(WordvecError, match="shape"):
        RNNLM.load(tmp_path / "m")
    (tmp_path / "m" / "model.json").write_text("{not json")
    with pytest.raises(WordvecError, match="not valid JSON"):
        RNNLM.load(tmp_path / "m")
    with pytest.raises(WordvecError, match="not found"):
        RNNLM.load(tmp_path / "missing")


def test_sampling_is_seeded_and_temperature_sharpens():
    vocab = LMVocab.build(CHAR_LINES, "char")
    model = RNNLM(vocab, cell="lstm", hidden_size=8, embedding_size=4, seed=2)
    model.params["b_y"][:] = np.log([0.05, 0.5, 0.25, 0.2])  # order: \n a b c (by count)
    assert model.sample(4, seed=9) == model.sample(4, seed=9)
    assert model.sample(4, seed=9) != model.sample(4, seed=10)
    cold = sum(model.sample(50, max_length=20, temperature=0.05, seed=1), [])
    hot = sum(model.sample(50, max_length=20, temperature=5.0, seed=1), [])
    top = vocab.index["a"] if len(vocab) and vocab.tokens[1] == "a" else 1
    assert np.mean(np.array(cold) == top) > np.mean(np.array(hot) == top) + 0.3


def test_char_vocabulary_and_stream_layout():
    vocab = LMVocab.build(["ab", "ba", "aa"], "char")
    assert vocab.tokens == ["\n", "a", "b"] and vocab.end == 0 and vocab.unk is None
    np.testing.assert_array_equal(vocab.encode(["ab", "b"]), [0, 1, 2, 0, 2, 0])
    with pytest.raises(VocabularyError, match="never saw"):
        vocab.encode(["abz"])


def test_word_vocabulary_maps_rare_and_unseen_words_to_unk():
    lines = ["a b a c", "a b", "d"]
    vocab = LMVocab.build(lines, "word", min_count=2)
    assert vocab.tokens == [END_WORD, UNK, "a", "b"]
    np.testing.assert_array_equal(vocab.encode(["a zebra b"]), [0, 2, 1, 3, 0])
    assert vocab.unknown_rate(vocab.encode(["a zebra b"])) == pytest.approx(1 / 3)
    assert len(LMVocab.build(lines, "word", max_size=3)) == 3


def test_a_deeply_nested_model_json_is_refused_in_one_sentence(tmp_path):
    model = RNNLM(LMVocab.build(CHAR_LINES, "char"), cell="rnn", hidden_size=3, embedding_size=2)
    model.save(tmp_path / "m")
    (tmp_path / "m" / "model.json").write_text("[" * 100_000 + "]" * 100_000)  # json's recursion limit
    with pytest.raises(WordvecError, match="model.json is not valid JSON"):
        RNNLM.load(tmp_path / "m")
