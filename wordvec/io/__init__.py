"""Stage 1: bytes on disk — atomic writes, array checks, file formats, checkpoints, history."""
