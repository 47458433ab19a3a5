"""The small files the documentation's examples name, written once into a template folder
that each document's run copies.

Inputs a reader is expected to have (a corpus, word vectors, labelled lines) carry the
names the pages use and are small: ``corpus.txt`` is ~40 KB.  ``PLACEHOLDERS`` are small
stand-ins for big downloads and ../shared data; a block that uses one says so with an
``<!-- example: placeholder NAME -->`` comment (``blocks.py``).
"""

import lzma
import random
import shutil
import struct
from pathlib import Path

import numpy as np

# words the examples query, each frequent enough for every --min-count the pages use
TOPICS = {
    "royalty": "king queen man woman prince princess palace crown throne royal".split(),
    "places": "paris france berlin germany london england city capital york new times".split(),
    "food": "breakfast cereal dinner lunch sushi shop japanese restaurant baking dish".split(),
    "news": "obama president speaks greets media press office emergency beacon report".split(),
    "nature": "cat dog trees graph minors colour colourise river water house".split(),
    "reviews": "a good movie film great bad story plot actor music".split(),
    "days": "monday tuesday wednesday thursday friday saturday sunday morning evening night".split(),
    "work": "teacher doctor nurse farmer writer painter singer driver lawyer baker".split(),
    "sport": "football tennis golf cricket rugby hockey match goal team player".split(),
    "weather": "rain snow wind storm cloud sunny cold warm summer winter".split(),
}
# more words, so that the vocabulary is well above the default 100 dimensions (PPMI-SVD needs it)
FILLER = [first + second for first in ("bal", "cor", "dim", "fen", "gol", "hap", "jun", "kel", "lor", "mip",
                                       "nat", "pol", "quin", "rud", "sab", "tor", "vel", "wim", "yar", "zil")
          for second in ("ado", "ek", "ina", "ost", "ula", "ver", "yx", "zen", "ar", "om", "ip", "ut", "el", "on")]
GLUE = "the of to and in is was it that with for on by at from as".split()
PHRASE = ["new", "york", "times"]

# stand-ins for big files (names as the pages write them)
PLACEHOLDERS = {
    "GoogleNews-vectors-negative300.bin": "word2vec binary vectors of the corpus's words, 300 dims",
    "cc.en.300.bin": "an unsupervised fastText .bin trained on the corpus",
    "text8": "the corpus as one line, as text8 is",
    "all-MiniLM-L6-v2/": "a randomly initialised one-layer BERT (hidden size 192) sentence-transformers folder (tests/static/teacher.py)",
    "tasks/conll2003": "stands for ../shared/data/tasks/conll2003: CoNLL-2003 files of a few sentences",
    "tasks/brown": "stands for ../shared/data/tasks/brown: a Brown archive of a few files",
    "tasks/charlm": "stands for ../shared/data/tasks/charlm: a few dozen names",
}


def sentence(rng, topic=None):
    topic = topic or rng.choice(sorted(TOPICS))
    words = [rng.choice(TOPICS[topic] if draw < 0.5 else FILLER if draw < 0.8 else GLUE)
             for draw in (rng.random() for _ in range(rng.randint(6, 12)))]
    if rng.random() < 0.2:
        words[1:1] = PHRASE
    return words


def write_lines(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def write_word2vec_binary(path, words, dims, rng):
    vectors = np.asarray(rng.standard_normal((len(words), dims)), dtype="<f4")
    with open(path, "wb") as handle:
        handle.write(f"{len(words)} {dims}\n".encode())
        for word, row in zip(words, vectors):
            handle.write(word.encode() + b" " + row.tobytes() + b"\n")


def labelled(rng, count):
    """fastText's supervised lines: ``__label__x`` food, ``__label__y`` royalty (with filler words:
    ``fasttext quantize`` needs a vocabulary of 256 words)."""
    return [f"__label__{label} " + " ".join(sentence(rng, topic))
            for label, topic in (rng.choice([("x", "food"), ("y", "royalty")]) for _ in range(count))]


def write_template(folder):
    """Write every input and placeholder into ``folder`` (created)."""
    folder = Path(folder)
    folder.mkdir(parents=True)
    rng = random.Random(7)
    corpus = [" ".join(sentence(rng)) for _ in range(800)]
    write_lines(folder / "corpus.txt", corpus)
    (folder / "corpus.txt.xz").write_bytes(lzma.compress((folder / "corpus.txt").read_bytes()))
    (folder / "corpus").mkdir()
    write_lines(folder / "corpus" / "part-1.txt", corpus[:400])
    write_lines(folder / "corpus" / "part-2.txt", corpus[400:])
    shutil.copy(folder / "corpus.txt", folder / "data.txt")
    (folder / "text8").write_text(" ".join(corpus), encoding="utf-8")
    write_lines(folder / "sentences.txt", [" ".join(sentence(rng)) for _ in range(20)])
    write_lines(folder / "reviews.txt", [" ".join(sentence(rng, "reviews") * 2) for _ in range(60)])
    write_lines(folder / "unseen.txt", [" ".join(sentence(rng, "reviews")) for _ in range(5)])
    write_lines(folder / "pairs.tsv", [" ".join(sentence(rng, t)) + "\t" + " ".join(sentence(rng, t))
                                       for t in sorted(TOPICS) for _ in range(20)])
    for name, count in (("train.txt", 400), ("test.txt", 40), ("valid.txt", 40)):
        write_lines(folder / name, labelled(rng, count))
    names = ["".join(rng.choice("aeioubcdfgklmnprstvz") for _ in range(rng.randint(4, 9))) + "saurus"
             for _ in range(150)]
    write_lines(folder / "names.txt", names[:120])
    write_lines(folder / "valid-names.txt", names[120:])
    write_lines(folder / "words.txt", corpus[:200])
    write_lines(folder / "valid-words.txt", corpus[200:240])
    write_lines(folder / "stdin.txt", ["the king and the queen", "sushi for lunch"])
    write_lines(folder / "wordsim353.tsv", ["king\tqueen\t8.6", "cat\tdog\t7.4", "media\tpress\t7.6",
                                            "lunch\tdinner\t8.0", "river\tpaint\t1.0"])
    write_lines(folder / "questions-words.txt", [": family", "man woman king queen", "prince princess man woman",
                                                 ": capital", "paris france berlin germany"])
    words = sorted({word for line in corpus for word in line.split()})
    np_rng = np.random.default_rng(7)
    write_word2vec_binary(folder / "vectors.bin", words, 100, np_rng)
    write_word2vec_binary(folder / "GoogleNews-vectors-negative300.bin", words, 300, np_rng)
    _write_models(folder)
    _write_tasks(folder / "tasks", np.random.default_rng(3), names)
    from tests.static.teacher import make_teacher

    make_teacher(folder / "all-MiniLM-L6-v2", hidden=192, layers=1, heads=6, intermediate=64)
    return folder


def _write_models(folder):
    """model.wv (a native word2vec model) and the fastText .bin files model.bin and cc.en.300.bin."""
    from wordvec import FastText, Word2Vec
    from wordvec.models.word2vec.fasttext import save_facebook_model

    Word2Vec(corpus_file=str(folder / "corpus.txt"), sg=1, vector_size=16, epochs=1, seed=1,
             workers=1).save(str(folder / "model.wv"))
    fasttext = FastText(corpus_file=str(folder / "corpus.txt"), vector_size=16, epochs=1, bucket=2000, seed=1,
                        workers=1)
    for name in ("model.bin", "cc.en.300.bin"):
        save_facebook_model(fasttext, str(folder / name))


def _write_tasks(folder, rng, names):
    from tests.window.test_tasks import write_brown, write_conll

    folder.mkdir()
    write_conll(folder / "conll2003", rng)
    write_brown(folder / "brown", rng)
    (folder / "charlm").mkdir()
    write_lines(folder / "charlm" / "dinos.txt", names)


if __name__ == "__main__":  # look at the files: python -m tests.docs.workspace FOLDER
    import sys

    print(write_template(sys.argv[1]))
