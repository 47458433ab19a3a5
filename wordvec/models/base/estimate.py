"""Memory estimates before allocation, and the check that they fit.

Every model has ``estimate_memory(...)``, which returns a :class:`MemoryEstimate`: the
arrays it is about to allocate (name -> bytes), the per-thread buffers of its kernels,
and the estimated peak resident set of the whole process::

    peak = max(loading, runtime floor + max(sum(arrays), sum(earlier)) + threads x per-thread)

(``earlier``: buffers of a phase that ends before the arrays exist, such as the
co-occurrence counting of GloVe and PPMI-SVD, bounded by ``--memory``).

The runtime floor is what a ``wordvec`` process holds before any model exists: Python,
NumPy and Numba with the training kernels loaded.  Measured with ``/usr/bin/time -f %M``
on a 50k-token corpus whose model is a few hundred kB: 148 MB for word2vec, 160 MB for
GloVe and PPMI-SVD (SciPy on top).  word2vec loads its kernels before the counts and
vectors exist and then hands LLVM's pages back (``wordvec.memory``), so its process
peaks at ~150 MB while loading (``loading``) and holds ~105 MB plus its arrays while
training (benchmarks/README.md: 147 MB loading, ~150 MB training with a 41 MB model).
``benchmarks/bench_estimate.py`` compares the estimates with measured peaks.  The models call :func:`check_fits` where they allocate, so a request
that cannot fit ends in one sentence instead of an out-of-memory kill hours later;
``memory_check = False`` on a model (``--no-memory-check``) skips it.

Memory available is ``wordvec.memory.available_memory``, which also holds the memory
gate every other allocation sized by a file or a flag passes (``check_allocation``).
"""

import dataclasses

from wordvec.errors import WordvecError
from wordvec.data.cooccur_options import parse_memory
from wordvec.kernels import word2vec as kernels
from wordvec.memory import available_memory, format_bytes  # noqa: F401 (this module's names too)

MB = 1 << 20
FLOOR_KERNELS = 150 * MB      # Python + NumPy + Numba with the training kernels loaded
FLOOR_WORD2VEC = 105 * MB     # the same after word2vec hands LLVM's pages back
LOADING_WORD2VEC = 150 * MB   # word2vec's peak while loading its kernels, before its arrays
FLOOR_SCIPY = 12 * MB         # scipy.sparse and scipy.linalg on top (count models)
FLOOR_PLAIN = 60 * MB         # Python + NumPy + SciPy, no Numba (language models, classifier)
BYTES_PER_WORD = 160          # a vocabulary word: Python str, list slot, dict entry, count
FLOAT32, FLOAT64, INT32, INT64 = 4, 8, 4, 8


@dataclasses.dataclass
class MemoryEstimate:
    """What a model will allocate: named arrays in bytes, per-thread buffers, the peak.

    ``report``: gensim's ``estimate_memory`` dictionary of the same model (gensim's keys and
    byte counts, ``"total"`` their sum), where the model has a gensim counterpart; the
    estimate answers gensim's ``estimate["vocab"]``, ``keys()`` and ``items()`` from it."""

    what: str                      # e.g. "word2vec sg-ns, 71,290 words x 100 dimensions"
    arrays: dict                   # name -> bytes
    floor: int = FLOOR_KERNELS
    per_thread: int = 0
    threads: int = 1
    notes: tuple = ()
    earlier: dict = dataclasses.field(default_factory=dict)  # name -> bytes, freed before ``arrays``
    loading: int = 0               # the process's peak before the arrays exist
    report: dict = dataclasses.field(default_factory=dict)  # gensim's estimate_memory dictionary

    def __getitem__(self, key):
        return self.report[key]

    def __contains__(self, key):
        return key in self.report

    def keys(self):
        return self.report.keys()

    def items(self):
        return self.report.items()

    @property
    def peak(self):
        return max(self.loading, self.floor + max(sum(self.arrays.values()), sum(self.earlier.values()))
                   + self.threads * self.per_thread)

    def describe(self):
        """Lines for ``--dry-run``: one per array, then the peak."""
        width = max([len(name) for name in [*self.arrays, *self.earlier]] + [32])
        lines = [f"{self.what}:"]
        lines += [f"  {name:<{width}} {format_bytes(size):>10}  (before training; freed)"
                  for name, size in self.earlier.items()]
        lines += [f"  {name:<{width}} {format_bytes(size):>10}" for name, size in self.arrays.items()]
        if self.per_thread:
            lines.append(f"  {'kernel buffers per thread':<{width}} {format_bytes(self.per_thread):>10}"
                         f"  x {self.threads}")
        lines.append(f"  {'runtime (Python, NumPy, kernels)':<{width}} {format_bytes(self.floor):>10}")
        if self.loading:
            lines.append(f"  {'(peak while loading the kernels)':<{width}} {format_bytes(self.loading):>10}")
        lines.append(f"  {'estimated peak':<{width}} {format_bytes(self.peak):>10}")
        lines += [f"  ({note})" for note in self.notes]
        return lines

    def to_json(self):
        return {"what": self.what, "arrays": dict(self.arrays), "earlier": dict(self.earlier),
                "per_thread": self.per_thread,
                "threads": self.threads, "floor": self.floor, "loading": self.loading, "peak": self.peak}


def check_fits(estimate, hint=""):
    """Raise one sentence if ``estimate.peak`` exceeds the memory available."""
    available = available_memory()
    if available is None or estimate.peak <= available:
        return
    largest = max(estimate.arrays, key=estimate.arrays.get) if estimate.arrays else "buffers"
    raise WordvecError(
        f"{estimate.what} needs an estimated {format_bytes(estimate.peak)} of memory (largest: {largest}, "
        f"{format_bytes(estimate.arrays.get(largest, 0))}) but only {format_bytes(available)} is available"
        f"{'; ' + hint if hint else ''} (--dry-run shows the estimate; --no-memory-check skips this check)")


def vocabulary_bytes(V):
    return BYTES_PER_WORD * int(V)


# -- the models' estimates (each model's estimate_memory delegates here) -----------------------

def word2vec(model, V, longest_document=None):
    """``Word2Vec``: input, output and inner-node matrices, subsampling and noise tables,
    the Huffman paths, and the kernels' buffers (per thread: hidden and error vectors,
    one document, the window, the output coefficients)."""
    D, mode, rows = model.vector_size, model.mode, model.output_rows(V)
    arrays = {"vocabulary": vocabulary_bytes(V), "input vectors W_in": V * D * FLOAT32}
    if rows["W_out"]:
        arrays["output vectors W_out"] = rows["W_out"] * D * FLOAT32
    if rows["W_inner"]:
        depth = max(1, int(V).bit_length() * 2)  # Huffman codes of Zipfian counts: ~2 log2 V at most
        arrays["inner-node vectors W_inner"] = rows["W_inner"] * D * FLOAT32
        arrays["Huffman paths"] = V * depth * (INT32 + 1)
    arrays["subsampling table"] = V * (FLOAT32 + FLOAT64)
    if getattr(model, "subwords", False):  # n-gram rows, their CSR table (~30 n-grams a word), composed wv
        arrays["n-gram vectors W_ngrams"] = model.bucket * D * FLOAT32
        arrays["n-gram table"] = V * (INT64 + FLOAT32 + 30 * INT32)
        arrays["composed word vectors"] = V * D * FLOAT32
    if mode & kernels.NEGATIVE_SAMPLING:
        arrays["noise alias table"] = V * (INT64 + 2 * FLOAT64)
    longest = longest_document or model.max_document_length
    coefficients = V if mode & kernels.FULL_SOFTMAX else model.negative + 1
    per_thread = 2 * D * FLOAT32 + longest * INT32 + 2 * model.window * INT32 + coefficients * FLOAT32 \
        + model.negative * INT64
    return MemoryEstimate(f"word2vec {model.describe()}, {V:,} words x {D} dimensions", arrays,
                          floor=FLOOR_WORD2VEC, loading=LOADING_WORD2VEC, per_thread=per_thread,
                          threads=model.workers)


def glove(model, V, nnz=None):
    """``GloVe``: X (CSR), the training entries and their order, parameters and AdaGrad
    accumulators.  Before counting, ``nnz`` is unknown: bounded by the counting budget."""
    D = model.vector_size
    parameters = (2 * V * D + 2 * V) * FLOAT32
    arrays = {"vocabulary": vocabulary_bytes(V), "parameters W, W~, b, b~": parameters,
              "AdaGrad accumulators": parameters}
    notes, earlier = (), {}
    if nnz is None:
        earlier["co-occurrence counting (at most --memory)"] = parse_memory(model.memory)
        notes = ("the non-zeros of X are known after counting; training then needs 28 bytes per non-zero",)
    else:
        arrays["co-occurrence matrix X"] = nnz * (FLOAT32 + INT32) + (V + 1) * INT64
        arrays["training entries (i, j, log X, f(X))"] = nnz * 4 * INT32
        arrays["shuffled order"] = nnz * INT32
    arrays["output vectors"] = V * D * FLOAT32
    return MemoryEstimate(f"GloVe, {V:,} words x {D} dimensions", arrays, floor=FLOOR_KERNELS + FLOOR_SCIPY,
                          notes=notes, earlier=earlier)


def ppmi_svd(model, V, nnz=None):
    """``PPMISVD``: X, its transformed copy (float64), the randomized SVD's V x (k + 20)
    blocks (a few at a time, float64) and the factors."""
    D = model.vector_size
    sketch = V * (D + 20) * FLOAT64
    arrays = {"vocabulary": vocabulary_bytes(V)}
    notes, earlier = (), {}
    if nnz is None:
        earlier["co-occurrence counting (at most --memory)"] = parse_memory(model.memory)
        notes = ("the non-zeros of X are known after counting; the transform needs 12 bytes per non-zero more",)
    else:
        arrays["co-occurrence matrix X"] = nnz * (FLOAT32 + INT32) + (V + 1) * INT64
        arrays["transformed matrix"] = nnz * (FLOAT64 + INT32) + (V + 1) * INT64
    arrays["SVD sketches"] = 3 * sketch
    arrays["factors U, C and the vectors"] = 3 * V * D * FLOAT32
    return MemoryEstimate(f"PPMI-SVD, {V:,} words x {D} dimensions", arrays, floor=FLOOR_KERNELS + FLOOR_SCIPY,
                          notes=notes, earlier=earlier)


def rnnlm(V, cell, hidden, embedding, tie, itemsize=FLOAT32, batch_size=32, bptt=32, optimizer="adam"):
    """``RNNLM``: parameters, gradients, Adam's two moments, and one BPTT window of
    activations (the gates and states of B x T positions, and the B x T x V softmax)."""
    H, D = hidden, embedding
    gates = 4 if cell.startswith("lstm") else 1  # lstm-attention: an LSTM (its attention is small)
    count = V * D + gates * H * (H + D) + gates * H + V
    if tie and H != D:
        count += D * H
    if not tie:
        count += V * H
    parameters = count * itemsize
    positions = batch_size * bptt
    arrays = {"parameters": parameters, "gradients": parameters,
              "optimizer state": 2 * parameters if optimizer == "adam" else 0,
              "activations of one BPTT window": positions * (gates + 2) * H * itemsize,
              "output probabilities": positions * V * itemsize}
    return MemoryEstimate(f"{cell.upper()} language model, {V:,} tokens, hidden {H}, embedding {D}",
                          arrays, floor=FLOOR_PLAIN)


def attention_lm(V, hidden, embedding, blocks, context, tie, itemsize=FLOAT32, batch_size=32, optimizer="adam"):
    """``AttentionLM``: parameters (embeddings, positions, per block three D x D
    projections, the D x F feed-forward pair and two layer norms), gradients, Adam's
    moments, and one batch of activations: per block and position the normalised inputs,
    Q, K, V, the attention output and the feed-forward layer, plus the T x T weights."""
    D, F, T = embedding, hidden, context
    count = V * D + T * D + blocks * (3 * D * D + 2 * D * F + F + 5 * D) + 2 * D + V + (0 if tie else V * D)
    parameters = count * itemsize
    positions = batch_size * T
    arrays = {"parameters": parameters, "gradients": parameters,
              "optimizer state": 2 * parameters if optimizer == "adam" else 0,
              "activations of one batch": blocks * positions * (10 * D + 2 * F + T) * itemsize,
              "output probabilities": positions * V * itemsize}
    return MemoryEstimate(f"self-attention language model, {V:,} tokens, {blocks} blocks, "
                          f"embedding {D}, feed-forward {F}, context {T}", arrays, floor=FLOOR_PLAIN)


def window_classifier(V, D, window_width, hidden, classes, case_size, batch_size):
    """Window classifier: E and the case table, the weights, AdaGrad accumulators for all
    of them, and one batch of concatenated windows."""
    features = window_width * (D + case_size)
    weights = (features * hidden + hidden + hidden * classes + classes) if hidden else features * classes + classes
    parameters = (V * D + weights) * FLOAT32
    arrays = {"embeddings E": V * D * FLOAT32, "weights": weights * FLOAT32,
              "AdaGrad accumulators": parameters, "one batch of windows": batch_size * (features + hidden) * FLOAT32}
    return MemoryEstimate(f"window classifier, {V:,} words x {D} dimensions, windows of {window_width}",
                          arrays, floor=FLOOR_PLAIN)
