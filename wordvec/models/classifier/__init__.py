"""fastText's supervised text classifier: the model (``model``), its config, training,
quantization, fastText's files and the NumPy-only prediction (``predict``)."""
