"""A static model's tokens by kind and its per-token weights, as the report and the
explorer show them.

Kinds, told from the token text and the tokenizer:

    special     the tokenizer's special tokens ([PAD], [UNK], <s> ...) and tokens written
                wholly in brackets as they are ([unused0], <mask>)
    piece       a continuation piece, marked by the tokenizer's continuing-subword prefix
                (WordPiece's "##ing")
    word        a whole token of two or more characters with a letter or digit in it
    character   a whole token of one letter or digit
    symbol      anything else (punctuation, marks)

A model saved by wordvec or Model2Vec keeps its weights in its rows (``embeddings`` =
w_j E_j), so the weight a token has in the mean pooled sentence vector is the norm of its
weighted row: that is what ``effective_weights`` gives, whatever the file stores.
"""

import json

import numpy as np

from wordvec.vectors.unit import unit_rows

KINDS = ("special", "piece", "word", "character", "symbol")


def continuing_prefix(tokenizer):
    """The tokenizer's continuing-subword prefix ("##"), or "" if it has none."""
    return getattr(tokenizer.model, "continuing_subword_prefix", None) or ""


def special_tokens(tokenizer):
    """The contents of the tokenizer's special added tokens."""
    added = json.loads(tokenizer.to_str()).get("added_tokens") or []
    return {token["content"] for token in added if token.get("special")}


def token_kinds(model):
    """One of ``KINDS`` per token of ``model`` (a ``StaticModel``), in row order."""
    prefix = continuing_prefix(model.tokenizer)
    special = special_tokens(model.tokenizer)
    return [_kind(token, prefix, special) for token in model.tokens]


def _kind(token, prefix, special):
    if token in special or _bracketed(token):
        return "special"
    if prefix and token.startswith(prefix) and len(token) > len(prefix):
        return "piece"
    if any(c.isalnum() for c in token):
        return "word" if len(token) > 1 else "character"
    return "symbol"


def _bracketed(token):
    return len(token) > 2 and (token[0], token[-1]) in (("[", "]"), ("<", ">"))


def kind_counts(kinds):
    """{kind: number of tokens} over ``KINDS``, in that order."""
    return {kind: kinds.count(kind) for kind in KINDS}


def map_rows(kinds, n):
    """The rows of the first ``n`` whole-word tokens in vocabulary order (Model2Vec's and
    BERT's vocabularies run from frequent to rare), then other tokens when there are fewer."""
    kinds = np.asarray(kinds)
    words = np.flatnonzero(kinds == "word")
    others = np.flatnonzero(kinds != "word")
    return np.concatenate([words, others])[:n]


def token_rows(model):
    """The unit weighted rows w_j E_j of ``model`` (V x D float32; zero rows stay zero): a
    token's direction in the pooled sentence vector, which cosine queries over tokens use."""
    return unit_rows(model.vectors * model.weights[:, None])


def effective_weights(model):
    """|w_j E_j| per token: its weight in the mean pooled sentence vector (see the module
    docstring)."""
    return np.linalg.norm(model.vectors * model.weights[:, None], axis=1)


def stores_weights(model):
    """Whether the model holds weights apart from its rows (not all 1)."""
    return bool(len(model.weights)) and not np.all(model.weights == 1.0)
