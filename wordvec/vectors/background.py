"""The readers' second thread: fault in the matrix's pages, decompress the file ahead.

Loading a big vector file is three kinds of work: the kernel handing the process fresh
pages for the matrix (zeroing them; on a virtual machine whose host takes freed memory
back, also the host's faults: measured 2-2.5 s per GB there against ~0.3 s/GB for pages
the guest had just freed), decompressing the file (``.gz``: zlib, ~150-250 MB/s), and
parsing it (the compiled kernels, which do not hold the GIL).  Done one after the other
they add up; the second core can do the first two while the parser does the third:

- ``PagesAhead`` populates the matrix from its start in 4 MB steps
  (``madvise(MADV_POPULATE_WRITE)`` through ctypes, which releases the GIL), ahead of the
  parser, which writes into pages already there; where the parser catches up (memory the
  host must fault in is slower to populate than the parse), it populates its own block in
  one call and the thread goes on beyond it.  The contents are untouched (fresh zero
  pages).  (Until 2026-11-27 the thread worked from the matrix's end down to the parser,
  which populated its own blocks on the way; a 500k-row ``.bin`` loads in 0.60-0.65 s
  now against 0.67-0.69 s then: ``benchmarks/diagnostics/diag_load_variants.py``.)
- ``PrefetchedReader`` reads (decompresses) ``block_bytes`` chunks of a handle in a
  thread, two chunks ahead of the parser (zlib, bz2 and lzma release the GIL while they
  work); an exception in the thread is raised in the reader's thread at the next read.
  A gzip file is read through ``GzipChunks`` (zlib itself, a megabyte of input a call).

Both threads are joined before the reader returns (``close()``, also on errors), so no
thread outlives a load; where the call is missing (old kernels, other systems) the
parser faults its pages in as usual.
"""

import ctypes
import mmap
import queue
import sys
import threading
import zlib

MADV_POPULATE_WRITE = getattr(mmap, "MADV_POPULATE_WRITE", 23)  # Linux >= 5.14
STEP_BYTES = 4 << 20  # small: the parser, if it catches up, shares at most a step


def _madvise():
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return None
    function.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    function.restype = ctypes.c_int
    return function


class PagesAhead:
    """Populate ``matrix`` (page-aligned, C-contiguous) from its start in a thread, ahead
    of the parser (see the module doc); the parser calls ``before_writing`` before each
    block it writes."""

    def __init__(self, matrix):
        self.base, self.nbytes = matrix.ctypes.data, matrix.nbytes
        self.stopped, self.front, self.done = False, 0, 0  # front: the parser's; done: the thread's
        self.madvise = _madvise()
        self.thread = None
        if self.madvise is not None and self.base % mmap.PAGESIZE == 0:
            self.thread = threading.Thread(target=self._run, name="wordvec-pages", daemon=True)
            self.thread.start()

    def before_writing(self, upto):
        """The pages up to byte ``upto`` that the thread has not reached, in one call
        (cheaper than a fault per page); the thread then skips them."""
        upto = min(upto, self.nbytes)
        start = max(self.front, self.done)
        if self.thread is None or upto <= start:
            return
        start = start // mmap.PAGESIZE * mmap.PAGESIZE
        self.madvise(self.base + start, upto - start, MADV_POPULATE_WRITE)
        self.front = upto

    def _run(self):
        at = 0
        while not self.stopped:
            at = max(at, -(-self.front // mmap.PAGESIZE) * mmap.PAGESIZE)  # past the parser's pages
            end = min(self.nbytes, at + STEP_BYTES)  # page-aligned: STEP_BYTES is
            if end <= at:
                return
            if self.madvise(self.base + at, end - at, MADV_POPULATE_WRITE) != 0:
                return  # EINVAL on old kernels: the parser faults its pages itself
            self.done = at = end

    def close(self):
        self.stopped = True
        if self.thread is not None:
            self.thread.join()


class PrefetchedReader:
    """``read()`` gives the chunks of ``handle.read(block_bytes)``, read in a thread two
    chunks ahead (see the module doc); ``tell()`` is where the parser's reading stands."""

    def __init__(self, handle, block_bytes):
        self.handle, self.block_bytes = handle, block_bytes
        self.position = handle.tell()
        self.chunks = queue.Queue(maxsize=2)
        self.stopped, self.finished = False, False
        self.thread = threading.Thread(target=self._run, name="wordvec-read", daemon=True)
        self.thread.start()

    def _run(self):
        try:
            while not self.stopped:
                chunk = self.handle.read(self.block_bytes)
                self._put(chunk)
                if not chunk:
                    return
        except BaseException as error:  # handed to the parser's thread, raised there
            self._put(error)

    def _put(self, item):
        while not self.stopped:
            try:
                self.chunks.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def read(self, size=-1):
        """The next chunk (``size`` is ignored: chunks are ``block_bytes``); b"" at the end."""
        if self.finished:
            return b""
        item = self.chunks.get()
        if isinstance(item, BaseException):
            self.finished = True
            raise item
        self.finished = not item
        self.position += len(item)
        return item

    def tell(self):
        return self.position

    def close(self):
        self.stopped = True
        while self.thread.is_alive():
            try:
                self.chunks.get(timeout=0.1)
            except queue.Empty:
                pass
        self.thread.join()


class GzipChunks:
    """``read()`` gives the decompressed bytes of a gzip file from uncompressed offset
    ``start`` on, about ``block_bytes`` at a time, from zlib directly: one call per
    megabyte of input instead of ``gzip.GzipFile``'s Python loop per 128 KB and separate
    CRC pass (measured: 200 against 140 MB/s).  Members follow one another; zero bytes
    after a member are skipped, as ``gzip`` skips them; zlib checks each member's CRC."""

    INPUT_BYTES = 1 << 20

    def __init__(self, raw, block_bytes, start=0):
        self.raw, self.block_bytes, self.start, self.skip = raw, block_bytes, start, start
        self.inflate, self.done = zlib.decompressobj(31), False

    def tell(self):
        return self.start

    def _input(self):
        """The next compressed bytes for ``self.inflate`` (a new member's, after the end of
        one), or b"" with ``done`` set at the end of the file."""
        if self.inflate.eof:
            rest = self.inflate.unused_data.lstrip(b"\x00")
            while not rest:
                more = self.raw.read(self.INPUT_BYTES)
                if not more:
                    self.done = True
                    return b""
                rest = more.lstrip(b"\x00")
            self.inflate = zlib.decompressobj(31)
            return rest
        if self.inflate.unconsumed_tail:
            return self.inflate.unconsumed_tail
        data = self.raw.read(self.INPUT_BYTES)
        if not data:
            raise EOFError("Compressed file ended before the end-of-stream marker was reached")
        return data

    def read(self, size=-1):
        """The next chunk (``size`` is ignored); b"" at the end."""
        pieces, total = [], 0
        while total < self.block_bytes and not self.done:
            data = self._input()
            if data:
                piece = self.inflate.decompress(data, self.block_bytes - total + self.skip)
                if self.skip:
                    dropped = min(self.skip, len(piece))
                    piece, self.skip = piece[dropped:], self.skip - dropped
                pieces.append(piece)
                total += len(piece)
        return b"".join(pieces)
