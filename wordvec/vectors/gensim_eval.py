"""gensim 4.4's ``evaluate_word_analogies`` and ``evaluate_word_pairs``, with its return shapes.

``KeyedVectors`` exposes these as methods with gensim's signatures and defaults
(``restrict_vocab=300000``, ``case_insensitive=True``, ``dummy4unknown=False``); the
rules (first case variant wins, the five best answers scanned for one that is not a
question word, similarity rounded as gensim rounds it) are those of
``wordvec.vectors.evaluate``, which solves the questions in batches.  Only the packaging
differs:

    evaluate_word_analogies -> (score, sections): each section
        {"section": name, "correct": [(A, B, C, D), ...], "incorrect": [...]},
        the last one "Total accuracy";
    evaluate_word_pairs -> (pearson, spearman, oov_ratio): SciPy's result objects
        (statistic, p-value) and the percentage of pairs with an unknown word.
"""

import itertools
import logging

import numpy as np

from wordvec.errors import WordvecError
from wordvec.vectors import evaluate

logger = logging.getLogger(__name__)

SIMILARITY_FUNCTIONS = ("most_similar", "most_similar_cosmul")  # gensim's names (it uses the first for both)


def _section_accuracy(section):
    correct, incorrect = len(section["correct"]), len(section["incorrect"])
    if correct + incorrect == 0:
        return 0.0
    score = correct / (correct + incorrect)
    logger.info("%s: %.1f%% (%i/%i)", section["section"], 100.0 * score, correct, correct + incorrect)
    return score


def _correct_mask(kv, ids, vocab, n_rows, case_insensitive):
    """True where 3CosAdd (gensim's rules) answers question ids[i] = rows (a, b, c, expected)."""
    keys = kv.index_to_key[:n_rows]
    canon = np.array([vocab[w.upper() if case_insensitive else w] for w in keys], dtype=np.int64)
    units = kv.unit_vectors[:n_rows]
    correct = np.zeros(len(ids), dtype=bool)
    step = 256
    for start in range(0, len(ids), step):
        chunk = ids[start:start + step]
        correct[start:start + step] = evaluate._solve_batch(units, canon, chunk, "3cosadd", 0.0)
    return correct


def evaluate_word_analogies(kv, analogies, restrict_vocab=300000, case_insensitive=True, dummy4unknown=False,
                            similarity_function="most_similar"):
    """gensim's ``KeyedVectors.evaluate_word_analogies``: (overall accuracy, sections).

    ``similarity_function`` is taken as gensim 4.4 takes it: named, and not used (gensim
    answers every question with ``most_similar``, 3CosAdd, whatever it says), so the
    results are gensim's; "most_similar_cosmul" says so in a warning.  3CosMul itself:
    ``wordvec.vectors.evaluate.evaluate_analogies(kv, path, method="3cosmul")``."""
    if similarity_function not in SIMILARITY_FUNCTIONS:
        raise WordvecError(f"similarity_function must be one of {', '.join(SIMILARITY_FUNCTIONS)}, "
                           f"not {similarity_function!r}")
    if similarity_function != "most_similar":
        logger.warning("similarity_function=%r: as in gensim 4.4, the analogies are answered with most_similar "
                       "(3CosAdd); for 3CosMul use wordvec.vectors.evaluate.evaluate_analogies(kv, path, "
                       "method='3cosmul')", similarity_function)
    vocab, n_rows = evaluate._restricted_vocab(kv, restrict_vocab, case_insensitive)
    parsed = evaluate.read_analogies(analogies, case_insensitive)
    questions = [q for _, qs in parsed for q in qs]
    ids = np.array([[vocab.get(w, -1) for w in q] for q in questions], dtype=np.int64).reshape(-1, 4)
    known = (ids >= 0).all(axis=1)
    correct = np.zeros(len(ids), dtype=bool)
    if known.any():
        correct[known] = _correct_mask(kv, ids[known], vocab, n_rows, case_insensitive)
    sections, position = [], 0
    for name, qs in parsed:
        section = {"section": name, "correct": [], "incorrect": []}
        for question in qs:
            if correct[position]:
                section["correct"].append(question)
            elif known[position] or dummy4unknown:
                section["incorrect"].append(question)
            position += 1
        _section_accuracy(section)
        sections.append(section)
    total = {"section": "Total accuracy",
             "correct": list(itertools.chain.from_iterable(s["correct"] for s in sections)),
             "incorrect": list(itertools.chain.from_iterable(s["incorrect"] for s in sections))}
    if questions:
        logger.info("Quadruplets with out-of-vocabulary words: %.1f%%", 100.0 * (~known).sum() / len(questions))
    score = _section_accuracy(total)
    sections.append(total)
    return score, sections


def _read_pairs(path, delimiter, encoding, case_insensitive):
    """(line number, a, b, score) for every well-formed line, as gensim parses them."""
    try:
        with open(path, encoding=encoding) as handle:
            lines = handle.readlines()
    except (OSError, UnicodeDecodeError) as error:
        raise WordvecError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None
    for line_no, line in enumerate(lines):
        if not line or line.startswith("#"):
            continue
        parts = line.split(delimiter)
        if len(parts) != 3:
            logger.info("Skipping invalid line #%d in %s", line_no, path)
            continue
        a, b, score = (p.upper() for p in parts) if case_insensitive else parts
        try:
            yield line_no, a, b, float(score)
        except ValueError:
            logger.info("Skipping invalid line #%d in %s", line_no, path)


def evaluate_word_pairs(kv, pairs, delimiter="\t", encoding="utf8", restrict_vocab=300000,
                        case_insensitive=True, dummy4unknown=False):
    """gensim's ``KeyedVectors.evaluate_word_pairs``: (pearson, spearman, oov_ratio in percent)."""
    vocab, _ = evaluate._restricted_vocab(kv, restrict_vocab, case_insensitive)
    gold, model, rows, oov = [], [], [], 0
    for _, a, b, score in _read_pairs(pairs, delimiter, encoding, case_insensitive):
        if a not in vocab or b not in vocab:
            oov += 1
            if dummy4unknown:
                gold.append(score)
                model.append(None)  # gensim's zero similarity, filled in below
            continue
        gold.append(score)
        model.append(len(rows))
        rows.append((vocab[a], vocab[b]))
    if not gold:
        raise WordvecError(f"No valid similarity judgements found in {pairs}: either invalid format "
                           f"or all are out-of-vocabulary in {kv}")
    cosines = evaluate._gensim_cosines(kv.vectors, rows)
    similarities = [0.0 if slot is None else cosines[slot] for slot in model]
    from scipy import stats  # here, not at the top: 1.3-1.5 s to import, paid by every command and KeyedVectors

    spearman = stats.spearmanr(gold, similarities)
    pearson = stats.pearsonr(gold, similarities)
    oov_ratio = 100.0 * oov / (len(gold) if dummy4unknown else len(gold) + oov)
    logger.info("Pearson correlation coefficient against %s: %.4f", pairs, pearson[0])
    logger.info("Spearman rank-order correlation coefficient against %s: %.4f", pairs, spearman[0])
    logger.info("Pairs with unknown words ratio: %.1f%%", oov_ratio)
    return pearson, spearman, oov_ratio
