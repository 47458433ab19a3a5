"""The explorer's API over a static sentence model (``wordvec static``): every word-vector
endpoint answers over the model's tokens (cosine of their unit weighted rows, as
``wordvec similar`` ranks them), the map shows whole-word tokens first, and one more
endpoint ranks sentences:

    GET /api/sentence?text=T&topn=10    the lines of the --sentences file nearest to the
                                        sentence T (cosine of the model's sentence vectors),
                                        or without a file the tokens nearest to it; with the
                                        tokens T was cut into
"""

import threading

import numpy as np

from wordvec.models.static.query import SentenceIndex, ranked
from wordvec.models.static.vocabulary import kind_counts, map_rows, token_kinds, token_rows
from wordvec.serve.api import MAX_TOPN, BadRequest, ExplorerAPI
from wordvec.vectors.keyed import KeyedVectors


class StaticExplorerAPI(ExplorerAPI):
    """``ExplorerAPI`` over a ``StaticModel``'s tokens, with ``/api/sentence``; ``sentences``
    is a text file whose lines are encoded once, here."""

    def __init__(self, model, source="", sentences=None):
        self.model = model
        self.kinds = token_kinds(model)
        self.rows = token_rows(model)
        self._encoding = threading.Lock()  # one tokenizer, shared by the request threads
        self.index = SentenceIndex(model, sentences) if sentences else None
        self.sentence_source = str(sentences or "")
        super().__init__(KeyedVectors(model.tokens, self.rows), source)
        self._map_order = map_rows(self.kinds, len(model))
        self.routes["sentence"] = self.sentence

    def info(self, params):
        answer = super().info(params)
        counts = kind_counts(self.kinds)
        answer.update({"kind": "static", "normalize": self.model.normalize, "whole_words": counts["word"],
                       "pieces": counts["piece"], "sentences": len(self.index) if self.index else 0,
                       "sentence_file": self.sentence_source})
        return answer

    def sentence(self, params):
        text = params.text("text")
        topn = params.integer("topn", 10, 1, MAX_TOPN)
        params.done()
        if not text.strip():
            raise BadRequest("parameter 'text' is empty: type a sentence")
        with self._encoding:
            batch = self.model.tokenize([text])
            vector = self.model.encode([text], normalize=True)[0]
        tokens = [self.model.tokens[i] for i in batch.ids]
        if not vector.any():
            raise BadRequest("the sentence has no token the model knows", 404, tokens=tokens)
        if self.index is None:
            found = [{"word": token, "score": round(score, 6)}
                     for token, score in ranked(self.model.tokens, self.rows, vector, topn)]
        else:
            found = [{"word": line, "line": number, "score": round(score, 6)}
                     for number, line, score in self.index.nearest(vector, topn)]
        return {"text": text, "tokens": tokens, "against": "sentences" if self.index else "tokens",
                "neighbours": found}

    def _top_rows(self, n):
        """The map's rows: whole-word tokens first, in vocabulary order (``vocabulary.map_rows``)."""
        return self._map_order[:n]
