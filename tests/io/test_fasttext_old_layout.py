"""fastText files written before fastText 0.9 (no magic number nor version, no pruned
index, no quantization flags), as gensim reads them: gensim's own ``lee_fasttext.bin``
gives gensim's vocabulary and vectors, for vocabulary words and unseen ones, and a file
converted to the old layout reads as its new-layout original."""

import struct

import numpy as np
import pytest
from gensim.models import fasttext as gensim_fasttext
from gensim.test.utils import datapath

from wordvec.errors import WordvecError
from wordvec.io.fasttext_bin import INT_ARGS, read_fasttext
from wordvec.io.sniff import identify
from wordvec.models.classifier.model import Classifier
from wordvec.models.word2vec import fasttext as wordvec_fasttext
from wordvec.vectors.files import load_vectors

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # gensim's own deprecated calls


def old_layout(model):
    """The bytes of ``model`` (a dense FastTextModel) as fastText wrote them before 0.9."""
    nwords = model.nwords
    parts = [struct.pack("<12id", *(int(model.args[name]) for name in INT_ARGS), float(model.args["t"])),
             struct.pack("<iiiq", len(model.words), nwords, len(model.words) - nwords, model.ntokens)]
    for raw, count, kind in zip(model.raw_words, model.counts.tolist(), model.types.tolist()):
        parts.append(raw + b"\0" + struct.pack("<qb", count, kind))
    for matrix in (model.input, model.output):
        parts.append(struct.pack("<qq", *matrix.shape) + np.ascontiguousarray(matrix, "<f4").tobytes())
    return b"".join(parts)


def test_lee_fasttext_bin_gives_gensims_vectors():
    path = datapath("lee_fasttext.bin")
    ours, theirs = wordvec_fasttext.load_facebook_vectors(path), gensim_fasttext.load_facebook_vectors(path)
    assert ours.index_to_key == theirs.index_to_key and len(ours) == 1762
    assert (ours.min_n, ours.max_n, ours.bucket) == (theirs.min_n, theirs.max_n, theirs.bucket) == (3, 6, 1000)
    words = [w for w in ours.index_to_key if w != "</s>"]  # fastText gives </s> no n-grams, gensim does
    np.testing.assert_allclose(ours[words], theirs[words], atol=1e-6)
    np.testing.assert_allclose(ours.vectors_ngrams, theirs.vectors_ngrams)
    for unseen in ("rejection", "someoovword"):
        assert unseen not in ours.key_to_index
        np.testing.assert_allclose(ours[unseen], theirs[unseen], atol=1e-6)
    assert ours.get_vecattr("the", "count") == theirs.get_vecattr("the", "count") > 0


def test_lee_fasttext_bin_as_a_model_and_through_load_vectors():
    path = datapath("lee_fasttext.bin")
    model = wordvec_fasttext.load_facebook_model(path)
    theirs = gensim_fasttext.load_facebook_model(path)
    assert (model.vector_size, model.window, model.negative, model.sample) == (10, 5, 5, 1e-4)
    np.testing.assert_allclose(model.syn1neg, theirs.syn1neg)
    assert identify(path) == "fasttext"
    np.testing.assert_allclose(load_vectors(path)["hundred"], theirs.wv["hundred"], atol=1e-6)


def test_words_in_another_encoding_decode_as_gensim_decodes_them():
    path = datapath("cp852_fasttext.bin")
    ours = wordvec_fasttext.load_facebook_vectors(path, encoding="cp852")
    theirs = gensim_fasttext.load_facebook_vectors(path, encoding="cp852")
    assert "který" in ours.key_to_index and ours.index_to_key == theirs.index_to_key
    np.testing.assert_allclose(ours["který"], theirs["který"], atol=1e-6)
    with pytest.raises(WordvecError, match="unknown encoding"):
        wordvec_fasttext.load_facebook_vectors(path, encoding="no-such-codec")


def test_a_file_in_the_old_layout_reads_as_its_original(tmp_path):
    original = read_fasttext(datapath("lee_fasttext_new.bin"))
    path = tmp_path / "old.bin"
    path.write_bytes(old_layout(original))
    again = read_fasttext(path)
    assert again.words == original.words and again.args == original.args and again.prune_index is None
    np.testing.assert_array_equal(again.counts, original.counts)
    np.testing.assert_array_equal(again.input, original.input)
    np.testing.assert_array_equal(again.output, original.output)
    ours = wordvec_fasttext.load_facebook_vectors(path)
    np.testing.assert_allclose(ours["rejection"], wordvec_fasttext.load_facebook_vectors(
        datapath("lee_fasttext_new.bin"))["rejection"])


def test_fasttexts_own_readers_refuse_the_old_layout_as_fasttext_does():
    """fastText 0.9.2 loads only files with its magic number; its module and the classifier follow it."""
    with pytest.raises(WordvecError, match="not a fastText model"):
        Classifier.load(datapath("lee_fasttext.bin"))
