"""Intrinsic evaluation: word-pair similarity (Spearman rho) and analogies (3CosAdd, 3CosMul).

The rules follow gensim 4.4's ``evaluate_word_pairs`` / ``evaluate_word_analogies`` (and
so the C tool's ``compute-accuracy``) so the numbers can be compared one to one:

* Only the first ``restrict_vocab`` words count.  With ``case_insensitive`` every word is
  upper-cased and a form maps to its most frequent variant (the first in the vocabulary).
* A question is *answered* only if all four words are in that restricted vocabulary;
  others are skipped (they lower coverage, not accuracy).
* Candidates are the restricted vocabulary minus the three question words.  As in gensim,
  the five best candidates are scanned and the first whose upper-cased form is not a
  question word is the prediction (so "paris" cannot answer a question about "Paris").
* Sections named ``gram*`` are syntactic, the others semantic (in questions-words.txt
  these are the first five sections, as in ``compute-accuracy``).

Speed: questions are solved in batches, each batch one matrix product
(B x D) @ (D x R) against the restricted unit-norm matrix, with the question words masked.
Result shape (stable; tools parse it):

    {"analogy": {"total", "semantic", "syntactic", "answered", "questions", "sections"},
     "similarity": {"<file stem>": {"spearman", "pairs", "covered"}}}

Accuracies are fractions in [0, 1] of answered questions; ``spearman`` is None when fewer
than two pairs are covered.
"""

import importlib.resources
import io
import logging
from pathlib import Path

import numpy as np

from wordvec.data.corpus import split_tokens
from wordvec.errors import FormatError, WordvecError
from wordvec.vectors.unit import ANALOGY_METHODS, unit_rows

logger = logging.getLogger(__name__)

BUNDLED_ANALOGIES = "questions-words.txt"
BUNDLED_SIMILARITY = ("wordsim353.tsv", "simlex999.txt")
TOP_CANDIDATES = 5  # gensim scans this many answers for one that is not a question word
_SCORE_BUDGET = 1 << 23  # float32 scores per batch (32 MB): bounds memory for any vocabulary


def bundled_path(name):
    """Path of an evaluation set shipped in ``wordvec/vectors/eval_sets``."""
    return Path(str(importlib.resources.files("wordvec").joinpath("vectors", "eval_sets", name)))


def _read_lines(path):
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8", errors="replace")
    except OSError as error:
        raise WordvecError(f"cannot read {path}: {error.strerror or error}") from None
    return io.StringIO(text).readlines()  # lines end at \n only (str.splitlines also splits at U+2028 ...)



def _restricted_vocab(kv, restrict_vocab, case_insensitive):
    """Map (upper-cased) word -> row of its first occurrence among the first restrict_vocab words."""
    keys = kv.index_to_key if restrict_vocab is None else kv.index_to_key[: int(restrict_vocab)]
    vocab = {}
    for i, word in enumerate(keys):
        vocab.setdefault(word.upper() if case_insensitive else word, i)
    return vocab, len(keys)


def is_syntactic(section):
    return section.startswith("gram")


# ----------------------------------------------------------------------------- similarity

def evaluate_similarity(kv, path, restrict_vocab=300000, case_insensitive=True, delimiter="\t"):
    """Spearman rho between human scores and cosines for the word pairs in ``path``.

    Lines are ``word1<TAB>word2<TAB>score``; ``#`` lines are comments; other malformed
    lines are skipped (as gensim does).  Returns {"spearman", "pairs", "covered"}; the
    pairs skipped for unknown words are ``pairs - covered``.
    """
    from scipy.stats import spearmanr  # here, not at the top: 1.3-1.5 s to import, paid by every command

    vocab, _ = _restricted_vocab(kv, restrict_vocab, case_insensitive)
    gold, rows, pairs = [], [], 0
    for line in _read_lines(path):
        if not line or line.startswith("#"):
            continue
        parts = line.split(delimiter)
        if len(parts) != 3:
            continue
        a, b, score = (p.upper() for p in parts) if case_insensitive else parts
        try:
            score = float(score)
        except ValueError:
            continue
        pairs += 1
        if a in vocab and b in vocab:
            gold.append(score)
            rows.append((vocab[a], vocab[b]))
    spearman = None
    if len(rows) >= 2:
        cosines = _gensim_cosines(kv.vectors, rows)
        rho = float(spearmanr(gold, cosines).statistic)
        spearman = None if np.isnan(rho) else rho
    return {"spearman": spearman, "pairs": pairs, "covered": len(rows)}


def _gensim_cosines(vectors, rows):
    """Cosines of the pairs ``rows`` (i, j), rounded exactly as gensim's ``similarity``
    rounds them (float64 BLAS norm, float32 dot).

    A few hundred pairs, so a loop costs nothing; bit-equal cosines matter because weakly
    trained vectors have cosines equal to 1e-7, and the ranks behind Spearman's rho would
    otherwise differ from gensim's on such near-ties.
    """
    from scipy.linalg import get_blas_funcs  # here, not at the top: loading vectors needs no SciPy

    nrm2, scal = get_blas_funcs(("nrm2", "scal"), (np.zeros(0),))

    def unit(v):
        norm = nrm2(v)
        return scal(1.0 / norm, v).astype(v.dtype) if norm > 0 else v

    vectors = np.asarray(vectors)
    return [float(np.dot(unit(vectors[i]), unit(vectors[j]))) for i, j in rows]


# ----------------------------------------------------------------------------- analogies

def read_analogies(path, case_insensitive=True):
    """Parse questions-words.txt layout: [(section, [(a, b, c, expected), ...]), ...]."""
    sections = []
    for line_no, line in enumerate(_read_lines(path), start=1):
        if line.startswith(": "):
            sections.append((line.lstrip(": ").strip(), []))
            continue
        words = split_tokens(line)
        if not sections:
            if words:
                raise FormatError(path, line_no, "question before the first ': section' line")
            continue
        if len(words) != 4:
            if words:
                logger.info("%s, line %d: skipped (not four words)", path, line_no)
            continue
        sections[-1][1].append(tuple(w.upper() for w in words) if case_insensitive else tuple(words))
    return sections


def _solve_batch(units, canon, questions, method, epsilon):
    """True where the prediction is right, for questions int[B, 4] of rows (a, b, c, expected)."""
    a, b, c, expected = questions.T
    if method == "3cosadd":
        query = unit_rows((units[b] + units[c] - units[a]) / 3)
        scores = query @ units.T  # B x R cosines with unit(b + c - a)
    else:
        # cosines of a, b, c with every word, shifted to [0, 1]; then s_b * s_c / (s_a + eps) in place
        shifted = (units[np.concatenate([a, b, c])] @ units.T).reshape(3, len(questions), -1)
        shifted += 1
        shifted *= 0.5
        scores = np.multiply(shifted[1], shifted[2], out=shifted[1])
        shifted[0] += epsilon
        np.divide(scores, shifted[0], out=scores)
    rows = np.arange(len(questions))
    scores[rows[:, None], questions[:, :3]] = -np.inf
    # gensim scans the best TOP_CANDIDATES answers for the first whose (upper-cased) form is
    # not a question word, else keeps the last one; usually the argmax already qualifies,
    # so take argmaxes and re-search only the rows that need it (no full sort).
    predicted = np.full(len(questions), -1, dtype=np.int64)
    pending = rows
    for _ in range(min(TOP_CANDIDATES, scores.shape[1])):
        best = (scores if pending.size == len(rows) else scores[pending]).argmax(axis=1)
        alive = np.isfinite(scores[pending, best])  # a masked word is never an answer
        pending, best = pending[alive], best[alive]
        form = canon[best]
        predicted[pending] = form
        retry = (form == a[pending]) | (form == b[pending]) | (form == c[pending])
        scores[pending[retry], best[retry]] = -np.inf
        pending = pending[retry]
        if not pending.size:
            break
    return predicted == expected


def evaluate_analogies(kv, path=None, restrict_vocab=30000, method="3cosadd", case_insensitive=True,
                       epsilon=1e-3, batch_size=1024):
    """Accuracy on analogy questions (bundled questions-words.txt by default).

    ``method`` is "3cosadd" (gensim's evaluate_word_analogies) or "3cosmul" (Levy &
    Goldberg; ``epsilon`` as in their paper, gensim's most_similar_cosmul uses 1e-6).
    """
    method = method.lower()
    if method not in ANALOGY_METHODS:
        raise WordvecError(f"unknown analogy method {method!r}; choose one of {', '.join(ANALOGY_METHODS)}")
    path = bundled_path(BUNDLED_ANALOGIES) if path is None else path
    vocab, n_rows = _restricted_vocab(kv, restrict_vocab, case_insensitive)
    keys = kv.index_to_key[:n_rows]
    canon = np.array([vocab[w.upper() if case_insensitive else w] for w in keys], dtype=np.int64)
    sections = read_analogies(path, case_insensitive)
    names = [name for name, questions in sections for _ in questions]
    ids = np.array([[vocab.get(w, -1) for w in q] for _, questions in sections for q in questions],
                   dtype=np.int64).reshape(-1, 4)
    answered = (ids >= 0).all(axis=1)
    correct = np.zeros(len(ids), dtype=bool)
    todo = np.flatnonzero(answered)
    if todo.size:
        units = kv.unit_vectors[:n_rows]
        step = max(1, min(batch_size, _SCORE_BUDGET // n_rows))
        for start in range(0, todo.size, step):
            chunk = todo[start:start + step]
            correct[chunk] = _solve_batch(units, canon, ids[chunk], method, epsilon)
    return _summarise(names, sections, answered, correct)


def _accuracy(correct, answered):
    return correct / answered if answered else 0.0


def _summarise(names, sections, answered, correct):
    per_section = {}
    names = np.array(names, dtype=object)
    for name, _ in sections:
        mine = names == name
        stats = per_section.setdefault(name, {"correct": 0, "answered": 0, "questions": 0})
        stats["questions"] = int(mine.sum())
        stats["answered"] = int((answered & mine).sum())
        stats["correct"] = int((correct & mine).sum())
    for stats in per_section.values():
        stats["accuracy"] = _accuracy(stats["correct"], stats["answered"])
    totals = {kind: [0, 0] for kind in ("semantic", "syntactic")}
    for name, stats in per_section.items():
        kind = totals["syntactic" if is_syntactic(name) else "semantic"]
        kind[0] += stats["correct"]
        kind[1] += stats["answered"]
    return {
        "total": _accuracy(int(correct.sum()), int(answered.sum())),
        "semantic": _accuracy(*totals["semantic"]),
        "syntactic": _accuracy(*totals["syntactic"]),
        "answered": int(answered.sum()),
        "questions": int(len(answered)),
        "sections": per_section,
    }


# ----------------------------------------------------------------------------- together

def evaluate_all(kv, restrict_vocab=30000, method="3cosadd", analogies=None, similarity=None):
    """Analogies and word-pair similarity, on the bundled sets unless files are given.

    ``restrict_vocab`` applies to the analogies (similarity uses gensim's default).
    """
    similarity = [bundled_path(name) for name in BUNDLED_SIMILARITY] if similarity is None else similarity
    return {
        "analogy": evaluate_analogies(kv, analogies, restrict_vocab=restrict_vocab, method=method),
        "similarity": {Path(p).stem: evaluate_similarity(kv, p) for p in similarity},
    }


def format_report(result):
    """A readable table of an ``evaluate_all``-shaped result (either part may be absent)."""
    lines = []
    analogy = result.get("analogy")
    if analogy:
        lines.append(f"{'analogy section':<32} {'accuracy':>8} {'correct':>8} {'answered':>9} {'questions':>9}")
        for name, s in analogy["sections"].items():
            lines.append(f"{name:<32} {s['accuracy']:>8.1%} {s['correct']:>8} {s['answered']:>9} {s['questions']:>9}")
        lines.append("-" * 70)
        for kind in ("semantic", "syntactic"):
            stats = [s for n, s in analogy["sections"].items() if is_syntactic(n) == (kind == "syntactic")]
            answered = sum(s["answered"] for s in stats)
            lines.append(f"{kind:<32} {analogy[kind]:>8.1%} {sum(s['correct'] for s in stats):>8} "
                         f"{answered:>9} {sum(s['questions'] for s in stats):>9}")
        coverage = _accuracy(analogy["answered"], analogy["questions"])
        correct = round(analogy["total"] * analogy["answered"])
        lines.append(f"{'total':<32} {analogy['total']:>8.1%} {correct:>8} {analogy['answered']:>9} "
                     f"{analogy['questions']:>9}   (coverage {coverage:.1%})")
    similarity = result.get("similarity")
    if similarity:
        if lines:
            lines.append("")
        lines.append(f"{'word similarity':<32} {'spearman':>8} {'covered':>8} {'skipped':>9} {'pairs':>9}")
        for name, s in similarity.items():
            rho = "n/a" if s["spearman"] is None else f"{s['spearman']:.4f}"
            lines.append(f"{name:<32} {rho:>8} {s['covered']:>8} {s['pairs'] - s['covered']:>9} {s['pairs']:>9}")
    return "\n".join(lines)
