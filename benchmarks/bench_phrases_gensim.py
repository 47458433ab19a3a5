"""gensim's Phrases class under wordvec (wordvec.models.phrases.model) against gensim 4.4 itself.

    flock /tmp/wordvec-bench.lock .venv/bin/python benchmarks/bench_phrases_gensim.py
    .venv/bin/python benchmarks/bench_phrases_gensim.py --tokens 557000 --threshold 100

The first ``--tokens`` tokens (whole lines) of wordbench-10m, in memory as token lists,
learned by gensim's ``Phrases`` and by ``wordvec.Phrases`` with the same arguments
(gensim's default scoring and min_count 5), then every sentence rewritten; the record
holds both systems' wall and CPU seconds and the phrases each found.  For the scale
question of gensim compatibility, the compiled word2phrase-scale ``wordvec.data.phrases.Phrases``
runs at the same threshold and at the rescaled one (T * |table| / N).  All three run in
this process, one after the other (peak RSS is the process's peak so far: gensim first).
Record: benchmarks/results/phrases/phrases-gensim-class.json.
"""

import argparse
import lzma
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from lib import records  # noqa: E402

from gensim.models import phrases as gensim_phrases  # noqa: E402

from wordvec.data.phrases import Phrases as CompiledPhrases  # noqa: E402
from wordvec.models.phrases import model as wordvec_phrases  # noqa: E402

CORPUS = HERE.parent.parent / "shared" / "data" / "corpus" / "wordbench-10m.txt.xz"


def read_sentences(path, tokens):
    sentences, count = [], 0
    with lzma.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            words = line.split()
            if not words:
                continue
            sentences.append(words)
            count += len(words)
            if count >= tokens:
                break
    return sentences, count


def learn_and_rewrite(module, sentences, threshold, min_count):
    phrases = module.Phrases(sentences, min_count=min_count, threshold=threshold)
    rewritten = [phrases[s] for s in sentences]
    return phrases, rewritten


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokens", type=int, default=557_000)
    parser.add_argument("--threshold", type=float, default=100.0)
    parser.add_argument("--min-count", type=int, default=5)
    args = parser.parse_args()
    sentences, tokens = read_sentences(CORPUS, args.tokens)
    record = records.Record("phrases-gensim-class", note="in-process, one after the other; shared 2-core machine")
    runs = {}
    for system, module in (("gensim", gensim_phrases), ("wordvec", wordvec_phrases)):
        (phrases, rewritten), fields = records.measure(
            lambda module=module: learn_and_rewrite(module, sentences, args.threshold, args.min_count))
        runs[system] = (phrases.export_phrases(), rewritten, len(phrases.vocab))
        record.add_run(system=system, config=f"Phrases(threshold={args.threshold:g}, min_count={args.min_count})",
                       **fields, quality={"phrases": len(runs[system][0]), "table_size": runs[system][2]})
    gensim_found, wordvec_found = runs["gensim"][0], runs["wordvec"][0]
    same_text = runs["gensim"][1] == runs["wordvec"][1]
    table_size = runs["gensim"][2]
    for label, threshold in (("same threshold", args.threshold), ("rescaled", args.threshold * tokens / table_size)):
        compiled, fields = records.measure(
            lambda threshold=threshold: CompiledPhrases(min_count=args.min_count, threshold=threshold).learn(sentences))
        found = {phrase for phrase, _, _ in compiled.top()}
        record.add_run(system="wordvec compiled (word2phrase scale)", config=f"{label}: threshold {threshold:.6g}",
                       **fields, quality={"phrases": len(found), "equal_to_gensim": found == set(gensim_found)})
    record.data["summary"] = {"tokens": tokens, "sentences": len(sentences), "gensim_table_size": table_size,
                              "same_phrases": wordvec_found.keys() == gensim_found.keys(),
                              "same_scores": wordvec_found == gensim_found, "same_rewritten_text": same_text}
    print(record.data["summary"])
    for run in record.data["runs"]:
        print(f"{run['system']:<38} {run['config']:<40} {run['wall_seconds']:7.2f} s wall "
              f"{run['cpu_seconds']:7.2f} s cpu  {run['quality']}")
    print(record.save())


if __name__ == "__main__":
    main()
