"""Static models on disk, in Model2Vec's directory layout (what
``model2vec.StaticModel.from_pretrained`` and sentence-transformers' ``StaticEmbedding``
read) and read back from the layouts Model2Vec knows:

    model2vec:              config.json, model.safetensors ("embeddings" [, "weights",
                            "mapping"]), tokenizer.json
    sentence-transformers:  config_sentence_transformers.json, model.safetensors or
                            0_StaticEmbedding/model.safetensors ("embedding.weight"),
                            tokenizer.json beside it

A save writes the weights into the rows (``embeddings`` = w_j E_j, Model2Vec's own
distilled models do the same), so both libraries pool exactly as wordvec does, and
``projection.safetensors`` (the teacher's PCA, which only wordvec reads) when the model
has one.  Damaged files are a ``FormatError``: one sentence naming the file.
"""

import json
from pathlib import Path
from typing import NamedTuple

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.io.atomic import atomic_directory, atomic_write
from wordvec.models.static.tokens import read_tokenizer

LAYOUTS = (  # (config, tensors, tokenizer, name of the embedding tensor), Model2Vec's order
    ("config.json", "model.safetensors", "tokenizer.json", "embeddings"),
    ("config_sentence_transformers.json", "model.safetensors", "tokenizer.json", "embedding.weight"),
    ("config_sentence_transformers.json", "0_StaticEmbedding/model.safetensors",
     "0_StaticEmbedding/tokenizer.json", "embedding.weight"),
)
PROJECTION = "projection.safetensors"
MAX_CONFIG_BYTES = 1 << 20


class Saved(NamedTuple):
    vectors: np.ndarray  # V x D float32
    weights: np.ndarray  # V float32
    tokenizer: object  # tokenizers.Tokenizer
    config: dict
    projection: tuple | None  # (mean, components) of the teacher's PCA, or None


def is_static_model(path):
    path = Path(path)
    return path.is_dir() and _layout(path) is not None


def _layout(directory):
    for config, tensors, tokenizer, name in LAYOUTS:
        if all((directory / part).is_file() for part in (config, tensors, tokenizer)):
            return directory / config, directory / tensors, directory / tokenizer, name
    return None


def read(path):
    """The ``Saved`` parts of the static model directory ``path``."""
    directory = Path(path)
    if not directory.is_dir():
        raise WordvecError(f"cannot read {directory}: not a static model directory")
    layout = _layout(directory)
    if layout is None:
        raise WordvecError(f"cannot read {directory}: no static model there "
                           "(a model.safetensors, tokenizer.json and config.json are needed)")
    config_path, tensors_path, tokenizer_path, name = layout
    config = _read_config(config_path)
    tensors = read_tensors(tensors_path, (name, "weights", "mapping"))
    if name not in tensors:
        raise FormatError(tensors_path, None, f"it holds no tensor named {name!r}")
    tokenizer = read_tokenizer(read_text(tokenizer_path), tokenizer_path)
    vectors, weights = _rows(tensors_path, tensors, name, tokenizer.get_vocab_size(with_added_tokens=True))
    projection = _read_projection(directory / PROJECTION, vectors.shape[1])
    return Saved(vectors, weights, tokenizer, config, projection)


def safetensors_package():
    """The safetensors package, imported on first use (the `static` extra)."""
    try:
        import safetensors.numpy
    except ImportError:
        raise WordvecError("static models need the safetensors package: pip install 'wordvec[static]'") from None
    return safetensors


def read_tensors(path, names=None):
    """The tensors among ``names`` (None: all) in the safetensors file ``path``, as NumPy arrays."""
    package = safetensors_package()
    try:
        with package.safe_open(str(path), framework="numpy") as handle:
            found = handle.keys()
            return {name: handle.get_tensor(name) for name in (found if names is None else names) if name in found}
    except (OSError, MemoryError) as error:
        raise FormatError(path, None, f"cannot be read ({error.__class__.__name__})") from None
    except Exception as error:  # safetensors raises its own SafetensorError for every kind of damage
        raise FormatError(path, None, f"not a readable safetensors file ({str(error)[:160]})") from None


def _rows(path, tensors, name, vocabulary_size):
    vectors = _float_matrix(path, name, tensors[name])
    rows = vectors.shape[0]
    if "mapping" in tensors:  # Model2Vec's vocabulary quantization: token -> row
        mapping = tensors["mapping"]
        if mapping.ndim != 1 or mapping.dtype.kind not in "iu" or len(mapping) != vocabulary_size:
            raise FormatError(path, None, f"its mapping must be {vocabulary_size} integer row numbers")
        if len(mapping) and (mapping.min() < 0 or mapping.max() >= rows):
            raise FormatError(path, None, f"its mapping points outside the {rows} rows")
        vectors = np.ascontiguousarray(vectors[mapping])
    elif rows != vocabulary_size:
        raise FormatError(path, None, f"it has {rows} rows but the tokenizer has {vocabulary_size} tokens")
    weights = np.ones(len(vectors), dtype=np.float32)
    if "weights" in tensors:
        given = tensors["weights"]
        if given.shape != (len(vectors),) or given.dtype.kind != "f" or not np.isfinite(given).all():
            raise FormatError(path, None, f"its weights must be {len(vectors)} finite numbers")
        weights = given.astype(np.float32)
    return vectors, weights


def _float_matrix(path, name, array):
    if array.ndim != 2 or array.shape[1] == 0:
        raise FormatError(path, None, f"tensor {name!r} has shape {array.shape}, not rows x dimensions")
    if array.dtype.kind not in "fi":
        raise FormatError(path, None, f"tensor {name!r} is {array.dtype}, not numbers")
    vectors = np.ascontiguousarray(array, dtype=np.float32)
    if not np.isfinite(vectors).all():
        raise FormatError(path, None, f"tensor {name!r} holds NaN or infinite values")
    return vectors


def _read_projection(path, dims):
    if not path.is_file():
        return None
    tensors = read_tensors(path, ("mean", "components"))
    mean, components = tensors.get("mean"), tensors.get("components")
    if (mean is None or components is None or mean.ndim != 1 or components.shape != (dims, len(mean))
            or not np.isfinite(mean).all() or not np.isfinite(components).all()):
        raise FormatError(path, None, f"not a projection of {dims} components (mean, components)")
    return mean.astype(np.float64), components.astype(np.float64)


def read_text(path):
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise FormatError(path, None, "not UTF-8 text") from None
    except OSError as error:
        raise FormatError(path, None, f"cannot be read ({error.strerror})") from None


def _read_config(path):
    if Path(path).stat().st_size > MAX_CONFIG_BYTES:
        raise FormatError(path, None, "too large for a model configuration")
    try:
        config = json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise FormatError(path, error.lineno, f"not valid JSON ({error.msg})") from None
    if not isinstance(config, dict):
        raise FormatError(path, None, "not a JSON object")
    for key, kind in (("normalize", bool), ("max_length", (int, type(None)))):
        if key in config and (not isinstance(config[key], kind) or config[key] is True and kind != bool):
            raise FormatError(path, None, f"its {key!r} has the wrong type")
    if isinstance(config.get("max_length"), int) and config["max_length"] < 1:
        raise FormatError(path, None, "its 'max_length' must be at least 1")
    history = config.get("history", [])
    if not (isinstance(history, list) and all(isinstance(entry, dict) for entry in history)):
        raise FormatError(path, None, "its 'history' must be a list of objects (one per epoch)")
    return config


def check_replaceable(path):
    """A save replaces only a directory that is a static model (or an empty one)."""
    path = Path(path)
    if path.is_dir() and any(path.iterdir()) and not is_static_model(path):
        raise WordvecError(f"cannot write {path}: it is a directory that is not a static model")
    if not path.is_dir():
        raise WordvecError(f"cannot write {path}: a file of that name exists (a static model is a directory)")


def write(path, vectors, weights, tokenizer, config, projection=None):
    """Save into the directory ``path`` (replaced whole, atomically)."""
    safetensors_bytes = safetensors_package().numpy.save
    baked = np.ascontiguousarray(vectors * weights[:, None], dtype=np.float32)
    config = dict(config, hidden_dim=int(baked.shape[1]), embedding_dtype="float32")
    config.setdefault("model_type", "model2vec")
    config.setdefault("architectures", ["StaticModel"])
    modules = [{"idx": 0, "name": "0", "path": ".", "type": "sentence_transformers.models.StaticEmbedding"}]
    if config.get("normalize"):
        modules.append({"idx": 1, "name": "1", "path": "1_Normalize", "type": "sentence_transformers.models.Normalize"})
    with atomic_directory(path, check_replaceable) as tmp:
        with atomic_write(tmp / "model.safetensors") as out:
            out.write(safetensors_bytes({"embeddings": baked}))
        with atomic_write(tmp / "tokenizer.json", "w", encoding="utf-8") as out:
            out.write(tokenizer.to_str())
        with atomic_write(tmp / "modules.json", "w", encoding="utf-8") as out:
            json.dump(modules, out, indent=4)
        if config.get("normalize"):
            (tmp / "1_Normalize").mkdir()
        if projection is not None:
            mean, components = projection
            with atomic_write(tmp / PROJECTION) as out:
                out.write(safetensors_bytes({"mean": np.ascontiguousarray(mean, dtype=np.float32),
                                             "components": np.ascontiguousarray(components, dtype=np.float32)}))
        with atomic_write(tmp / "config.json", "w", encoding="utf-8") as out:  # written last: the marker
            json.dump(config, out, indent=4)
