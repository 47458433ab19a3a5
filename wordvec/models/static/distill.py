"""Model2Vec's distillation, without data: the teacher's output for each token of its
vocabulary (the token between the teacher's special tokens, the mean over those positions),
PCA to ``dims``, and weights by Zipf rank.

The vocabulary is the teacher's less the tokens matching ``token_remove_pattern`` (BERT's
``[unused..]``) and the special tokens other than the padding and unknown ones, renumbered
in their order; the model's tokenizer is the teacher's with that vocabulary and no
post-processor (Model2Vec's ``clean_and_create_vocabulary``).  PCA as Model2Vec's: the
eigenvectors of the covariance of the centred token vectors, each component's sign chosen
so that its largest-magnitude score is positive.  The weight of the token of rank r
(0-based, the vocabulary order) is a / (a + p_r) with p_r proportional to 1 / (r + 2).
"""

import json
import logging
import re

import numpy as np

from wordvec.errors import WordvecError
from wordvec.models.static.tokens import read_tokenizer

log = logging.getLogger(__name__)


def distill_vocabulary(tokenizer_json, token_remove_pattern):
    """(the model's tokenizer.json as a dict, the teacher's ids of its tokens in order)."""
    model = tokenizer_json.get("model", {})
    vocab = model.get("vocab")
    if not isinstance(vocab, dict):
        raise WordvecError(f"cannot distill a {model.get('type')!r} tokenizer: wordvec distills tokenizers "
                           "whose vocabulary is a token -> id table (WordPiece, BPE, WordLevel)")
    pattern = re.compile(token_remove_pattern) if token_remove_pattern else None
    pad = (tokenizer_json.get("padding") or {}).get("pad_token", "[PAD]")
    keep_special = {model.get("unk_token"), pad}
    special = {t["content"] for t in tokenizer_json.get("added_tokens", []) if t.get("special")}
    removed = special - keep_special
    kept = [(token, i) for token, i in sorted(vocab.items(), key=lambda item: item[1])
            if token not in removed and not (pattern and pattern.match(token))]
    if not kept:
        raise WordvecError("the vocabulary is empty once the removed tokens are taken out")
    renumbered = {token: n for n, (token, _) in enumerate(kept)}
    result = json.loads(json.dumps(tokenizer_json))
    result["model"]["vocab"] = renumbered
    result["added_tokens"] = [dict(t, id=renumbered[t["content"]]) for t in tokenizer_json.get("added_tokens", [])
                              if t["content"] in renumbered and t["content"] in keep_special]
    result["post_processor"] = None
    result["padding"] = None
    result["truncation"] = None
    return result, [i for _, i in kept]


def pca(X, dims):
    """(scores n x dims, mean, components dims x D) of Model2Vec's PCA of the rows of X."""
    X = np.asarray(X, dtype=np.float64)
    mean = X.mean(axis=0)
    centred = X - mean
    covariance = centred.T @ centred / (len(X) - 1)
    _, vectors = np.linalg.eigh(covariance)
    components = vectors[:, ::-1][:, :dims].T
    scores = centred @ components.T
    largest = np.argmax(np.abs(scores), axis=0)
    signs = np.sign(scores[largest, np.arange(scores.shape[1])])
    signs[signs == 0] = 1.0
    return scores * signs, mean, components * signs[:, None]


def zipf_weights(n, sif_coefficient):
    """a / (a + p_r), p_r = (1 / (r + 2)) / sum_r' (1 / (r' + 2)), r = 0..n-1."""
    inverse_rank = 1.0 / np.arange(2, n + 2)
    probability = inverse_rank / inverse_rank.sum()
    return sif_coefficient / (sif_coefficient + probability)


def distill(teacher, config):
    """(vectors V x dims float32, weights V float32, tokenizer, projection) from ``teacher``
    (a ``Teacher``) by ``config`` (a ``DistillConfig``)."""
    tokenizer_json, teacher_ids = distill_vocabulary(json.loads(teacher.tokenizer_text), config.token_remove_pattern)
    dims = min(config.dims, teacher.dims)
    if dims >= len(teacher_ids):
        raise WordvecError(f"--dims {dims} must be below the {len(teacher_ids)} tokens of the vocabulary")
    id_lists = [teacher.bos + [i] + teacher.eos for i in teacher_ids]
    log.info("passing %d tokens through the teacher", len(id_lists))
    token_vectors = teacher.hidden(id_lists, config.batch_size)
    scores, mean, components = pca(token_vectors, dims)
    weights = zipf_weights(len(teacher_ids), config.sif_coefficient)
    tokenizer = read_tokenizer(json.dumps(tokenizer_json), teacher.directory / "tokenizer.json")
    return (scores.astype(np.float32), weights.astype(np.float32), tokenizer, (mean, components))
