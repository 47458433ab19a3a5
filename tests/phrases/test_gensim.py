"""gensim's Phrases under wordvec: the same counts, phrases, scores and joins as gensim 4.4,
and the relation to the compiled word2phrase-scale Phrases behind `wordvec phrases`."""

import random

import pytest
from gensim.models import phrases as gensim_phrases

from wordvec.data.phrases import Phrases as CompiledPhrases
from wordvec.errors import FormatError, WordvecError
from wordvec.models.phrases import model as ours


def planted_corpus(lines=600, seed=3):
    """Zipf-ish words, planted pairs and pairs across connector words ("bank of america")."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(80)]
    weights = [1 / (i + 1) for i in range(80)]
    planted = [["new", "york"], ["hot", "dog"], ["bank", "of", "america"], ["eye", "of", "the", "storm"]]
    corpus = []
    for _ in range(lines):
        sentence = []
        for _ in range(rng.randint(0, 25)):
            roll = rng.random()
            if roll < 0.06:
                sentence.extend(rng.choice(planted))
            elif roll < 0.12:
                sentence.append(rng.choice(["the", "of", "a", "and"]))
            else:
                sentence.append(rng.choices(words, weights)[0])
        corpus.append(sentence)
    return corpus


SETTINGS = [
    dict(min_count=1, threshold=1),
    dict(min_count=3, threshold=5, connector_words=gensim_phrases.ENGLISH_CONNECTOR_WORDS),
    dict(min_count=2, threshold=0.2, scoring="npmi", connector_words=gensim_phrases.ENGLISH_CONNECTOR_WORDS),
    dict(min_count=2, threshold=2, max_vocab_size=400),  # pruning during counting
]


@pytest.mark.parametrize("settings", SETTINGS)
def test_same_counts_phrases_scores_and_joins_as_gensim(settings):
    corpus = planted_corpus()
    theirs, mine = gensim_phrases.Phrases(corpus, **settings), ours.Phrases(corpus, **settings)
    assert mine.vocab == theirs.vocab and mine.corpus_word_count == theirs.corpus_word_count
    assert mine.min_reduce == theirs.min_reduce
    exported = mine.export_phrases()
    assert exported == theirs.export_phrases()
    assert [mine[s] for s in corpus] == [theirs[s] for s in corpus]
    assert mine.find_phrases(corpus) == theirs.find_phrases(corpus)
    assert [list(s) for s in mine.freeze()[corpus]] == [list(s) for s in theirs.freeze()[corpus]]
    assert str(mine) == str(theirs) and str(mine.freeze()) == str(theirs.freeze())
    if settings.get("threshold") == 5:
        assert "bank_of_america" in exported and "new_york" in exported  # connectors inside a phrase


def test_add_vocab_merges_counts_as_gensim():
    corpus = planted_corpus()
    theirs = gensim_phrases.Phrases(corpus[:300], min_count=2, threshold=3, max_vocab_size=500)
    mine = ours.Phrases(corpus[:300], min_count=2, threshold=3, max_vocab_size=500)
    theirs.add_vocab(corpus[300:])
    mine.add_vocab(corpus[300:])
    assert mine.vocab == theirs.vocab and mine.min_reduce == theirs.min_reduce
    assert mine.export_phrases() == theirs.export_phrases()


def test_gensims_docstring_example_with_only_the_import_changed():
    from gensim.models.word2vec import Text8Corpus
    from gensim.test.utils import datapath

    results = []
    for module in (gensim_phrases, ours):
        sentences = Text8Corpus(datapath("testcorpus.txt"))
        phrases = module.Phrases(sentences, min_count=1, threshold=1, connector_words=module.ENGLISH_CONNECTOR_WORDS)
        sent = ["trees", "graph", "minors"]
        sents = [["trees", "graph", "minors"], ["graph", "minors"]]
        frozen = phrases.freeze()
        results.append((phrases[sent], [p for p in phrases[sents]], frozen[sent], len(phrases.vocab),
                        phrases.find_phrases(sentences)))
    assert results[0] == results[1]
    assert results[1][0] == ["trees_graph", "minors"] and results[1][1][1] == ["graph_minors"]


def pair_count(worda_count, wordb_count, bigram_count, len_vocab, min_count, corpus_word_count):
    return bigram_count  # module level: gensim pickles its scorer


def test_a_custom_scoring_function_gets_gensims_arguments():
    corpus = planted_corpus(200)
    theirs = gensim_phrases.Phrases(corpus, min_count=1, threshold=5, scoring=pair_count)
    mine = ours.Phrases(corpus, min_count=1, threshold=5, scoring=pair_count)
    assert mine.export_phrases() == theirs.export_phrases() and mine.export_phrases()
    with pytest.raises(WordvecError, match="missing expected parameters"):
        ours.Phrases(corpus, scoring=lambda a, b: 0)


def test_compiled_phrases_at_the_rescaled_threshold_find_the_same_phrases():
    """word2phrase's scale (tokens N) vs gensim's (table size |V|): threshold T there = T*|V|/N here."""
    corpus = planted_corpus(1500, seed=5)
    gensim_scale = ours.Phrases(corpus, min_count=5, threshold=10.0)
    rescaled = 10.0 * gensim_scale.corpus_word_count / len(gensim_scale.vocab)
    compiled = CompiledPhrases(min_count=5, threshold=rescaled).learn(corpus)
    found = gensim_scale.export_phrases()
    assert len(found) >= 2
    assert {phrase for phrase, _, _ in compiled.top()} == set(found)


def test_refusals_are_one_sentence():
    with pytest.raises(WordvecError, match="min_count"):
        ours.Phrases(min_count=0)
    with pytest.raises(WordvecError, match="positive for default"):
        ours.Phrases(threshold=0)
    with pytest.raises(WordvecError, match="between -1 and 1"):
        ours.Phrases(scoring="npmi", threshold=2)
    with pytest.raises(WordvecError, match="unknown scoring"):
        ours.Phrases(scoring="pmi")
    with pytest.raises(WordvecError, match="token lists"):
        ours.Phrases("a text, not sentences")


def test_frozen_phrases_save_and_load_as_json(tmp_path):
    corpus = planted_corpus()
    frozen = ours.Phrases(corpus, min_count=2, threshold=2, connector_words=ours.ENGLISH_CONNECTOR_WORDS).freeze()
    frozen.save(tmp_path / "phrases.json")
    loaded = ours.FrozenPhrases.load(tmp_path / "phrases.json")
    assert loaded.phrasegrams == frozen.phrasegrams and loaded.phrasegrams
    assert [loaded[s] for s in corpus] == [frozen[s] for s in corpus]
    (tmp_path / "bad.json").write_text('{"format": "something else"}')
    for bad in ("bad.json", "missing.json"):
        with pytest.raises(WordvecError, match=bad):
            ours.FrozenPhrases.load(tmp_path / bad)
    (tmp_path / "torn.json").write_text('{"format": "wordvec-frozen-phrases", "phrasegrams": {')
    with pytest.raises(FormatError, match="torn.json"):
        ours.FrozenPhrases.load(tmp_path / "torn.json")


@pytest.mark.parametrize("scoring", ["default", "npmi"])
def test_phrases_save_and_load_as_json_keep_counting(tmp_path, scoring):
    corpus = planted_corpus()
    threshold = 2 if scoring == "default" else 0.3
    phrases = ours.Phrases(corpus[:200], min_count=2, threshold=threshold, scoring=scoring,
                           connector_words=ours.ENGLISH_CONNECTOR_WORDS)
    phrases.save(tmp_path / "phrases.json")
    loaded = ours.Phrases.load(tmp_path / "phrases.json")
    assert loaded.export_phrases() == phrases.export_phrases() and loaded.export_phrases()
    assert loaded.connector_words == ours.ENGLISH_CONNECTOR_WORDS
    loaded.add_vocab(corpus[200:])
    phrases.add_vocab(corpus[200:])
    assert loaded.vocab == phrases.vocab and loaded.corpus_word_count == phrases.corpus_word_count


def test_a_scoring_function_is_not_stored_and_must_be_passed_again(tmp_path):
    def my_scorer(worda_count, wordb_count, bigram_count, len_vocab, min_count, corpus_word_count):
        return 1.0

    ours.Phrases(planted_corpus(), min_count=1, threshold=0.5, scoring=my_scorer).save(tmp_path / "p.json")
    with pytest.raises(WordvecError, match="scoring function 'my_scorer'"):
        ours.Phrases.load(tmp_path / "p.json")
    assert ours.Phrases.load(tmp_path / "p.json", scoring=my_scorer).scoring is my_scorer
    with pytest.raises(FormatError, match="not a wordvec-phrases file"):
        ours.Phrases.load(_frozen_file(tmp_path))


def _frozen_file(tmp_path):
    ours.Phrases(planted_corpus(), min_count=2, threshold=2).freeze().save(tmp_path / "frozen.json")
    return tmp_path / "frozen.json"


def test_bad_settings_are_value_errors_as_in_gensim():
    for settings in (dict(min_count=0), dict(threshold=-1), dict(scoring="npmi", threshold=2)):
        with pytest.raises(ValueError):
            gensim_phrases.Phrases([["a", "b"]], **settings)
        with pytest.raises(ValueError) as raised:
            ours.Phrases([["a", "b"]], **settings)
        assert isinstance(raised.value, WordvecError)


def test_a_gensim_phraser_pickle_keeps_its_scoring_function():
    from gensim.test.utils import datapath
    frozen = ours.FrozenPhrases.load(datapath("phraser-scoring-str.pkl"))
    assert frozen.scoring is ours.original_scorer and frozen.phrasegrams
