"""Every JSON description wordvec reads back (a vocabulary, a training checkpoint, the
corpus cache's manifest) goes through io/formats.read_json_object: a damaged one, even
nested past Python's recursion limit, is refused in one sentence (or, for the cache,
encoded again), never a RecursionError."""

import json

import numpy as np
import pytest

from wordvec.data import encode
from wordvec.data.corpus import Corpus
from wordvec.data.vocab import Vocabulary
from wordvec.errors import WordvecError
from wordvec.io import checkpoint

TOO_DEEP = "[" * 100_000 + "]" * 100_000  # past json's recursion limit


@pytest.mark.parametrize("text", [TOO_DEEP, "{not json", "[1, 2]", "\xff"])
def test_a_damaged_vocabulary_json_is_one_sentence(tmp_path, text):
    path = tmp_path / "vocab.json"
    path.write_text(text, encoding="latin-1")
    with pytest.raises(WordvecError, match="vocab.json.*not a wordvec vocabulary JSON file"):
        Vocabulary.load(path)


@pytest.mark.parametrize("text, problem", [(TOO_DEEP, "JSON nested too deeply"), ("{not json", "invalid JSON"),
                                           ("\xff", "not UTF-8")])
def test_a_damaged_checkpoint_description_is_one_sentence(tmp_path, text, problem):
    (tmp_path / "checkpoint.json").write_text(text, encoding="latin-1")
    with pytest.raises(WordvecError, match=f"checkpoint.json is not valid JSON \\({problem}"):
        checkpoint.read_metadata(tmp_path)


def test_a_damaged_cache_manifest_means_encoding_again(tmp_path):
    corpus_file = tmp_path / "corpus.txt"
    corpus_file.write_text("a b c a b\nc a\n")
    corpus = Corpus(corpus_file)
    vocab = Vocabulary.build(corpus, min_count=1)
    first = encode.encode_corpus(corpus, vocab, cache_dir=tmp_path / "cache")
    ids = np.array(first.ids)
    manifest = tmp_path / "cache" / "encoded" / (encode.fingerprint(corpus, vocab) + ".json")
    assert json.loads(manifest.read_text())["num_tokens"] == len(ids)  # the file this test damages
    del first
    manifest.write_text(TOO_DEEP)
    again = encode.encode_corpus(corpus, vocab, cache_dir=tmp_path / "cache")
    assert np.array_equal(np.asarray(again.ids), ids)
    assert json.loads(manifest.read_text())["num_tokens"] == len(ids)  # written afresh
