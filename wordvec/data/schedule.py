"""Training schedule: learning rate, work chunks and random seeds as pure functions.

Everything here depends only on its arguments, so a run is reproducible and can be
split across calls (and threads) without changing what each word sees.

Learning rate (word2vec's linear decay over all words of all epochs)::

    alpha(p) = alpha - (alpha - min_alpha) * min(1, p / P)

where p counts corpus tokens (before subsampling) trained so far over the whole life of
the model, and P is the planned total (``epochs * corpus tokens``, fixed by the first
call of ``train``).  Training past the plan runs at ``min_alpha``.

Chunk order: each epoch visits the chunks in a fresh seeded permutation
(:func:`chunk_order`), and a chunk's position p is the epoch's start plus the tokens of
the chunks before it in that order (:func:`positions_in_epoch`).  Both depend on the
seed and the epoch only, never on the number of threads.  Reshuffling every epoch is
the usual remedy for SGD cycling through one fixed order; on wordbench-10m it lifts
skip-gram with hierarchical softmax by 1.4 analogy points and leaves negative sampling
where it was (benchmarks/README.md).
"""

import numpy as np

MASK_64 = (1 << 64) - 1
ORDER_STREAM = MASK_64  # the chunk index that seeds the chunk order (no real chunk has it)


def learning_rate(alpha, min_alpha, position, planned):
    """Linear decay from ``alpha`` at position 0 to ``min_alpha`` at ``planned`` (then flat)."""
    progress = min(1.0, position / planned) if planned > 0 else 1.0
    return alpha - (alpha - min_alpha) * progress


def chunk_bounds(offsets, chunk_words=20_000):
    """Split documents into consecutive chunks of about ``chunk_words`` tokens.

    ``offsets`` (int64[n_docs + 1]) delimit the documents; returns an int64 array of
    document indices ``b`` so that chunk ``i`` is documents ``b[i] .. b[i+1]-1``.
    Chunks never split a document (its window must not cross into another chunk); a
    document longer than ``chunk_words`` is a chunk of its own.
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    n_docs = offsets.size - 1
    if n_docs <= 0:
        return np.zeros(1, dtype=np.int64)
    # the first document whose start reaches each multiple of chunk_words
    targets = np.arange(chunk_words, int(offsets[-1]), chunk_words, dtype=np.int64)
    cuts = np.searchsorted(offsets[:-1], targets, side="left")
    bounds = np.unique(np.concatenate([[0], cuts, [n_docs]]))
    return bounds.astype(np.int64)


def chunk_order(seed, epoch, n_chunks):
    """The order in which epoch ``epoch`` trains its ``n_chunks`` chunks: a uniformly
    random permutation (Fisher-Yates over a SplitMix64 stream), the same for a given
    ``seed`` and ``epoch`` on every machine and NumPy version."""
    order = np.arange(n_chunks, dtype=np.int64)
    state = splitmix64(chunk_seed(seed, epoch, ORDER_STREAM))
    for last in range(n_chunks - 1, 0, -1):
        state = splitmix64(state)
        pick = state % (last + 1)  # modulo bias < n / 2**64: immeasurable
        order[last], order[pick] = order[pick], order[last]
    return order


def positions_in_epoch(sizes, order):
    """Tokens trained in an epoch before each chunk starts, when the chunks (of
    ``sizes`` tokens) are trained in ``order``; indexed by chunk."""
    sizes = np.asarray(sizes, dtype=np.int64)
    ordered = sizes[order]
    positions = np.empty_like(sizes)
    positions[order] = np.cumsum(ordered) - ordered
    return positions


def splitmix64(value):
    """One step of the SplitMix64 mixer: a well-scrambled 64-bit hash of an integer."""
    z = (value + 0x9E3779B97F4A7C15) & MASK_64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK_64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK_64
    return z ^ (z >> 31)


def chunk_seed(seed, epoch, chunk):
    """The random state of one chunk of one epoch, derived from the model's ``seed``.

    Per chunk rather than per thread, so the random choices (subsampling, windows,
    negatives) do not depend on which thread trains which chunk, or on how a run is
    split over ``train`` calls.  Never zero (the generator would still work, but a
    zero state looks like a bug in a dump).
    """
    mixed = splitmix64(splitmix64(splitmix64(int(seed) & MASK_64) ^ int(epoch)) ^ int(chunk))
    return mixed or 1
