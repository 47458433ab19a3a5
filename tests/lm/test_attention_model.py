"""The causal self-attention language model end to end: a gradient check of the whole
model (tied and untied, with dropout), causality, training with the shared LM trainer,
checkpoints, sampling, and `wordvec lm train --cell attention`."""

import json

import numpy as np
import pytest

from wordvec.cli import main
from wordvec.math.gradcheck import check_gradient
from wordvec.data.lm_data import LMVocab
from wordvec.math.softmax_ce import IGNORE
from wordvec.models.lm.attention import AttentionLM
from wordvec.models.lm.rnn import RNNLM

V, B, T = 7, 3, 5


def tiny_vocab():
    return LMVocab("char", ["\n"] + list("abcdef"))


def perturbed_model(seed, **config):
    model = AttentionLM(tiny_vocab(), dtype="float64", seed=seed, **config)
    rng = np.random.default_rng(seed)
    for p in model.params.values():  # gains and biases away from 1 and 0, larger weights
        p += rng.normal(0, 0.3, p.shape)
    return model, rng


@pytest.mark.parametrize("tie, blocks, dropout", [(False, 1, 0.0), (True, 2, 0.0), (True, 1, 0.3)])
def test_model_gradients_match_finite_differences(tie, blocks, dropout):
    model, rng = perturbed_model(3, hidden_size=6, embedding_size=4, blocks=blocks, context=T + 2,
                                 tie_embeddings=tie, dropout=dropout)
    assert ("W_y" in model.params) == (not tie)
    inputs, targets = rng.integers(0, V, (B, T)), rng.integers(0, V, (B, T))
    targets[1, 2] = IGNORE
    run = lambda: model.loss_and_grads(inputs, targets, None, np.random.default_rng(7) if dropout else None)  # noqa: E731
    loss, count, grads, _ = run()
    assert count == B * T - 1
    error = check_gradient(lambda: run()[0], model.params, grads, eps=1e-4)
    print(f"attention LM tie={tie} blocks={blocks} dropout={dropout}: max relative error {error:.2e}")
    assert error < 1e-6


def test_predictions_depend_on_the_past_only():
    model, rng = perturbed_model(4, hidden_size=6, embedding_size=4, blocks=2, context=T)
    inputs = rng.integers(0, V, (B, T))
    logits = model._forward(inputs)[0].reshape(B, T, V).copy()  # (a buffer the next call reuses)
    changed = inputs.copy()
    changed[:, 3:] = (changed[:, 3:] + 1) % V
    again = model._forward(changed)[0].reshape(B, T, V)
    np.testing.assert_array_equal(again[:, :3], logits[:, :3])
    assert not np.allclose(again[:, 3:], logits[:, 3:])
    state = model.initial_state(B)  # sampling's step-by-step path gives the same logits
    for t in range(T):
        step, state = model.step_logits(inputs[:, t], state)
        np.testing.assert_allclose(step, logits[:, t], rtol=1e-10, atol=1e-12)


def test_trainer_learns_a_pattern_and_evaluation_scores_every_token_once(tmp_path):
    lines = ["xab", "yac"] * 30  # the line's first letter decides what follows "a"
    vocab = LMVocab.build(lines, "char")
    stream = vocab.encode(lines)
    model = AttentionLM(vocab, hidden_size=32, embedding_size=16, blocks=1, context=8, seed=0)
    model.fit(stream, stream, epochs=8, bptt=8, batch_size=4, lr=0.01, progress=False, eval_batch_size=2)
    first, last = model.history[0], model.history[-1]
    # every segment start lacks the line's first letter, so the floor is above 0
    assert last["valid_loss"] < 0.35 < 0.5 * first["train_loss"]
    assert model.evaluate(stream, batch_size=3)[1] == stream.size - 1
    model.save(tmp_path / "m")
    loaded = RNNLM.load(tmp_path / "m")  # the one loader dispatches on the config's cell
    assert isinstance(loaded, AttentionLM) and loaded.config == model.config
    assert loaded.evaluate(stream) == model.evaluate(stream)
    assert loaded.sample(4, seed=1) == model.sample(4, seed=1)
    samples = [vocab.decode(s) for s in model.sample(6, temperature=0.3, seed=0)]
    assert set(samples) <= {"xab", "yac"}


def test_segment_longer_than_the_context_is_refused():
    model = AttentionLM(tiny_vocab(), hidden_size=4, embedding_size=4, context=3)
    with pytest.raises(Exception, match="longer than the model's context"):
        model.loss_and_grads(np.zeros((1, 4), dtype=np.int64), np.zeros((1, 4), dtype=np.int64))


def test_cli_trains_attention_lowers_loss_and_evaluates_samples_resumes(tmp_path, capsys):
    names = ["aachenosaurus", "abelisaurus", "brachiosaurus", "ceratops", "diplodocus", "raptor"] * 4
    (tmp_path / "train.txt").write_text("\n".join(names) + "\n", encoding="utf-8")

    def train(*extra):
        return main(["-q", "lm", "train", str(tmp_path / "train.txt"), "--valid", str(tmp_path / "train.txt"),
                     "--cell", "attention", "--hidden", "32", "--embedding", "16", "--blocks", "2", "--tie",
                     "--batch-size", "2", "--lr", "0.01", "--no-progress", "-o", str(tmp_path / "m"), *extra])

    assert train("--epochs", "5", "--bptt", "8") == 0
    meta = json.loads((tmp_path / "m" / "model.json").read_text())
    assert meta["config"]["cell"] == "attention" and meta["config"]["context"] == 8
    history = meta["history"]
    assert history[-1]["valid_loss"] < history[0]["valid_loss"] - 0.3
    capsys.readouterr()
    assert main(["lm", "eval", str(tmp_path / "m"), str(tmp_path / "train.txt"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["tokens"] == sum(len(name) + 1 for name in names)
    assert main(["lm", "sample", str(tmp_path / "m"), "-n", "3", "--seed", "2"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3
    assert train("--epochs", "6", "--bptt", "8", "--resume") == 0
    assert len(json.loads((tmp_path / "m" / "model.json").read_text())["history"]) == 6
    capsys.readouterr()
    assert train("--epochs", "7", "--bptt", "16", "--resume") == 2
    assert "context" in capsys.readouterr().err


# ---------------------------------------------------------------- LSTM with attention over its past
@pytest.mark.parametrize("score, tie, memory", [("multiplicative", False, 3), ("additive", True, 2), ("dot", True, 0)])
def test_lstm_attention_gradients_match_finite_differences(score, tie, memory):
    model = RNNLM(tiny_vocab(), cell="lstm-attention", hidden_size=4, embedding_size=3, tie_embeddings=tie,
                  attention_score=score, memory=memory, seed=5, dtype="float64")
    rng = np.random.default_rng(6)
    for p in model.params.values():
        p += rng.normal(0, 0.3, p.shape)
    inputs, targets = rng.integers(0, V, (B, T)), rng.integers(0, V, (B, T))
    state = (rng.normal(0, 0.5, (B, 4)), rng.normal(0, 0.5, (B, 4)), rng.normal(0, 0.5, (B, memory, 4)))
    loss, count, grads, new_state = model.loss_and_grads(inputs, targets, state)
    assert new_state[2].shape == (B, memory, 4)
    # eps=1e-3: additive attention's W2 gradient is ~1e-4 (W2 s shifts every score of a
    # query alike, which the softmax nearly cancels), so the round-off of a smaller step
    # (1e-16 |loss| / eps) would reach 1e-6 of it; the 4th-order difference's truncation
    # error stays ~eps^4.
    error = check_gradient(lambda: model.loss_and_grads(inputs, targets, state)[0], model.params, grads, eps=1e-3)
    print(f"lstm-attention {score} tie={tie}: max relative error {error:.2e}")
    assert error < 1e-6


def test_lstm_attention_carries_its_memory_across_segments_and_steps():
    rng = np.random.default_rng(8)
    inputs = rng.integers(0, V, (B, 2 * T))
    targets = np.roll(inputs, -1, axis=1)

    def split_and_whole(memory):
        model = RNNLM(tiny_vocab(), cell="lstm-attention", hidden_size=4, embedding_size=3, memory=memory, seed=7,
                      dtype="float64")
        whole = model.sequence_loss(inputs, targets, model.initial_state(B))[0]
        first, _, state = model.sequence_loss(inputs[:, :T], targets[:, :T], model.initial_state(B))
        return model, first, first + model.sequence_loss(inputs[:, T:], targets[:, T:], state)[0], whole

    model, first, split, whole = split_and_whole(memory=2 * T)  # remembers the whole first segment
    assert split == pytest.approx(whole, rel=1e-12)
    state, nll = model.initial_state(B), 0.0  # one step at a time, as when sampling
    for t in range(T):
        logits, state = model.step_logits(inputs[:, t], state)
        logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        nll -= logp[np.arange(B), targets[:, t]].sum()
    assert nll == pytest.approx(first, rel=1e-12)
    _, _, split, whole = split_and_whole(memory=2)  # forgets all but 2 states of the first segment
    assert split != pytest.approx(whole, rel=1e-6)


def test_cli_trains_lstm_attention(tmp_path, capsys):
    (tmp_path / "words.txt").write_text("the cat sat on the mat\nthe dog sat on the log\n" * 10, encoding="utf-8")
    argv = ["-q", "lm", "train", str(tmp_path / "words.txt"), "--valid", str(tmp_path / "words.txt"), "--level",
            "word", "--cell", "lstm-attention", "--hidden", "16", "--embedding", "8", "--tie", "--epochs", "6",
            "--bptt", "6", "--batch-size", "2", "--lr", "0.02", "--no-progress", "-o", str(tmp_path / "m")]
    assert main(argv) == 0
    history = json.loads((tmp_path / "m" / "model.json").read_text())["history"]
    assert history[-1]["valid_loss"] < history[0]["valid_loss"] - 0.3
    loaded = RNNLM.load(tmp_path / "m")
    assert loaded.config.cell == "lstm-attention" and loaded.config.memory == 32


@pytest.mark.parametrize("make", [
    lambda vocab: AttentionLM(vocab, hidden_size=8, embedding_size=4, blocks=1, context=3, seed=2),
    lambda vocab: RNNLM(vocab, cell="lstm-attention", hidden_size=5, embedding_size=3, memory=4, seed=2),
], ids=["attention", "lstm-attention"])
def test_stopping_mid_epoch_and_resuming_gives_the_uninterrupted_run(tmp_path, make):
    lines = ["abcab", "bca", "cabbac", "aabc"] * 4
    vocab = LMVocab.build(lines, "char")
    stream = vocab.encode(lines)
    options = dict(epochs=2, bptt=3, batch_size=2, lr=0.01, progress=False)
    straight = make(vocab)
    straight.fit(stream, stream, **options)
    model, calls = make(vocab), 0
    while not (len(model.history) == 2 and model.history[-1]["complete"]):
        model.fit(stream, stream, time_budget=0, checkpoint=tmp_path / "m", **options)  # one update per call
        model, calls = RNNLM.load(tmp_path / "m"), calls + 1
    assert calls == len(straight.steps) > 4
    for name in straight.params:
        np.testing.assert_allclose(model.params[name], straight.params[name], rtol=1e-6, atol=1e-7)
