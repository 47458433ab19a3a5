"""Native checkpoints for the language models (:class:`wordvec.models.lm.rnn.RNNLM`,
:class:`wordvec.models.lm.attention.AttentionLM`): a directory of ``.npy`` arrays plus
one JSON file, never pickle.  This module knows no model class: ``load_checkpoint`` is
given the function that builds an untrained model from the saved config.

    MODEL/model.json          format, config (hyperparameters), vocabulary tokens,
                              per-epoch history, training state (optimizer name and
                              scalars, learning rate, RNG state, bptt, batch size, clip)
    MODEL/params/NAME.npy     parameters
    MODEL/state/NAME.npy      training arrays: Adam's m.NAME, v.NAME, and carry.I, the
                              hidden state carried into the rest of an unfinished epoch
    MODEL/steps.npy           (S, 3) float64: update number, loss, gradient norm

The directory is written whole into a temporary sibling and swapped into place
(``wordvec.io.atomic.atomic_directory``), so a crash mid-save leaves the previous checkpoint
or the new one, never a mix; loading validates every array (shape, float dtype, finite)
before the model uses it.
"""

import dataclasses
import math
import os

import numpy as np

from wordvec.data.lm_data import LMVocab
from wordvec.errors import FormatError, WordvecError
from wordvec.io.arrays import one_line, read_array
from wordvec.io.atomic import atomic_directory, save_json, save_npy, saved_directory
from wordvec.io.formats import read_json_object
from wordvec.io.manifest import MANIFEST
from wordvec.models.lm.training import OPTIMIZERS

FORMAT, VERSION = "wordvec-rnnlm", 1
CHECKPOINT_ENTRIES = {MANIFEST, "params", "state", "steps.npy"}


def save_checkpoint(model, path):
    """Write the whole checkpoint into a temporary sibling and swap it in (``atomic_directory``):
    a crash mid-save leaves the previous checkpoint, never old arrays beside a new model.json."""
    path = os.fspath(path)
    if os.path.exists(path) and not os.path.isdir(path):
        raise WordvecError(f"cannot save the model to {path}: a file of that name exists (a model is a directory)")
    training = dict(model.training_state)
    arrays = training.pop("arrays", {})
    with atomic_directory(path, check_replaceable=check_replaceable) as tmp:
        for name, array in model.params.items():
            save_npy(os.path.join(tmp, "params", f"{name}.npy"), array)
        for name, array in arrays.items():
            save_npy(os.path.join(tmp, "state", f"{name}.npy"), array)
        save_npy(os.path.join(tmp, "steps.npy"), np.asarray(model.steps, dtype=np.float64).reshape(-1, 3))
        save_json(os.path.join(tmp, MANIFEST), {
            "format": FORMAT, "version": VERSION, "config": dataclasses.asdict(model.config), "vocabulary": model.vocab.to_json(),
            "params": {k: list(v.shape) for k, v in model.params.items()},
            "state_arrays": sorted(arrays), "history": model.history, "training": training,
        })


def is_checkpoint(path):
    """True if ``path`` is a directory that a language-model save wrote (model.json names the format)."""
    try:
        return read_json_object(os.path.join(path, MANIFEST)).get("format") == FORMAT
    except (OSError, FormatError):
        return False


def check_replaceable(path):
    """Only a previous checkpoint (model.json, params/, state/, steps.npy) is ever replaced."""
    if not os.path.isdir(path) or not is_checkpoint(path) or not set(os.listdir(path)) <= CHECKPOINT_ENTRIES:
        raise WordvecError(f"refusing to replace {path}: it is not a wordvec language model directory")


def _corrupt(path, problem):
    return WordvecError(f"{path} is not a usable wordvec language model: {problem}")


def _load_array(path, directory, name, shape=None):
    """A parameter or state array: float, finite, of the expected shape (``arrays.read_array``)."""
    file = os.path.join(path, directory, f"{name}.npy")
    if not os.path.isfile(file):
        raise _corrupt(path, f"{os.path.join(directory, name)}.npy is missing")
    try:
        return read_array(file, shape)
    except FormatError as error:
        raise _corrupt(path, f"{os.path.join(directory, name)}.npy: {error.problem}") from None


def load_checkpoint(path, model_for_config):
    """The model saved at ``path``: ``model_for_config(vocab, config)`` builds it untrained
    (``LanguageModel.from_config``), then every array is checked and put in place."""
    path, meta = _read_description(path)
    try:
        _check_tokens(path, meta["vocabulary"])
        _check_size(path, meta["config"], len(meta["vocabulary"]["tokens"]))
        model = model_for_config(LMVocab.from_json(meta["vocabulary"]), meta["config"])
        expected = meta["params"]
        if set(expected) != set(model.params):
            raise _corrupt(path, "its parameter list does not match its configuration")
        for name, shape in expected.items():
            array = _load_array(path, "params", name, model.params[name].shape)
            model.params[name] = np.ascontiguousarray(array, dtype=model.params[name].dtype)
        training = dict(meta.get("training", {}))
        training["arrays"] = {name: _load_array(path, "state", name, _state_shape(model, name))
                              for name in meta.get("state_arrays", [])}
        model.training_state = training
        model.history = list(meta.get("history", []))
        steps = _load_array(path, "", "steps", (None, 3))
        model.steps = [tuple(row) for row in steps.tolist()]
        _check_training_state(path, model)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise _corrupt(path, f"model.json lacks or mistypes an entry ({one_line(error)})") from None
    return model


def _read_description(path):
    """(the checkpoint's directory, its model.json object), format and version checked.

    The word-vector models' ``io.manifest.read_manifest`` does not fit this format (a
    config, a vocabulary, parameter shapes and a training state; no hyperparameters), and
    its sentences are not these; the JSON itself is read by the same ``read_json_object``."""
    path = os.fspath(saved_directory(path, MANIFEST))  # a crash mid-replace left the old one aside
    meta_file = os.path.join(path, MANIFEST)
    if not os.path.exists(path):
        raise WordvecError(f"model not found: {path}")
    if not os.path.isfile(meta_file):
        raise _corrupt(path, "model.json is missing (a model is a directory written by `wordvec lm train`)")
    try:
        meta = read_json_object(meta_file)
    except FormatError as error:
        raise _corrupt(path, f"model.json is not valid JSON ({error.problem})") from None
    if meta.get("format") != FORMAT:
        raise _corrupt(path, f"model.json does not describe a {FORMAT} model")
    if meta.get("version") != VERSION:
        raise _corrupt(path, f"format version {meta.get('version')} is not supported (expected {VERSION})")
    return path, meta


def _check_tokens(path, vocabulary):
    """Tokens are distinct non-empty strings; single characters at character level."""
    tokens = vocabulary["tokens"]
    if not isinstance(tokens, list) or not all(isinstance(t, str) and t for t in tokens):
        raise _corrupt(path, "its vocabulary must be a list of non-empty strings")
    if len(set(tokens)) != len(tokens):
        raise _corrupt(path, "its vocabulary repeats a token")
    if vocabulary.get("level") == "char" and any(len(t) != 1 for t in tokens):
        raise _corrupt(path, "a character-level vocabulary may hold only single characters")


def _check_size(path, config, vocabulary_size):
    """Refuse a configuration whose parameters could not fit in the files of params/ (a
    damaged model.json asking for a huge model), before the model allocates them."""
    hidden, embedding = config["hidden_size"], config["embedding_size"]
    if type(hidden) is not int or type(embedding) is not int or hidden < 1 or embedding < 1:
        raise _corrupt(path, "hidden_size and embedding_size must be positive integers")
    params = os.path.join(path, "params")
    on_disk = sum(entry.stat().st_size for entry in os.scandir(params)) if os.path.isdir(params) else 0
    at_least = 4 * (hidden * hidden + hidden * embedding + vocabulary_size * embedding)  # W_aa, W_ax, E in float32
    if config.get("cell") == "attention":  # hidden is the feed-forward width: W_q, W_k, W_v, W_1, W_2, E
        at_least = 4 * (3 * embedding * embedding + 2 * hidden * embedding + vocabulary_size * embedding)
    if at_least > on_disk:
        raise _corrupt(path, f"its configuration needs at least {at_least} bytes of parameters, "
                             f"but params/ holds {on_disk}")


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_training_state(path, model):
    """What ``lm_training.train`` reads back on --resume is present and well-typed, so a
    damaged checkpoint is refused here rather than failing inside the training loop."""
    history, training = model.history, model.training_state
    if not all(isinstance(h, dict) and type(h.get("epoch")) is int and isinstance(h.get("complete", True), bool)
               and all(_number(h[k]) for k in ("train_loss", "valid_loss", "tokens", "seconds") if k in h)
               for h in history):
        raise _corrupt(path, "its training history is damaged")
    if not isinstance(training, dict):
        raise _corrupt(path, "its training state is not an object")
    arrays = training.get("arrays", {})
    optimizer = training.get("optimizer")
    if optimizer is not None:
        scalars = training.get("optimizer_scalars")
        if optimizer not in OPTIMIZERS or not isinstance(scalars, dict) or not _number(training.get("lr", 1.0)):
            raise _corrupt(path, "its optimizer state is damaged")
        if optimizer == "adam":
            if type(scalars.get("t")) is not int or scalars["t"] < 0:
                raise _corrupt(path, "its Adam step count is damaged")
            missing = [f"{kind}.{name}" for name in model.params for kind in ("m", "v") if f"{kind}.{name}" not in arrays]
            if missing:
                raise _corrupt(path, f"state/{missing[0]}.npy (Adam's moments) is missing")
    if "rng" in training:
        try:
            np.random.default_rng().bit_generator.state = training["rng"]
        except (TypeError, ValueError, KeyError, OverflowError):
            raise _corrupt(path, "its random generator state is damaged") from None
    if history and not history[-1].get("complete", True):  # an unfinished epoch resumes mid-way
        carries = model.initial_state(1)
        if type(training.get("position")) is not int or training["position"] < 0 or any(
                f"carry.{i}" not in arrays or arrays[f"carry.{i}"].ndim != carry.ndim for i, carry in enumerate(carries)):
            raise _corrupt(path, "the state of its unfinished epoch is damaged")
        if not all(k in history[-1] for k in ("train_loss", "tokens", "seconds")):
            raise _corrupt(path, "the record of its unfinished epoch is damaged")


def _state_shape(model, name):
    """Adam's m.NAME / v.NAME have the shape of parameter NAME; other state (carry.I) any."""
    kind, _, param = name.partition(".")
    if kind in ("m", "v"):
        if param not in model.params:
            raise KeyError(f"state array {name} names no parameter")
        return model.params[param].shape
    return None
