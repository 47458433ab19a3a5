"""Huffman coding of the vocabulary for hierarchical softmax (seed 002, "Hierarchical Softmax").

Each word is a leaf of a binary tree built from word counts; the V-1 inner nodes carry
the output vectors.  A word's path from the root is ``points`` (inner-node ids) and its
``codes`` (0 or 1: the branch taken at each of those nodes), so that
p(w | h) = prod_l sigma((1 - 2 code_l) * v'_{point_l} . h)  — word2vec's convention,
where code 1 means "the sigmoid says no".

Built in O(V) after the sort by count (the two-queue method: leaves in ascending count
order, and inner nodes, which are created in non-decreasing weight order), with the C
tool's tie-breaking, so it is the same tree word2vec.c builds: leaves are taken from the
end of the (descending) vocabulary, and when a leaf and an inner node weigh the same the
inner node is taken first.  Every tie-breaking gives an optimal code, but not the same
tree (preferring leaves gives the minimum-variance code; word2vec's spreads the path
lengths more); building the C tool's exact tree makes runs comparable node for node
(on wordbench-10m the two gave the same sg-hs quality within seed noise).  Inner node
ids: ``0 .. V-2`` in creation order, so the root is ``V-2``.
"""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class HuffmanTree:
    codes: np.ndarray  # uint8[V, L_max]; codes[w, :lengths[w]] is w's code, root first
    points: np.ndarray  # int32[V, L_max]; inner-node ids on w's path, root first
    lengths: np.ndarray  # int32[V]

    @property
    def max_length(self):
        return self.codes.shape[1]

    def code(self, word):
        """The bit string of word id ``word`` (root first), e.g. '0110'."""
        return "".join(map(str, self.codes[word, :self.lengths[word]]))


def build_huffman(counts):
    """Build the Huffman tree for ``counts`` (any order; ties broken like word2vec)."""
    counts = np.asarray(counts, dtype=np.int64)
    n = counts.size
    if n < 2:  # a single word needs no decision: empty code
        return HuffmanTree(np.zeros((n, 0), np.uint8), np.zeros((n, 0), np.int32), np.zeros(n, np.int32))
    order = np.argsort(-counts, kind="stable")[::-1]  # ascending; equal counts: last word first
    weight = np.concatenate([counts[order], np.zeros(n - 1, dtype=np.int64)]).tolist()
    parent = [0] * (2 * n - 1)  # nodes 0..n-1 leaves (ascending), n.. inner nodes
    branch = [0] * (2 * n - 1)
    leaf, inner = 0, n  # fronts of the two queues
    for new in range(n, 2 * n - 1):
        picked = []
        for _ in range(2):
            if leaf < n and (inner >= new or weight[leaf] < weight[inner]):  # ties: inner node
                picked.append(leaf)
                leaf += 1
            else:
                picked.append(inner)
                inner += 1
        weight[new] = weight[picked[0]] + weight[picked[1]]
        parent[picked[0]] = parent[picked[1]] = new
        branch[picked[1]] = 1  # the heavier child gets code 1, as in word2vec
    depth = [0] * (2 * n - 1)
    for node in range(2 * n - 3, -1, -1):  # parents come after children: walk down from the root
        depth[node] = depth[parent[node]] + 1
    max_length = max(depth[:n])
    codes = np.zeros((n, max_length), dtype=np.uint8)
    points = np.zeros((n, max_length), dtype=np.int32)
    lengths = np.zeros(n, dtype=np.int32)
    for position in range(n):
        word = order[position]
        length = depth[position]
        lengths[word] = length
        node, level = position, length - 1
        while level >= 0:
            codes[word, level] = branch[node]
            node = parent[node]
            points[word, level] = node - n  # inner-node id
            level -= 1
    return HuffmanTree(codes, points, lengths)
