"""`wordvec compile`: fill Numba's cache ahead of time, so that no later command compiles.

Each kernel is compiled the first time it is called with new argument types and saved
beside its module; a first ``wordvec train`` otherwise spends tens of seconds compiling
before it trains.  This command runs every command's own code once, on small built-in
files in a temporary folder (a few thousand tokens: the time is the compiler's), for each
``--vector-size``: the kernels cached are exactly those the commands call.  Word2vec's,
Doc2Vec's and pooling's kernels have one kernel of their own for each of the sizes
published vectors come in (50, 100, 200, 300: the default) and one that every other size
shares (``wordvec.kernels.sizes``); the subword model's, the classifier's, the static
sentence models' and the others' serve every size.

The exercises fall in groups, one per model family, that share no kernel but the corpus
reader's, and run in ``--jobs`` processes at once: Numba's cache keeps one index file per
kernel, and two processes adding different specialisations of one kernel at the same
moment could each replace the other's entry.
"""

import argparse
import contextlib
import functools
import importlib.util
import io
import logging
import multiprocessing
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from wordvec.cli import gate, main
from wordvec.cli.common import positive_int, ranged
from wordvec.data import synthetic
from wordvec.errors import WordvecError
from wordvec.kernels import compiling
from wordvec.kernels.sizes import CONSTANT_VECTOR_SIZES
from wordvec.models.static.model import StaticModel

log = logging.getLogger(__name__)

SMALL_VECTOR_SIZE = 32  # none of CONSTANT_VECTOR_SIZES: the kernel every other size shares


def register(subparsers):
    p = subparsers.add_parser(
        "compile", description=__doc__.split("\n\n")[0] + "\n\n" + __doc__.split("\n\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--vector-size", type=ranged("vector_size"), nargs="+", default=list(CONSTANT_VECTOR_SIZES),
                   metavar="N", help=f"the vector sizes to compile for (default "
                                     f"{' '.join(map(str, CONSTANT_VECTOR_SIZES))}: those with kernels of their own; "
                                     "the kernel every other size shares is always compiled)")
    p.add_argument("--jobs", type=positive_int, default=2, metavar="N",
                   help="processes compiling at once (default 2)")
    p.set_defaults(run=run)
    gate.mark(p)


def run(args):
    sizes = sorted(set(args.vector_size) | {SMALL_VECTOR_SIZE})
    groups = [(name, sizes) for name in EXERCISES]  # the longest first
    started = time.perf_counter()
    if args.jobs == 1:
        results = [compile_group(group) for group in groups]
    else:
        # spawn: a forked child would inherit this process's Numba threads and locks; close
        # and join, not terminate: a child killed at the end leaks the semaphores it made
        pool = multiprocessing.get_context("spawn").Pool(min(args.jobs, len(groups)))
        try:
            results = pool.map(compile_group, groups, chunksize=1)
        finally:
            pool.close()
            pool.join()
    for (name, _), (kernels, seconds) in zip(groups, results):
        print(f"{name}: {len(kernels)} kernels compiled ({seconds:.1f} s)")
        for kernel, kernel_seconds in kernels:
            log.debug("  %s: %.1f s", kernel, kernel_seconds)
    print(f"compiled {sum(len(kernels) for kernels, _ in results)} kernels for vector sizes "
          f"{', '.join(map(str, sizes))} in {time.perf_counter() - started:.1f} s; "
          "commands now load them from the cache")
    return 0


def compile_group(group):
    """Run one group's exercises in this process (their printed output dropped): the
    kernels compiled [(name, seconds)] and the seconds it took."""
    name, sizes = group
    started, before = time.perf_counter(), compiling.count()
    with tempfile.TemporaryDirectory(prefix="wordvec-compile-") as folder:
        files = Files(Path(folder))
        for exercise in EXERCISES[name](files, sizes):
            said = io.StringIO()
            with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
                status = main(["-q", *exercise]) if isinstance(exercise, list) else exercise()
            if status:
                what = f"`wordvec {' '.join(exercise)}`" if isinstance(exercise, list) else exercise.func.__name__
                last = (said.getvalue().strip().splitlines() or [""])[-1]
                raise WordvecError(f"compiling stopped: {what} exited with status {status} ({last})")
    return compiling.WATCH.kernels[before:], time.perf_counter() - started


class Files:
    """The small inputs the exercises read, written once into ``folder``."""

    def __init__(self, folder):
        self.folder = folder
        self.corpus = folder / "corpus.txt"
        synthetic.write_corpus(self.corpus, tokens=20_000, seed=0)
        lines = self.corpus.read_text(encoding="utf-8").splitlines()
        self.labelled = folder / "labelled.txt"
        self.labelled.write_text("".join(f"__label__{len(line) % 3} {line}\n" for line in lines), encoding="utf-8")
        self.text = folder / "text.txt"
        self.text.write_text("\n".join(lines[:50]) + "\n", encoding="utf-8")
        self.words = list(dict.fromkeys(lines[0].split()))[:3]  # a, b, c of an analogy

    def out(self, name):
        return str(self.folder / name)


def word2vec_exercises(files, sizes):
    corpus = str(files.corpus)
    for D in sizes:
        common = ["--vector-size", str(D), "--epochs", "1", "--no-progress", "--no-eval", "--min-count", "1"]
        for model, loss in (("sg", "ns"), ("cbow", "ns"), ("sg", "hs"), ("cbow", "hs")):
            yield ["train", corpus, "-o", files.out(f"{model}-{loss}-{D}.bin"), "--model", model, "--loss", loss,
                   *common]
        yield ["train", corpus, "-o", files.out(f"subwords-{D}.bin"), "--subwords", *common]


def doc2vec_exercises(files, sizes):
    corpus = str(files.corpus)
    for D in sizes:
        for dm in ("0", "1"):
            model = files.out(f"doc2vec-{dm}-{D}")
            yield ["doc2vec", "train", corpus, "-o", model, "--dm", dm, "--vector-size", str(D), "--epochs", "1",
                   "--min-count", "1"]
            yield ["doc2vec", "infer", model, str(files.text), "-o", files.out(f"inferred-{dm}-{D}.npy")]


def classifier_exercises(files, sizes):
    labelled = str(files.labelled)
    for ngrams, loss in (("1", "softmax"), ("2", "softmax"), ("1", "hs"), ("1", "ova")):
        model = files.out(f"classifier-{ngrams}-{loss}.bin")
        yield ["classify", "train", labelled, "-o", model, "--word-ngrams", ngrams, "--loss", loss,
               "--epochs", "1", "--no-progress", "--vector-size", str(sizes[-1]), "--bucket", "1000"]
        yield ["classify", "test", model, labelled]
        yield ["classify", "predict", model, str(files.text), "-k", "2", "--probabilities"]
    yield ["classify", "quantize", files.out("classifier-1-softmax.bin"), "-o", files.out("classifier.ftz"),
           "--dsub", "2"]
    yield functools.partial(predict_lines, files.out("classifier-2-softmax.bin"), files.text)


PREDICT_LINES = """
import sys
from wordvec import fasttext
model = fasttext.load_model(sys.argv[1])
for line in open(sys.argv[2], encoding="utf-8").read().splitlines()[:3]:
    model.predict(line, k=2)
"""


def predict_lines(model_path, text):
    """The Python module's per-line predict (``wordvec.fasttext``, as language-ID wrappers
    call it), in a child process: the command line does not import the module."""
    return subprocess.run([sys.executable, "-c", PREDICT_LINES, model_path, str(text)]).returncode


def vector_file_exercises(files, sizes):
    corpus = str(files.corpus)
    vectors = files.out("glove.txt")
    yield ["train", corpus, "-o", vectors, "--model", "glove", "--vector-size", str(sizes[-1]), "--epochs", "1",
           "--no-progress", "--no-eval", "--min-count", "1"]
    yield ["train", corpus, "-o", files.out("svd.bin"), "--model", "svd", "--vector-size", "16", "--no-eval",
           "--min-count", "1"]
    yield ["convert", vectors, files.out("glove.bin")]
    for path in (vectors, files.out("glove.bin")):
        yield ["similar", path, files.words[0], "--topn", "3"]
        yield ["analogy", path, *files.words]
    for pooling in ("mean", "sif", "zipf"):
        yield ["embed", vectors, str(files.text), "-o", files.out(f"embedded-{pooling}.npy"), "--pooling", pooling]
    yield ["phrases", corpus, "-o", files.out("phrases.txt"), "--min-count", "2"]
    yield ["vocab", corpus]


def static_exercises(files, sizes):
    """A small static sentence model (a WordPiece tokenizer of the corpus's words, random
    rows: its kernels serve every vector size) trained both ways, saved and embedded with;
    nothing without the `static` extra."""
    if not all(importlib.util.find_spec(name) for name in ("tokenizers", "safetensors")):
        log.info("static models: the static extra is not installed, nothing to compile")
        return
    model = files.out("static-model")
    yield functools.partial(train_static, files, model)
    yield ["embed", model, str(files.text), "-o", files.out("static-embedded.npy")]


def train_static(files, path):
    from tokenizers import Tokenizer, normalizers, pre_tokenizers
    from tokenizers.models import WordPiece

    lines = files.text.read_text(encoding="utf-8").splitlines()
    words = ["[UNK]", *dict.fromkeys(word for line in lines for word in line.split())]
    tokenizer = Tokenizer(WordPiece({word: i for i, word in enumerate(words)}, unk_token="[UNK]"))
    tokenizer.normalizer, tokenizer.pre_tokenizer = normalizers.BertNormalizer(), pre_tokenizers.BertPreTokenizer()
    rng = np.random.default_rng(0)
    model = StaticModel(rng.standard_normal((len(words), SMALL_VECTOR_SIZE)).astype(np.float32), tokenizer)
    model.fit(lines, targets=rng.standard_normal((len(lines), SMALL_VECTOR_SIZE)), epochs=1)
    model.fit_pairs(list(zip(lines[::2], lines[1::2])), batch_size=4)
    model.save(path)
    return 0


# per group, its exercises: wordvec command lines, or functions; the longest group first
EXERCISES = {"doc2vec": doc2vec_exercises, "word2vec": word2vec_exercises, "classifier": classifier_exercises,
             "vector files": vector_file_exercises, "static models": static_exercises}
