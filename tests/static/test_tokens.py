"""The word cache of ``models.static.tokens``: a text's ids through the cache equal the
tokenizer's own ids of the whole text, for any text and any cut, and tokenizers that are
not word-local (byte-level BPE) never use it."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, models, pre_tokenizers

from wordvec.models.static.tokens import TokenEncoder, word_local

from .teacher import WORDS, make_tokenizer, vocabulary

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
# words of the vocabulary and pieces that are not, the whitespace Python and the tokenizer
# disagree on (\x1c-\x1f), control characters, accents, wide forms and the special tokens
PARTS = st.sampled_from(WORDS[:30] + ["goodly", "xyzzy", "Movie", "FILM", "don't", "!!", "a-b", "[MASK]",
                                      "the[CLS]x", "[UNK]", "é", "Ångström", "ｆｕｌｌ", "中文", "a\x1cb",
                                      "\x00", "\x7f", "naïve", "x" * 120])
SPACES = st.sampled_from([" ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", "\u00a0", "\u3000", ""])
TEXTS = st.lists(st.tuples(PARTS, SPACES).map("".join), max_size=25).map("".join)


def pair(tokenizer):
    """An encoder using the cache and one that gives every text to the tokenizer."""
    cached, whole = TokenEncoder(tokenizer), TokenEncoder(tokenizer)
    whole.words = None
    return cached, whole


@pytest.fixture(scope="module")
def encoders():
    cached, whole = pair(make_tokenizer(vocabulary()))
    assert cached.words is not None
    return cached, whole


@SETTINGS
@given(texts=st.lists(TEXTS, max_size=6), max_length=st.sampled_from([None, 1, 3, 8, 512]))
def test_the_cache_gives_the_tokenizers_ids(encoders, texts, max_length):
    cached, whole = encoders
    got, expected = cached.encode(texts, max_length), whole.encode(texts, max_length)
    assert np.array_equal(got.offsets, expected.offsets)
    assert np.array_equal(got.ids, expected.ids)


def test_texts_outside_plain_ascii_are_not_kept(encoders):
    cached, _ = encoders
    cached.encode(["the film", "naïve film", "a\x1cb"], 512)
    assert "film" in cached.words.rows
    assert not any("ï" in word or "\x1c" in word for word in cached.words.rows)
    assert len(cached.words.starts) == len(cached.words.rows) == len(cached.words.lengths)
    assert cached.words.starts[-1] + cached.words.lengths[-1] == len(cached.words.pieces)


def test_a_byte_level_tokenizer_is_not_word_local():
    tokenizer = Tokenizer(models.BPE({"a": 0, "b": 1, "Ġ": 2}, []))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    cached, _ = pair(tokenizer)
    assert cached.words is None
    assert word_local({"normalizer": None, "pre_tokenizer": {"type": "BertPreTokenizer"},
                       "model": {"type": "WordPiece"}, "added_tokens": [{"content": "[CLS]"}]})
    assert not word_local({"normalizer": None, "pre_tokenizer": {"type": "BertPreTokenizer"},
                           "model": {"type": "WordPiece"}, "added_tokens": [{"content": "two words"}]})


def test_threads_sharing_an_encoder_get_the_tokenizers_ids(encoders):
    from concurrent.futures import ThreadPoolExecutor

    _, whole = encoders
    cached, _ = pair(make_tokenizer(vocabulary()))
    batches = [[" ".join(WORDS[(i * 7 + j) % len(WORDS):][:12]) + f" x{i}y{j}" for j in range(200)] for i in range(8)]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda texts: cached.encode(texts, 512), batches))
    for texts, found in zip(batches, got):
        expected = whole.encode(texts, 512)
        assert np.array_equal(found.ids, expected.ids) and np.array_equal(found.offsets, expected.offsets)
