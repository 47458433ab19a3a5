"""Phrase detection: exact pair counts, the reference scores, gensim's phrases, the CLI."""

import collections
import itertools
import random

import numpy as np
import pytest

from wordvec.cli import main
from wordvec.data.corpus import Corpus
from wordvec.errors import WordvecError
from wordvec.kernels import phrases as kernels
from wordvec.data.phrases import Phrases, default_score, npmi_score, phrase_corpus


def random_text(path, lines=400, seed=0, vocabulary=60, phrases=(("new", "york"), ("hot", "dog"))):
    """Zipf-ish random words with a few fixed pairs planted; returns the documents."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(vocabulary)]
    weights = [1 / (i + 1) for i in range(vocabulary)]
    documents = []
    for _ in range(lines):
        tokens = []
        for _ in range(rng.randint(0, 40)):
            if rng.random() < 0.05:
                tokens.extend(rng.choice(phrases))
            else:
                tokens.append(rng.choices(words, weights)[0])
        documents.append(tokens)
    path.write_text("".join(" ".join(d) + "\n" for d in documents))
    return documents


def counted_pairs(documents, limit):
    pairs = collections.Counter()
    for document in documents:
        for start in range(0, len(document), limit):
            piece = document[start:start + limit]
            pairs.update(zip(piece, piece[1:]))
    return pairs


@pytest.mark.parametrize("limit", [10_000, 7])
def test_pairs_are_counted_exactly_within_documents_across_small_blocks(tmp_path, limit):
    documents = random_text(tmp_path / "c.txt")
    corpus = Corpus(tmp_path / "c.txt", max_document_length=limit, block_size=64)  # many block seams
    phrases = Phrases(min_count=1, max_document_length=limit).learn(corpus)
    assert phrases.pair_counts_by_words() == counted_pairs(documents, limit)
    assert phrases.total_tokens == sum(map(len, documents))


def test_the_pair_table_grows_and_keeps_every_count(tmp_path, monkeypatch):
    monkeypatch.setattr("wordvec.data.phrases.INITIAL_PAIR_SLOTS", 16)
    documents = random_text(tmp_path / "c.txt", lines=3000, vocabulary=400)
    phrases = Phrases(min_count=1).learn(tmp_path / "c.txt")
    expected = counted_pairs(documents, 10_000)
    assert len(expected) > 1000  # the table doubled many times
    assert phrases.pair_counts_by_words() == expected


def test_kernel_scores_equal_the_reference_functions():
    rng = np.random.default_rng(0)
    count_a, count_b = rng.integers(1, 1000, 50), rng.integers(1, 1000, 50)
    count_ab = np.minimum(count_a, count_b) - rng.integers(0, 5, 50).clip(0, None)
    for code, reference in ((kernels.DEFAULT, default_score), (kernels.NPMI, npmi_score)):
        expected = reference(count_a, count_b, count_ab, 5, 20_000)
        got = [kernels.score(code, float(a), float(b), float(ab), 5.0, 20_000.0)
               for a, b, ab in zip(count_a, count_b, count_ab)]
        np.testing.assert_allclose(got, expected, rtol=1e-12)
    # the definitions themselves: independence scores 0 in npmi, certainty 1
    assert npmi_score(10, 10, 1, 1, 100) == pytest.approx(0.0, abs=1e-12)
    assert npmi_score(10, 10, 10, 1, 10) == 1.0
    assert default_score(10, 20, 7, 5, 1000) == pytest.approx((7 - 5) / 200 * 1000)


@pytest.fixture(scope="module")
def synthetic_corpus(tmp_path_factory):
    from wordvec.data import synthetic
    path = tmp_path_factory.mktemp("phrases") / "synthetic.txt"
    synthetic.write_corpus(path, tokens=200_000, seed=0)
    return path


def test_same_phrases_and_rewriting_as_gensim(synthetic_corpus):
    gensim_phrases = pytest.importorskip("gensim.models.phrases")
    from gensim.models.word2vec import LineSentence

    sentences = LineSentence(str(synthetic_corpus))
    theirs = gensim_phrases.Phrases(sentences, min_count=5, threshold=0.4, scoring="npmi")
    ours = Phrases(min_count=5, threshold=0.4, scoring="npmi").learn(synthetic_corpus)
    expected = theirs.export_phrases()
    found = {phrase: score for phrase, _, score in ours.top()}
    assert len(expected) > 10 and found.keys() == expected.keys()
    assert max(abs(found[p] - expected[p]) for p in found) < 1e-9
    frozen = theirs.freeze()
    for sentence in itertools.islice(sentences, 300):
        assert ours.transform(sentence) == frozen[sentence]

    # gensim's default score multiplies by its vocabulary size where ours multiplies by N
    default = gensim_phrases.Phrases(sentences, min_count=5, threshold=10.0)
    equivalent = 10.0 * ours.total_tokens / len(default.vocab)
    found = Phrases(min_count=5, threshold=equivalent).learn(synthetic_corpus).top()
    assert {phrase for phrase, _, _ in found} == set(default.export_phrases())


def test_a_second_pass_joins_three_word_phrases(tmp_path):
    rng = random.Random(1)
    lines = []
    for _ in range(800):
        words = [f"x{rng.randint(0, 300)}" for _ in range(12)]
        at = rng.randint(0, 9)
        words[at:at + 3] = ["new", "york", "times"]
        lines.append(" ".join(words))
    (tmp_path / "c.txt").write_text("\n".join(lines) + "\n")
    passes = phrase_corpus(tmp_path / "c.txt", tmp_path / "out.txt", passes=2, min_count=5, threshold=10)
    text = (tmp_path / "out.txt").read_text().splitlines()
    assert len(text) == 800 and all("new_york_times" in line for line in text)
    assert [p for p, _, _ in passes[0].top(1)][0] in ("new_york", "york_times")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.txt", "out.txt"]  # no pass files left


def test_pruning_bounds_the_pair_table_and_keeps_the_strong_phrases(tmp_path):
    random_text(tmp_path / "c.txt", lines=3000, vocabulary=400)
    full = Phrases(min_count=5, threshold=20).learn(tmp_path / "c.txt")
    small = Phrases(min_count=5, threshold=20, max_vocab_size=2000).learn(
        Corpus(tmp_path / "c.txt", block_size=4096))
    assert small.num_pairs < full.num_pairs / 10
    assert [p for p, _, _ in small.top()] == [p for p, _, _ in full.top()] == ["new_york", "hot_dog"]


def test_lines_and_delimiters(tmp_path):
    (tmp_path / "c.txt").write_text("a b\nb c\n" * 20 + "a\nb\n")
    phrases = Phrases(min_count=1, threshold=0.0, delimiter="·").learn(tmp_path / "c.txt")
    phrases.transform_file(tmp_path / "c.txt", tmp_path / "out.txt")
    out = (tmp_path / "out.txt").read_text().splitlines()
    assert out[:2] == ["a·b", "b·c"] and out[-2:] == ["a", "b"]  # never across a line
    assert phrases.transform(["a", "b", "c"]) == ["a·b", "c"]  # greedy from the left
    with pytest.raises(WordvecError, match="whitespace"):
        phrases.transform(["a b"])


@pytest.mark.parametrize("options, fragment", [
    (dict(scoring="pmi"), "scoring"), (dict(scoring="npmi", threshold=5), "between -1 and 1"),
    (dict(delimiter=" "), "delimiter"), (dict(threshold=float("nan")), "finite"), (dict(min_count=0), "min_count")])
def test_bad_options_are_one_sentence(options, fragment):
    with pytest.raises(WordvecError, match=fragment):
        Phrases(**options)


def test_cli_writes_text_and_table_and_refuses_to_overwrite_its_input(tmp_path, capsys, synthetic_corpus):
    out, table = tmp_path / "out.txt", tmp_path / "phrases.tsv"
    status = main(["phrases", str(synthetic_corpus), "-o", str(out), "--threshold", "50",
                   "--export", str(table), "--top", "3"])
    printed = capsys.readouterr().out
    assert status == 0
    rows = [line.split("\t") for line in table.read_text().splitlines()]
    assert rows and all(float(score) > 50 for _, _, score in rows)
    assert rows[0][0] in printed and "phrases above 50" in printed
    assert rows[0][0] in out.read_text()
    before = synthetic_corpus.read_bytes()
    status = main(["phrases", str(synthetic_corpus), "-o", str(synthetic_corpus)])
    assert status == 2 and "it is the input" in capsys.readouterr().err
    assert synthetic_corpus.read_bytes() == before
