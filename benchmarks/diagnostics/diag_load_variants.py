"""Diagnostic for the 500k-row `.bin` load: how the matrix's pages are got, A/B.

    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/diagnostics/diag_load_variants.py \
        [--words 3000000] [--limit 500000] [--rounds 3] [--record load-variants-20261127]
    # the whole file (--limit 0), two of the variants:
    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/diagnostics/diag_load_variants.py --limit 0 \
        --variants "as is,from the end" --record load-variants-3m-20261127

wordvec's ``load_vectors(synthetic-WORDS.bin, limit=LIMIT)`` (bench_load.py's file and
child process: wall and CPU from wait4, peak its own VmHWM), four ways, interleaved, each
round's "first" after bench_load.COLD_PAUSE_SECONDS (memory the VM's host took back) and
"again" right after it:

  as is             the pages thread populates the matrix from its start, ahead of the parser
  from the end      the same thread as before 2026-11-27 (the earlier ``PagesAhead``,
                    rebuilt here): from the matrix's end down to the parser, which
                    populates its own blocks on the way
  huge pages        as is, with ``madvise(MADV_HUGEPAGE)`` on the matrix's map
  one BLAS thread   as is, the child started with OPENBLAS_NUM_THREADS=1 (OpenBLAS's
                    second thread spins for ~0.1 s after NumPy's import)
"""

import argparse
import os
import sys
import time
from pathlib import Path
from unittest import mock

HERE = Path(__file__).resolve().parents[1]  # benchmarks/
sys.path.insert(0, str(HERE))

from lib import records  # noqa: E402
from bench_load import COLD_PAUSE_SECONDS, LOAD, OUT, measured, warm  # noqa: E402

HUGE_PAGES = """
import mmap
import numpy as np
from wordvec.vectors import reading
def _mapped_empty(shape, dtype):
    nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
    if nbytes < reading.BLOCK_BYTES:
        return np.empty(shape, dtype=dtype)
    area = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    area.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(area, dtype=dtype).reshape(shape)
reading.mapped_empty = _mapped_empty
"""

FROM_THE_END = """
import mmap, threading
from wordvec.vectors import background, reading
class _FromTheEnd:
    STEP = 32 << 20
    def __init__(self, matrix, written):
        self.base, self.nbytes, self.written = matrix.ctypes.data, matrix.nbytes, written
        self.stopped, self.front, self.madvise, self.thread = False, 0, background._madvise(), None
        if self.madvise is not None and self.base % mmap.PAGESIZE == 0:
            self.thread = threading.Thread(target=self._run, daemon=True)
            self.thread.start()
    def before_writing(self, upto):
        upto = min(upto, self.nbytes)
        if self.thread is None or upto <= self.front:
            return
        start = self.front // mmap.PAGESIZE * mmap.PAGESIZE
        self.madvise(self.base + start, upto - start, background.MADV_POPULATE_WRITE)
        self.front = upto
    def _run(self):
        end = self.nbytes
        while end > 0 and not self.stopped:
            start = (end - 1) // self.STEP * self.STEP
            if start < self.written() + self.STEP:
                return
            if self.madvise(self.base + start, end - start, background.MADV_POPULATE_WRITE) != 0:
                return
            end = start
    def close(self):
        self.stopped = True
        if self.thread is not None:
            self.thread.join()
def _pages_ahead(self):
    row_nbytes = self.matrix.itemsize * self.matrix.shape[1]
    self.pages = _FromTheEnd(self.matrix, lambda: self.rows * row_nbytes)
    return self.pages
reading._BlockSink.pages_ahead = _pages_ahead
"""

VARIANTS = {"as is": ("", {}), "from the end": (FROM_THE_END, {}), "huge pages": (HUGE_PAGES, {}),
            "one BLAS thread": ("", {"OPENBLAS_NUM_THREADS": "1"})}


def run_variant(name, path, limit, run):
    prelude, env = VARIANTS[name]
    with mock.patch.dict(os.environ, env):  # the child's environment; restored after
        speed, load = warm(path), os.getloadavg()[0]
        result = measured(prelude + LOAD["wordvec"], path, limit, "plain")
    return {"system": "wordvec", "config": name, "run": run, "load_before": load, "warm_read_gb_per_s": speed,
            **result}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=3000000)
    parser.add_argument("--limit", type=int, default=500000, help="rows to load (0: the whole file)")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="which of the variants, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--record", default="load-variants-20261127")
    args = parser.parse_args()
    path = OUT / f"synthetic-{args.words}.bin"
    if not path.exists():
        raise SystemExit(f"{path} is missing: run bench_load.py --words {args.words} --stages '' first")
    limit, variants = args.limit or None, args.variants.split(",")
    record = records.Record(args.record, note=f"load_vectors({path.name}, limit={limit}), whole child "
                                              "processes, variants interleaved; see the script's doc")
    for round_number in range(args.rounds):
        for name in variants:
            time.sleep(COLD_PAUSE_SECONDS)
            for run in ("first", "again"):
                row = record.add_run(round=round_number, **run_variant(name, path, limit, run))
                print(f"{name:16} {run:6} wall {row['wall_seconds']:.3f} s  user {row['user_seconds']:.3f}  "
                      f"sys {row['sys_seconds']:.3f}  peak {row['peak_rss_mb']:.1f} MB", flush=True)
    print(record.save())


if __name__ == "__main__":
    main()
