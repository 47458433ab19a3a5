"""Training loop for :class:`wordvec.models.lm.rnn.RNNLM`: batching, truncated BPTT with
the hidden state carried between segments, gradient clipping by global norm, SGD or
Adam, per-epoch validation, checkpoints and resume.
"""

import dataclasses
import logging
import math
import sys
import time

import numpy as np

from wordvec.errors import TrainingError, WordvecError
from wordvec.io.history import append_epoch
from wordvec.kernels.adam import adam_update
from wordvec.blas import blas_threads  # noqa: F401 (re-exported: cli, report)
from wordvec.math.adam import adam_step, adam_step_size
from wordvec.math.softmax_ce import IGNORE
from wordvec.progress import bar as progress_bar

logger = logging.getLogger(__name__)


# ---------------------------------------------------------------- batching
def batchify(stream, batch_size, pad=False):
    """Token stream (N,) -> (inputs, targets), each int64 (B, L), targets = next token.

    Row b is the contiguous piece stream[b*L : b*L + L + 1]; consecutive segments of a
    row continue each other, which is what lets truncated BPTT carry the hidden state.
    Without ``pad`` the tail that does not fill a row is dropped (training); with
    ``pad`` L = ceil((N-1)/B) and missing targets are IGNORE (evaluation: every token
    is scored exactly once).
    """
    stream = np.asarray(stream, dtype=np.int64)
    n_targets = stream.size - 1
    if n_targets < 1:
        raise WordvecError("the token stream is empty: nothing to predict")
    B = max(1, min(int(batch_size), n_targets))
    L = -(-n_targets // B) if pad else n_targets // B
    inputs = np.zeros(B * L, dtype=np.int64)
    targets = np.full(B * L, IGNORE, dtype=np.int64)
    k = min(B * L, n_targets)
    inputs[:k], targets[:k] = stream[:k], stream[1 : k + 1]
    return inputs.reshape(B, L), targets.reshape(B, L)


# ---------------------------------------------------------------- BLAS threads
# ---------------------------------------------------------------- clipping and optimizers
def global_norm(grads):
    """sqrt(sum over all arrays of sum g^2), in float64."""
    return math.sqrt(sum(float(np.vdot(g, g)) for g in grads.values()))


def clip_by_global_norm(grads, max_norm):
    """Scale all gradients by max_norm/||g|| when ||g|| > max_norm (in place); return ||g||.

    Seed 002, "Solution to the Exploding & Vanishing Gradients": Mikolov's clipping sets
    an exploding gradient back to a fixed size; scaling by the *global* norm keeps its
    direction (Pascanu et al. 2013).  ``max_norm`` None or <= 0 disables clipping.
    """
    norm = global_norm(grads)
    if max_norm and max_norm > 0 and norm > max_norm:
        scale = max_norm / norm
        for g in grads.values():
            g *= scale
    return norm


class SGD:
    """theta <- theta - lr * g."""

    name = "sgd"

    def __init__(self, params, lr):
        self.lr = lr

    def step(self, params, grads):
        for name, g in grads.items():
            params[name] -= self.lr * g

    def state(self):
        return {}, {}

    def load_state(self, scalars, arrays):
        pass


class Adam:
    """Adam (Kingma & Ba 2015) with bias correction, the equations of :mod:`wordvec.math.adam`
    run by the compiled :func:`wordvec.kernels.adam.adam_update`; moments m, v per
    parameter, step count t."""

    name = "adam"

    def __init__(self, params, lr, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps, self.t = lr, beta1, beta2, eps, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        for dtype in {v.dtype for v in params.values()}:  # compile (or load) now, not in the first update
            one = np.zeros(1, dtype=dtype)
            adam_update(one, one.copy(), one.copy(), one.copy(), *[dtype.type(0.5)] * 6)

    def _step_size(self):
        self.t += 1
        return adam_step_size(self.lr, self.beta1, self.beta2, self.t)

    def step_reference(self, params, grads):
        """The update by the NumPy reference (the readable version of :meth:`step`)."""
        step_size = self._step_size()
        for name, g in grads.items():
            adam_step(params[name], g, self.m[name], self.v[name], step_size, self.beta1, self.beta2, self.eps)

    def step(self, params, grads):
        """:meth:`step_reference`, bit for bit, in one compiled pass per array."""
        step_size = self._step_size()
        for name, g in grads.items():
            p, m, v = params[name], self.m[name], self.v[name]
            if not (p.flags.c_contiguous and g.flags.c_contiguous and p.dtype == g.dtype == m.dtype == v.dtype):
                raise ValueError(f"Adam needs contiguous arrays of one dtype ({name})")
            s = p.dtype.type  # NumPy rounds a Python float to the array's dtype first: so do we
            adam_update(p.reshape(-1), g.reshape(-1), m.reshape(-1), v.reshape(-1), s(self.beta1),
                        s(1.0 - self.beta1), s(self.beta2), s(1.0 - self.beta2), s(step_size), s(self.eps))

    def state(self):
        arrays = {f"m.{k}": a for k, a in self.m.items()} | {f"v.{k}": a for k, a in self.v.items()}
        return {"t": self.t}, arrays

    def load_state(self, scalars, arrays):
        self.t = int(scalars["t"])
        for k in self.m:
            self.m[k][...] = arrays[f"m.{k}"]
            self.v[k][...] = arrays[f"v.{k}"]


OPTIMIZERS = {"sgd": SGD, "adam": Adam}


# ---------------------------------------------------------------- the loop
@dataclasses.dataclass(frozen=True)
class TrainingOptions:
    """The keyword options of :func:`train`, with their defaults."""

    epochs: int = 10  # train epochs len(model.history)+1 .. epochs
    bptt: int = 32  # tokens per truncated-BPTT segment
    batch_size: int = 32  # row-streams trained side by side (see batchify)
    lr: float | None = None  # None: the checkpoint's, else 1.0 for sgd, 2e-3 for adam
    optimizer: str = "adam"  # a key of OPTIMIZERS
    clip: float | None = 5.0  # global gradient norm; None or <= 0: no clipping
    lr_decay: float = 1.0  # lr *= lr_decay whenever the valid loss did not improve
    progress: bool = True  # a progress bar on a terminal
    checkpoint: object = None  # a path, saved after every epoch
    time_budget: float | None = None  # seconds; may end an epoch early (resumable)
    max_updates: int | None = None  # total updates, counting earlier runs
    on_step: object = None  # on_step(step, loss, norm) after every update
    eval_batch_size: int = 16
    threads: int | None = 1  # BLAS threads while training (see blas_threads)

    def checked(self):
        """These options with bptt and batch_size as ints; a bad one refused in one sentence."""
        if self.bptt is None or int(self.bptt) < 1:
            raise WordvecError(f"sequence length (--bptt) must be at least 1, got {self.bptt}")
        if self.optimizer not in OPTIMIZERS:
            raise WordvecError(f"unknown optimizer {self.optimizer!r}; choose sgd or adam")
        if int(self.batch_size) < 1:
            raise WordvecError(f"batch size must be at least 1, got {int(self.batch_size)}")
        return dataclasses.replace(self, bptt=int(self.bptt), batch_size=int(self.batch_size))


def train(model, train_stream, valid_stream=None, **options):
    """Train ``model`` in place for epochs ``len(model.history)+1 .. epochs``; return history.

    ``options`` are the fields of :class:`TrainingOptions`.  Each epoch walks the B
    row-streams (see :func:`batchify`) in segments of ``bptt`` tokens, carrying the hidden
    state from segment to segment (truncated BPTT), clips the gradient to global norm
    ``clip`` and takes an optimizer step.  Valid loss is measured after every epoch; with
    ``lr_decay`` < 1 the learning rate is multiplied by it whenever the valid loss did not
    improve.  ``checkpoint`` (a path) is written after every epoch, with optimizer state, so
    training can resume where it stopped.  ``time_budget`` or ``max_updates`` ends training
    early, possibly mid-epoch; a later call resumes from there.
    """
    options = TrainingOptions(**options)
    # Overflow on the way to a NaN is reported once, as a TrainingError, not as warnings.
    with blas_threads(options.threads), np.errstate(over="ignore", invalid="ignore"):
        return _train(model, train_stream, valid_stream, options.checked())


def _train(model, train_stream, valid_stream, options):
    inputs, targets = batchify(train_stream, options.batch_size)
    if inputs.shape[1] < 1:
        raise WordvecError(f"the training text has {len(train_stream) - 1} tokens, too few for "
                           f"a batch size of {options.batch_size}")
    opt = _optimizer(model, options)
    rng = np.random.default_rng(model.config.seed + 1)
    if "rng" in model.training_state:
        rng.bit_generator.state = model.training_state["rng"]
    started = time.perf_counter()
    best_valid = min((h["valid_loss"] for h in model.history if "valid_loss" in h), default=math.inf)
    if options.max_updates is not None and len(model.steps) >= options.max_updates:
        return model.history
    partial = _unfinished_epoch(model, options.batch_size)
    first_epoch = partial["epoch"] if partial is not None else len(model.history) + 1
    for epoch in range(first_epoch, options.epochs + 1):
        start = _resumed_start(model, partial) if epoch == first_epoch and partial is not None else (
            0, model.initial_state(inputs.shape[0]), (0.0, 0, 0.0))
        record, position, state = _run_epoch(model, opt, inputs, targets, epoch, start, rng, options, started)
        if valid_stream is not None:
            valid_loss, _ = model.evaluate(valid_stream, options.eval_batch_size, max(options.bptt, 64))
            record.update(valid_loss=float(valid_loss), valid_perplexity=math.exp(min(valid_loss, 700)))
            if valid_loss >= best_valid and options.lr_decay < 1.0:
                opt.lr *= options.lr_decay
            best_valid = min(best_valid, valid_loss)
        append_epoch(model.history, record)
        logger.info("epoch %d: %s", epoch, ", ".join(f"{k} {v:.4g}" for k, v in record.items()
                                                     if isinstance(v, float)))
        _keep_training_state(model, opt, record["complete"], position, state, rng, options)
        if options.checkpoint is not None:
            model.save(options.checkpoint)
        if not record["complete"] or _out_of_time(model, options, started):
            break
    return model.history


def _optimizer(model, options):
    """The optimizer of ``options``, with the checkpoint's state when it is the same one."""
    ts = model.training_state
    lr = options.lr
    if lr is None:
        lr = ts.get("lr", 1.0 if options.optimizer == "sgd" else 2e-3)
    opt = OPTIMIZERS[options.optimizer](model.params, lr)
    if ts.get("optimizer") == options.optimizer:  # resume
        opt.load_state(ts["optimizer_scalars"], ts.get("arrays", {}))
    return opt


def _unfinished_epoch(model, batch_size):
    """The history record of an epoch cut short by a time budget, if it can resume at its next
    segment (with its carried state); None when the last epoch is complete."""
    partial = model.history[-1] if model.history and not model.history[-1]["complete"] else None
    if partial is not None and model.training_state.get("batch_size") != batch_size:
        logger.warning("batch size changed: the unfinished epoch %d restarts from its beginning", partial["epoch"])
        return None
    return partial


def _resumed_start(model, partial):
    """(position, carried state, (summed loss, tokens, seconds)) where the unfinished epoch
    stopped; its record leaves the history until the epoch ends."""
    ts = model.training_state
    model.history.pop()
    state = tuple(ts["arrays"][f"carry.{i}"].copy() for i in range(len(model.initial_state(1))))
    sums = (partial["train_loss"] * partial["tokens"], partial["tokens"], partial["seconds"])
    return int(ts["position"]), state, sums


def _keep_training_state(model, opt, complete, position, state, rng, options):
    """What a checkpoint needs to resume: optimizer, learning rate, RNG and, for an
    unfinished epoch, the position and the carried state."""
    scalars, arrays = opt.state()
    if not complete:
        arrays |= {f"carry.{i}": s for i, s in enumerate(state)}
    model.training_state.update(
        optimizer=opt.name, lr=opt.lr, optimizer_scalars=scalars, arrays=arrays, position=position,
        rng=rng.bit_generator.state, bptt=options.bptt, batch_size=options.batch_size, clip=options.clip,
        lr_decay=options.lr_decay)


def _out_of_time(model, options, started):
    if options.max_updates is not None and len(model.steps) >= options.max_updates:
        return True
    return options.time_budget is not None and time.perf_counter() - started > options.time_budget


def _run_epoch(model, opt, inputs, targets, epoch, start, rng, options, started):
    """Updates from column ``position`` to the end of the epoch or of the time budget.

    ``start`` = (position, carried state, (summed loss, tokens, seconds) already spent on
    this epoch before a resume).  Returns (history record, next position, carried state).
    """
    position, state, (total, count, seconds_before) = start
    bptt = options.bptt
    epoch_start, step = time.perf_counter(), len(model.steps)
    segments = range(position, inputs.shape[1], bptt)
    bar = _make_bar(len(segments), f"epoch {epoch}/{options.epochs}", options.progress)
    grads = None  # one set of gradient buffers, reused (zeroed) by every update
    for begin in segments:
        seg = slice(begin, begin + bptt)
        loss, n, grads, state = model.loss_and_grads(inputs[:, seg], targets[:, seg], state, rng, grads)
        norm = clip_by_global_norm(grads, options.clip)
        step += 1
        model.steps.append((float(step), float(loss), norm))
        if options.on_step is not None:
            options.on_step(step, loss, norm)
        if not (math.isfinite(loss) and math.isfinite(norm)):
            raise TrainingError(f"the loss or gradient became infinite/NaN at epoch {epoch}, update "
                                f"{step}; lower the learning rate or clip gradients (--clip)")
        opt.step(model.params, grads)
        total, count, position = total + loss * n, count + n, begin + bptt
        if bar is not None:
            bar.update(1)
            bar.set_postfix(loss=f"{total / count:.3f}")
        if _out_of_time(model, options, started):
            break
    if bar is not None:
        bar.close()
    seconds = seconds_before + time.perf_counter() - epoch_start
    complete = position >= inputs.shape[1]
    record = {"epoch": epoch, "train_loss": float(total / count), "train_perplexity": math.exp(total / count),
              "tokens": int(count), "seconds": seconds, "tokens_per_sec": count / seconds, "lr": opt.lr,
              "complete": complete}
    return record, position, state


def _make_bar(total, description, progress):
    return progress_bar(total, description, unit="batch", enabled=progress)
