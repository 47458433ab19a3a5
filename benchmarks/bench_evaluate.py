"""Time the Google analogy evaluation (19,544 questions) on 100-d random vectors, 30k words.

wordvec's evaluate_analogies (3CosAdd and 3CosMul) side by side with gensim 4.4.0's
evaluate_word_analogies on the same vectors, same restrict_vocab, in the same run; also
checks that wordvec's 3CosAdd counts equal gensim's.

    .venv/bin/python benchmarks/bench_evaluate.py [--words 30000] [--dims 100] [--repeat 3]
    .venv/bin/python benchmarks/bench_evaluate.py --vectors trained.bin   # real vectors instead

With --vectors, the word-pair sets are compared too (Spearman rho of both tools).
"""

import argparse
import logging

import numpy as np
from lib.records import Record, measure


def analogy_vectors(n_words, dims, seed):
    """Every word of questions-words.txt (as written) plus fillers, in random order."""
    from wordvec.vectors.evaluate import bundled_path, read_analogies

    questions = read_analogies(bundled_path("questions-words.txt"), case_insensitive=False)
    words = sorted({w for _, qs in questions for q in qs for w in q})
    words += [f"filler{i}" for i in range(n_words - len(words))]
    rng = np.random.default_rng(seed)
    words = [words[i] for i in rng.permutation(len(words))]
    return words, rng.standard_normal((len(words), dims)).astype(np.float32)


def best_time(function, repeat, runs):
    """(seconds, result) of the fastest of ``repeat`` calls; its measured fields go to ``runs``."""
    measured = [measure(function) for _ in range(repeat)]
    result, fields = min(measured, key=lambda run: run[1]["wall_seconds"])
    runs.append(fields)
    return fields["wall_seconds"], result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", type=int, default=30000)
    parser.add_argument("--dims", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs for each tool")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vectors", metavar="FILE", help="evaluate these vectors (word2vec .bin/.txt) instead")
    parser.add_argument("--record", default="evaluate", help="write benchmarks/results/<family>/RECORD.json ('' for none)")
    parser.add_argument("--note", default="", help="a sentence kept in the record (how the machine was)")
    args = parser.parse_args()
    record = Record(args.record, note=args.note) if args.record else None
    logging.getLogger("gensim").setLevel(logging.WARNING)

    from gensim.models import KeyedVectors as GensimKeyedVectors

    from wordvec.vectors.evaluate import BUNDLED_SIMILARITY, bundled_path, evaluate_analogies, evaluate_similarity
    from wordvec.vectors.keyed import KeyedVectors
    from wordvec.vectors.files import load_vectors

    if args.vectors:
        kv = load_vectors(args.vectors)
        words, args.dims = kv.index_to_key, kv.vector_size
    else:
        kv = KeyedVectors(*analogy_vectors(args.words, args.dims, args.seed))
        words = kv.index_to_key
    twin = GensimKeyedVectors(args.dims)
    twin.add_vectors(words, kv.vectors)
    path = str(bundled_path("questions-words.txt"))

    measured = []
    add_s, add = best_time(lambda: evaluate_analogies(kv, restrict_vocab=args.words, method="3cosadd"), args.repeat,
                           measured)
    mul_s, mul = best_time(lambda: evaluate_analogies(kv, restrict_vocab=args.words, method="3cosmul"), args.repeat,
                           measured)
    gensim_s, (_, sections) = best_time(lambda: twin.evaluate_word_analogies(path, restrict_vocab=args.words),
                                        args.repeat, measured)
    total = sections[-1]
    gensim_correct, gensim_answered = len(total["correct"]), len(total["correct"]) + len(total["incorrect"])
    ours_correct = sum(s["correct"] for s in add["sections"].values())
    print(f"Google analogies: {add['questions']} questions, {add['answered']} answered; "
          f"{len(words)} words x {args.dims} dims, restrict_vocab={args.words}, best of {args.repeat}")
    print(f"{'tool':<34} {'seconds':>8} {'vs gensim':>10} {'correct':>8}")
    print(f"{'wordvec evaluate_analogies 3cosadd':<34} {add_s:>8.2f} {gensim_s / add_s:>9.1f}x {ours_correct:>8}")
    print(f"{'wordvec evaluate_analogies 3cosmul':<34} {mul_s:>8.2f} {gensim_s / mul_s:>9.1f}x "
          f"{sum(s['correct'] for s in mul['sections'].values()):>8}")
    print(f"{'gensim evaluate_word_analogies':<34} {gensim_s:>8.2f} {1.0:>9.1f}x {gensim_correct:>8}")
    same = (ours_correct, add["answered"]) == (gensim_correct, gensim_answered)
    by_section = {s["section"]: (len(s["correct"]), len(s["correct"]) + len(s["incorrect"])) for s in sections[:-1]}
    same_sections = by_section == {name: (s["correct"], s["answered"]) for name, s in add["sections"].items()}
    print(f"3cosadd accuracy {add['total']:.4f} (gensim {len(total['correct']) / max(1, gensim_answered):.4f}); "
          f"counts equal gensim's: total {same}, every section {same_sections}")
    if record is not None:
        record.data.update(vectors=args.vectors or f"random {args.words} x {args.dims}, seed {args.seed}",
                           restrict_vocab=args.words, repeat=args.repeat)
        correct = {"wordvec 3cosadd": ours_correct, "gensim": gensim_correct,
                   "wordvec 3cosmul": sum(s["correct"] for s in mul["sections"].values())}
        answered = {"wordvec 3cosadd": add["answered"], "wordvec 3cosmul": mul["answered"], "gensim": gensim_answered}
        for system, fields in zip(("wordvec 3cosadd", "wordvec 3cosmul", "gensim"), measured):
            record.add_run(system=system, config="Google analogies", **fields,
                           quality={"correct": correct[system], "answered": answered[system],
                                    "accuracy": correct[system] / max(1, answered[system])})
    if args.vectors:
        for name in BUNDLED_SIMILARITY:
            ours = evaluate_similarity(kv, bundled_path(name))
            _, theirs, _ = twin.evaluate_word_pairs(str(bundled_path(name)))
            print(f"{name}: spearman wordvec {ours['spearman']!r} gensim {float(theirs.statistic)!r} "
                  f"({ours['covered']} of {ours['pairs']} pairs)")
            if record is not None:
                record.data.setdefault("similarity", {})[name] = {
                    "wordvec": ours["spearman"], "gensim": float(theirs.statistic), "covered": ours["covered"]}
    if record is not None:
        print(f"record: {record.save()}")


if __name__ == "__main__":
    main()
