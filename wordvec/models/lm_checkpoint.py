"""Native checkpoints for :class:`wordvec.models.rnnlm.RNNLM`: a directory of ``.npy``
arrays plus one JSON file, never pickle.

    MODEL/model.json          format, config (hyperparameters), vocabulary tokens,
                              per-epoch history, training state (optimizer name and
                              scalars, learning rate, RNG state, bptt, batch size, clip)
    MODEL/params/NAME.npy     parameters
    MODEL/state/NAME.npy      training arrays: Adam's m.NAME, v.NAME, and carry.I, the
                              hidden state carried into the rest of an unfinished epoch
    MODEL/steps.npy           (S, 3) float64: update number, loss, gradient norm

Every file is written atomically and ``model.json`` last, so it names only arrays that
are complete on disk.
"""

import json
import os

import numpy as np

from wordvec.atomic import save_json, save_npy
from wordvec.errors import WordvecError

FORMAT, VERSION = "wordvec-rnnlm", 1


def save_checkpoint(model, path):
    path = os.fspath(path)
    if os.path.exists(path) and not os.path.isdir(path):
        raise WordvecError(f"cannot save the model to {path}: a file of that name exists (a model is a directory)")
    for name, array in model.params.items():
        save_npy(os.path.join(path, "params", f"{name}.npy"), array)
    training = dict(model.training_state)
    arrays = training.pop("arrays", {})
    for name, array in arrays.items():
        save_npy(os.path.join(path, "state", f"{name}.npy"), array)
    save_npy(os.path.join(path, "steps.npy"), np.asarray(model.steps, dtype=np.float64).reshape(-1, 3))
    save_json(os.path.join(path, "model.json"), {
        "format": FORMAT, "version": VERSION, "config": model.config, "vocabulary": model.vocab.to_json(),
        "params": {k: list(v.shape) for k, v in model.params.items()},
        "state_arrays": sorted(arrays), "history": model.history, "training": training,
    })


def _corrupt(path, problem):
    return WordvecError(f"{path} is not a usable wordvec language model: {problem}")


def _load_array(path, directory, name, shape=None):
    file = os.path.join(path, directory, f"{name}.npy")
    try:
        array = np.load(file, allow_pickle=False)
    except FileNotFoundError:
        raise _corrupt(path, f"{directory}/{name}.npy is missing") from None
    except (ValueError, OSError, EOFError) as error:
        raise _corrupt(path, f"{directory}/{name}.npy cannot be read ({error})") from None
    if shape is not None and list(array.shape) != list(shape):
        raise _corrupt(path, f"{directory}/{name}.npy has shape {array.shape}, expected {tuple(shape)}")
    return array


def load_checkpoint(path):
    from wordvec.lm_data import LMVocab
    from wordvec.models.attention_lm import ATTENTION_CELLS, AttentionLM
    from wordvec.models.rnnlm import RNNLM

    path = os.fspath(path)
    meta_file = os.path.join(path, "model.json")
    if not os.path.exists(path):
        raise WordvecError(f"model not found: {path}")
    if not os.path.isfile(meta_file):
        raise _corrupt(path, "model.json is missing (a model is a directory written by `wordvec lm train`)")
    try:
        with open(meta_file, encoding="utf-8") as handle:
            meta = json.load(handle)
    except (ValueError, UnicodeDecodeError) as error:
        raise _corrupt(path, f"model.json is not valid JSON ({error})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise _corrupt(path, f"model.json does not describe a {FORMAT} model")
    if meta.get("version") != VERSION:
        raise _corrupt(path, f"format version {meta.get('version')} is not supported (expected {VERSION})")
    try:
        # (the attention LM shares the format; config["cell"] tells the two apart)
        model_class = AttentionLM if meta["config"].get("cell") in ATTENTION_CELLS else RNNLM
        model = model_class(LMVocab.from_json(meta["vocabulary"]), **meta["config"])
        expected = meta["params"]
        if set(expected) != set(model.params):
            raise _corrupt(path, "its parameter list does not match its configuration")
        for name, shape in expected.items():
            array = _load_array(path, "params", name, model.params[name].shape)
            model.params[name] = np.ascontiguousarray(array, dtype=model.params[name].dtype)
        training = dict(meta.get("training", {}))
        training["arrays"] = {name: _load_array(path, "state", name) for name in meta.get("state_arrays", [])}
        model.training_state = training
        model.history = list(meta.get("history", []))
        steps = _load_array(path, "", "steps")
        model.steps = [tuple(row) for row in steps.reshape(-1, 3).tolist()]
    except (KeyError, TypeError, AttributeError) as error:
        raise _corrupt(path, f"model.json lacks or mistypes an entry ({error})") from None
    return model
