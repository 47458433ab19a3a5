/* wordvec.io._text_rows: word2vec/GloVe text rows parsed in C, for loading without Numba.
 *
 * The same kernel as wordvec/kernels/parse.py's parse_text_rows, statement for statement
 * (scan_float, _scale, _special, all_blank): the same rows, the same floats to the bit, the
 * same error codes at the same byte.  tests/test_text_rows_c.py holds the two to each other on
 * random and damaged blocks.  Why a C twin at all: importing Numba and loading its kernels
 * leaves ~50 MB in the process, which is 9% of a 500k x 300 matrix -- more than the loader's
 * whole budget over the matrix (wordvec/vectors/reading.py).  The binary format needs no
 * twin: NumPy alone reads it (wordvec/vectors/binary_records.py); text needs a float parser.
 *
 * Floats: [+-]digits[.digits][(e|E)[+-]digits], or nan / inf / infinity in any case, read as an
 * integer mantissa m of up to 18 significant digits and a power of ten e, value = m * 10**e by
 * one IEEE multiplication or division (Clinger's fast path: correctly rounded when m < 2**53
 * and |e| <= 22, which every %.9g number takes).  No fused multiply-add may change that: the
 * build passes -ffp-contract=off (setup.py).
 *
 * The kernel never raises on the file's bytes: it stops at the first row it cannot read and
 * returns an error code and the row's offset; the Python side writes the sentence.  Arguments
 * it cannot use safely (wrong types, buffers too small) raise ValueError before any byte is read.
 * The GIL is released while it parses (the matrix's pages are populated by another thread).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { OK = 0, EMPTY_WORD = 1, WRONG_COUNT = 2, NOT_A_NUMBER = 3, BLANK_LINE = 4 };
enum { SPACE = 32, NEWLINE = 10, CR = 13, TAB = 9 };
#define MAX_POWER 308
#define MAX_SIGNIFICANT 18 /* digits that surely fit an int64 mantissa (10**18 < 2**63) */

static double powers[MAX_POWER + 1]; /* 1e0 .. 1e308, correctly rounded (strtod) */

static int is_blank(unsigned char byte) {
    return byte == SPACE || byte == TAB || byte == CR || byte == 11 || byte == 12;
}

static int is_digit(unsigned char byte) { return byte >= '0' && byte <= '9'; }

static unsigned char lower(unsigned char byte) { return (byte >= 'A' && byte <= 'Z') ? byte | 32 : byte; }

/* buf[pos:end] is `word` (lower-case ASCII), ignoring case */
static int matches_word(const unsigned char *buf, Py_ssize_t pos, Py_ssize_t end, const char *word) {
    Py_ssize_t length = (Py_ssize_t)strlen(word);
    if (end - pos != length) return 0;
    for (Py_ssize_t k = 0; k < length; k++)
        if (lower(buf[pos + k]) != (unsigned char)word[k]) return 0;
    return 1;
}

/* nan / inf / infinity (any case): 1 and *value, else 0 */
static int special(const unsigned char *buf, Py_ssize_t pos, Py_ssize_t end, double sign, double *value) {
    if (matches_word(buf, pos, end, "nan")) { *value = NAN; return 1; }
    if (matches_word(buf, pos, end, "inf") || matches_word(buf, pos, end, "infinity")) {
        *value = sign * INFINITY;
        return 1;
    }
    *value = 0.0;
    return 0;
}

/* mantissa * 10**exponent: one multiplication or division by a power of ten, two beyond 1e308 */
static double scale(int64_t mantissa, int64_t exponent) {
    double value = (double)mantissa;
    if (exponent == 0 || mantissa == 0) return value;
    if (exponent > 0) return exponent <= MAX_POWER ? value * powers[exponent] : INFINITY;
    exponent = -exponent;
    if (exponent > MAX_POWER) {
        value /= powers[MAX_POWER];
        exponent = exponent - MAX_POWER < MAX_POWER ? exponent - MAX_POWER : MAX_POWER;
    }
    return value / powers[exponent];
}

/* A number from buf[pos:] up to the first byte that cannot continue it (at most end): 1 if it
 * is one, with *value and *stop (where it stopped); the caller checks what follows. */
static int scan_float(const unsigned char *buf, Py_ssize_t pos, Py_ssize_t end, double *value, Py_ssize_t *stop) {
    *value = 0.0;
    *stop = pos;
    if (pos >= end) return 0;
    Py_ssize_t start = pos;
    double sign = 1.0;
    if (buf[pos] == '-' || buf[pos] == '+') {
        sign = buf[pos] == '-' ? -1.0 : 1.0;
        pos++;
    }
    int64_t mantissa = 0, exponent = 0;
    int digits = 0, significant = 0, seen_point = 0;
    Py_ssize_t i = pos;
    for (; i < end; i++) {
        unsigned char byte = buf[i];
        if (is_digit(byte)) {
            digits++;
            if (significant < MAX_SIGNIFICANT) {
                if (mantissa > 0 || byte != '0') significant++;
                mantissa = mantissa * 10 + (byte - '0');
                if (seen_point) exponent--;
            } else if (!seen_point) {
                exponent++; /* digits past the 18th only move the point */
            }
        } else if (byte == '.' && !seen_point) {
            seen_point = 1;
        } else {
            break;
        }
    }
    if (digits == 0) {
        Py_ssize_t token_end = start;
        while (token_end < end && !is_blank(buf[token_end]) && buf[token_end] != NEWLINE) token_end++;
        *stop = token_end;
        return special(buf, pos, token_end, sign, value);
    }
    if (i < end && (buf[i] == 'e' || buf[i] == 'E')) {
        i++;
        int64_t exp_sign = 1, written = 0;
        if (i < end && (buf[i] == '-' || buf[i] == '+')) {
            exp_sign = buf[i] == '-' ? -1 : 1;
            i++;
        }
        if (i >= end || !is_digit(buf[i])) {
            *stop = i;
            return 0;
        }
        for (; i < end && is_digit(buf[i]); i++)
            if (written < 100000) written = written * 10 + (buf[i] - '0'); /* 1e999999 is inf either way */
        exponent += exp_sign * written;
    }
    *value = sign * scale(mantissa, exponent);
    *stop = i;
    return 1;
}

static int all_blank(const unsigned char *buf, Py_ssize_t start, Py_ssize_t stop) {
    for (Py_ssize_t k = start; k < stop; k++)
        if (!is_blank(buf[k])) return 0;
    return 1;
}

typedef struct {
    Py_ssize_t rows, consumed, error, error_offset;
} Outcome;

/* Whole `word x1 ... xD` lines of buf[0:n] into dest (max_rows x dims); see parse.parse_text_rows */
static Outcome parse_rows(const unsigned char *buf, Py_ssize_t n, int at_eof, Py_ssize_t dims, Py_ssize_t max_rows,
                          float *dest, int64_t *word_start, int64_t *word_end) {
    Py_ssize_t pos = 0, rows = 0;
    while (rows < max_rows && pos < n) {
        Py_ssize_t word_stop = pos;
        while (word_stop < n && buf[word_stop] != SPACE && buf[word_stop] != NEWLINE) word_stop++;
        Py_ssize_t i = word_stop, count = 0;
        int error = OK;
        for (;;) { /* numbers until the newline */
            while (i < n && is_blank(buf[i])) i++;
            if (i >= n || buf[i] == NEWLINE) break;
            double value;
            Py_ssize_t stop;
            int ok = scan_float(buf, i, n, &value, &stop);
            if (!ok || (stop < n && !is_blank(buf[stop]) && buf[stop] != NEWLINE)) {
                if (error == OK) error = NOT_A_NUMBER;
                while (stop < n && buf[stop] != NEWLINE) stop++; /* the end of the line all the same */
            } else if (count < dims) {
                dest[rows * dims + count] = (float)value;
            }
            count++;
            i = stop;
        }
        if (i >= n && !at_eof) break; /* the rest of this line is in the next block */
        int blank = word_stop == pos || all_blank(buf, pos, word_stop);
        if (blank && count == 0) return (Outcome){rows, pos, BLANK_LINE, pos};
        if (buf[pos] == SPACE) return (Outcome){rows, pos, EMPTY_WORD, pos};
        if (error != OK) return (Outcome){rows, pos, error, pos};
        if (count != dims) return (Outcome){rows, pos, WRONG_COUNT, pos};
        word_start[rows] = pos;
        word_end[rows] = word_stop;
        rows++;
        pos = i + 1;
    }
    return (Outcome){rows, pos < n ? pos : n, OK, 0};
}

/* A writable C-contiguous buffer of items of `itemsize` bytes whose format is one of `formats`,
 * holding at least `items` of them; else ValueError naming `what`. */
static int get_array(PyObject *object, Py_buffer *view, Py_ssize_t itemsize, const char *formats, Py_ssize_t items,
                     const char *what) {
    if (PyObject_GetBuffer(object, view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    const char *format = view->format ? view->format : "B";
    if (format[0] == '<' || format[0] == '=' || format[0] == '@') format++;
    if (view->itemsize != itemsize || strlen(format) != 1 || !strchr(formats, format[0]) ||
        view->len < items * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: expected a writable contiguous array of %zd items of %zd bytes", what,
                     items, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *parse_text_rows(PyObject *self, PyObject *args) {
    Py_buffer buf, dest, starts, ends;
    PyObject *dest_object, *starts_object, *ends_object;
    int at_eof;
    Py_ssize_t dims, max_rows;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*pnnOOO:parse_text_rows", &buf, &at_eof, &dims, &max_rows, &dest_object,
                          &starts_object, &ends_object))
        return NULL;
    if (dims < 1 || max_rows < 0 || (max_rows > 0 && dims > PY_SSIZE_T_MAX / 4 / max_rows)) {
        PyBuffer_Release(&buf);
        return PyErr_Format(PyExc_ValueError, "parse_text_rows: dims %zd, max_rows %zd", dims, max_rows);
    }
    if (get_array(dest_object, &dest, 4, "f", max_rows * dims, "dest") < 0) {
        PyBuffer_Release(&buf);
        return NULL;
    }
    if (get_array(starts_object, &starts, 8, "lq", max_rows, "word_start") < 0) {
        PyBuffer_Release(&buf);
        PyBuffer_Release(&dest);
        return NULL;
    }
    if (get_array(ends_object, &ends, 8, "lq", max_rows, "word_end") < 0) {
        PyBuffer_Release(&buf);
        PyBuffer_Release(&dest);
        PyBuffer_Release(&starts);
        return NULL;
    }
    Outcome outcome;
    Py_BEGIN_ALLOW_THREADS
    outcome = parse_rows((const unsigned char *)buf.buf, buf.len, at_eof, dims, max_rows, (float *)dest.buf,
                         (int64_t *)starts.buf, (int64_t *)ends.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    PyBuffer_Release(&dest);
    PyBuffer_Release(&starts);
    PyBuffer_Release(&ends);
    return Py_BuildValue("nnnn", outcome.rows, outcome.consumed, outcome.error, outcome.error_offset);
}

static PyMethodDef methods[] = {
    {"parse_text_rows", parse_text_rows, METH_VARARGS,
     "parse_text_rows(buf, at_eof, dims, max_rows, dest, word_start, word_end) -> "
     "(rows, consumed, error, error_offset): wordvec.kernels.parse.parse_text_rows in C."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_text_rows",
    "word2vec/GloVe text rows parsed in C (the twin of wordvec.kernels.parse.parse_text_rows).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__text_rows(void) {
    char text[8];
    for (int k = 0; k <= MAX_POWER; k++) {
        snprintf(text, sizeof text, "1e%d", k);
        powers[k] = strtod(text, NULL);
    }
    PyObject *created = PyModule_Create(&module);
    if (created == NULL) return NULL;
    /* the error codes, named as in wordvec.kernels.parse: the readers use either module alike */
    if (PyModule_AddIntConstant(created, "OK", OK) < 0 || PyModule_AddIntConstant(created, "EMPTY_WORD", EMPTY_WORD) < 0 ||
        PyModule_AddIntConstant(created, "WRONG_COUNT", WRONG_COUNT) < 0 ||
        PyModule_AddIntConstant(created, "NOT_A_NUMBER", NOT_A_NUMBER) < 0 ||
        PyModule_AddIntConstant(created, "BLANK_LINE", BLANK_LINE) < 0) {
        Py_DECREF(created);
        return NULL;
    }
    return created;
}
