import numpy as np

from wordvec.data.corpus import Corpus
from wordvec.data.encode import encode_corpus
from wordvec.data.vocab import Vocabulary


def reference_encoding(docs, vocab):
    ids = [[vocab.index[w] for w in d if w in vocab] for d in docs]
    ids = [d for d in ids if d]
    return np.array([i for d in ids for i in d], dtype=np.int32), np.cumsum([0] + [len(d) for d in ids])


def test_encoding_matches_a_python_reference_and_is_cached(tmp_path):
    rng = np.random.default_rng(3)
    docs = [[f"w{int(x)}" for x in rng.zipf(1.3, size=rng.integers(1, 60)) % 500] for _ in range(300)]
    path = tmp_path / "c.txt"
    path.write_text("\n".join(" ".join(d) for d in docs) + "\n")
    corpus = Corpus(path, block_size=512)  # many blocks: documents cross block boundaries
    vocab = Vocabulary.build(corpus, min_count=3)
    encoded = encode_corpus(corpus, vocab, cache_dir=tmp_path / "cache")
    ids, offsets = reference_encoding(docs, vocab)
    np.testing.assert_array_equal(encoded.ids, ids)
    np.testing.assert_array_equal(encoded.offsets, offsets)
    assert isinstance(encoded.ids, np.ndarray) and not encoded.ids.flags.writeable  # memory-mapped
    files = sorted(p.name for p in (tmp_path / "cache" / "encoded").iterdir())
    assert len(files) == 3
    again = encode_corpus(corpus, vocab, cache_dir=tmp_path / "cache")
    np.testing.assert_array_equal(again.ids, ids)
    in_memory = encode_corpus(Corpus(docs), vocab)
    np.testing.assert_array_equal(in_memory.ids, ids)
    np.testing.assert_array_equal(in_memory.offsets, offsets)


def test_cache_is_invalidated_when_the_file_or_vocabulary_changes(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("a b a\n")
    vocab = Vocabulary.from_counts({"a": 2, "b": 1})
    first = encode_corpus(Corpus(path), vocab, cache_dir=tmp_path)
    path.write_text("b b b b\n")
    second = encode_corpus(Corpus(path), vocab, cache_dir=tmp_path)
    assert first.ids.tolist() == [0, 1, 0] and second.ids.tolist() == [1, 1, 1, 1]
    swapped = encode_corpus(Corpus(path), Vocabulary(["b", "a"], [4, 1]), cache_dir=tmp_path)
    assert swapped.ids.tolist() == [0, 0, 0, 0]


def test_long_lines_are_split_into_documents(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(" ".join(["a", "zz"] * 12))  # 24 tokens, one line, no newline
    vocab = Vocabulary.from_counts({"a": 12})
    encoded = encode_corpus(Corpus(path, max_document_length=10), vocab, use_cache=False)
    assert encoded.offsets.tolist() == [0, 5, 10, 12]  # split by raw tokens, then OOV dropped


def test_cache_keeps_only_the_most_recently_used_encodings(tmp_path, monkeypatch):
    import os

    import wordvec.data.encode as encode

    monkeypatch.setattr(encode, "CACHE_ENTRIES", 2)
    vocab = Vocabulary.from_counts({"a": 2, "b": 1})
    corpora = []
    for i in range(3):
        path = tmp_path / f"c{i}.txt"
        path.write_text("a b " * (i + 1) + "\n")
        corpora.append(Corpus(path))
    folder = tmp_path / "cache" / "encoded"

    def entries():
        return sorted(p.name for p in folder.glob("*.json"))

    first = encode_corpus(corpora[0], vocab, cache_dir=tmp_path / "cache")
    encode_corpus(corpora[1], vocab, cache_dir=tmp_path / "cache")
    manifest = {name: os.path.getmtime(folder / name) for name in entries()}
    # corpus 0 becomes the most recently used one, so the third encoding evicts corpus 1
    for name, mtime in manifest.items():
        os.utime(folder / name, (mtime - 100, mtime - 100))
    assert encode_corpus(corpora[0], vocab, cache_dir=tmp_path / "cache").ids.tolist() == [0, 1]
    encode_corpus(corpora[2], vocab, cache_dir=tmp_path / "cache")
    assert len(entries()) == 2 and len(list(folder.iterdir())) == 6  # three files per entry
    kept = {encode.fingerprint(c, vocab) for c in (corpora[0], corpora[2])}
    assert {name.removesuffix(".json") for name in entries()} == kept
    assert first.ids.tolist() == [0, 1]  # a mapped entry stays readable


def test_cached_ids_are_validated_block_by_block(tmp_path, monkeypatch):
    """With blocks smaller than the corpus, the block-wise checksum and range check still
    accept the intact cache and catch damage in a later block (DamagedCache -> re-encoded)."""
    import pytest

    from wordvec.data import encode

    path = tmp_path / "c.txt"
    path.write_text("a b c a b\n" * 4000)  # 20,000 ids: 5 blocks of 4,096 (16 KB, 4 pages)
    vocab = Vocabulary.from_counts({"a": 8000, "b": 8000, "c": 4000})
    first = encode_corpus(Corpus(path), vocab, cache_dir=tmp_path / "cache")
    expected = np.asarray(first.ids).copy()
    monkeypatch.setattr(encode, "VALIDATION_BLOCK", 4096)
    stem = next((tmp_path / "cache" / "encoded").glob("*.ids")).with_suffix("")
    assert np.array_equal(encode._load_cached(stem, len(vocab)).ids, expected)
    for damage in ("out of range", "swapped"):
        ids = np.fromfile(stem.with_suffix(".ids"), dtype=np.int32)
        if damage == "out of range":
            ids[4096 * 3 + 7] = 99
        else:
            ids[[4096 * 4 + 1, 4096 * 4 + 2]] = ids[[4096 * 4 + 2, 4096 * 4 + 1]]  # in range: only the CRC tells
        ids.tofile(stem.with_suffix(".ids"))
        with pytest.raises(encode.DamagedCache):
            encode._load_cached(stem, len(vocab))
        again = encode_corpus(Corpus(path), vocab, cache_dir=tmp_path / "cache")  # re-encoded
        assert np.array_equal(again.ids, expected)
