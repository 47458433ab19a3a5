"""gensim's per-key attributes (``KeyedVectors.expandos``): one array per attribute name,
one value per key.

gensim keeps a word's corpus count as the attribute ``"count"``; wordvec keeps it as
``KeyedVectors.counts``, so this mapping answers ``"count"`` with that array (reading it,
writing it in place, or assigning a new one) and holds every other attribute itself.
An attribute may also be *derived*: a function that computes its array the first time
it is read (hierarchical softmax's ``"code"`` and ``"point"`` of a trained model, which
a model of millions of words should not build unless someone asks).
"""

from collections.abc import MutableMapping

import numpy as np

COUNT = "count"


class VecAttrs(MutableMapping):
    """{attribute name: array with one value per key} of one ``KeyedVectors``."""

    def __init__(self, keyed, values=None):
        self._keyed = keyed
        self._stored, self._derived = {}, {}
        self.update(values or {})

    def derive(self, name, compute):
        """``name`` is ``compute()``, called once, when first read (unless set before)."""
        self._stored.pop(name, None)
        self._derived[name] = compute

    def __getitem__(self, name):
        if name == COUNT and self._keyed.counts is not None:
            return self._keyed.counts
        if name not in self._stored and name in self._derived:
            self._stored[name] = self._derived.pop(name)()
        return self._stored[name]

    def __setitem__(self, name, values):
        self._derived.pop(name, None)
        if name == COUNT:
            self._keyed.counts = np.asarray(values, dtype=np.int64)
        else:
            self._stored[name] = values

    def __delitem__(self, name):
        if name == COUNT and self._keyed.counts is not None:
            self._keyed.counts = None
            return
        if name in self._derived:
            del self._derived[name]
            return
        del self._stored[name]

    def __contains__(self, name):  # without computing a derived attribute
        return (name == COUNT and self._keyed.counts is not None) or name in self._stored or name in self._derived

    def __iter__(self):
        if self._keyed.counts is not None:
            yield COUNT
        yield from list(self._stored)
        yield from [name for name in self._derived if name not in self._stored]

    def __len__(self):
        return sum(1 for _ in self)

    def __repr__(self):
        return f"VecAttrs({sorted(self)})"

    def extra(self):
        """The attributes other than ``"count"``, computing derived ones: {name: array}."""
        return {name: self[name] for name in list(self) if name != COUNT}
