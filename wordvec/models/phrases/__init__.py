"""gensim's ``Phrases``: word pairs that belong together, found by their counts."""
