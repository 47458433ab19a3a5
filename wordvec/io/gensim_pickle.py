"""gensim's pickled saves read as plain data, without running code from the file.

gensim saves a model with ``pickle`` plus, for its large arrays, ``.npy`` companions
(``model.wv.vectors.npy`` beside ``model``).  Unpickling runs whatever the file names, so
this reader allows only an explicit list of globals:

- NumPy array and dtype reconstruction (never an object dtype, checked after the load);
- plain containers (``defaultdict`` becomes a dict) and harmless constants gensim stores
  (``builtins.hash`` as its hash function, ``int`` as a factory, ``latin1`` byte strings of
  Python 2 pickles);
- gensim's model classes (``gensim.models.*``), which become :class:`GensimObject`: the class
  name and the attribute dict, no gensim code; NumPy random states become an empty one.

Anything else (``os.system``, ``builtins.eval``, a class of another package) is refused in
one sentence naming it, before anything is called.  The ``.npy`` companions are read with
``wordvec.io.arrays.read_array`` (no pickle).  ``read_gensim(path)`` returns the top object.
"""

import pickle
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.io.arrays import read_array

GENSIM_PACKAGES = ("gensim.models.", "gensim.similarities.", "gensim.utils")
MAX_DEPTH = 200


class UnsafePickleError(WordvecError, pickle.UnpicklingError):
    """A pickle that needs a global outside the allow-list."""


class GensimObject:
    """An instance of one of gensim's classes, as data: ``gensim_class`` and ``state``."""

    gensim_class = "gensim"

    def __init__(self, *args, **kwargs):
        self.args, self.state = args, {}

    def __setstate__(self, state):
        if isinstance(state, tuple) and len(state) == 2:  # (dict, slots)
            state = {**(state[0] or {}), **(state[1] or {})}
        if not isinstance(state, dict):
            raise UnsafePickleError(f"the state of a {self.gensim_class} is a {type(state).__name__}, not a dict")
        self.state = state

    @property
    def name(self):
        return self.gensim_class.rsplit(".", 1)[-1]

    def get(self, key, default=None):
        return self.state.get(key, default)

    def __repr__(self):
        return f"<{self.gensim_class} {sorted(self.state)}>"


def _gensim_class(module, name):
    return type(name, (GensimObject,), {"gensim_class": f"{module}.{name}"})


class _RandomState(GensimObject):
    """A NumPy random state gensim kept: read as nothing (its state is not needed)."""

    gensim_class = "numpy.random.RandomState"

    def __setstate__(self, state):
        self.state = {}


def _random_state(*args):
    return _RandomState()


def _reconstruct(cls, shape, dtype_code):
    if cls is not np.ndarray:
        raise UnsafePickleError(f"an array of class {getattr(cls, '__name__', cls)!r}, not numpy.ndarray")
    return np.ndarray.__new__(np.ndarray, (0,), dtype="b")  # the shape comes with the data (__setstate__)


def _dtype(spec, align=False, copy=False):
    dtype = np.dtype(spec, bool(align), bool(copy))
    if dtype.hasobject:
        raise UnsafePickleError("an array of Python objects (object dtype), which could hold anything")
    return dtype


def _scalar(dtype, data=b""):
    if isinstance(data, str):  # a Python 2 byte string, read as latin1 text
        data = data.encode("latin1")
    if not isinstance(dtype, np.dtype) or dtype.hasobject or not isinstance(data, bytes):
        raise UnsafePickleError("a NumPy scalar that is not a plain number")
    return np.frombuffer(data, dtype=dtype, count=1)[0]


def _defaultdict(factory=None, *rest):
    return {}


def _latin1(text, encoding="latin1", errors="strict"):
    if encoding.lower().replace("-", "") not in ("latin1", "iso88591"):
        raise UnsafePickleError(f"text encoded as {encoding!r} (only latin1 byte strings are read)")
    return text.encode("latin1")


def _reconstructor(cls, base, state):
    if not (isinstance(cls, type) and issubclass(cls, GensimObject)) or base is not object or state is not None:
        raise UnsafePickleError("an object rebuilt by copyreg that is not one of gensim's classes")
    return cls()


class _Marker(str):
    """A function or type gensim stored as a value (its hash function, a scorer): its name."""


_ALLOWED = {
    ("numpy.core.multiarray", "_reconstruct"): _reconstruct,
    ("numpy._core.multiarray", "_reconstruct"): _reconstruct,
    ("numpy", "ndarray"): np.ndarray,
    ("numpy", "dtype"): _dtype,
    ("numpy.core.multiarray", "scalar"): _scalar,
    ("numpy._core.multiarray", "scalar"): _scalar,
    ("numpy.random._pickle", "__randomstate_ctor"): _random_state,
    ("numpy.random._pickle", "__bit_generator_ctor"): _random_state,
    ("numpy.random._pickle", "__generator_ctor"): _random_state,
    ("numpy.random", "__RandomState_ctor"): _random_state,
    ("numpy.random._mt19937", "MT19937"): _random_state,
    ("collections", "defaultdict"): _defaultdict,
    ("collections", "OrderedDict"): dict,
    ("_codecs", "encode"): _latin1,
    ("copy_reg", "_reconstructor"): _reconstructor,
    ("copyreg", "_reconstructor"): _reconstructor,
    ("gensim.models.phrases", "original_scorer"): _Marker("default"),
    ("gensim.models.phrases", "npmi_scorer"): _Marker("npmi"),
    ("gensim.utils", "call_on_class_only"): _Marker("call_on_class_only"),
}
for _builtins in ("builtins", "__builtin__"):
    _ALLOWED[(_builtins, "hash")] = _Marker("hash")
    for _name, _type in (("int", int), ("long", int), ("float", float), ("set", set), ("frozenset", frozenset),
                         ("list", list), ("dict", dict), ("tuple", tuple), ("object", object)):
        _ALLOWED[(_builtins, _name)] = _type


class _RestrictedUnpickler(pickle.Unpickler):
    def __init__(self, handle, path):
        super().__init__(handle, encoding="latin1")
        self.path, self.classes = path, {}

    def find_class(self, module, name):
        allowed = _ALLOWED.get((module, name))
        if allowed is not None:
            return allowed
        if module.startswith(GENSIM_PACKAGES) and name[:1].isupper() and name.isidentifier():
            return self.classes.setdefault((module, name), _gensim_class(module, name))
        raise UnsafePickleError(f"{self.path} needs {module}.{name}, which wordvec does not load from a pickle "
                                "(only NumPy arrays, plain containers and gensim's model classes; nothing is run)")

    def persistent_load(self, pid):
        raise UnsafePickleError(f"{self.path} refers to persistent objects, which wordvec does not load")


def _open(path):
    suffix = path.suffix.lower()
    if suffix == ".gz":
        import gzip  # imported with the first compressed save: keyed vectors import this module
        return gzip.open(path, "rb")
    if suffix == ".bz2":
        import bz2
        return bz2.open(path, "rb")
    return open(path, "rb")


def is_pickle(path):
    """True if ``path`` is a file that starts like a pickle (protocol 2 or later, or a gensim 0.x one)."""
    path = Path(path)
    if not path.is_file():
        return False
    try:
        with _open(path) as handle:
            head = handle.read(2)
    except (OSError, EOFError):
        return False
    return len(head) == 2 and (head[0] == 0x80 and 2 <= head[1] <= 5 or head[:1] in (b"c", b"("))


def unpickle(path):
    """The object a gensim pickle holds, as plain data (module docstring); refuses the rest."""
    path = Path(path)
    try:
        with _open(path) as handle:
            top = _RestrictedUnpickler(handle, path).load()
    except WordvecError:
        raise
    except OSError as error:
        raise WordvecError(f"cannot read {path}: {error.strerror or error}") from None
    except Exception as error:  # noqa: BLE001 - only allow-listed code runs: any failure is a malformed file
        raise FormatError(path, None, f"not a readable gensim save ({type(error).__name__}: {error})") from None
    _check_plain(top, path, 0)
    return top


def _check_plain(value, path, depth):
    """No object-dtype array anywhere, and nothing but plain data and GensimObjects."""
    if depth > MAX_DEPTH:
        raise FormatError(path, None, "objects nested too deeply")
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise UnsafePickleError(f"{path} holds an array of Python objects, which wordvec does not load")
        return
    if isinstance(value, GensimObject):
        value = value.state
    if isinstance(value, dict):
        for key, item in value.items():
            _check_plain(key, path, depth + 1)
            _check_plain(item, path, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            _check_plain(item, path, depth + 1)


def top_class(path):
    """"module.name" of the class a pickle holds at its top (read up to its first global),
    or None: which wordvec class reads a gensim save, without reading it all."""
    import pickletools
    try:
        with _open(Path(path)) as handle:
            texts = [None, None]
            for opcode, argument, _ in pickletools.genops(handle):
                if opcode.name in ("GLOBAL", "INST"):
                    return str(argument).replace(" ", ".")
                if opcode.name == "STACK_GLOBAL":  # module and name pushed as the two strings before
                    return f"{texts[0]}.{texts[1]}" if texts[0] else None
                if isinstance(argument, str) and opcode.name.endswith("UNICODE"):
                    texts = [texts[1], argument]
    except Exception:  # noqa: BLE001 - a malformed file: read_gensim says what is wrong with it
        return None
    return None


def read_gensim(path, mmap_mode=None):
    """The top object of a gensim save with its ``.npy`` companions put in place."""
    top = unpickle(path)
    if isinstance(top, GensimObject):
        _attach_arrays(top, str(path), mmap_mode)
    return top


def _attach_arrays(obj, prefix, mmap_mode):
    """gensim's ``SaveLoad._load_specials``: arrays saved aside as ``<prefix>.<attribute>.npy``,
    objects with their own ones under ``<prefix>.<attribute>``."""
    state = obj.state
    for attribute in state.get("__recursive_saveloads", []):
        child = _dotted(state, attribute)
        if isinstance(child, GensimObject):
            _attach_arrays(child, f"{prefix}.{attribute}", mmap_mode)
    if state.get("__scipys"):
        raise WordvecError(f"{prefix} keeps SciPy sparse matrices aside ({', '.join(state['__scipys'])}), "
                           "which wordvec does not read from gensim saves")
    for attribute in state.get("__numpys", []):
        path = Path(f"{prefix}.{attribute}.npy")
        if not path.is_file():
            raise WordvecError(f"{prefix} keeps {attribute} in {path.name} beside it, which is missing")
        _set_dotted(state, attribute, read_array(path, kinds="fiub", finite=False, mmap_mode=mmap_mode))
    for attribute in state.get("__ignoreds", []):
        _set_dotted(state, attribute, None)


def _dotted(state, attribute):
    value = state
    for part in attribute.split("."):
        value = value.state if isinstance(value, GensimObject) else value
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _set_dotted(state, attribute, array):
    *parents, last = attribute.split(".")
    for part in parents:
        state = state.get(part)
        state = state.state if isinstance(state, GensimObject) else state
        if not isinstance(state, dict):
            return
    state[last] = array
