"""Hostile arguments, one table row each: sizes and counts that would exhaust memory or
time (a window of 10^9 tokens, a million negatives, 10^12 demo tokens), negative seeds,
NaN and infinite rates, fractions, across every command.  Each must fail in one
sentence naming the option, exit 2, before any input is read (the corpus given is
absent, so reading it first would fail with another message) and without writing
anything.  Nothing here reaches a compiled kernel, so the rows run in-process through
``wordvec.cli.main``; the one that trains runs in a subprocess."""

import pytest

from .harness import assert_clean_failure, run_cli, run_main

TRAIN = ("train", "{absent}", "-o", "{out}")
TASK = "--data", "{absent}"
LM_TRAIN = ("lm", "train", "{absent}", "-o", "{out}")
CLASSIFY_TUNE = ("classify", "train", "{absent}", "-o", "{out}", "--autotune-validation", "{absent}")
FASTTEXT_TUNE = ("fasttext", "supervised", "-input", "{absent}", "-output", "{out}", "-autotune-validation",
                 "{absent}")

CASES = [
    # train: word2vec
    (TRAIN + ("--window", "1e9"), ("--window", "1,000")),
    (TRAIN + ("--window", "1e10"), ("--window",)),
    (TRAIN + ("--window", "0"), ("--window",)),
    (TRAIN + ("--window", "2.5"), ("--window", "whole number")),
    (TRAIN + ("--vector-size", "1e9"), ("--vector-size", "100,000")),
    (TRAIN + ("--vector-size", "0"), ("--vector-size",)),
    (TRAIN + ("--negative", "1000000"), ("--negative", "1,000")),
    (TRAIN + ("--negative", "-1"), ("--negative",)),
    (TRAIN + ("--seed", "-1"), ("--seed", "2**64")),
    (TRAIN + ("--seed", str(2**64)), ("--seed",)),
    (TRAIN + ("--epochs", "0"), ("--epochs",)),
    (TRAIN + ("--workers", "0"), ("--workers",)),
    (TRAIN + ("--workers", "100000"), ("--workers", "1,024")),
    (TRAIN + ("--min-count", "0"), ("--min-count",)),
    (TRAIN + ("--max-vocab-size", "1e12"), ("--max-vocab-size",)),
    (TRAIN + ("--max-document-length", "0"), ("--max-document-length",)),
    (TRAIN + ("--alpha", "nan"), ("--alpha", "finite")),
    (TRAIN + ("--alpha", "inf"), ("--alpha", "finite")),
    (TRAIN + ("--sample", "-1"), ("--sample",)),
    (TRAIN + ("--ns-exponent", "nan"), ("--ns-exponent",)),
    (TRAIN + ("--min-alpha", "0.5"), ("min_alpha",)),  # above --alpha: the model's own check
    (TRAIN + ("--checkpoint-every", "10m"), ("--checkpoint-every", "unit")),
    # train: GloVe and PPMI-SVD
    (TRAIN + ("--model", "glove", "--x-max", "0"), ("x_max",)),
    (TRAIN + ("--model", "glove", "--learning-rate", "nan"), ("learning_rate",)),
    (TRAIN + ("--model", "glove", "--window", "1e9"), ("--window",)),
    (TRAIN + ("--model", "svd", "--power-iterations", "1e9"), ("--power-iterations",)),
    (TRAIN + ("--model", "svd", "--eig", "inf"), ("--eig", "finite")),
    (TRAIN + ("--model", "svd", "--seed", "-1"), ("--seed",)),
    # cooccur, vocab
    (("cooccur", "{absent}", "-o", "{out}", "--window", "1e9"), ("--window",)),
    (("cooccur", "{absent}", "-o", "{out}", "--max-document-length", "-5"), ("--max-document-length",)),
    (("vocab", "{absent}", "--top", "-1"), ("--top",)),
    (("vocab", "{absent}", "--min-count", "1e30"), ("--min-count",)),
    # task
    (("task", "ner") + TASK + ("--window", "1e9"), ("--window",)),
    (("task", "pos") + TASK + ("--hidden", "-1"), ("--hidden",)),
    (("task", "charlm") + TASK + ("--epochs", "0"), ("--epochs",)),
    (("task", "sentiment") + TASK + ("--seed", "-1"), ("--seed",)),
    (("task", "ner") + TASK + ("--lr", "nan"), ("--lr",)),
    (("task", "pos") + TASK + ("--dim", "1e9"), ("--dim",)),
    # lm
    (LM_TRAIN + ("--hidden", "1e9"), ("--hidden", "100,000")),
    (LM_TRAIN + ("--bptt", "0"), ("--bptt",)),
    (LM_TRAIN + ("--dropout", "1"), ("--dropout",)),
    (LM_TRAIN + ("--lr", "-1"), ("--lr",)),
    (LM_TRAIN + ("--seed", "-1"), ("--seed",)),
    (LM_TRAIN + ("--batch-size", "1e12"), ("--batch-size",)),
    (("lm", "sample", "{absent}", "-n", "0"), ("-n",)),
    (("lm", "sample", "{absent}", "--max-length", "1e12"), ("--max-length",)),
    (("lm", "sample", "{absent}", "--temperature", "nan"), ("--temperature",)),
    (("lm", "sample", "{absent}", "--seed", "-1"), ("--seed",)),
    # classify train and fasttext supervised: autotune's values, refused before the files are looked at
    (CLASSIFY_TUNE + ("--autotune-duration", "-1"), ("duration",)),
    (CLASSIFY_TUNE + ("--autotune-duration", "nan"), ("--autotune-duration",)),
    (CLASSIFY_TUNE + ("--autotune-predictions", "-2"), ("predictions",)),
    (CLASSIFY_TUNE + ("--autotune-metric", "precisionAtRecall:1e9"), ("autotune metric",)),
    (CLASSIFY_TUNE + ("--autotune-model-size", "1e12"), ("model size",)),
    (FASTTEXT_TUNE + ("-autotune-duration", "1e9"), ("-autotune-duration", "whole number")),
    (FASTTEXT_TUNE + ("-autotune-modelsize", "-5M"), ("model size",)),
    # demo
    (("demo", "--tokens", "1e12"), ("--tokens", "1,000,000,000")),
    (("demo", "--tokens", "0"), ("--tokens",)),
    (("demo", "--seed", "-1"), ("--seed",)),
    (("demo", "--vector-size", "1e9"), ("--vector-size",)),
]


@pytest.mark.parametrize("argv, fragments", CASES, ids=[" ".join(a[:1] + a[-2:]) for a, _ in CASES])
def test_out_of_range_arguments_fail_up_front_in_one_sentence(tmp_path, argv, fragments):
    filled = [a.format(absent=tmp_path / "absent.txt", out=tmp_path / "out.bin") for a in argv]
    result = run_main(*filled)
    assert result.returncode == 2
    assert_clean_failure(result, *fragments)
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing read, nothing written


def test_whole_numbers_may_use_scientific_notation(tmp_path):
    """``--tokens 2e4`` means 20,000 (and trains), so 1e9-style values are range errors, not typos."""
    result = run_cli("demo", "--tokens", "2e4", "--epochs", "1", "--min-count", "1", "--no-progress",
                     "--vector-size", "8", env={"WORDVEC_CACHE": str(tmp_path / "cache")})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "20,000 tokens" in result.stdout
