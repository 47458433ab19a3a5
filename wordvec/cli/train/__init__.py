"""``wordvec train``: the command (``command``), its flags (``options``), memory plan
(``estimate``), checkpoints, counting and output."""
