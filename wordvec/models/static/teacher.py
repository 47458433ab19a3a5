"""A sentence-transformers teacher read from its directory and run by wordvec's NumPy
encoder (``math.static_encoder``): no torch at run time.  BERT-architecture models
(``model_type`` bert: MiniLM, BGE, E5, GTE, ...) with mean or CLS pooling and an optional
Normalize module, weights in ``model.safetensors``."""

import json
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError, WordvecError
from wordvec.math.static_encoder import encoder, mean_pool
from wordvec.models.static.files import read_tensors, read_text
from wordvec.models.static.tokens import read_tokenizer

REQUIRED = ("num_attention_heads", "num_hidden_layers", "hidden_size")


class Teacher:
    """The teacher's tokenizer, weights and sentence pipeline."""

    def __init__(self, path):
        directory = Path(path)
        if not directory.is_dir():
            raise WordvecError(f"cannot read the teacher {directory}: not a directory")
        for name in ("config.json", "model.safetensors", "tokenizer.json"):
            if not (directory / name).is_file():
                raise WordvecError(f"cannot read the teacher {directory}: it has no {name} "
                                   "(a sentence-transformers model directory is needed)")
        self.directory = directory
        self.config = _json(directory / "config.json", {})
        if self.config.get("model_type") != "bert" or not all(isinstance(self.config.get(k), int) for k in REQUIRED):
            raise WordvecError(f"cannot run the teacher {directory}: wordvec runs BERT encoders "
                               f"(model_type 'bert'), not {self.config.get('model_type')!r}")
        self.tokenizer_text = read_text(directory / "tokenizer.json")
        self.tokenizer = read_tokenizer(self.tokenizer_text, directory / "tokenizer.json")
        self.weights = self._weights(directory / "model.safetensors")
        self.max_seq_length = _json(directory / "sentence_bert_config.json", {}).get(
            "max_seq_length", self.config.get("max_position_embeddings", 512))
        self.max_seq_length = min(int(self.max_seq_length), self.config.get("max_position_embeddings", 512))
        modules = _json(directory / "modules.json", [])
        self.normalize = any(m.get("type", "").endswith("Normalize") for m in modules if isinstance(m, dict))
        pooling = _json(directory / "1_Pooling" / "config.json", {})
        self.cls_pooling = bool(pooling.get("pooling_mode_cls_token")) and not pooling.get("pooling_mode_mean_tokens")
        self.bos, self.eos = special_ids(json.loads(self.tokenizer_text))
        self.pad_id = int(self.config.get("pad_token_id") or 0)

    @property
    def dims(self):
        return self.config["hidden_size"]

    def _weights(self, path):
        tensors = read_tensors(path)  # a file may prefix the names with "bert."
        weights = {name[5:] if name.startswith("bert.") else name: np.asarray(value, dtype=np.float32)
                   for name, value in tensors.items()}
        if "embeddings.word_embeddings.weight" not in weights:
            raise FormatError(path, None, "it holds no BERT weights (embeddings.word_embeddings.weight)")
        return weights

    def hidden(self, id_lists, batch_size=64, cls=False):
        """The last hidden states' pooled vectors of the token-id lists (each already with its
        special tokens), longest-first batches padded to their longest: (n x D float32) masked
        means over all positions, unnormalised, or the first position if ``cls``."""
        lengths = np.array([len(ids) for ids in id_lists], dtype=np.int64)
        order = np.argsort(-lengths, kind="stable")
        out = np.zeros((len(id_lists), self.dims), dtype=np.float32)
        for first in range(0, len(order), batch_size):
            chosen = order[first:first + batch_size]
            width = int(lengths[chosen].max()) if len(chosen) else 0
            ids = np.full((len(chosen), max(width, 1)), self.pad_id, dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, index in enumerate(chosen):
                ids[row, :lengths[index]] = id_lists[index]
                mask[row, :lengths[index]] = 1
            states = encoder(ids, mask, self.weights, self.config)
            out[chosen] = states[:, 0] if cls else mean_pool(states, mask, False)
        return np.nan_to_num(out)

    def embed(self, sentences, batch_size=64, normalize=None):
        """The teacher's sentence vectors (sentence-transformers' ``encode``), n x D float32;
        ``normalize=False`` leaves out the Normalize module (default: as the teacher says)."""
        tokenizer = self.tokenizer
        tokenizer.no_padding()
        tokenizer.enable_truncation(self.max_seq_length)
        id_lists = [encoding.ids for encoding in tokenizer.encode_batch(list(sentences))]
        vectors = self.hidden(id_lists, batch_size, cls=self.cls_pooling)
        if self.normalize if normalize is None else normalize:
            vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        return vectors


def special_ids(tokenizer_json):
    """The ids the tokenizer's post-processor puts before and after a single sequence."""
    processor = tokenizer_json.get("post_processor") or {}
    kind = processor.get("type")
    if kind == "TemplateProcessing":
        before, after, seen = [], [], False
        for piece in processor.get("single", []):
            if "Sequence" in piece:
                seen = True
            elif "SpecialToken" in piece:
                ids = processor["special_tokens"][piece["SpecialToken"]["id"]]["ids"]
                (after if seen else before).extend(ids)
        return before, after
    if kind in ("BertProcessing", "RobertaProcessing"):
        return [processor["cls"][1]], [processor["sep"][1]]
    return [], []


def _json(path, default):
    """The JSON in ``path`` (of the type of ``default``), or ``default`` if there is none."""
    if not path.is_file():
        return default
    try:
        value = json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise FormatError(path, None, f"not valid JSON ({error.msg})") from None
    if not isinstance(value, type(default)):
        raise FormatError(path, None, f"not a JSON {'object' if isinstance(default, dict) else 'list'}")
    return value
