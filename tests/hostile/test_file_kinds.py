"""Telling a file's kind from its first bytes (``wordvec.io.sniff``) on hostile input: any
bytes, compressed or not, give a kind or one plain noun phrase, never an exception or the
bytes themselves; ``load_vectors`` on them loads or raises one ``WordvecError``."""

import bz2
import gzip
import lzma

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordvec.errors import WordvecError
from wordvec.io import sniff
from wordvec.vectors.files import load_vectors

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
PREFIXES = [b"", b"<!DOCTYPE html>", b"3 2\n", b"the 0.5 ", b"\xba\x16\x4f\x2f", b"\x93NUMPY", b"__label__x ",
            b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00"]
COMPRESS = [lambda b: b, gzip.compress, bz2.compress, lzma.compress]


@SETTINGS
@given(prefix=st.sampled_from(PREFIXES), body=st.binary(max_size=400), compress=st.sampled_from(COMPRESS))
def test_any_bytes_get_a_kind_or_a_plain_description(tmp_path_factory, prefix, body, compress):
    path = tmp_path_factory.mktemp("kind") / "file.bin"
    path.write_bytes(compress(prefix + body))
    kind = sniff.identify(path)
    assert kind in ("fasttext", "header", "rows", "unknown", None)
    phrase = sniff.describe(path)
    assert phrase and "\\x" not in phrase and "\n" not in phrase and phrase.isprintable()
    try:
        load_vectors(path)
    except WordvecError as error:  # FormatError is one
        message = str(error)
        assert "\n" not in message
        if kind is None:
            assert message == f"{path} is not a vector file: it looks like {phrase}"
