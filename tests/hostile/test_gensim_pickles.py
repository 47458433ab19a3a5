"""Hostile pickles handed to the gensim readers (``load_gensim``, ``Word2Vec.load``,
``KeyedVectors.load``, ...): anything outside the allow-list is refused in one sentence
naming it, and nothing in the file runs (a marker file the payload would create never
appears)."""

import os
import pickle
import pickletools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wordvec
from wordvec.errors import WordvecError
from wordvec.io.gensim_pickle import UnsafePickleError, unpickle

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
LOADERS = [wordvec.load_gensim, wordvec.Word2Vec.load, wordvec.KeyedVectors.load, wordvec.Doc2Vec.load,
           wordvec.FastText.load, wordvec.Phrases.load]


def _global(module, name):
    return f"c{module}\n{name}\n".encode()


def payloads(marker):
    """name -> (pickle bytes, what the refusal names)."""
    command = f"touch {marker}".encode()
    system_call = b"\x80\x02" + _global("os", "system") + b"X" + len(command).to_bytes(4, "little") + command + b"\x85R."
    posix_call = b"\x80\x02" + _global("posix", "system") + b"X" + len(command).to_bytes(4, "little") + command + b"\x85R."
    code = f"open({str(marker)!r}, 'w')".encode()
    eval_call = b"\x80\x02" + _global("builtins", "eval") + b"X" + len(code).to_bytes(4, "little") + code + b"\x85R."

    class Reduce:
        def __reduce__(self):
            return (os.system, (command.decode(),))

    nested = {"wv": {"vectors": np.zeros((2, 2), np.float32), "hook": Reduce()}}
    nested_bytes = pickle.dumps(nested, protocol=4)
    subclass = pickle.dumps(np.zeros(3).view(np.recarray), protocol=2)
    objects = pickle.dumps(np.array([1, "x"], dtype=object), protocol=2)
    # gensim's own class name with an os.system inside its state
    gensim_wrapped = (b"\x80\x02" + _global("gensim.models.word2vec", "Word2Vec") + b")\x81}X\x02\x00\x00\x00wv"
                      + system_call[2:-1] + b"s" + b"b.")
    return {
        "os.system": (system_call, "os.system"),
        "posix.system": (posix_call, "posix.system"),
        "builtins.eval": (eval_call, "builtins.eval"),
        "__reduce__ nested in a dict": (nested_bytes, "posix.system"),
        "ndarray subclass": (subclass, "recarray"),
        "object array": (objects, "object"),
        "os.system inside a gensim class": (gensim_wrapped, "os.system"),
    }


@pytest.mark.parametrize("case", list(payloads("x")))
@pytest.mark.parametrize("load", LOADERS, ids=lambda f: f.__qualname__)
def test_hostile_pickles_are_refused_and_run_nothing(tmp_path, case, load):
    marker = tmp_path / "ran"
    data, named = payloads(marker)[case]
    pickletools.dis(data, out=open(tmp_path / "dis.txt", "w"))  # a well-formed pickle: the refusal is the reader's
    path = tmp_path / "model.pkl"
    path.write_bytes(data)
    with pytest.raises(WordvecError, match=named.replace(".", r"\.")) as raised:
        load(str(path))
    assert "\n" not in str(raised.value)
    assert not marker.exists()


def test_the_refusal_is_an_unpickling_error_too(tmp_path):
    path = tmp_path / "model.pkl"
    path.write_bytes(payloads(tmp_path / "ran")["os.system"][0])
    with pytest.raises(pickle.UnpicklingError):
        unpickle(path)
    with pytest.raises(UnsafePickleError, match="nothing is run"):
        unpickle(path)


@SETTINGS
@given(st.binary(min_size=0, max_size=300))
def test_random_bytes_after_a_pickle_header_are_refused_cleanly(tail):
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.pkl"
        path.write_bytes(b"\x80\x02" + tail)
        try:
            wordvec.load_gensim(path)
        except WordvecError as error:
            assert "\n" not in str(error)
