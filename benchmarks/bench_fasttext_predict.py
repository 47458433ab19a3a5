"""Per-call ``model.predict(text)`` from Python, as language-ID wrappers call it:
``wordvec.fasttext`` against fastText's binding (fasttext-wheel 0.9.2), on the same
model files, side by side in one process.

Each system predicts the same lines one call at a time (k=1); rounds alternate between
the systems and the best round of each counts (the machine is shared). fastText's
``predict`` fails under NumPy 2 (``np.array(probs, copy=False)``), so its call is timed
as its own wrapper runs it with that one line as ``np.asarray``: the check for a newline,
the binding's ``predict``, the unzip and the array.

    python benchmarks/bench_fasttext_predict.py --train genre.train.txt --test genre.test.txt \
        --calls 10000 --name fasttext-predict-genre-20261127
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib.records import Record  # noqa: E402

import wordvec.fasttext as wordvec_fasttext  # noqa: E402


def snippets(path, count, length, seed=0):
    """``count`` lines of ``length`` tokens cut from the documents of ``path`` (labels left out)."""
    rng = np.random.default_rng(seed)
    docs = [[t for t in line.split() if not t.startswith("__label__")] for line in open(path, encoding="utf-8")]
    docs = [d for d in docs if len(d) >= length]
    out = []
    for _ in range(count):
        doc = docs[rng.integers(len(docs))]
        start = rng.integers(len(doc) - length + 1)
        out.append(" ".join(doc[start:start + length]))
    return out


def fasttext_predict(model):
    """fastText 0.9.2's ``_FastText.predict`` for one line, with ``np.asarray`` for ``copy=False``."""
    binding = model.f

    def predict(text, k=1, threshold=0.0, on_unicode_error="strict"):
        if text.find("\n") != -1:
            raise ValueError("predict processes one line at a time (remove '\\n')")
        predictions = binding.predict(text + "\n", k, threshold, on_unicode_error)
        probs, labels = zip(*predictions) if predictions else ([], ())
        return labels, np.asarray(probs)
    return predict


def calls_per_second(predict, lines):
    started = time.perf_counter()
    for line in lines:
        predict(line)
    return len(lines) / (time.perf_counter() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", required=True)
    parser.add_argument("--test", required=True)
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--tokens", type=int, default=12, help="tokens per line")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--epoch", type=int, default=1)
    parser.add_argument("--name", default="fasttext-predict")
    options = parser.parse_args()
    import fasttext
    record = Record(options.name, note=f"{options.calls} single-line calls of {options.tokens} tokens, k=1; "
                                       f"models trained by wordvec (epoch {options.epoch}, lr 0.5), both systems "
                                       "load the same .bin; best of alternating rounds; machine shared")
    lines = snippets(options.test, options.calls, options.tokens)
    with tempfile.TemporaryDirectory() as folder:
        for word_ngrams in (1, 2):
            path = str(Path(folder) / f"model{word_ngrams}.bin")
            wordvec_fasttext.train_supervised(options.train, lr=0.5, epoch=options.epoch, wordNgrams=word_ngrams,
                                              thread=2, verbose=0).save_model(path)
            ours, theirs = wordvec_fasttext.load_model(path), fasttext.load_model(path)
            peer = fasttext_predict(theirs)
            agree = np.mean([ours.predict(t)[0] == peer(t)[0] for t in lines[:2000]])
            best = {"wordvec": 0.0, "fasttext": 0.0}
            for _ in range(options.rounds):
                best["fasttext"] = max(best["fasttext"], calls_per_second(peer, lines))
                best["wordvec"] = max(best["wordvec"], calls_per_second(ours.predict, lines))
            for system, rate in best.items():
                record.add_run(system=system, config=f"wordNgrams {word_ngrams}", calls_per_second=rate,
                               ratio_to_fasttext=rate / best["fasttext"], quality={"same_label": float(agree)})
                print(f"wordNgrams {word_ngrams} {system}: {rate:,.0f} calls/s "
                      f"({rate / best['fasttext']:.2f}x fastText), same label {agree:.4f}")
    print(record.save())


if __name__ == "__main__":
    main()
