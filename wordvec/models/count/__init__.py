"""The count-based models: GloVe (``glove``) and PPMI + SVD (``svd``), their configs and their
files (``io``)."""
