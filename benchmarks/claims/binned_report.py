"""Tables and a figure of frequency-binned scores, for the claims that compare models on
rare and frequent words (noise exponent, hierarchical softmax vs negative sampling).

A row is {"name", "seed", "evaluation": common.evaluate(...) result, ...}; rows with the
same name are seeds of one configuration and are averaged.
"""

import common


def _mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def grouped(rows):
    groups = {}
    for row in rows:
        groups.setdefault(row["name"], []).append(row["evaluation"])
    return groups


def print_tables(rows):
    groups = grouped(rows)
    analogy_bins = common.bin_labels(common.ANALOGY_BINS)
    sim_bins = common.bin_labels(common.SIMILARITY_BINS)
    first = next(iter(groups.values()))[0]["binned"]
    print("\nStandard scores (analogies restricted to the 30k most frequent words):")
    print("| config | runs | analogy % | semantic % | syntactic % | WS-353 rho | SimLex rho |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, evs in groups.items():
        print(f"| {name} | {len(evs)} | " + " | ".join(
            [common.pct(_mean(e[k] for e in evs)) for k in ("analogy", "semantic", "syntactic")]
            + [common.rho(_mean(e[k] for e in evs)) for k in ("wordsim353", "simlex999")]) + " |")
    counts = " | ".join(f"{b} ({first['analogy'][b]['answered']})" for b in analogy_bins)
    print("\nAnalogy accuracy % by the count of the question's rarest word (whole vocabulary searched; "
          "questions per bin in brackets):")
    print(f"| config | {counts} |")
    print("|---|" + "---:|" * len(analogy_bins))
    for name, evs in groups.items():
        print(f"| {name} | " + " | ".join(common.pct(_mean(e["binned"]["analogy"][b]["total"] for e in evs))
                                          for b in analogy_bins) + " |")
    for data in ("simlex999", "wordsim353"):
        counts = " | ".join(f"{b} ({first['similarity'][data][b]['pairs']})" for b in sim_bins)
        print(f"\n{data} Spearman rho by the count of the pair's rarer word (pairs in brackets):")
        print(f"| config | {counts} |")
        print("|---|" + "---:|" * len(sim_bins))
        for name, evs in groups.items():
            print(f"| {name} | " + " | ".join(
                common.rho(_mean(e["binned"]["similarity"][data][b]["spearman"] for e in evs)) for b in sim_bins) + " |")


def plot(rows, filename, title):
    """Analogy accuracy per frequency bin, one line per configuration."""
    plt = common.pyplot()
    groups = grouped(rows)
    labels = common.bin_labels(common.ANALOGY_BINS)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    for name, evs in groups.items():
        left.plot(range(len(labels)), [100 * _mean(e["binned"]["analogy"][b]["total"] for e in evs) for b in labels],
                  "o-", label=name)
        sim = common.bin_labels(common.SIMILARITY_BINS)
        right.plot(range(len(sim)), [_mean(e["binned"]["similarity"]["simlex999"][b]["spearman"] for e in evs)
                                     for b in sim], "o-", label=name)
    left.set(xticks=range(len(labels)), xticklabels=labels, xlabel="count of the rarest question word",
             ylabel="analogy accuracy %", yscale="log")
    right.set(xticks=range(len(common.bin_labels(common.SIMILARITY_BINS))),
              xticklabels=common.bin_labels(common.SIMILARITY_BINS), xlabel="count of the rarer word",
              ylabel="SimLex-999 Spearman rho")
    left.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(common.FIGURES / filename, dpi=110)
