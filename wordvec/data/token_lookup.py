"""fastText's ``readWord`` and its dictionary lookup over a whole block of text at once, in
NumPy: no ``bytes`` object and no dict lookup per token (that was a predict process's
largest cost on long documents: ~100 ns a token, about fastText's whole C++ pass).

* :func:`scan`: the tokens of a block as byte ranges. fastText's ``readWord`` splits on
  ASCII whitespace (space, ``\\t \\n \\v \\f \\r``) and NUL; a newline is a token of its own
  (EOS, ``</s>``). So a token is a maximal run of other bytes, or a newline.
* :class:`TokenIndex`: token bytes -> code (an int), exactly. A token of at most 16 bytes
  is identified by its bytes read as two little-endian uint64, zero-padded (``w0``, ``w1``:
  tokens hold no NUL, so the padding cannot be confused with content), looked up in an
  open-addressing hash table with linear probing held in three arrays; a longer token (rare)
  in a dict. Either way the stored key is the whole token: a hit is an equal token, never
  a hash collision.
"""

from dataclasses import dataclass

import numpy as np

SPACE, NEWLINE, WORD = 0, 1, 2
BYTE_CLASS = np.full(256, WORD, dtype=np.uint8)
BYTE_CLASS[[ord(" "), ord("\t"), ord("\v"), ord("\f"), ord("\r"), 0]] = SPACE
BYTE_CLASS[ord("\n")] = NEWLINE
KEY_BYTES = 16  # tokens up to this long are keyed by their bytes as two uint64
EIGHT_BYTES = np.dtype((np.void, 8))
LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)  # mask of the low n bytes
MIX0, MIX1 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F)  # odd multipliers (splitmix64's)


@dataclass(frozen=True)
class Tokens:
    """A block's tokens in text order: bytes [starts[i], ends[i]) of the block; a newline
    token is its newline byte (``newline[i]``)."""
    starts: np.ndarray  # int64
    ends: np.ndarray    # int64
    newline: np.ndarray  # bool

    def __len__(self):
        return len(self.starts)

    def bytes_of(self, block, which):
        """The tokens ``which`` (indices) as bytes; a newline as fastText's ``</s>``."""
        return [b"</s>" if block[s] == 10 else block[s:e]
                for s, e in zip(self.starts[which].tolist(), self.ends[which].tolist())]


def scan(block):
    """fastText's ``readWord`` over the bytes ``block``: its :class:`Tokens`."""
    b = np.frombuffer(block, dtype=np.uint8)
    word = np.zeros(len(b) + 2, dtype=bool)  # False before and after the block
    inside = word[1:-1]
    np.less_equal(b - np.uint8(9), 4, out=inside)  # \t \n \v \f \r (uint8: below 9 wraps round)
    inside |= b == 32
    inside |= b == 0
    np.logical_not(inside, out=inside)  # BYTE_CLASS[b] == WORD, by comparisons: ~4x faster than the lookup
    newline = b == 10
    starts = np.flatnonzero((inside & ~word[:-2]) | newline)  # a run of word bytes begins, or a newline
    ends = np.flatnonzero((inside & ~word[2:]) | newline) + 1
    return Tokens(starts, ends, newline[starts])


def token_keys(block, starts, ends):
    """(w0, w1): the first 16 bytes of each token as two little-endian uint64, bytes past
    its end zero; tokens longer than 16 bytes get garbage (the caller looks them up
    elsewhere)."""
    padded = block + bytes(KEY_BYTES)
    # the 8 bytes from every offset of the block, as opaque 8-byte items (strides of one
    # byte): indexing copies each; a uint64 view would copy the whole block, unaligned, first
    windows = np.ndarray(shape=(len(padded) - 7,), dtype=EIGHT_BYTES, buffer=padded, strides=(1,))
    lengths = ends - starts
    w0 = windows[starts].view("<u8")
    w0 &= LOW_BYTES.take(np.minimum(lengths, 8))
    w1 = np.zeros(len(starts), dtype=np.uint64)
    longer = np.flatnonzero(lengths > 8)  # a minority of tokens
    w1[longer] = windows[starts[longer] + 8].view("<u8") & LOW_BYTES.take(np.minimum(lengths[longer] - 8, 8))
    return w0, w1


class TokenIndex:
    """Exact token -> code lookup for many tokens at once (codes >= 0; -1: not there)."""

    def __init__(self, data, starts, ends, codes):
        """Token i is ``data[starts[i]:ends[i]]`` (bytes), its code ``codes[i]`` (>= 0). A token
        listed twice keeps the code of its last listing; one that ``readWord`` could never
        produce (empty, or holding whitespace or NUL) is left out: no text looks it up."""
        starts, ends = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64)
        codes, lengths = np.asarray(codes, dtype=np.int64), ends - starts
        bad_before = np.zeros(len(data) + 1, dtype=np.int32)  # bad bytes before each offset
        np.cumsum(BYTE_CLASS.take(np.frombuffer(data, dtype=np.uint8)) != WORD, out=bad_before[1:])
        possible = (lengths > 0) & (bad_before[starts] == bad_before[ends])  # no bad byte inside
        short = np.flatnonzero(possible & (lengths <= KEY_BYTES))
        self.long = {}
        for i in np.flatnonzero(possible & (lengths > KEY_BYTES)).tolist():
            self.long[data[starts[i]:ends[i]]] = int(codes[i])
        w0, w1 = token_keys(data, starts[short], ends[short])
        bits = max(4, int(2 * max(1, len(w0)) - 1).bit_length())  # at most half full
        self.shift, self.mask = np.uint64(64 - bits), (1 << bits) - 1
        self.key0 = np.zeros(1 << bits, dtype=np.uint64)  # 0: an empty slot (a token's first byte is not 0)
        self.key1 = np.zeros(1 << bits, dtype=np.uint64)
        self.code = np.full(1 << bits, -1, dtype=np.int64)
        slot = self._insert(w0, w1)
        if np.count_nonzero(self.key0) == len(short):  # every key in a slot of its own: no token listed twice
            self.code[slot] = codes[short]
            return
        last = np.full(len(self.code), -1, dtype=np.int64)  # per slot: the last listing of its key
        np.maximum.at(last, slot, np.arange(len(short)))
        filled = last >= 0
        self.code[filled] = codes[short[last[filled]]]

    @classmethod
    def of(cls, tokens, codes):
        """The index of a list of tokens (bytes) and their codes."""
        lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
        ends = np.cumsum(lengths)
        return cls(b"".join(tokens), ends - lengths, ends, codes)

    def _slots(self, w0, w1):
        """Each key's home slot: the top bits of a multiplicative hash of its two words."""
        mixed = w1 * MIX1
        mixed ^= w0
        mixed *= MIX0
        mixed >>= self.shift
        return mixed.view(np.int64)

    def _insert(self, w0, w1):
        """Place every key in the first free slot from its own on (all at once, a probe
        step per round); equal keys end in one slot. Returns each key's slot."""
        slot = self._slots(w0, w1)
        owner = np.zeros(len(self.key0), dtype=np.int64)
        # of several claimants of a free slot one wins (NumPy writes the last one last): the
        # first tokens (a model's most frequent) go last, so that they sit in their own slots
        waiting = np.arange(len(w0))[::-1]
        while len(waiting):
            s = slot[waiting]
            free = s[self.key0[s] == 0]
            owner[free] = waiting[self.key0[s] == 0]
            self.key0[free], self.key1[free] = w0[owner[free]], w1[owner[free]]
            same = (self.key0[s] == w0[waiting]) & (self.key1[s] == w1[waiting])
            waiting = waiting[~same]
            slot[waiting] = (slot[waiting] + 1) & self.mask
        return slot

    def _find(self, w0, w1):
        """The slot of each key: the one holding it, or the empty one that ends its probe."""
        slot = self._slots(w0, w1)
        k0 = self.key0.take(slot)
        done = k0 == w0
        done &= self.key1.take(slot) == w1
        done |= k0 == 0
        waiting = np.flatnonzero(~done)  # few: the table is at most half full
        while len(waiting):
            slot[waiting] = (slot[waiting] + 1) & self.mask
            s = slot[waiting]
            k0 = self.key0[s]
            done = (k0 == 0) | ((k0 == w0[waiting]) & (self.key1[s] == w1[waiting]))
            waiting = waiting[~done]
        return slot

    def lookup(self, block, starts, ends):
        """int64 code of each token (byte ranges of ``block``), -1 for one not in the table."""
        w0, w1 = token_keys(block, starts, ends)
        codes = self.code[self._find(w0, w1)]
        long = np.flatnonzero(ends - starts > KEY_BYTES)
        if len(long):
            codes[long] = [self.long.get(block[s:e], -1) for s, e in zip(starts[long].tolist(), ends[long].tolist())]
        return codes
