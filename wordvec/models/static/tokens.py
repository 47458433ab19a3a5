"""Text to token ids for a static model: the model's own ``tokenizers`` tokenizer, used as
Model2Vec's ``encode`` uses it (no special tokens, no padding, the unknown token dropped,
at most ``max_length`` tokens after cutting the text at ``max_length`` times the median
token length in characters), giving flat int32 ids and int64 offsets for the kernels."""

import json

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.kernels.static import Sentences


def tokenizer_class():
    """``tokenizers.Tokenizer``, imported on first use: the `static` extra, which the rest of
    wordvec does not need."""
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise WordvecError("static models need the tokenizers package: pip install 'wordvec[static]'") from None
    return Tokenizer


def read_tokenizer(text, path):
    """A ``Tokenizer`` from the text of a tokenizer.json; damage is a ``FormatError``."""
    try:
        tokenizer = tokenizer_class().from_str(text)
    except Exception as error:  # tokenizers raises a bare Exception for every kind of damage
        raise FormatError(path, None, f"not a readable tokenizer.json ({str(error).splitlines()[0][:160]})") from None
    if tokenizer.get_vocab_size() == 0:
        raise FormatError(path, None, "the tokenizer has an empty vocabulary")
    return tokenizer


def unknown_id(tokenizer):
    """The id of the unknown token, or None (Unigram models keep it as ``unk_id``)."""
    model = tokenizer.model
    if hasattr(model, "unk_token"):
        token = model.unk_token
        return None if token is None else tokenizer.token_to_id(token)
    return json.loads(tokenizer.to_str())["model"].get("unk_id")


class TokenEncoder:
    """Sentences to ``Sentences`` (flat ids and offsets) with a model's tokenizer."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer_class().from_str(tokenizer.to_str())
        self.tokenizer.no_padding()
        self.unknown = unknown_id(self.tokenizer)
        vocab = self.tokenizer.get_vocab(with_added_tokens=True)
        self.tokens = [token for token, _ in sorted(vocab.items(), key=lambda item: item[1])]
        self.median_token_length = int(np.median([len(token) for token in self.tokens]))

    def encode(self, sentences, max_length):
        """``Sentences`` of the list ``sentences`` (at most ``max_length`` tokens each; None:
        no limit)."""
        if max_length is None:
            self.tokenizer.no_truncation()
        else:
            self.tokenizer.enable_truncation(max_length)
            cut = max_length * self.median_token_length
            sentences = [sentence[:cut] for sentence in sentences]
        encodings = self.tokenizer.encode_batch_fast(list(sentences), add_special_tokens=False)
        lists = [encoding.ids for encoding in encodings]
        lengths = np.fromiter((len(ids) for ids in lists), dtype=np.int64, count=len(lists))
        ids = np.fromiter((i for ids in lists for i in ids), dtype=np.int32, count=int(lengths.sum()))
        offsets = np.zeros(len(lists) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        if self.unknown is not None and len(ids):
            ids, offsets = _drop(ids, offsets, self.unknown)
        return Sentences(ids, offsets)


def _drop(ids, offsets, token):
    keep = ids != token
    if keep.all():
        return ids, offsets
    kept_before = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(keep, out=kept_before[1:])
    return np.ascontiguousarray(ids[keep]), kept_before[offsets]
