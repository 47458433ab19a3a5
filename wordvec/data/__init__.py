"""Stage 2: text to numbers — corpus streaming, vocabulary, encoding, counting, schedules."""
