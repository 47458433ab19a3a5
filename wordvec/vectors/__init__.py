"""Stage 5: trained vectors as objects — lookup, queries, evaluation, projections, files."""

from wordvec.vectors.files import load_vectors, save_vectors
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.subword import SubwordKeyedVectors

__all__ = ["KeyedVectors", "SubwordKeyedVectors", "load_vectors", "save_vectors"]
