"""Training toward the teacher (Tokenlearn's objective, on unlabelled text): the teacher
embeds the corpus once (kept in a cache directory, chunk by chunk, so an interrupted run
resumes), its mean-pooled vectors before any Normalize module (the token vectors of the
distillation are such means too, so both sides share the centring) are projected as the
token vectors were (the distillation's PCA, or
one fitted on them when the model has none), and the token rows (and weights) learn by
Hogwild SGD so that each sentence's pooled vector matches its teacher vector
(``math.static`` T1/T2, ``kernels.static.teacher_epoch``)."""

import hashlib
import json
import logging
import time
from pathlib import Path

import numpy as np

from wordvec.errors import FormatError, TrainingError, WordvecError
from wordvec.io.atomic import save_json, save_npy
from wordvec.io.arrays import read_array
from wordvec.kernels.static import Rows, TeacherRun, teacher_epoch
from wordvec.models.static.distill import pca
from wordvec.models.static.teacher import Teacher

log = logging.getLogger(__name__)
CHUNK = 2048


def read_lines(corpus):
    """The non-empty lines of the text file ``corpus`` (or the list of str itself)."""
    if not isinstance(corpus, (str, Path)):
        sentences = [s for s in corpus if isinstance(s, str) and s.strip()]
    else:
        path = Path(corpus)
        if not path.is_file():
            raise WordvecError(f"cannot read {path}: not a file")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise FormatError(path, None, f"not UTF-8 text (byte {error.start})") from None
        sentences = [line.strip() for line in text.splitlines() if line.strip()]
    if not sentences:
        raise WordvecError("the corpus has no sentences")
    return sentences


def teacher_vectors(teacher, sentences, cache=None, chunk=CHUNK):
    """The teacher's vectors of ``sentences`` (n x D float32); with ``cache`` (a directory)
    each chunk of ``chunk`` sentences is saved as it is done and reused by a later call on
    the same teacher and sentences."""
    if cache is None:
        return teacher.embed(sentences, normalize=False)
    cache = Path(cache)
    fingerprint = _fingerprint(teacher, sentences, chunk)
    meta = cache / "teacher.json"
    if meta.is_file():
        try:
            found = json.loads(meta.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise FormatError(meta, None, "not valid JSON") from None
        if not isinstance(found, dict) or found.get("fingerprint") != fingerprint:
            raise WordvecError(f"the cache {cache} holds the teacher vectors of another corpus or teacher "
                               "(give another --cache directory or remove it)")
    else:
        cache.mkdir(parents=True, exist_ok=True)
        save_json(meta, {"fingerprint": fingerprint, "sentences": len(sentences), "chunk": chunk,
                         "dims": teacher.dims})
    parts = []
    started = time.perf_counter()
    for number, first in enumerate(range(0, len(sentences), chunk)):
        part = sentences[first:first + chunk]
        path = cache / f"chunk-{number:06d}.npy"
        if path.is_file():
            parts.append(read_array(path, shape=(len(part), teacher.dims)))
            continue
        vectors = teacher.embed(part, normalize=False).astype(np.float32)
        save_npy(path, vectors)
        parts.append(vectors)
        done = first + len(part)
        log.info("teacher: %d of %d sentences (%.0f sentences/s)", done, len(sentences),
                 len(part) / max(time.perf_counter() - started, 1e-9))
        started = time.perf_counter()
    return np.concatenate(parts).astype(np.float32)


def _fingerprint(teacher, sentences, chunk):
    digest = hashlib.sha256()
    digest.update((teacher.directory / "config.json").read_bytes())
    digest.update(str((teacher.directory / "model.safetensors").stat().st_size).encode())
    digest.update(str(chunk).encode())
    for sentence in sentences:
        digest.update(sentence.encode("utf-8", "surrogatepass") + b"\n")
    return digest.hexdigest()


def projected_targets(model, vectors):
    """The teacher's vectors in the model's coordinates: the distillation's projection, or
    a PCA fitted on them (kept as the model's projection) when the model has none."""
    vectors = np.asarray(vectors, dtype=np.float64)
    if model.projection is not None:
        mean, components = model.projection
        if vectors.shape[1] != len(mean):
            raise WordvecError(f"the teacher's vectors have {vectors.shape[1]} dimensions; "
                               f"the model's projection takes {len(mean)}")
        return np.ascontiguousarray(((vectors - mean) @ components.T), dtype=np.float32)
    if vectors.shape[1] == model.dim:
        return np.ascontiguousarray(vectors, dtype=np.float32)
    if vectors.shape[1] < model.dim:
        raise WordvecError(f"the teacher's {vectors.shape[1]} dimensions cannot be projected to the model's {model.dim}")
    scores, mean, components = pca(vectors, model.dim)
    model.projection = (mean, components)
    return np.ascontiguousarray(scores, dtype=np.float32)


def fit_teacher(model, corpus, teacher, config, targets=None, cache=None):
    """Train ``model`` (in place) toward the teacher on ``corpus`` by ``config``
    (``TeacherTrainConfig``); ``targets`` gives the teacher's vectors instead of ``teacher``."""
    sentences = read_lines(corpus)
    max_length = config.max_length
    if targets is None:
        if teacher is None:
            raise WordvecError("training toward a teacher needs the teacher (a model directory) or its vectors")
        teacher = Teacher(teacher)
        targets = teacher_vectors(teacher, sentences, cache)
        max_length = min(max_length, max(1, teacher.max_seq_length - len(teacher.bos) - len(teacher.eos)))
    targets = np.asarray(targets)
    if targets.ndim != 2 or len(targets) != len(sentences) or not np.isfinite(targets).all():
        raise WordvecError(f"the teacher's vectors must be {len(sentences)} finite rows, one per sentence")
    projected = projected_targets(model, targets)
    batch = model.tokenize(sentences, max_length)
    longest = int(np.diff(batch.offsets).max())
    rng = np.random.default_rng(config.seed)
    rows = Rows(model.vectors, model.weights)
    span = (config.alpha - config.min_alpha) / config.epochs
    for epoch in range(config.epochs):
        started = time.perf_counter()
        run = TeacherRun(projected, rng.permutation(len(sentences)).astype(np.int64),
                         config.alpha - span * epoch, config.alpha - span * (epoch + 1),
                         config.loss == "mse", config.train_weights)
        loss = teacher_epoch(batch, rows, run, config.threads, longest) / len(sentences)
        if not np.isfinite(loss) or not np.isfinite(model.vectors).all():
            raise TrainingError(f"the loss diverged in epoch {epoch + 1} (lower alpha, now {config.alpha})")
        model.history.append({"objective": "teacher", "epoch": epoch + 1, "loss": float(loss),
                              "seconds": time.perf_counter() - started})
        log.info("epoch %d: %s loss %.5f", epoch + 1, config.loss, loss)
    return model
