"""Small labelled files in fastText's format for classifier tests."""


def write_labelled(path, lines, rng, labels, span, vocabulary):
    """``lines`` lines of 8 words: label k draws its words from ``span`` words starting at
    word 300 k (modulo ``vocabulary``), so neighbouring labels overlap a little."""
    with open(path, "w", encoding="utf-8") as out:
        for _ in range(lines):
            label = rng.integers(labels)
            words = [f"w{(label * 300 + rng.integers(span)) % vocabulary}" for _ in range(8)]
            out.write(f"__label__{label} " + " ".join(words) + "\n")
