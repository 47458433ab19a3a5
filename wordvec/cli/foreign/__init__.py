"""Other tools' command lines: the word2vec C tool's (``word2vec_c``) and fastText's
(``fasttext``)."""
