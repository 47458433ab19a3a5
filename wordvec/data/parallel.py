"""Reading a corpus with several threads: a function of each block, the results in order.

Counting and encoding spend their time in compiled kernels that release the GIL
(``wordvec.kernels.tokens``), one block at a time, and a block's tokens do not depend on
the other blocks; so the blocks go to a small pool of threads and their results come back
in the blocks' order, which keeps every result the same as one thread's.
"""

import collections
import os
from concurrent.futures import ThreadPoolExecutor


def available_cores():
    """The cores this process may run on (its CPU affinity; all CPUs where that is unknown)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def library_threads():
    """The library's threads when none are asked for: at most 2 (code that embeds a model in
    a larger program should not take every core unasked; ``wordvec.models.base.config``)."""
    return min(2, available_cores())


def reading_threads(threads=None):
    """The threads that read a corpus: ``threads`` (a model's workers), or the library's."""
    return max(1, int(threads)) if threads is not None else library_threads()


def in_order(function, items, threads):
    """``function(item)`` for each of ``items``, computed by ``threads`` threads and yielded
    in the items' order; at most ``2 * threads`` items are read ahead of the one yielded,
    so memory stays bounded however long ``items`` is."""
    if threads <= 1:
        yield from map(function, items)
        return
    with ThreadPoolExecutor(max_workers=threads) as pool:
        pending = collections.deque()
        for item in items:
            pending.append(pool.submit(function, item))
            if len(pending) >= 2 * threads:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
