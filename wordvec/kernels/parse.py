"""Compiled parsing of word vector files: decimal floats, word2vec text rows, binary records.

The readers in ``wordvec.io.formats`` hand these kernels one block of the file at a time
(bytes as a uint8 array) and a destination block of the final matrix, so a 3M x 300
file is parsed without a Python loop per word or per number and without holding the
whole file next to the matrix.  The kernels never raise: they stop at the first row
they cannot read and return an error code with the row's byte offset, and the Python
side turns that into one sentence naming the file and the line.

Floats (``parse_float``)
------------------------
A decimal ``[+-]digits[.digits][(e|E)[+-]digits]`` (or nan / inf / infinity, any case,
so that such rows are reported as NaN/infinite rather than as "not a number") is read as
an integer mantissa ``m`` of up to 18 significant digits and a power of ten ``e``:

    value = m * 10**e

When ``m < 2**53`` and ``|e| <= 22`` both ``m`` and ``10**|e|`` are exact doubles, so one
IEEE multiplication or division gives the correctly rounded double (Clinger's fast
path; every ``%.9g`` number word2vec/gensim/fastText write takes it), identical to
Python's ``float()``.  Otherwise the value is within a few units in the last place of a
double, far below a float32 step: after rounding to float32 it is ``float32(float(s))``
or a neighbour at most one float32 ulp away (tests/vectors/test_loading.py checks both claims
against Python on random and edge-case strings).
"""

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from wordvec.io.text import MAX_WORD_BYTES  # noqa: F401 (the one definition; readers quote it)

# Error codes returned by the row kernels (0 = fine).
OK, EMPTY_WORD, WRONG_COUNT, NOT_A_NUMBER, BLANK_LINE, WORD_TOO_LONG = 0, 1, 2, 3, 4, 5

SPACE, NEWLINE, CR, TAB = 32, 10, 13, 9
MAX_POWER = 308
POWERS = np.array([float(f"1e{k}") for k in range(MAX_POWER + 1)])  # correctly rounded; exact up to 1e22
MAX_SIGNIFICANT = 18  # digits that surely fit an int64 mantissa (10**18 < 2**63)


@numba.njit(inline="always", cache=True)
def is_blank(byte):
    return byte == SPACE or byte == TAB or byte == CR or byte == 11 or byte == 12


@numba.njit(inline="always", cache=True)
def _lower(byte):
    return byte | 32 if 65 <= byte <= 90 else byte


@numba.njit(inline="always", cache=True)
def _matches_word(buf, pos, end, word):
    """True if ``buf[pos:end]`` is ``word`` (lower-case ASCII bytes), ignoring case."""
    if end - pos != len(word):
        return False
    for k in range(len(word)):
        if _lower(buf[pos + k]) != word[k]:
            return False
    return True


@numba.njit(cache=True)
def _special(buf, pos, end, sign):
    """nan / inf / infinity (any case) -> (value, ok)."""
    if _matches_word(buf, pos, end, b"nan"):
        return np.nan, True
    if _matches_word(buf, pos, end, b"inf") or _matches_word(buf, pos, end, b"infinity"):
        return sign * np.inf, True
    return 0.0, False


@numba.njit(cache=True)
def _scale(mantissa, exponent):
    """``mantissa * 10**exponent`` as a double: one multiplication or division by a power
    of ten (exact for |exponent| <= 22, see the module doc; otherwise the correctly rounded
    double of 10**k), two beyond 10**308 (subnormal results, far below float32 anyway)."""
    value = float(mantissa)
    if exponent == 0 or mantissa == 0:
        return value
    if exponent > 0:
        return value * POWERS[exponent] if exponent <= MAX_POWER else np.inf
    exponent = -exponent
    if exponent > MAX_POWER:
        value /= POWERS[MAX_POWER]
        exponent = min(exponent - MAX_POWER, MAX_POWER)
    return value / POWERS[exponent]


@numba.njit(cache=True)
def parse_float(buf, pos, end):
    """Parse the number ``buf[pos:end]`` (the whole token): returns (value, ok)."""
    value, stop, ok = scan_float(buf, pos, end)
    return value, ok and stop == end


@numba.njit(cache=True)
def scan_float(buf, pos, end):
    """Read a number from ``buf[pos:]`` up to the first byte that cannot continue it (at
    most ``end``): returns (value, where it stopped, ok).  The caller checks that the
    number ends there (a blank, a newline or ``end``), so a token is read in one pass."""
    if pos >= end:
        return 0.0, pos, False
    start = pos
    sign = 1.0
    if buf[pos] == 45 or buf[pos] == 43:  # '-' '+'
        sign = -1.0 if buf[pos] == 45 else 1.0
        pos += 1
    mantissa, exponent, digits, significant = np.int64(0), 0, 0, 0
    seen_point = False
    i = pos
    while i < end:
        byte = buf[i]
        if 48 <= byte <= 57:
            digits += 1
            if significant < MAX_SIGNIFICANT:
                if mantissa > 0 or byte != 48:
                    significant += 1
                mantissa = mantissa * 10 + (byte - 48)
                if seen_point:
                    exponent -= 1
            elif not seen_point:
                exponent += 1  # digits past the 18th only move the point
        elif byte == 46 and not seen_point:  # '.'
            seen_point = True
        else:
            break
        i += 1
    if digits == 0:
        stop = start
        while stop < end and not is_blank(buf[stop]) and buf[stop] != NEWLINE:
            stop += 1
        value, ok = _special(buf, pos, stop, sign)
        return value, stop, ok
    if i < end and (buf[i] == 101 or buf[i] == 69):  # 'e' 'E'
        i += 1
        exp_sign = 1
        if i < end and (buf[i] == 45 or buf[i] == 43):
            exp_sign = -1 if buf[i] == 45 else 1
            i += 1
        if i >= end or not (48 <= buf[i] <= 57):
            return 0.0, i, False
        written = 0
        while i < end and 48 <= buf[i] <= 57:
            if written < 100000:  # 1e999999 is inf either way; don't overflow the int
                written = written * 10 + (buf[i] - 48)
            i += 1
        exponent += exp_sign * written
    return sign * _scale(mantissa, exponent), i, True


@numba.njit(cache=True, nogil=True)
def parse_text_rows(buf, at_eof, dims, max_rows, dest, word_start, word_end):
    """Parse whole ``word x1 ... xD`` lines from ``buf`` into ``dest[0:rows]``.

    A line is complete when its newline is in ``buf`` (or, at the end of the file, when
    ``buf`` ends); a line cut by the end of ``buf`` is left for the next block.  Returns
    ``(rows, consumed, error, error_offset)``: ``consumed`` is the offset just past the
    last parsed line; on an error the line starting at ``error_offset`` is the bad one
    (BLANK_LINE: a blank line, fine only at the end of the file).  Each byte is read once.
    """
    n = buf.shape[0]
    pos, rows = 0, 0
    while rows < max_rows and pos < n:
        word_stop = pos
        while word_stop < n and buf[word_stop] != SPACE and buf[word_stop] != NEWLINE:
            word_stop += 1
        i, count, error = word_stop, 0, OK
        while True:  # numbers until the newline
            while i < n and is_blank(buf[i]):
                i += 1
            if i >= n or buf[i] == NEWLINE:
                break
            value, stop, ok = scan_float(buf, i, n)
            if not ok or (stop < n and not is_blank(buf[stop]) and buf[stop] != NEWLINE):
                if error == OK:
                    error = NOT_A_NUMBER
                while stop < n and buf[stop] != NEWLINE:  # find the end of the line all the same
                    stop += 1
            elif count < dims:
                dest[rows, count] = value
            count += 1
            i = stop
        if i >= n and not at_eof:
            break  # the rest of this line is in the next block
        blank = word_stop == pos or all_blank(buf, pos, word_stop)
        if blank and count == 0:
            return rows, pos, BLANK_LINE, pos
        if buf[pos] == SPACE:
            return rows, pos, EMPTY_WORD, pos
        if error != OK:
            return rows, pos, error, pos
        if count != dims:
            return rows, pos, WRONG_COUNT, pos
        word_start[rows], word_end[rows] = pos, word_stop
        rows += 1
        pos = i + 1
    return rows, min(pos, n), OK, 0


@numba.njit(cache=True)
def all_blank(buf, start, stop):
    for k in range(start, stop):
        if not is_blank(buf[k]):
            return False
    return True


@numba.njit(cache=True, nogil=True)
def scan_binary_records(buf, at_eof, row_bytes, max_rows, word_start, word_end, vector_start):
    """Find whole ``word " " float32[D]`` records (each optionally after newlines) in ``buf``.

    Returns ``(rows, consumed, error, error_offset)``; stops before a record that is not
    wholly in ``buf`` (the caller reads more, or reports truncation at the end of file).
    """
    n = buf.shape[0]
    pos, rows = 0, 0
    while rows < max_rows:
        while pos < n and buf[pos] == NEWLINE:  # the "\n" ending the previous record
            pos += 1
        space = pos
        while space < n and buf[space] != SPACE and space - pos <= MAX_WORD_BYTES:
            space += 1
        if space - pos > MAX_WORD_BYTES:
            return rows, pos, WORD_TOO_LONG, pos
        if space >= n or space + 1 + row_bytes > n:
            break
        if space == pos:
            return rows, pos, EMPTY_WORD, pos
        word_start[rows], word_end[rows], vector_start[rows] = pos, space, space + 1
        rows += 1
        pos = space + 1 + row_bytes
    return rows, pos, OK, 0


@intrinsic
def _copy_bytes(typingctx, dest, dest_start, src, src_start, count):
    """``dest[dest_start:dest_start + count] = src[src_start:src_start + count]`` for C-contiguous
    uint8 arrays, as one call of the C library's memcpy (Numba's slice copy runs at ~2-3 GB/s
    on 1,200-byte rows, memcpy at the memory's speed).  No bounds check: the caller's job."""
    if not all(isinstance(a, types.Array) and a.dtype == types.uint8 and a.layout == "C" for a in (dest, src)):
        return None
    sig = types.void(dest, types.int64, src, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        to = context.make_array(signature.args[0])(context, builder, args[0])
        source = context.make_array(signature.args[2])(context, builder, args[2])
        cgutils.raw_memcpy(builder, builder.gep(to.data, [args[1]]), builder.gep(source.data, [args[3]]), args[4], 1)
        return context.get_dummy_value()

    return sig, codegen


@numba.njit(cache=True, nogil=True)
def gather_bytes(buf, starts, row_bytes, rows, dest):
    """Copy ``buf[starts[r]:starts[r] + row_bytes]`` into ``dest[r]`` for r < rows (dest: uint8,
    rows x row_bytes, C-contiguous); returns the rows copied (fewer only if a start is out of
    ``buf``, which the scan never gives: the check keeps the copy inside both arrays)."""
    flat = dest.reshape(dest.size)
    for r in range(min(rows, dest.shape[0])):
        s = starts[r]
        if s < 0 or s + row_bytes > buf.shape[0] or row_bytes != dest.shape[1]:
            return r
        _copy_bytes(flat, np.int64(r * row_bytes), buf, np.int64(s), np.int64(row_bytes))
    return min(rows, dest.shape[0])


@numba.njit(cache=True, nogil=True)
def gather_words(buf, word_start, word_end, rows, out):
    """Copy the ``rows`` words into ``out``, each followed by one space; returns bytes used."""
    used = 0
    for r in range(rows):
        for k in range(word_start[r], word_end[r]):
            out[used] = buf[k]
            used += 1
        out[used] = SPACE
        used += 1
    return used


@numba.njit(inline="always", cache=True)
def _continues(buf, at, stop, low, high):
    """True if ``buf[at]`` exists (before ``stop``) and lies in [low, high]."""
    return at < stop and low <= buf[at] <= high


@numba.njit(cache=True)
def is_utf8(buf, start, stop):
    """True if ``buf[start:stop]`` is valid UTF-8 as Python's strict decoder has it (no
    overlong forms, no surrogates, nothing beyond U+10FFFF)."""
    k = start
    while k < stop:
        lead = buf[k]
        if lead < 0x80:
            k += 1
            continue
        if 0xC2 <= lead <= 0xDF:
            need, low, high = 1, 0x80, 0xBF
        elif lead == 0xE0:
            need, low, high = 2, 0xA0, 0xBF
        elif lead == 0xED:
            need, low, high = 2, 0x80, 0x9F
        elif 0xE1 <= lead <= 0xEF:
            need, low, high = 2, 0x80, 0xBF
        elif lead == 0xF0:
            need, low, high = 3, 0x90, 0xBF
        elif 0xF1 <= lead <= 0xF3:
            need, low, high = 3, 0x80, 0xBF
        elif lead == 0xF4:
            need, low, high = 3, 0x80, 0x8F
        else:
            return False
        if not _continues(buf, k + 1, stop, low, high):
            return False
        for j in range(k + 2, k + 1 + need):
            if not _continues(buf, j, stop, 0x80, 0xBF):
                return False
        k += 1 + need
    return True


@numba.njit(cache=True, nogil=True)
def gather_word_parts(buf, word_start, word_end, rows, blob, lengths):
    """Copy the ``rows`` words one after the other into ``blob`` and their byte lengths into
    ``lengths``; returns (bytes used, True if every word is valid UTF-8)."""
    used, valid = 0, True
    for r in range(rows):
        start, stop = word_start[r], word_end[r]
        lengths[r] = stop - start
        blob[used:used + stop - start] = buf[start:stop]
        used += stop - start
        if valid:
            valid = is_utf8(buf, start, stop)
    return used, valid


FLOAT32_EXPONENT = 0x7F800000  # all exponent bits set: infinity or NaN


@numba.njit(cache=True, nogil=True)
def first_nonfinite_row(bits):
    """First row of a float32 block (viewed as uint32, rows x D) holding NaN or infinity,
    or -1: an integer test of the exponent bits, which the compiler vectorises (a float
    sum would need float64 to be safe from overflow, and a second pass)."""
    for r in range(bits.shape[0]):
        bad = False
        for j in range(bits.shape[1]):
            bad |= (bits[r, j] & FLOAT32_EXPONENT) == FLOAT32_EXPONENT
        if bad:
            return r
    return -1
