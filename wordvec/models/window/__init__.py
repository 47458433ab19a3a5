"""The window classifier: a feed-forward network over a window of word vectors (NER, POS,
sentiment, character LMs)."""
