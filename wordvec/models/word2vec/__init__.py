"""word2vec and its subword variant: the ``Word2Vec`` model (``model``), its config, the epoch
runner (``epochs``), the deterministic path (``sync``), gensim's training API (``training``),
its files (``io``) and gensim's ``FastText`` (``fasttext``)."""
