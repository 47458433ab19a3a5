"""fastText's model files, ``.bin`` (dense) and ``.ftz`` (quantized), read and written.

The layout, all little-endian, as fastText 0.9.2 writes it (fasttext.cc saveModel,
args.cc, dictionary.cc, densematrix.cc, quantmatrix.cc, productquantizer.cc):

    int32 magic 793712314, int32 version 12
    args:   int32 dim, ws, epoch, minCount, neg, wordNgrams, loss, model, bucket, minn,
            maxn, lrUpdateRate; float64 t            (loss 1 hs 2 ns 3 softmax 4 ova;
                                                     model 1 cbow 2 skipgram 3 supervised)
    dictionary: int32 size, nwords, nlabels; int64 ntokens, pruneidx_size;
            size × (word bytes, NUL, int64 count, int8 type 0 word / 1 label);
            pruneidx_size × (int32 bucket, int32 row)
    bool quant_input; input matrix; bool qout; output matrix, each either
      dense:     int64 m, int64 n, float32[m × n] row-major
      quantized: bool qnorm, int64 m, int64 n, int32 codesize, uint8 codes[codesize],
                 a product quantizer (int32 dim, nsubq, dsub, lastdsub,
                 float32 centroids[dim × 256]) and, with qnorm, uint8 norm_codes[m] and
                 the norms' quantizer (dim 1).

Files of early fastText releases, from before it wrote a magic number and version (gensim
still reads them; fastText 0.9.2 refuses them), start with the args; their
dictionary has no ``pruneidx_size`` (nor index) and their matrices no quantization flag
(always dense).  ``read_fasttext`` reads both layouts; a file is taken for the old one only
when its first fields are plausible args (``old_layout_head``).

Reading streams the file and checks every count against the bytes left before it
allocates, so a damaged or hostile file fails with one sentence naming it
(``FormatError``), never a huge allocation or a crash.
"""

import itertools
import os
import re
import struct
from dataclasses import dataclass

import numpy as np

from wordvec.errors import FormatError
from wordvec.io.atomic import Writeback, atomic_write
from wordvec.io.text import joined_lines
from wordvec.memory import check_allocation

MAGIC = 793712314
VERSION = 12
KSUB = 256
INT_ARGS = ("dim", "ws", "epoch", "min_count", "neg", "word_ngrams", "loss", "model", "bucket", "minn", "maxn",
            "lr_update_rate")
LOSS_NAMES = {1: "hs", 2: "ns", 3: "softmax", 4: "ova"}
MODEL_NAMES = {1: "cbow", 2: "skipgram", 3: "supervised"}
MAX_DIM = 1 << 20
MMAP_VALUES = 1 << 16  # matrices from 256 KB on are mapped when asked to (predict: only the rows used are read)
ENTRY = re.compile(rb"([^\0]*)\0.{9}", re.DOTALL)  # a dictionary entry: word, NUL, int64 count, int8 type
ENTRY_TAIL = 10  # the NUL and the 9 bytes after it
MAX_PRUNED_BUCKET = 1 << 27  # a pruned model's bucket -> row table is int32[bucket]; fastText's default is 2M
OLD_HEAD = struct.Struct("<12id")  # the args that open a file without magic number and version
OLD_VERSION = 10  # such a file is read as the version before 11, the first with a header
MAX_WINDOW = 1 << 16  # a plausible -ws, for telling such a file from other binary data


@dataclass(frozen=True)
class ProductQuantizer:
    """k-means codebooks: sub-vector m of a row is one of 256 centroids (8-bit codes)."""
    dim: int
    dsub: int
    centroids: np.ndarray  # float32[dim * 256], fastText's layout (see centroid_block)

    @property
    def nsubq(self):
        return -(-self.dim // self.dsub)

    @property
    def lastdsub(self):
        return self.dim - (self.nsubq - 1) * self.dsub

    def centroid_block(self, m):
        """float32[256, d_m]: the centroids of sub-quantizer m."""
        d = self.lastdsub if m == self.nsubq - 1 else self.dsub
        start = m * KSUB * self.dsub
        return self.centroids[start:start + KSUB * d].reshape(KSUB, d)


@dataclass(frozen=True)
class QuantizedMatrix:
    """fastText's QuantMatrix: codes uint8[m, nsubq], optional quantized row norms."""
    rows: int
    cols: int
    codes: np.ndarray
    pq: ProductQuantizer
    norm_codes: np.ndarray = None
    norm_pq: ProductQuantizer = None

    @property
    def qnorm(self):
        return self.norm_codes is not None

    def dense(self):
        """The float32[m, n] matrix the codes stand for."""
        out = np.empty((self.rows, self.cols), dtype=np.float32)
        codes = self.codes.reshape(self.rows, self.pq.nsubq)
        for m in range(self.pq.nsubq):
            block = self.pq.centroid_block(m)
            out[:, m * self.pq.dsub:m * self.pq.dsub + block.shape[1]] = block[codes[:, m]]
        if self.qnorm:
            out *= self.norm_pq.centroids[self.norm_codes][:, None]
        return out


@dataclass(frozen=True)
class GatheredRows:
    """A dense matrix ``values[index]`` written without being built: a classifier that
    stored only the n-gram rows training used (fastText's file holds every row)."""
    values: np.ndarray
    index: np.ndarray

    @property
    def shape(self):
        return (len(self.index), self.values.shape[1])


@dataclass
class FastTextModel:
    """Everything a fastText model file holds."""
    args: dict              # INT_ARGS and 't'
    words: list             # str, words then labels (surrogateescape for non-UTF-8 bytes)
    counts: np.ndarray      # int64
    types: np.ndarray       # uint8: 0 word, 1 label
    ntokens: int
    prune_index: dict       # bucket -> row among the kept n-grams; None when not pruned
    input: object           # float32 ndarray or QuantizedMatrix
    output: object
    raw_words: list = None  # the words as the file's bytes (read_fasttext): lookups need no re-encoding
    joined_words: tuple = None  # (data, starts, ends): raw_words joined by newlines, word i data[starts[i]:ends[i]]

    @property
    def nwords(self):
        return int(np.count_nonzero(self.types == 0))

    @property
    def loss_name(self):
        return LOSS_NAMES.get(self.args["loss"], "softmax")

    @property
    def model_name(self):
        return MODEL_NAMES.get(self.args["model"], "supervised")


# ---------------------------------------------------------------------------- reading

class _Reader:
    """Sequential reads that know how many bytes are left, for one-sentence errors."""

    def __init__(self, handle, path, size):
        self.handle, self.path, self.size, self.pos = handle, path, size, 0
        self.buffer, self.buffer_pos = b"", 0
        self.mmap = False

    def fail(self, problem):
        raise FormatError(self.path, None, f"not a valid fastText model: {problem} (at byte {self.tell()})")

    def tell(self):
        return self.pos - (len(self.buffer) - self.buffer_pos)

    def left(self):
        return self.size - self.tell()

    def _drain(self):
        if self.buffer_pos < len(self.buffer):
            self.handle.seek(self.tell())
            self.pos = self.tell()
        self.buffer, self.buffer_pos = b"", 0

    def read(self, n, what):
        if n > self.left():
            self.fail(f"the file ends inside {what} ({n} bytes needed, {self.left()} left)")
        if self.buffer_pos + n <= len(self.buffer):
            data = self.buffer[self.buffer_pos:self.buffer_pos + n]
            self.buffer_pos += n
            return data
        self._drain()
        data = self.handle.read(n)
        self.pos += len(data)
        if len(data) != n:
            self.fail(f"the file ends inside {what}")
        return data

    def unpack(self, fmt, what):
        return struct.unpack("<" + fmt, self.read(struct.calcsize("<" + fmt), what))

    def entries(self, size, what):
        """``size`` dictionary entries (NUL-ended word, int64 count, int8 type) as (words,
        their lengths, counts, types), found by one regular expression per block read (C speed: a Python
        loop took ~1 µs an entry, 0.15 s of every `predict` with a 150k-word model). The
        block is cut after the last NUL that has its 9 bytes, so from the first entry on
        every match starts where the previous one ended and none fails (linear time on
        any file); what follows the cut is kept for the next block."""
        words, sizes, tails = [], [], []
        buffer, pos = self.buffer, self.buffer_pos
        while len(words) < size:
            end = buffer.rfind(b"\0", pos, max(pos, len(buffer) - ENTRY_TAIL + 1)) + ENTRY_TAIL
            found = ENTRY.findall(buffer, pos, end)[:size - len(words)] if end >= ENTRY_TAIL else []
            if found:  # each entry: len(word) bytes, the NUL, 9 bytes: the 9 gathered in one go
                lengths = np.fromiter(map(len, found), dtype=np.int64, count=len(found))
                after = pos + np.cumsum(lengths + ENTRY_TAIL)  # where each entry ends
                tails.append(np.frombuffer(buffer, dtype=np.uint8)[(after - 9)[:, None] + np.arange(9)])
                sizes.append(lengths)
                words += found
                pos = int(after[-1])
            if len(words) == size:
                break
            chunk = self.handle.read(max(1 << 16, 24 * (size - len(words))))  # ~18 bytes an entry
            if not chunk:
                self.buffer, self.buffer_pos = buffer, pos
                self.fail(f"the file ends inside {what}")
            buffer, pos = buffer[pos:] + chunk, 0
            self.pos += len(chunk)
        self.buffer, self.buffer_pos = buffer, pos
        table = np.concatenate(tails) if tails else np.zeros((0, 9), dtype=np.uint8)
        lengths = np.concatenate(sizes) if sizes else np.zeros(0, dtype=np.int64)
        return words, lengths, table[:, :8].copy().view("<i8").ravel().astype(np.int64), table[:, 8].copy()

    def array(self, dtype, count, what, mmap=False):
        """``count`` values; with ``mmap`` a read-only map of the file instead of a copy
        (a model's large input matrix: opened at once, pages read as rows are used)."""
        itemsize = np.dtype(dtype).itemsize
        if count < 0 or count * itemsize > self.left():
            self.fail(f"{what} claims {count} values but only {self.left()} bytes are left")
        self._drain()
        if mmap and count > 0:
            data = np.memmap(self.path, dtype=dtype, mode="r", offset=self.pos, shape=(count,))
            self.handle.seek(self.pos + data.nbytes)
            self.pos += data.nbytes
            return data
        data = np.fromfile(self.handle, dtype=dtype, count=count)
        self.pos += data.nbytes
        if data.size != count:
            self.fail(f"the file ends inside {what}")
        return data


def read_fasttext(path, mmap=False):
    """Read a fastText ``.bin``/``.ftz`` file into a :class:`FastTextModel`; with ``mmap``
    large dense matrices are read-only maps of the file rather than copies."""
    path = os.fspath(path)
    with open(path, "rb") as handle:
        reader = _Reader(handle, path, os.fstat(handle.fileno()).st_size)
        reader.mmap = mmap
        (magic,) = reader.unpack("i", "the header")
        old_layout = magic != MAGIC
        if old_layout:
            if not old_layout_head(_first_bytes(handle)):
                reader.fail("wrong magic number (is it a fastText .bin or .ftz file?)")
            args = _checked_args(reader, (magic,) + reader.unpack("11id", "the arguments"), OLD_VERSION)
        else:
            (version,) = reader.unpack("i", "the header")
            if version not in (11, 12):
                reader.fail(f"unsupported version {version} (fastText writes 12)")
            args = _checked_args(reader, reader.unpack("12id", "the arguments"), version)
        words, counts, types, ntokens, prune_index, raw_words, joined = _read_dictionary(reader, old_layout)
        model = FastTextModel(args, words, counts, types, ntokens, prune_index, None, None, raw_words, joined)
        quantized_input = not old_layout and _read_bool(reader, "the input matrix flag")
        model.input = _read_matrix(reader, quantized_input, "the input matrix")
        quantized_output = not old_layout and _read_bool(reader, "the output matrix flag")
        model.output = _read_matrix(reader, quantized_output, "the output matrix")
        if reader.left() != 0:
            reader.fail(f"{reader.left()} unexpected bytes after the output matrix")
    _check_shapes(reader, model)
    return model


def _read_bool(reader, what):
    (value,) = reader.unpack("B", what)
    if value > 1:
        reader.fail(f"{what} is {value}, not 0 or 1")
    return bool(value)


def _first_bytes(handle):
    """The first ``OLD_HEAD.size`` bytes of an open file, its position kept."""
    at = handle.tell()
    handle.seek(0)
    head = handle.read(OLD_HEAD.size)
    handle.seek(at)
    return head


def old_layout_head(head):
    """Whether ``head`` (a file's first bytes) opens a fastText file without magic number
    and version: args in range, as fastText writes them, so that a file of
    another kind whose first int is small is not read as one."""
    if len(head) < OLD_HEAD.size:
        return False
    dim, ws, epoch, min_count, neg, word_ngrams, loss, model, bucket, minn, maxn, lr_update, t = \
        OLD_HEAD.unpack_from(head)
    return (1 <= dim <= MAX_DIM and 1 <= ws <= MAX_WINDOW and epoch >= 0 and min_count >= 0 and neg >= 0
            and word_ngrams >= 0 and loss in LOSS_NAMES and model in MODEL_NAMES and bucket >= 0
            and 0 <= minn and 0 <= maxn and lr_update >= 0 and 0.0 <= t <= 1.0)


def _checked_args(reader, values, version):
    args = dict(zip(INT_ARGS + ("t",), values))
    if not 1 <= args["dim"] <= MAX_DIM:
        reader.fail(f"dim {args['dim']} is out of range")
    if args["loss"] not in LOSS_NAMES or args["model"] not in MODEL_NAMES:
        reader.fail(f"unknown loss {args['loss']} or model {args['model']}")
    for name in ("bucket", "minn", "maxn", "word_ngrams"):
        if args[name] < 0:
            reader.fail(f"{name} is negative ({args[name]})")
    if args["maxn"] > 0 and not 1 <= args["minn"] <= args["maxn"]:
        reader.fail(f"minn {args['minn']} and maxn {args['maxn']} are inconsistent")
    if version <= 11 and args["model"] == 3:
        args["maxn"] = 0  # supervised models before version 12 had no character n-grams
    return args


def _read_dictionary(reader, old_layout=False):
    size, nwords, nlabels = reader.unpack("iii", "the dictionary header")
    (ntokens,) = reader.unpack("q", "the dictionary header")
    (prune_size,) = (-1,) if old_layout else reader.unpack("q", "the dictionary header")
    if size < 0 or nwords < 0 or nlabels < 0 or nwords + nlabels != size:
        reader.fail(f"dictionary sizes disagree (size {size}, {nwords} words, {nlabels} labels)")
    if size * 10 > reader.left():  # each entry takes at least NUL + int64 + int8
        reader.fail(f"the dictionary claims {size} entries, more than the file can hold")
    raw_words, lengths, counts, types = reader.entries(size, "the dictionary")
    bad = np.flatnonzero((types > 1) | (counts < 0))
    if len(bad):
        i = bad[0]
        reader.fail(f"dictionary entry {i} has type {types[i]} and count {counts[i]}")
    if np.count_nonzero(types == 0) != nwords:
        reader.fail(f"the dictionary has {np.count_nonzero(types == 0)} words where its header says {nwords}")
    prune_index = None
    if prune_size >= 0:
        pairs = reader.array("<i4", 2 * prune_size, "the pruned n-gram index").reshape(-1, 2)
        problem = pruned_index_problem(pairs[:, 0], pairs[:, 1])
        if problem:
            reader.fail(f"the pruned n-gram index (pruneidx) {problem}")
        prune_index = dict(zip(pairs[:, 0].tolist(), pairs[:, 1].tolist()))
    joined = joined_lines(raw_words, lengths)  # decoded below; predict's token lookup reads the same bytes
    words = _decoded(raw_words, joined[0])
    return words, counts, types, int(ntokens), prune_index, raw_words, joined


def pruned_index_problem(buckets, rows, bucket=None):
    """What is wrong with a pruned model's bucket -> row table, or None. fastText writes
    each kept n-gram once: distinct buckets, and rows 0..len-1 each named once, so the
    input matrix holds nwords + len rows and every row the table names is inside it (a
    table naming one bucket twice, merged into a dict, would leave rows past the matrix)."""
    buckets, rows = np.asarray(buckets, dtype=np.int64), np.asarray(rows, dtype=np.int64)
    if buckets.size and buckets.min() < 0:
        return "names a negative bucket"
    if buckets.size and bucket is not None and buckets.max() >= bucket:
        return f"names a bucket outside 0..{bucket - 1}"
    if np.unique(buckets).size != buckets.size:
        return "names a bucket twice"
    if rows.size and not np.array_equal(np.sort(rows), np.arange(rows.size)):
        return f"does not name each of its rows 0..{rows.size - 1} once"
    return None


def _decoded(raw_words, joined):
    """The words as str (surrogateescape), decoded in one call from ``joined``, the words
    joined by newlines, which fastText's words never hold (a file whose words do is
    decoded word by word). Per word, 150k words took 15 ms of every `predict`."""
    words = joined.decode("utf-8", "surrogateescape").split("\n") if raw_words else []
    if len(words) != len(raw_words):
        words = [w.decode("utf-8", "surrogateescape") for w in raw_words]
    return words


def _read_matrix(reader, quantized, what):
    if not quantized:
        rows, cols = reader.unpack("qq", what)
        if rows < 0 or cols < 0:
            reader.fail(f"{what} has a negative shape")
        values = reader.array("<f4", rows * cols, what, mmap=reader.mmap and rows * cols >= MMAP_VALUES)
        if isinstance(values, np.memmap):  # checked row by row as rows are used (Classifier.probabilities)
            return values.reshape(rows, cols)
        return _finite(reader, values, what).reshape(rows, cols)
    qnorm = _read_bool(reader, what)
    rows, cols = reader.unpack("qq", what)
    (codesize,) = reader.unpack("i", what)
    codes = reader.array("u1", codesize, what)
    pq = _read_pq(reader, what)
    if rows < 0 or pq.dim != cols or codesize != rows * pq.nsubq:
        reader.fail(f"{what}: {codesize} codes do not fit {rows} rows of {cols} values")
    # every reader dequantizes it (QuantizedMatrix.dense): few codes can stand for a huge matrix
    check_allocation(4 * rows * cols, f"{reader.path}: {what} ({rows:,} rows x {cols:,}, nsubq {pq.nsubq}), "
                                      "dequantized,")
    norm_codes = norm_pq = None
    if qnorm:
        norm_codes = reader.array("u1", rows, what)
        norm_pq = _read_pq(reader, what)
        if norm_pq.dim != 1:
            reader.fail(f"{what}: the norms' quantizer has dimension {norm_pq.dim}, not 1")
    return QuantizedMatrix(rows, cols, codes, pq, norm_codes, norm_pq)


def _read_pq(reader, what):
    dim, nsubq, dsub, lastdsub = reader.unpack("iiii", what)
    if not (1 <= dim <= MAX_DIM and 1 <= dsub <= dim):
        reader.fail(f"{what}: product quantizer with dim {dim} and dsub {dsub}")
    pq = ProductQuantizer(dim, dsub, None)
    if (nsubq, lastdsub) != (pq.nsubq, pq.lastdsub):
        reader.fail(f"{what}: product quantizer sizes disagree ({nsubq} parts of {dsub}, last {lastdsub})")
    return ProductQuantizer(dim, dsub, _finite(reader, reader.array("<f4", dim * KSUB, what), what))


def _finite(reader, values, what):
    for start in range(0, values.size, 1 << 24):  # bounded temporaries
        if not np.isfinite(values[start:start + (1 << 24)]).all():
            reader.fail(f"{what} holds NaN or infinite values")
    return values


def _check_shapes(reader, model):
    nwords = model.nwords
    nlabels = len(model.words) - nwords
    n_in = model.input.shape[0] if isinstance(model.input, np.ndarray) else model.input.rows
    cols_in = model.input.shape[1] if isinstance(model.input, np.ndarray) else model.input.cols
    buckets = len(model.prune_index) if model.prune_index is not None else model.args["bucket"]
    if cols_in != model.args["dim"] or n_in != nwords + buckets:
        reader.fail(f"the input matrix is {n_in} x {cols_in}, but {nwords} words + {buckets} buckets "
                    f"of dimension {model.args['dim']} were declared")
    if model.prune_index:
        if max(model.prune_index) >= model.args["bucket"] or model.args["bucket"] > MAX_PRUNED_BUCKET:
            reader.fail(f"the pruned n-gram index (pruneidx) does not fit {model.args['bucket']} buckets")
    n_out = model.output.shape[0] if isinstance(model.output, np.ndarray) else model.output.rows
    expected = nlabels if model.args["model"] == 3 else nwords
    if n_out != expected:
        reader.fail(f"the output matrix has {n_out} rows where {expected} are needed")
    if model.args["model"] == 3 and nlabels == 0:
        reader.fail("a supervised model without labels")


# ---------------------------------------------------------------------------- writing

def write_fasttext(path, model):
    """Write ``model`` (a :class:`FastTextModel`) as fastText's file, atomically."""
    with atomic_write(path, "wb") as out:
        out.write(struct.pack("<ii", MAGIC, VERSION))
        out.write(struct.pack("<12i", *(int(model.args[name]) for name in INT_ARGS)))
        out.write(struct.pack("<d", float(model.args["t"])))
        _write_dictionary(out, model)
        writeback = Writeback(out)  # the matrices of a bigram model are 800 MB
        for matrix in (model.input, model.output):
            out.write(struct.pack("<?", isinstance(matrix, QuantizedMatrix)))
            _write_matrix(out, matrix, writeback)


def _write_dictionary(out, model):
    nwords = model.nwords
    prune = model.prune_index
    out.write(struct.pack("<iiiqq", len(model.words), nwords, len(model.words) - nwords, model.ntokens,
                          -1 if prune is None else len(prune)))
    entry = struct.Struct("<qb")
    entries = zip(model.words, model.counts.tolist(), model.types.tolist())
    while True:  # 4096 entries a write: one join of all of them held ~70 bytes an entry (25 MB for genre)
        part = b"".join(word.encode("utf-8", "surrogateescape") + b"\0" + entry.pack(count, kind)
                        for word, count, kind in itertools.islice(entries, 4096))
        if not part:
            break
        out.write(part)
    if prune:
        out.write(np.array(list(prune.items()), dtype="<i4").tobytes())


WRITE_ROWS = 1 << 12  # rows per write: the file layer may copy a write (4096 rows x dim 100: 1.6 MB)


def _write_matrix(out, matrix, writeback):
    if isinstance(matrix, GatheredRows):
        out.write(struct.pack("<qq", *matrix.shape))
        for start in range(0, matrix.shape[0], WRITE_ROWS):  # bounded temporary copies
            out.write(np.ascontiguousarray(matrix.values[matrix.index[start:start + WRITE_ROWS]], dtype="<f4").data)
            writeback()
        return
    if not isinstance(matrix, QuantizedMatrix):
        matrix = np.ascontiguousarray(matrix, dtype="<f4")
        out.write(struct.pack("<qq", *matrix.shape))
        for start in range(0, matrix.shape[0], WRITE_ROWS):  # the rows' own memory, no copy
            out.write(memoryview(matrix[start:start + WRITE_ROWS]).cast("B"))
            writeback()
        return
    out.write(struct.pack("<?qqi", matrix.qnorm, matrix.rows, matrix.cols, matrix.codes.size))
    out.write(np.ascontiguousarray(matrix.codes, dtype=np.uint8).tobytes())
    _write_pq(out, matrix.pq)
    if matrix.qnorm:
        out.write(np.ascontiguousarray(matrix.norm_codes, dtype=np.uint8).tobytes())
        _write_pq(out, matrix.norm_pq)


def _write_pq(out, pq):
    out.write(struct.pack("<iiii", pq.dim, pq.nsubq, pq.dsub, pq.lastdsub))
    out.write(np.ascontiguousarray(pq.centroids, dtype="<f4").tobytes())
