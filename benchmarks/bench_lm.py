"""Recurrent language model experiments: char level on dinosaur names, word
level on wordbench, and clipping off vs on where gradients explode.

    .venv/bin/python benchmarks/bench_lm.py char      # dinos: LSTM vs unigram/bigram, curve, samples
    .venv/bin/python benchmarks/bench_lm.py clip      # RNN, large init and lr: clip off vs on
    .venv/bin/python benchmarks/bench_lm.py word      # RNN/LSTM x tied/untied vs interpolated bigram
    .venv/bin/python benchmarks/bench_lm.py word-summary   # one plot from all lm_word*.json runs

Results go to benchmarks/out/lm_*.json (gitignored), plots to benchmarks/figures/.
Data: ../shared/data (never copied into the repo; the word split is written to
benchmarks/out/lm_word/).
"""

import argparse
import json
import lzma
import math
import time
from pathlib import Path

import numpy as np

from wordvec.errors import TrainingError
from wordvec.data.lm_data import LMVocab, read_lines
from wordvec.models.lm.rnn import RNNLM

ROOT = Path(__file__).resolve().parent
DATA = ROOT.parents[1] / "shared" / "data"
OUT, FIGURES = ROOT / "out", ROOT / "figures"


# ---------------------------------------------------------------- count baselines
def ngram_baselines(train_stream, valid_stream, V):
    """Validation cross-entropy (nats/token) of add-one unigram and interpolated bigram.

    Bigram: P(w | v) = lam * c(v, w) / c(v) + (1 - lam) * P_add1(w), where c(v) counts v
    as a history; lam is tuned on the validation text itself (grid 0.05 .. 0.99), which
    favours the baseline.  No Kneser-Ney.  Scored on the same targets as the LMs.
    """
    unigram = (np.bincount(train_stream[1:], minlength=V) + 1.0) / (train_stream.size - 1 + V)
    history = np.bincount(train_stream[:-1], minlength=V).astype(np.float64)
    pairs, pair_counts = np.unique(train_stream[:-1] * V + train_stream[1:], return_counts=True)
    prev, nxt = valid_stream[:-1], valid_stream[1:]
    codes = prev * V + nxt
    where = np.minimum(np.searchsorted(pairs, codes), pairs.size - 1)
    c_pair = np.where(pairs[where] == codes, pair_counts[where], 0).astype(np.float64)
    seen = history[prev] > 0
    p_ml = np.where(seen, c_pair / np.maximum(history[prev], 1), 0.0)
    results = {"unigram": float(-np.mean(np.log(unigram[nxt])))}
    best = None
    for lam in np.concatenate([np.arange(0.05, 0.96, 0.05), [0.97, 0.98, 0.99]]):
        lam_eff = np.where(seen, lam, 0.0)  # unseen history: unigram alone
        ce = float(-np.mean(np.log(lam_eff * p_ml + (1 - lam_eff) * unigram[nxt])))
        if best is None or ce < best[1]:
            best = (float(lam), ce)
    results["bigram"], results["bigram_lambda"] = best[1], round(best[0], 2)
    return results


# ---------------------------------------------------------------- shared steps
def save(name, obj):
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"lm_{name}.json").write_text(json.dumps(obj, indent=1))
    print(json.dumps(obj, indent=1))


def plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    FIGURES.mkdir(parents=True, exist_ok=True)
    return pyplot


def dino_split(seed=0, valid_fraction=0.1):
    lines = read_lines(DATA / "tasks" / "charlm" / "dinos.txt", lowercase=True)
    order = np.random.default_rng(seed).permutation(len(lines))
    n_valid = int(round(valid_fraction * len(lines)))
    return [lines[i] for i in order[n_valid:]], [lines[i] for i in order[:n_valid]]


# ---------------------------------------------------------------- experiments
def write_char_split():
    """The dino split as files, for `wordvec lm train|eval` on the same data."""
    train_lines, valid_lines = dino_split()
    folder = OUT / "lm_char"
    folder.mkdir(parents=True, exist_ok=True)
    for name, lines in (("train", train_lines), ("valid", valid_lines)):
        (folder / f"{name}.txt").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return train_lines, valid_lines


def run_char(args):
    train_lines, valid_lines = write_char_split()
    vocab = LMVocab.build(train_lines, "char", lowercase=True)
    train, valid = vocab.encode(train_lines), vocab.encode(valid_lines)
    result = {"train_tokens": int(train.size - 1), "valid_tokens": int(valid.size - 1), "V": len(vocab)}
    result["baselines"] = ngram_baselines(train, valid, len(vocab))
    fitted = {}
    for cell in ("lstm", "rnn"):
        model = fitted[cell] = RNNLM(vocab, cell=cell, hidden_size=args.hidden, embedding_size=args.embedding,
                                     dropout=args.dropout, seed=1)
        start = time.perf_counter()
        model.fit(train, valid, epochs=args.epochs, bptt=32, batch_size=16, lr=3e-3, optimizer="adam", clip=5.0,
                  progress=False, eval_batch_size=1)
        result[cell] = {"hidden": args.hidden, "embedding": args.embedding, "dropout": args.dropout,
                        "best_valid": min(h["valid_loss"] for h in model.history),
                        "final_valid": model.history[-1]["valid_loss"], "seconds": time.perf_counter() - start,
                        "tokens_per_sec": model.history[-1]["tokens_per_sec"],
                        "history": [{k: h[k] for k in ("epoch", "train_loss", "valid_loss")} for h in model.history]}
    model = fitted["lstm"]
    result["samples"] = [vocab.decode(s) for s in model.sample(10, temperature=1.0, seed=0)]
    model.save(OUT / "lm_char_model")
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(6, 4))
    for cell, model in fitted.items():
        epochs = [h["epoch"] for h in model.history]
        train_line, = ax.plot(epochs, [h["train_loss"] for h in model.history], linestyle=":",
                              label=f"{cell.upper()} train")
        ax.plot(epochs, [h["valid_loss"] for h in model.history], color=train_line.get_color(),
                label=f"{cell.upper()} valid")
    for name, style in (("unigram", "-."), ("bigram", "--")):
        ax.axhline(result["baselines"][name], linestyle=style, color="gray", label=f"{name} valid")
    ax.set(xlabel="epoch", ylabel="cross-entropy (nats/char)",
           title=f"Dinosaur names, char level, H={args.hidden}, D={args.embedding}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(FIGURES / "lm_char_dinos_loss.png", dpi=110)
    save("char", result)


def run_clip(args):
    train_lines, valid_lines = dino_split()
    vocab = LMVocab.build(train_lines, "char", lowercase=True)
    train = vocab.encode(train_lines)
    runs = {}
    for label, clip in (("clip off", 0.0), (f"clip {args.clip:g}", args.clip)):
        model = RNNLM(vocab, cell="rnn", hidden_size=64, embedding_size=16, activation="relu",
                      recurrent_scale=args.scale, seed=1)
        error = None
        try:
            model.fit(train, None, epochs=args.epochs, bptt=50, batch_size=8, lr=args.lr, optimizer="sgd",
                      clip=clip, progress=False)
        except TrainingError as e:
            error = str(e)
        steps = np.array(model.steps)
        runs[label] = {"steps": steps.tolist(), "error": error, "updates": len(steps),
                       "max_norm": float(np.nanmax(steps[:, 2])), "final_loss": float(steps[-1, 1])}
    pyplot = plt()
    fig, (top, bottom) = pyplot.subplots(2, 1, figsize=(7, 6), sharex=True)
    for (label, run), color, width in zip(reversed(runs.items()), ("tab:orange", "tab:blue"), (0.8, 2.0)):
        steps = np.array(run["steps"])
        top.semilogy(steps[:, 0], steps[:, 2], label=label, linewidth=width, color=color)
        bottom.plot(steps[:, 0], np.minimum(steps[:, 1], 10), label=label, linewidth=width, color=color)
        if run["error"]:  # mark where the run died (an infinite norm or NaN loss is not drawn)
            finite = steps[np.isfinite(steps[:, 2])]
            top.plot(steps[-1, 0], finite[-1, 2], "x", color=color, markersize=10, mew=2)
            top.annotate(f"{label}: inf/NaN at update {int(steps[-1, 0])}", (steps[-1, 0], finite[-1, 2]),
                         xytext=(15, 0), textcoords="offset points", color=color)
    top.axhline(args.clip, color="gray", linestyle="--", linewidth=0.8, label="threshold")
    top.set(ylabel="gradient norm (before clipping)",
            title=f"ReLU RNN, W_aa init x{args.scale:g}, SGD lr {args.lr:g}: clipping off vs on")
    bottom.set(xlabel="update", ylabel="train loss (capped at 10)")
    top.legend()
    fig.tight_layout()
    fig.savefig(FIGURES / "lm_clipping_gradnorm.png", dpi=110)
    save("clip", {k: {kk: vv for kk, vv in v.items() if kk != "steps"} for k, v in runs.items()}
         | {"settings": {k: v for k, v in vars(args).items() if k != "run"}})


def word_split(train_tokens, valid_tokens):
    """First lines of wordbench-10m up to ``train_tokens`` tokens -> train, the next lines up
    to ``valid_tokens`` -> valid (lines are shuffled documents, so the two are disjoint
    random documents)."""
    folder = OUT / "lm_word"
    train_path, valid_path = folder / "train.txt", folder / "valid.txt"
    if train_path.exists() and valid_path.exists():
        return train_path, valid_path
    folder.mkdir(parents=True, exist_ok=True)
    with lzma.open(DATA / "corpus" / "wordbench-10m.txt.xz", "rt", encoding="utf-8") as source:
        for path, budget in ((train_path, train_tokens), (valid_path, valid_tokens)):
            count = 0
            with open(path, "w", encoding="utf-8") as sink:
                for line in source:
                    sink.write(line)
                    count += len(line.split())
                    if count >= budget:
                        break
    return train_path, valid_path


def run_word(args):
    train_path, valid_path = word_split(args.train_tokens, args.valid_tokens)
    train_lines, valid_lines = read_lines(train_path), read_lines(valid_path)
    vocab = LMVocab.build(train_lines, "word", max_size=args.vocab)
    train, valid = vocab.encode(train_lines), vocab.encode(valid_lines)
    result = {"train_tokens": int(train.size - 1), "valid_tokens": int(valid.size - 1), "V": len(vocab),
              "valid_unk_rate": vocab.unknown_rate(valid),
              "settings": {k: v for k, v in vars(args).items() if k != "run"}}
    base = ngram_baselines(train, valid, len(vocab))
    result["baselines"] = base | {"unigram_ppl": math.exp(base["unigram"]), "bigram_ppl": math.exp(base["bigram"])}
    print(result["baselines"], flush=True)
    options = dict(epochs=args.epochs, bptt=args.bptt, batch_size=args.batch_size, lr=args.lr, optimizer="adam",
                   clip=args.clip_norm, progress=False, eval_batch_size=32)
    models, result["models"] = {}, {}
    for spec in args.variants.split(","):
        cell, tie = spec.split("-")
        model = models[spec] = RNNLM(vocab, cell=cell, hidden_size=args.hidden, embedding_size=args.hidden,
                                     tie_embeddings=tie == "tied", dropout=args.dropout, seed=1)
        model.fit(train, valid, max_updates=args.updates, **options)
        result["models"][spec] = summarize(model)
        print(spec, result["models"][spec], flush=True)
    lstms = [spec for spec in models if spec.startswith("lstm")]
    if (lstms or args.long_variant) and args.long_updates > args.updates:
        # The better LSTM trains on (resuming mid-epoch) until its valid perplexity is below
        # the bigram's, checked every `check_every` updates, or until long_updates.
        best = args.long_variant or min(lstms, key=lambda spec: result["models"][spec]["valid_ppl"])
        result["long"] = {"variant": best, "checks": []}
        for target in range(args.updates + args.check_every, args.long_updates + 1, args.check_every):
            models[best].fit(train, valid, max_updates=target, **options)
            result["long"] |= summarize(models[best])
            result["long"]["checks"].append([target, result["long"]["valid_ppl"], result["long"]["train_seconds"]])
            print("long", result["long"], flush=True)
            if result["long"]["valid_ppl"] < result["baselines"]["bigram_ppl"] and not args.no_stop:
                break
    plot_word(result, models, args)
    save("word" + (f"_{args.tag}" if args.tag else ""), result)


def summarize(model):
    history = model.history
    tokens, seconds = sum(h["tokens"] for h in history), sum(h["seconds"] for h in history)
    return {"valid_ppl": history[-1]["valid_perplexity"], "valid_ce": history[-1]["valid_loss"],
            "updates": len(model.steps), "tokens_trained": tokens, "train_seconds": seconds,
            "tokens_per_sec": tokens / seconds, "parameters": model.num_parameters}


def plot_word(result, models, args):
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(7, 4.5))
    tokens_per_update = args.batch_size * args.bptt
    window = 25
    for spec, model in models.items():
        loss = np.array([s[1] for s in model.steps])
        smooth = np.convolve(loss, np.ones(window) / window, mode="valid")
        x = (np.arange(smooth.size) + window) * tokens_per_update
        line, = ax.plot(x, smooth, linewidth=1, label=f"{spec} train (moving avg)")
        ax.plot(len(loss) * tokens_per_update, math.log(result["models"][spec]["valid_ppl"]), "o", color=line.get_color())
        if "long" in result and result["long"]["variant"] == spec:
            ax.plot(len(loss) * tokens_per_update, result["long"]["valid_ce"], "*", markersize=12,
                    color=line.get_color(), label=f"{spec} valid after {len(loss)} updates")
    ax.axhline(result["baselines"]["bigram"], color="gray", linestyle="--", label="interpolated bigram (valid)")
    ax.set(xlabel="training tokens", ylabel="cross-entropy (nats/token)", ylim=(4.5, 7.5),
           title=f"Word level (V={result['V']}), H=D={args.hidden}; dots: valid after {args.updates} updates")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(OUT / f"lm_word_curves{'_' + args.tag if args.tag else ''}.png", dpi=110)  # per run, not committed


def run_word_summary(args):
    """Valid perplexity against training tokens for every variant, from lm_word*.json."""
    points, tokens_per_update, baselines = {}, None, None
    for path in sorted(OUT.glob("lm_word*.json")):
        run = json.loads(path.read_text())
        if "models" not in run:  # this summary itself
            continue
        baselines = baselines or run["baselines"]
        tokens_per_update = run["settings"]["batch_size"] * run["settings"]["bptt"]
        for spec, summary in run["models"].items():
            points.setdefault(spec, {})[summary["updates"]] = summary["valid_ppl"]
        if "long" in run:
            for updates, ppl, _ in run["long"]["checks"]:
                points.setdefault(run["long"]["variant"], {})[updates] = ppl
    table = {spec: dict(sorted(by_updates.items())) for spec, by_updates in sorted(points.items())}
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(6.5, 4.2))
    for spec, by_updates in table.items():
        ax.plot([u * tokens_per_update for u in by_updates], list(by_updates.values()), "o-", label=spec)
    ax.axhline(baselines["bigram_ppl"], color="gray", linestyle="--", label="interpolated bigram")
    ax.axhline(baselines["unigram_ppl"], color="gray", linestyle=":", label="unigram")
    ax.set(xlabel="training tokens", ylabel="validation perplexity", ylim=(150, 1100), yscale="log",
           title="Word level: V=10k, H=D=128, same updates for every variant")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(FIGURES / "lm_word_perplexity.png", dpi=110)
    save("word_summary", {"valid_ppl_by_updates": table, "tokens_per_update": tokens_per_update,
                          "baselines": baselines})


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="experiment", required=True)
    char = sub.add_parser("char")
    char.add_argument("--hidden", type=int, default=128)
    char.add_argument("--embedding", type=int, default=32)
    char.add_argument("--dropout", type=float, default=0.2)
    char.add_argument("--epochs", type=int, default=30)
    char.set_defaults(run=run_char)
    clip = sub.add_parser("clip")
    clip.add_argument("--scale", type=float, default=1.2, help="multiplies W_aa's random init")
    clip.add_argument("--lr", type=float, default=0.2)
    clip.add_argument("--clip", type=float, default=1.0)
    clip.add_argument("--epochs", type=int, default=3)
    clip.set_defaults(run=run_clip)
    word = sub.add_parser("word")
    word.add_argument("--train-tokens", type=int, default=1_000_000)
    word.add_argument("--valid-tokens", type=int, default=100_000)
    word.add_argument("--vocab", type=int, default=10_000)
    word.add_argument("--hidden", type=int, default=128)
    word.add_argument("--variants", default="lstm-untied,lstm-tied,rnn-untied,rnn-tied")
    word.add_argument("--updates", type=int, default=800, help="updates per variant (same token budget)")
    word.add_argument("--long-updates", type=int, default=3200, help="the best LSTM then trains on, at most to this")
    word.add_argument("--check-every", type=int, default=400, help="updates between its valid checks")
    word.add_argument("--long-variant", default="", help="which variant trains on (default: the better LSTM)")
    word.add_argument("--no-stop", action="store_true", help="train on to --long-updates even below the bigram")
    word.add_argument("--epochs", type=int, default=5)
    word.add_argument("--bptt", type=int, default=32)
    word.add_argument("--batch-size", type=int, default=16)
    word.add_argument("--lr", type=float, default=5e-3)
    word.add_argument("--clip-norm", type=float, default=5.0)
    word.add_argument("--dropout", type=float, default=0.0)
    word.add_argument("--tag", default="", help="suffix for the result and figure names")
    word.set_defaults(run=run_word)
    sub.add_parser("word-summary").set_defaults(run=run_word_summary)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
