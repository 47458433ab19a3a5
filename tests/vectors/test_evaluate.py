"""Evaluation: the same numbers as gensim 4.4 on the same vectors, on synthetic and bundled sets."""

import json

import numpy as np
import pytest
from gensim.models import KeyedVectors as GensimKeyedVectors

from wordvec.errors import FormatError, WordvecError
from wordvec.vectors.evaluate import (
    bundled_path,
    evaluate_all,
    evaluate_analogies,
    evaluate_similarity,
    format_report,
    read_analogies,
)
from wordvec.vectors.keyed import KeyedVectors

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # gensim's own deprecated calls


def gensim_twin(kv):
    twin = GensimKeyedVectors(kv.vector_size)
    twin.add_vectors(kv.index_to_key, kv.vectors)
    return twin


def structured_set(tmp_path, noise=0.6, case_variants=True):
    """Words "eIrJ" = entity_I + role_J + noise, so analogies are solvable, but not all.

    With ``case_variants``, some words also exist upper-cased (before or after the
    lower-case form in frequency order) with unrelated vectors, and the questions mix cases:
    this exercises gensim's first-variant-wins and ignore-the-question-words rules.
    """
    rng = np.random.default_rng(7)
    entities, roles = rng.standard_normal((14, 32)), rng.standard_normal((3, 32))
    words, vectors = [], []
    for i in range(14):
        for j in range(3):
            words.append(f"e{i}r{j}")
            vectors.append(entities[i] + roles[j] + noise * rng.standard_normal(32))
    if case_variants:  # upper-case twins, half more frequent than the original, half less
        front, back = [words[k].upper() for k in range(0, 42, 6)], [words[k].upper() for k in range(3, 42, 6)]
        words = front + words + back
        vectors = [*rng.standard_normal((len(front), 32)) * 1.2, *vectors, *rng.standard_normal((len(back), 32)) * 1.2]
    words += [f"filler{k}" for k in range(30)]
    vectors += list(rng.standard_normal((30, 32)) * 1.3)
    lines = []
    for section, (r1, r2) in (("roles-01", (0, 1)), ("family", (0, 2)), ("gram1-roles-12", (1, 2))):
        lines.append(f": {section}")
        for i in range(14):
            for k in range(14):
                if i != k:
                    question = [f"e{i}r{r1}", f"e{i}r{r2}", f"e{k}r{r1}", f"e{k}r{r2}"]
                    lines.append(" ".join(w.upper() if (i + k) % 5 == 0 else w for w in question))
        lines.append("only three words")  # skipped, as gensim does
    lines.append(": gram2-unknown")
    lines.append("nowhere to be found at-all")
    path = tmp_path / "questions.txt"
    path.write_text("\n".join(lines) + "\n")
    return KeyedVectors(words, np.array(vectors, dtype=np.float32)), path


def assert_matches_gensim(ours, gensim_sections):
    by_name = {s["section"]: s for s in gensim_sections}
    total = by_name.pop("Total accuracy")
    assert set(ours["sections"]) == set(by_name)
    for name, theirs in by_name.items():
        mine = ours["sections"][name]
        answered = len(theirs["correct"]) + len(theirs["incorrect"])
        assert (mine["correct"], mine["answered"]) == (len(theirs["correct"]), answered), name
    assert ours["answered"] == len(total["correct"]) + len(total["incorrect"])
    assert ours["total"] == pytest.approx(len(total["correct"]) / max(1, ours["answered"]))


@pytest.mark.parametrize("restrict_vocab", [100000, 40])
@pytest.mark.parametrize("case_insensitive", [True, False])
def test_3cosadd_equals_gensim_evaluate_word_analogies(tmp_path, restrict_vocab, case_insensitive):
    kv, path = structured_set(tmp_path)
    ours = evaluate_analogies(kv, path, restrict_vocab=restrict_vocab, case_insensitive=case_insensitive)
    _, theirs = gensim_twin(kv).evaluate_word_analogies(str(path), restrict_vocab=restrict_vocab,
                                                        case_insensitive=case_insensitive)
    assert_matches_gensim(ours, theirs)
    if restrict_vocab > len(kv):
        assert 0.2 < ours["total"] < 0.95  # the set is neither trivial nor hopeless: the test can fail


def test_3cosadd_equals_gensim_on_the_bundled_questions():
    rng = np.random.default_rng(11)
    words = sorted({w for _, qs in read_analogies(bundled_path("questions-words.txt"), False) for q in qs for w in q})
    words = list(rng.permutation(words)[:500]) + [w.lower() for w in rng.permutation(words)[:200]]
    words = list(dict.fromkeys(words))
    kv = KeyedVectors(words, rng.standard_normal((len(words), 8)).astype(np.float32))
    path = bundled_path("questions-words.txt")
    ours = evaluate_analogies(kv, restrict_vocab=600)
    _, theirs = gensim_twin(kv).evaluate_word_analogies(str(path), restrict_vocab=600)
    assert ours["answered"] > 100
    assert_matches_gensim(ours, theirs)


def test_3cosmul_equals_gensim_most_similar_cosmul(tmp_path):
    kv, path = structured_set(tmp_path, case_variants=False)
    twin = gensim_twin(kv)
    expected = {}
    for section, questions in read_analogies(path, case_insensitive=False):
        hits = [twin.most_similar_cosmul(positive=[b, c], negative=[a], topn=1)[0][0] == d
                for a, b, c, d in questions if all(w in kv for w in (a, b, c, d))]
        expected[section] = (sum(hits), len(hits))
    # the questions are case-mixed: upper-cased words are OOV without case variants, so
    # compare case-sensitively on exactly the questions gensim's loop answered
    ours = evaluate_analogies(kv, path, restrict_vocab=None, method="3cosmul", epsilon=1e-6, case_insensitive=False)
    assert {name: (s["correct"], s["answered"]) for name, s in ours["sections"].items()} == expected
    assert ours["total"] > 0.2


def test_3cosmul_and_3cosadd_differ_but_both_work(tmp_path):
    kv, path = structured_set(tmp_path, noise=0.9)
    add = evaluate_analogies(kv, path, restrict_vocab=None, method="3cosadd")
    mul = evaluate_analogies(kv, path, restrict_vocab=None, method="3cosmul")
    assert add["answered"] == mul["answered"] and add["total"] > 0.1 and mul["total"] > 0.1
    # the same questions answered, but not the same answers: the method option is used
    correct = {method: {name: s["correct"] for name, s in result["sections"].items()}
               for method, result in (("3cosadd", add), ("3cosmul", mul))}
    assert correct["3cosadd"] != correct["3cosmul"], correct
    assert add["total"] != mul["total"]
    with pytest.raises(WordvecError, match="method"):
        evaluate_analogies(kv, path, method="3cosmax")


def similarity_kv(seed=5):
    """Vectors for every word of the bundled similarity sets, some only upper-cased."""
    rng = np.random.default_rng(seed)
    words = set()
    for name in ("wordsim353.tsv", "simlex999.txt"):
        for line in bundled_path(name).read_text(encoding="utf-8").splitlines():
            if not line.startswith("#"):
                words.update(line.split("\t")[:2])
    words = sorted(words)
    words = [w.upper() if i % 7 == 0 else w for i, w in enumerate(words) if i % 11]  # some missing
    return KeyedVectors(words, rng.standard_normal((len(words), 10)).astype(np.float32))


@pytest.mark.parametrize("name", ["wordsim353.tsv", "simlex999.txt"])
def test_similarity_equals_gensim_evaluate_word_pairs(name):
    kv = similarity_kv()
    ours = evaluate_similarity(kv, bundled_path(name))
    _, spearman, oov_percent = gensim_twin(kv).evaluate_word_pairs(str(bundled_path(name)))
    assert ours["spearman"] == pytest.approx(float(spearman.statistic), abs=1e-12)
    assert ours["pairs"] == {"wordsim353.tsv": 353, "simlex999.txt": 999}[name]
    assert ours["covered"] == round(ours["pairs"] * (1 - oov_percent / 100))
    assert 0 < ours["covered"] < ours["pairs"]


def test_similarity_equals_gensim_exactly_on_near_ties():
    """Barely trained vectors: cosines all near 1 and equal to rounding; the ranks must still agree."""
    kv = similarity_kv()
    rng = np.random.default_rng(9)
    kv = KeyedVectors(kv.index_to_key, rng.standard_normal(10) + 2e-4 * rng.standard_normal((len(kv), 10)))
    path = bundled_path("wordsim353.tsv")
    _, spearman, _ = gensim_twin(kv).evaluate_word_pairs(str(path))
    assert evaluate_similarity(kv, path)["spearman"] == float(spearman.statistic)


def test_similarity_file_rules(tmp_path):
    kv = KeyedVectors(["cat", "Dog", "car", "bus"], np.array([[1, 0], [1, 0.1], [0, 1], [0.3, 1]], np.float32))
    path = tmp_path / "pairs.tsv"
    path.write_text("# a comment\tline\t1\ncat\tdog\t9\nCAR\tbus\t8\ncat\tcar\t1\n"
                    "cat\tzebra\t5\nbad line\ncat\tdog\tnot-a-number\n")
    result = evaluate_similarity(kv, path)
    assert (result["pairs"], result["covered"]) == (4, 3)
    assert result["spearman"] == pytest.approx(1.0)
    assert evaluate_similarity(kv, path, case_insensitive=False)["covered"] == 1
    assert evaluate_similarity(kv, path, case_insensitive=False)["spearman"] is None  # one pair: undefined


def test_bad_analogy_files(tmp_path):
    kv = KeyedVectors(["a"], np.ones((1, 2), np.float32))
    path = tmp_path / "q.txt"
    path.write_text("\na b c d\n: section\n")
    with pytest.raises(FormatError, match="line 2"):
        evaluate_analogies(kv, path)
    with pytest.raises(WordvecError, match="cannot read"):
        evaluate_analogies(kv, tmp_path / "missing.txt")


def test_evaluate_all_on_the_bundled_sets_has_the_stable_shape():
    kv = similarity_kv()
    result = json.loads(json.dumps(evaluate_all(kv, restrict_vocab=30000)))
    assert set(result) == {"analogy", "similarity"}
    analogy = result["analogy"]
    assert set(analogy) == {"total", "semantic", "syntactic", "answered", "questions", "sections"}
    assert analogy["questions"] == 19544 and len(analogy["sections"]) == 14
    questions = [q for _, qs in read_analogies(bundled_path("questions-words.txt")) for q in qs]
    upper = {w.upper() for w in kv.index_to_key}
    assert analogy["answered"] == sum(all(w in upper for w in q) for q in questions)
    semantic = [s for name, s in analogy["sections"].items() if not name.startswith("gram")]
    assert len(semantic) == 5
    semantic_answered = sum(s["answered"] for s in semantic)
    assert analogy["semantic"] == pytest.approx(sum(s["correct"] for s in semantic) / max(1, semantic_answered))
    for value in (analogy["total"], analogy["semantic"], analogy["syntactic"]):
        assert 0.0 <= value <= 1.0
    assert set(result["similarity"]) == {"wordsim353", "simlex999"}
    for stats in result["similarity"].values():
        assert set(stats) == {"spearman", "pairs", "covered"} and isinstance(stats["spearman"], float)


def test_format_report_shows_sections_totals_and_coverage(tmp_path):
    kv, path = structured_set(tmp_path)
    result = evaluate_all(kv, restrict_vocab=None, analogies=path, similarity=[bundled_path("wordsim353.tsv")])
    report = format_report(result)
    for needle in ("roles-01", "gram1-roles-12", "semantic", "syntactic", "total", "coverage", "wordsim353"):
        assert needle in report
    total_line = next(line for line in report.splitlines() if line.startswith("total"))
    assert f"{result['analogy']['total']:.1%}" in total_line
