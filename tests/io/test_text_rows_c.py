"""The C text parser (wordvec.io._text_rows, built by setup.py) held to its Numba twin
(wordvec.kernels.parse.parse_text_rows), which tests/vectors/test_loading.py holds to Python: on
random blocks of good, damaged and cut rows, the same rows, consumed bytes, error code and
offset, the same floats to the bit (also those written into a row that later fails) and the
same word positions.  And its arguments: what it cannot use safely is a ValueError, never a
write outside a buffer.  Where the extension was not built (no C compiler at install) these
skip, a failure in CI."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordvec.kernels import parse
from wordvec.vectors import reading

from tests.vectors.test_loading import EDGE_CASES, NOT_NUMBERS

_text_rows = pytest.importorskip("wordvec.io._text_rows",
                                 reason="the C text parser was not built (no C compiler at install)")

WORDS = [b"a", b"word", b"caf\xc3\xa9", b"caf\xe9", b"tab\tin", b"", b" ", b"\t", b"x\r"]
NUMBERS = [text.encode() for text in EDGE_CASES] + [text.encode() for text in NOT_NUMBERS if text]
GAPS = [b" ", b"  ", b"\t", b" \t ", b"\x0b", b"\x0c"]
ENDS = [b"\n", b"\r\n", b" \n", b"\t\r\n", b""]

number = st.one_of(
    st.sampled_from(NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True, width=32).map(lambda x: f"{x:.9g}".encode()),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: repr(x).encode()),
    st.integers(-(10 ** 25), 10 ** 25).map(lambda n: str(n).encode()),
)


@st.composite
def rows(draw):
    """Some lines of a vector file: words, gaps, numbers (good or not), line ends, blanks."""
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from([b"", b"  ", b"\t"])) + b"\n")
            continue
        line = draw(st.sampled_from(WORDS))
        for _ in range(draw(st.integers(0, 5))):
            line += draw(st.sampled_from(GAPS)) + draw(number)
        lines.append(line + draw(st.sampled_from(ENDS)))
    return b"".join(lines)


def run(kernel, data, at_eof, dims, max_rows):
    buf = np.frombuffer(data, dtype=np.uint8)
    dest = np.full((max_rows, dims), -7.0, dtype=np.float32)
    starts, ends = np.full(max_rows, -1, np.int64), np.full(max_rows, -1, np.int64)
    outcome = kernel.parse_text_rows(buf, at_eof, dims, max_rows, dest, starts, ends)
    return tuple(int(x) for x in outcome), dest.view(np.uint32), starts, ends


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(rows(), st.booleans(), st.integers(1, 5), st.integers(0, 8), st.data())
def test_the_c_parser_equals_the_numba_kernel(data, at_eof, dims, max_rows, draw):
    cut = draw.draw(st.integers(0, len(data)))  # a block ends anywhere, mid-number too
    c, numba = (run(kernel, data[:cut], at_eof, dims, max_rows) for kernel in (_text_rows, parse))
    assert c[0] == numba[0], data[:cut]
    for got, expected in zip(c[1:], numba[1:]):
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("text", EDGE_CASES)
def test_every_edge_case_number_reads_as_the_numba_kernel_reads_it(text):
    line = b"w " + text.encode() + b"\n"
    assert run(_text_rows, line, True, 1, 1)[:2] == run(parse, line, True, 1, 1)[:2]


def test_the_error_codes_are_the_numba_kernels():
    for name in ("OK", "EMPTY_WORD", "WRONG_COUNT", "NOT_A_NUMBER", "BLANK_LINE"):
        assert getattr(_text_rows, name) == getattr(parse, name)


def test_the_reader_uses_it_where_it_was_built():
    assert reading.text_row_parser() is _text_rows


@pytest.mark.parametrize("bad", ["float64 dest", "short dest", "short starts", "int32 ends", "read-only dest",
                                 "zero dims", "huge dims"])
def test_arguments_it_cannot_use_are_a_value_error(bad):
    buf = np.frombuffer(b"a 1 2\nb 3 4\n", dtype=np.uint8)
    dims, rows = 2, 2
    dest, starts, ends = np.zeros((rows, dims), np.float32), np.zeros(rows, np.int64), np.zeros(rows, np.int64)
    if bad == "float64 dest":
        dest = np.zeros((rows, dims), np.float64)
    elif bad == "short dest":
        dest = np.zeros((rows - 1, dims), np.float32)
    elif bad == "short starts":
        starts = np.zeros(rows - 1, np.int64)
    elif bad == "int32 ends":
        ends = np.zeros(rows, np.int32)
    elif bad == "read-only dest":
        dest.flags.writeable = False
    elif bad == "zero dims":
        dims = 0
    else:
        dims = 1 << 62
    with pytest.raises(ValueError):
        _text_rows.parse_text_rows(buf, True, dims, rows, dest, starts, ends)
    assert not dest.any() and not starts.any()


def test_a_strided_destination_is_refused():
    dest = np.zeros((2, 4), np.float32)[:, :2]  # not contiguous: rows are 4 floats apart
    with pytest.raises(ValueError):
        _text_rows.parse_text_rows(np.frombuffer(b"a 1 2\n", np.uint8), True, 2, 2, dest,
                                   np.zeros(2, np.int64), np.zeros(2, np.int64))
