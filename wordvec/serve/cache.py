"""A least-recently-used cache bounded by the bytes of what it holds (the server's maps:
a client asking for every ``n`` must not grow the process without end)."""

import sys
import threading
from collections import OrderedDict


def size_of(value):
    """Bytes a JSON-like answer holds: its containers, strings and numbers (shared small
    objects counted each time: an upper bound)."""
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(size_of(k) + size_of(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return sys.getsizeof(value) + sum(size_of(v) for v in value)
    return sys.getsizeof(value)


class BytesLRU:
    """key -> value, at most ``max_bytes`` of values (``size_of``); the least recently
    used go first. ``get_or_make(key, make)`` computes a missing value once however many
    threads ask for it at the same time."""

    def __init__(self, max_bytes):
        self.max_bytes, self.bytes = max_bytes, 0
        self._entries = OrderedDict()  # key -> (value, size)
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._entries)

    def get_or_make(self, key, make):
        with self._lock:  # one computation per key at a time (a map is a PCA)
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key][0]
            value = make()
            size = size_of(value)
            if size <= self.max_bytes:
                self._entries[key] = (value, size)
                self.bytes += size
                while self.bytes > self.max_bytes:
                    _, (_, dropped) = self._entries.popitem(last=False)
                    self.bytes -= dropped
            return value
