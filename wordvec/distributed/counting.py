"""Map-reduce counting on Ray, bit-identical to the single-process counters.

Vocabulary (``count_vocabulary``): one task per piece (``pieces.plan_pieces``) counts
its text with the compiled ``TokenTable`` and returns its words in order of first
appearance with their counts; the driver merges them piece by piece in corpus order
(``TokenTable.merge``, as ``Vocabulary.build`` merges the blocks its threads counted),
so each word's first appearance in the corpus decides its place among equal counts,
then applies ``min_count`` (``Vocabulary.from_table``) -- exactly ``Vocabulary.build``.
``max_vocab_size`` pruning is refused: it prunes whenever the table outgrows the bound,
so its result depends on the order the text is read in and cannot be reproduced by
counting pieces apart.

Co-occurrences (``count_cooccurrences``): the vocabulary first (as above), then one map
task per piece (cut at line ends, so windows never cross a piece) encodes its text and
counts its pairs with ``wordvec.data.cooccur.count_cooccurrences`` in exact integer units,
and splits its matrix into row blocks; reducer ``r`` owns row block ``r``, sums the
blocks every map sent it (integer addition: the order does not matter) and converts to
count / scale as the single-process merge does.  The driver concatenates the blocks.
"""

import logging
import time

import numpy as np
import scipy.sparse

from wordvec.distributed import cluster, require_ray
from wordvec.distributed.pieces import plan_pieces
from wordvec.data import cooccur
from wordvec.data.cooccur import check_options, parse_memory, weight_scale
from wordvec.data.encode import encode_corpus
from wordvec.data.token_table import TokenTable
from wordvec.data.vocab import Vocabulary
from wordvec.errors import WordvecError

log = logging.getLogger(__name__)
PIECES_PER_CPU = 4  # several pieces per CPU evens out uneven pieces


def _pieces(source, pieces, at):
    return plan_pieces(source, pieces or PIECES_PER_CPU * cluster.total_cpus(), at=at)


def _count_piece(piece, lowercase, max_document_length):
    """Words of one piece in first-seen order: (UTF-8 bytes joined, lengths, counts, decode errors)."""
    corpus = piece.corpus(lowercase, max_document_length)
    table = TokenTable()
    for block in corpus.blocks():
        table.count(block)
    n = len(table)
    arena = table.arena
    joined = b"".join(arena[s:s + k].tobytes() for s, k in zip(table.word_start[:n].tolist(),
                                                               table.word_len[:n].tolist()))
    return joined, table.word_len[:n].copy(), table.counts[:n].copy(), corpus.decode_errors


def count_vocabulary(source, min_count=5, max_vocab_size=None, lowercase=False,
                     max_document_length=10_000, pieces=None):
    """``Vocabulary.build(Corpus(source, ...), min_count)`` computed by Ray tasks.

    Returns (vocabulary, info) where info has the number of pieces and invalid UTF-8
    sequences replaced.  Needs a connection (``cluster.connect``)."""
    ray = require_ray()
    if max_vocab_size is not None:
        raise WordvecError("--max-vocab-size cannot be combined with --ray: its pruning depends on the "
                           "order the text is read in, so pieces counted apart would give another "
                           "vocabulary; leave it out (the merged counts need no pruning)")
    if min_count < 1:
        raise WordvecError(f"min_count must be at least 1, not {min_count}")
    planned = _pieces(source, pieces, "space")
    count = ray.remote(num_cpus=1)(_count_piece)
    refs = [count.remote(piece, lowercase, max_document_length) for piece in planned]
    merged, decode_errors = TokenTable(), 0
    for ref in refs:  # in corpus order: a word's first appearance in the corpus decides its place
        joined, lengths, counts, errors = cluster.get(ref)
        decode_errors += errors
        merged.merge(TokenTable.from_bytes(joined, lengths, counts))
    vocab = Vocabulary.from_table(merged, min_count=min_count, source=source)
    return vocab, {"pieces": len(planned), "decode_errors": decode_errors}


def _cooccur_piece(piece, words, options, bounds):
    """Map: count one piece's pairs in integer units; one CSR row block per reducer, then
    (pairs, tokens)."""
    V = len(words)
    corpus = piece.corpus(options["lowercase"], options["max_document_length"])
    encoded = encode_corpus(corpus, Vocabulary(words, np.ones(V, np.int64)), use_cache=False)
    counted = cooccur.count_cooccurrences(encoded.ids, encoded.offsets, V, window=options["window"],
                                  symmetric=options["symmetric"], weighting=options["weighting"],
                                  memory=options["memory"], integer_units=True)
    matrix = counted.matrix
    blocks = [matrix[int(r0):int(r1)] for r0, r1 in zip(bounds[:-1], bounds[1:])]
    return (*blocks, (counted.pairs, encoded.num_tokens))


def _reduce_block(scale, dtype, *parts):
    """Reduce: the sum of one row block over all pieces, as count / scale in ``dtype``."""
    total = parts[0].astype(np.int64)
    for part in parts[1:]:
        total = total + part
    total = scipy.sparse.csr_matrix(total)
    total.sum_duplicates()
    total.sort_indices()
    data = (total.data.astype(np.float64) / scale).astype(dtype)  # as merge_rows rounds
    return data, total.indices.astype(np.int32), total.indptr.astype(np.int64)


def row_blocks(counts, n_blocks):
    """Row boundaries splitting the rows into ``n_blocks`` blocks of about equal token
    counts (a row's pairs grow with its word's count; the first rows are the heaviest)."""
    weights = np.cumsum(np.asarray(counts, dtype=np.float64))
    targets = np.linspace(0, weights[-1], n_blocks + 1)[1:-1]
    inner = np.searchsorted(weights, targets, side="right")
    return np.unique(np.concatenate([[0], inner, [len(weights)]])).astype(np.int64)


def count_cooccurrences(source, window=10, symmetric=True, weighting="harmonic", memory="2GB",
                        min_count=5, max_vocab_size=None, lowercase=False, max_document_length=10_000,
                        dtype=np.float32, pieces=None, reducers=None):
    """The vocabulary and X of a corpus, computed by Ray tasks; X is bit-identical to
    ``wordvec.data.cooccur.count_cooccurrences`` on the whole encoded corpus.

    ``memory`` bounds each map task.  Returns (vocabulary, matrix csr, info dict)."""
    ray = require_ray()
    check_options(window, weighting)
    parse_memory(memory)
    started = time.perf_counter()
    vocab, info = count_vocabulary(source, min_count=min_count, max_vocab_size=max_vocab_size,
                                   lowercase=lowercase, max_document_length=max_document_length,
                                   pieces=pieces)
    planned = _pieces(source, pieces, "line")
    bounds = row_blocks(vocab.counts, reducers or cluster.total_cpus())
    n_blocks = len(bounds) - 1
    words_ref = ray.put(vocab.words)
    options = {"window": window, "symmetric": symmetric, "weighting": weighting, "memory": memory,
               "lowercase": lowercase, "max_document_length": max_document_length}
    mapper = ray.remote(num_cpus=1)(_cooccur_piece).options(num_returns=n_blocks + 1)
    maps = [mapper.remote(piece, words_ref, options, bounds) for piece in planned]
    reducer = ray.remote(num_cpus=1)(_reduce_block)
    scale = float(weight_scale(window, weighting))
    reduced = [reducer.remote(scale, np.dtype(dtype), *[refs[b] for refs in maps]) for b in range(n_blocks)]
    datas, indices, indptr, nnz = [], [], [np.zeros(1, np.int64)], 0
    for ref in reduced:
        data, block_indices, block_indptr = cluster.get(ref)
        datas.append(data)
        indices.append(block_indices)
        indptr.append(block_indptr[1:] + nnz)
        nnz += int(block_indptr[-1])
    V = len(vocab)
    matrix = scipy.sparse.csr_matrix((np.concatenate(datas), np.concatenate(indices), np.concatenate(indptr)),
                                     shape=(V, V))
    stats = cluster.get([refs[-1] for refs in maps])
    info.update(pieces=len(planned), reducers=n_blocks, pairs=sum(p for p, _ in stats),
                tokens=sum(t for _, t in stats), seconds=time.perf_counter() - started)
    return vocab, matrix, info
