"""A saved model's description, ``model.json``: written and read in one place.

Every native model directory (word2vec, GloVe, PPMI-SVD; ``wordvec.models.word2vec.io``
and ``wordvec.models.count.io``) holds, beside its arrays, a JSON object::

    {"format": TAG, "version": N, "hyperparameters": {...}, <the model's own sections>,
     "history": [...]}

``manifest`` makes that object; ``read_manifest`` finds and checks it (the directory, the
format tag) and ``model_from_manifest`` rebuilds the untrained model from its
hyperparameters, so that a description that is not one fails in one sentence naming
``model.json`` instead of a ``KeyError`` later.
"""

from wordvec.errors import FormatError, WordvecError
from wordvec.io.atomic import saved_directory
from wordvec.io.formats import NATIVE_META, json_safe, read_json_object

MANIFEST = "model.json"


def manifest(tag, version, hyperparameters, history, **sections):
    """The JSON object of ``model.json``: format, version, hyperparameters, ``sections`` in
    the order given, history (all made JSON-safe)."""
    return {"format": tag, "version": version, "hyperparameters": json_safe(hyperparameters),
            **{name: json_safe(value) for name, value in sections.items()}, "history": json_safe(history)}


def read_manifest(path, tag, name, marker=NATIVE_META):
    """(directory, path of model.json, its object) for the model saved at ``path``, whose
    format must be ``tag``; ``name`` ("wordvec Word2Vec") names the model in errors.
    ``marker``: the file a complete save holds (a crash mid-replace leaves the old save
    aside, ``wordvec.io.atomic.saved_directory``)."""
    directory = saved_directory(path, marker)
    manifest_path = directory / MANIFEST
    if not manifest_path.is_file():
        raise WordvecError(f"{directory} is not a saved {name} model (no {MANIFEST})")
    meta = read_json_object(manifest_path)
    if meta.get("format") != tag:
        raise FormatError(manifest_path, None, f"not a {name} model description")
    return directory, manifest_path, meta


def model_from_manifest(model_class, meta, manifest_path, name, required=(), settings=None):
    """``model_class`` built from the manifest's hyperparameters, with this run's
    ``settings`` (``workers``, ``progress``, ...; progress on by default), after checking
    that the ``required`` sections are there."""
    try:
        for section in required:
            meta[section]
        return model_class(**{**meta["hyperparameters"], "progress": True, **(settings or {})})
    except (ValueError, KeyError, TypeError):
        raise FormatError(manifest_path, None, f"not a {name} model description") from None
