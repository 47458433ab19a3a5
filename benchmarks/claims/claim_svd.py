"""Claim (seed 002, "SVD Based Methods"): count-based methods with matrix factorisation
(LSA, HAL) "are primarily used to capture word similarities and do poorly on tasks such
as word analogy, indicating a sub-optimal vector space structure."

Experiment: truncated SVD (D 100, window 5, uniform weights, symmetric; randomized SVD
with 8 power iterations) of the wordbench-10m co-occurrence matrix under three
transforms: the plain counts (``raw``, the LSA/HAL-style matrix the notes describe,
with the vectors U S, and U S^0.5), log(1 + X), and PPMI (context smoothing 0.75,
U S^0.5); against skip-gram with negative sampling at the same window, D and corpus
(the claims' baseline, 5 epochs).  Record: benchmarks/results/word2vec/claims-svd.json.

    .venv/bin/python benchmarks/claims/claim_svd.py [--epochs 5]
"""

import argparse

import common

CLAIM = "svd"
VARIANTS = (("raw counts, U S", dict(transform="raw", eig=1.0)),
            ("raw counts, U S^0.5", dict(transform="raw", eig=0.5)),
            ("log(1 + X), U S^0.5", dict(transform="log", eig=0.5)),
            ("PPMI (cds 0.75), U S^0.5", dict(transform="ppmi", eig=0.5)))


def svd_params(**overrides):
    params = dict(vector_size=100, window=5, min_count=5, cds=0.75, shift=1.0, eig=0.5, transform="ppmi", seed=1)
    params.update(overrides)
    return params


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    common.add_epochs_argument(parser)
    args = parser.parse_args()
    spec = {"model": "svd", "params": svd_params(), "variants": [overrides for _, overrides in VARIANTS]}
    result = common.run(spec, f"{CLAIM}: one count, {len(VARIANTS)} factorisations")
    rows = [{"name": f"SVD: {name}", "evaluation": v["evaluation"], "seconds": v["svd_wall_s"]}
            for (name, _), v in zip(VARIANTS, result["variants"])]
    baseline = common.run({"model": "word2vec", "params": common.word2vec_params(epochs=args.epochs)},
                          f"{CLAIM}: sg-ns baseline, {args.epochs} epochs")
    rows.append({"name": f"skip-gram NS, {args.epochs} epochs", "evaluation": baseline["evaluation"],
                 "seconds": baseline["train_wall_s"]})
    svd_quality = {name: {"evaluation": v["evaluation"], "svd_wall_s": v["svd_wall_s"], "svd_cpu_s": v["svd_cpu_s"]}
                   for (name, _), v in zip(VARIANTS, result["variants"])}
    entries = [("SVD: one count, four factorisations", result, {"counting": result["counting"], **svd_quality}),
               (f"skip-gram NS, {args.epochs} epochs", baseline, baseline["evaluation"])]
    print(f"co-occurrence counting (window 5, uniform): {result['counting']['wall_s']:.1f} s wall; "
          "time column: the factorisation alone for SVD, the whole run for skip-gram")
    print("| vectors | analogy % | semantic % | syntactic % | WS-353 rho | SimLex rho | time s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        e = r["evaluation"]
        print(f"| {r['name']} | {common.pct(e['analogy'])} | {common.pct(e['semantic'])} | "
              f"{common.pct(e['syntactic'])} | {common.rho(e['wordsim353'])} | {common.rho(e['simlex999'])} | "
              f"{r['seconds']:.0f} |")
    print("summary:", common.save_summary(CLAIM, {"rows": rows}))
    print("record:", common.save_record(CLAIM, args.epochs, entries, note="SVD variants D 100 window 5; "
                                        f"skip-gram NS {args.epochs} epochs"))


if __name__ == "__main__":
    main()
