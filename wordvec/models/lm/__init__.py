"""Language models: the shared base, training loop and checkpoints (``base``, ``training``,
``checkpoint``), the RNN/LSTM (``rnn``) and the attention model (``attention``)."""
