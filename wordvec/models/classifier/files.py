"""A classifier's files: fastText's ``.bin``/``.ftz`` and wordvec's native directory.

    path.bin / path.ftz / any other file   fastText's format (``wordvec.io.fasttext_bin``)
    directory, or a name ending in .wv     native: ``classifier.json`` (settings, dictionary,
                                           history) + ``input.npy``, ``output.npy`` (or the
                                           quantized input's ``q_*.npy``), never pickled

Both directions go through :class:`ClassifierParts`, the fields a ``Classifier`` is made
of, so this module does not depend on the class (which imports it).
"""

from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from wordvec.data.label_dictionary import LabelDictionary
from wordvec.errors import FormatError, WordvecError
from wordvec.io.arrays import INTEGER, read_array
from wordvec.io.atomic import atomic_directory, save_json, save_npy
from wordvec.io.fasttext_bin import (MAGIC, MAX_PRUNED_BUCKET, FastTextModel, GatheredRows, ProductQuantizer,
                                     QuantizedMatrix, pruned_index_problem, read_fasttext, write_fasttext)

NATIVE_MARKER = "classifier.json"
NATIVE_FORMAT = "wordvec-classifier"
LOSS_IDS = {"hs": 1, "ns": 2, "softmax": 3, "ova": 4}
MODEL_IDS = {"cbow": 1, "skipgram": 2, "supervised": 3}


@dataclass
class ClassifierParts:
    dictionary: LabelDictionary
    W_in: np.ndarray
    W_out: np.ndarray
    config: dict
    history: list = field(default_factory=list)
    quantized: QuantizedMatrix = None
    model: str = "supervised"


def is_native(path):
    path = Path(path)
    return path.is_dir() or path.suffix.lower() == ".wv"


def save_parts(parts, path):
    path = Path(path)
    if is_native(path):
        save_native(parts, path)
        return
    if path.suffix.lower() == ".ftz" and parts.quantized is None:
        raise WordvecError(f"{path}: a .ftz file holds a quantized model; run `wordvec classify quantize` "
                           "(or model.quantize()) first, or save as .bin")
    write_fasttext(path, to_fasttext(parts))


def load_parts(path, mmap=False):
    path = Path(path)
    if is_native(path):
        return load_native(path, mmap=mmap)
    if not path.exists():
        raise WordvecError(f"cannot access {path}: no such file or directory")
    with open(path, "rb") as handle:
        head = handle.read(4)
    if len(head) < 4 or int.from_bytes(head, "little", signed=True) != MAGIC:
        raise FormatError(path, None, "not a fastText model (.bin/.ftz) nor a wordvec classifier directory")
    return from_fasttext(read_fasttext(path, mmap=mmap))


# ----------------------------------------------------------------------- fastText's files

def to_fasttext(parts):
    d, config = parts.dictionary, parts.config
    args = {"dim": parts.W_out.shape[1], "ws": 5, "epoch": config.get("epoch", 5),
            "min_count": config.get("min_count", 1), "neg": 5, "word_ngrams": d.word_ngrams,
            "loss": LOSS_IDS[config.get("loss", "softmax")], "model": MODEL_IDS[parts.model], "bucket": d.bucket,
            "minn": d.minn, "maxn": d.maxn, "lr_update_rate": config.get("lr_update_rate", 100),
            "t": config.get("t", 1e-4)}
    words = list(d.words) + list(d.labels)
    counts = np.concatenate([d.word_counts, d.label_counts]).astype(np.int64)
    types = np.concatenate([np.zeros(d.nwords, np.uint8), np.ones(len(d.labels), np.uint8)])
    matrix = parts.quantized if parts.quantized is not None else parts.W_in
    if d.row_of_bucket is not None and parts.quantized is None:  # every bucket's row, as fastText reads them
        matrix = GatheredRows(parts.W_in, np.concatenate([np.arange(d.nwords, dtype=np.int32), d.row_of_bucket]))
    return FastTextModel(args, words, counts, types, d.ntokens, d.prune_index, matrix, parts.W_out)


def from_fasttext(ft):
    nwords = ft.nwords
    if np.any(ft.types[:nwords] != 0):
        raise WordvecError("the fastText dictionary lists a label before a word, which fastText never writes")
    args = ft.args
    dictionary = LabelDictionary(ft.words[:nwords], ft.counts[:nwords], ft.words[nwords:], ft.counts[nwords:],
                                 ft.ntokens, "__label__", max(1, args["word_ngrams"]) if args["model"] == 3 else 1,
                                 args["bucket"], args["minn"], args["maxn"], ft.prune_index)
    if ft.raw_words is not None:  # the tokens' bytes from the file (no re-encoding of 150k words)
        dictionary.__dict__["token_bytes"] = ft.raw_words
    if ft.joined_words is not None:  # joined as the reader joined them to decode (~7 ms of a genre predict)
        dictionary.__dict__["joined_tokens"] = ft.joined_words
    quantized = ft.input if isinstance(ft.input, QuantizedMatrix) else None
    W_in = quantized.dense() if quantized is not None else ft.input
    W_out = ft.output.dense() if isinstance(ft.output, QuantizedMatrix) else ft.output
    loss = ft.loss_name if ft.loss_name != "ns" else "softmax"
    config = {"dim": args["dim"], "epoch": args["epoch"], "min_count": args["min_count"], "loss": loss,
              "word_ngrams": args["word_ngrams"], "minn": args["minn"], "maxn": args["maxn"],
              "bucket": args["bucket"], "lr_update_rate": args["lr_update_rate"]}
    return ClassifierParts(dictionary, np.ascontiguousarray(W_in), np.ascontiguousarray(W_out), config, [],
                           quantized, ft.model_name)


# ----------------------------------------------------------------------- native directory

def save_native(parts, path):
    d = parts.dictionary
    meta = {"format": NATIVE_FORMAT, "version": 1, "model": parts.model, "config": parts.config,
            "history": parts.history,
            "dictionary": {"words": list(d.words), "word_counts": d.word_counts.tolist(), "labels": list(d.labels),
                           "label_counts": d.label_counts.tolist(), "ntokens": int(d.ntokens),
                           "label_prefix": d.label_prefix, "word_ngrams": d.word_ngrams, "bucket": d.bucket,
                           "minn": d.minn, "maxn": d.maxn,
                           "prune_index": None if d.prune_index is None else sorted(d.prune_index.items()),
                           "row_of_bucket": d.row_of_bucket is not None}}
    q = parts.quantized
    if q is not None:
        meta["quantized"] = {"rows": q.rows, "cols": q.cols, "dsub": q.pq.dsub, "qnorm": q.qnorm}
    with atomic_directory(path, check_replaceable) as tmp:
        if q is None:
            save_npy(tmp / "input.npy", parts.W_in)
        else:
            save_npy(tmp / "q_codes.npy", q.codes)
            save_npy(tmp / "q_centroids.npy", q.pq.centroids)
            if q.qnorm:
                save_npy(tmp / "q_norm_codes.npy", q.norm_codes)
                save_npy(tmp / "q_norm_centroids.npy", q.norm_pq.centroids)
        if d.row_of_bucket is not None:
            save_npy(tmp / "row_of_bucket.npy", d.row_of_bucket)
        save_npy(tmp / "output.npy", parts.W_out)
        save_json(tmp / NATIVE_MARKER, meta)


def check_replaceable(path):
    if not (Path(path) / NATIVE_MARKER).is_file():
        raise WordvecError(f"{path} exists and is not a wordvec classifier; not replacing it")


def load_native(path, mmap=False):
    marker = Path(path) / NATIVE_MARKER
    if not marker.is_file():
        raise WordvecError(f"{path} is not a wordvec classifier directory (no {NATIVE_MARKER})")
    try:
        import json  # only here: a .bin's readers (predict: ~1 ms of its process) never need it
        meta = json.loads(marker.read_text(encoding="utf-8"))
        if meta.get("format") != NATIVE_FORMAT:
            raise ValueError("not a classifier")
        dictionary = _native_dictionary(meta["dictionary"], Path(path))
        config, history, model = dict(meta["config"]), list(meta.get("history", [])), str(meta["model"])
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError) as error:
        raise FormatError(marker, None, f"not a valid classifier description ({error})") from None
    dim = int(config.get("dim", 0))
    quantized = None
    if "quantized" in meta:
        quantized = _native_quantized(Path(path), meta["quantized"], dictionary.n_rows, dim)
        W_in = quantized.dense()
    else:
        W_in = read_array(Path(path) / "input.npy", shape=(dictionary.n_rows, dim),
                          mmap_mode="r" if mmap else None).astype(np.float32, copy=False)
    n_out = len(dictionary.labels) if model == "supervised" else dictionary.nwords
    W_out = read_array(Path(path) / "output.npy", shape=(n_out, dim)).astype(np.float32, copy=False)
    return ClassifierParts(dictionary, W_in, W_out, config, history, quantized, model)


def _native_dictionary(d, path):
    prune = d.get("prune_index")
    row_of_bucket = None
    if d.get("row_of_bucket"):
        row_of_bucket = read_array(path / "row_of_bucket.npy", shape=(int(d["bucket"]),), kinds=INTEGER)
        if row_of_bucket.size and not len(d["words"]) <= row_of_bucket.min() <= row_of_bucket.max() < 2 ** 31:
            raise ValueError("row_of_bucket.npy names rows outside the n-gram rows")
        row_of_bucket = row_of_bucket.astype(np.int32)
    dictionary = LabelDictionary([str(w) for w in d["words"]], np.array(d["word_counts"], dtype=np.int64),
                                 [str(w) for w in d["labels"]], np.array(d["label_counts"], dtype=np.int64),
                                 int(d["ntokens"]), str(d["label_prefix"]), int(d["word_ngrams"]), int(d["bucket"]),
                                 int(d["minn"]), int(d["maxn"]),
                                 None if prune is None else {int(b): int(r) for b, r in prune}, row_of_bucket)
    if len(dictionary.word_counts) != dictionary.nwords or len(dictionary.label_counts) != len(dictionary.labels):
        raise ValueError("counts and words differ in length")
    if dictionary.bucket < 0 or dictionary.word_ngrams < 1 or dictionary.minn < 0 or dictionary.maxn < 0:
        raise ValueError("negative n-gram settings")
    if prune is not None:
        pairs = np.array(prune, dtype=np.int64).reshape(-1, 2)
        problem = pruned_index_problem(pairs[:, 0], pairs[:, 1], dictionary.bucket)
        if problem or dictionary.bucket > MAX_PRUNED_BUCKET:
            raise ValueError(f"prune_index {problem or 'does not fit its buckets'}")
    return dictionary


def _native_quantized(path, q, rows, dim):
    dsub = int(q["dsub"])
    if int(q["rows"]) != rows or int(q["cols"]) != dim or not 1 <= dsub <= max(dim, 1):
        raise FormatError(path / NATIVE_MARKER, None, "the quantized input's shape does not match the dictionary")
    pq = ProductQuantizer(dim, dsub, read_array(path / "q_centroids.npy", shape=(dim * 256,)).astype(np.float32))
    codes = read_array(path / "q_codes.npy", shape=(rows * pq.nsubq,), kinds="u").astype(np.uint8)
    norm_codes = norm_pq = None
    if q.get("qnorm"):
        norm_codes = read_array(path / "q_norm_codes.npy", shape=(rows,), kinds="u").astype(np.uint8)
        norm_pq = ProductQuantizer(1, 1, read_array(path / "q_norm_centroids.npy", shape=(256,)).astype(np.float32))
    return QuantizedMatrix(rows, dim, codes, pq, norm_codes, norm_pq)


def config_dict(config):
    """A ClassifierConfig as the JSON-able dict the files keep."""
    return asdict(config)
