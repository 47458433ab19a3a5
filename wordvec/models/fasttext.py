"""FastText under gensim's name: ``Word2Vec(subwords=True)`` with gensim 4.4's constructor.

    from wordvec.models.fasttext import FastText      # was: from gensim.models import FastText
    model = FastText(sentences, vector_size=100, window=5, min_count=1, epochs=10)
    model.wv["unseenword"]                             # from its character n-grams
    "unseenword" in model.wv                           # True, as in gensim

Every argument keeps gensim's name, default and meaning and is handed to ``Word2Vec``'s
public constructor (``subwords=True, min_n, max_n, bucket``), whose class docstring
describes the model (Bojanowski et al. 2017: a word's input vector is the mean of its
own row and its hashed character n-gram rows).  Intentional differences (each one
sentence, also in docs/migrating.md):

* ``workers=None`` means wordvec's default (at most 2 threads), gensim's is 3;
* ``hashfxn``, ``batch_words`` and ``null_word`` have no effect: wordvec hashes n-grams
  with fastText's own FNV-1a and batches by documents, and ``null_word`` padding is a
  gensim internal;
* ``trim_rule``, ``max_final_vocab``, ``sorted_vocab=0``, ``shrink_windows=False`` and
  ``word_ngrams > 1`` are refused with one sentence rather than ignored;
* ``word_ngrams=0`` trains a plain ``Word2Vec`` (no n-grams), as gensim does.

Other ``Word2Vec`` keywords (``loss``, ``shuffle``, ``shared_negatives`` ...) pass through.
"""

from wordvec.errors import WordvecError
from wordvec.models.word2vec import Word2Vec

_NO_EFFECT = ("hashfxn", "batch_words", "null_word")


def _refuse_unsupported(trim_rule, max_final_vocab, sorted_vocab, shrink_windows, word_ngrams):
    refusals = [
        (trim_rule is not None, "trim_rule is not supported yet; filter the corpus or raise min_count instead"),
        (max_final_vocab is not None, "max_final_vocab is not supported yet; use max_vocab_size or min_count"),
        (not sorted_vocab, "sorted_vocab=0 is not supported: wordvec always sorts the vocabulary by frequency"),
        (not shrink_windows, "shrink_windows=False is not supported: wordvec samples each window's "
                             "size as word2vec does"),
        (word_ngrams not in (0, 1), f"word_ngrams={word_ngrams}: gensim's FastText takes 0 or 1 "
                                    "(word n-grams are fastText's classifier option)"),
    ]
    for refused, sentence in refusals:
        if refused:
            raise WordvecError(sentence)


class FastText(Word2Vec):
    """gensim 4.4's ``FastText`` signature over wordvec's subword ``Word2Vec``."""

    def __init__(self, sentences=None, corpus_file=None, sg=0, hs=0, vector_size=100, alpha=0.025,
                 window=5, min_count=5, max_vocab_size=None, word_ngrams=1, sample=1e-3, seed=1,
                 workers=None, min_alpha=0.0001, negative=5, ns_exponent=0.75, cbow_mean=1, hashfxn=hash,
                 epochs=5, null_word=0, min_n=3, max_n=6, sorted_vocab=1, bucket=2000000, trim_rule=None,
                 batch_words=10000, callbacks=(), max_final_vocab=None, shrink_windows=True, **wordvec_options):
        _refuse_unsupported(trim_rule, max_final_vocab, sorted_vocab, shrink_windows, word_ngrams)
        subwords = wordvec_options.pop("subwords", bool(word_ngrams))  # a saved model names it
        self.word_ngrams = 1 if subwords else 0
        super().__init__(sentences=sentences, corpus_file=corpus_file, sg=sg, hs=hs, vector_size=vector_size,
                         alpha=alpha, window=window, min_count=min_count, max_vocab_size=max_vocab_size,
                         sample=sample, seed=seed, workers=workers, min_alpha=min_alpha, negative=negative,
                         ns_exponent=ns_exponent, cbow_mean=cbow_mean, epochs=epochs, callbacks=callbacks,
                         subwords=subwords, min_n=min_n, max_n=max_n, bucket=bucket, **wordvec_options)
