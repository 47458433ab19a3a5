"""Self-attention language model vs LSTM vs bigram, on the data and token
budget of bench_lm.py's RNN/LSTM tables.

    .venv/bin/python benchmarks/bench_attention_lm.py char     # dinosaur names, per-epoch valid curve
    .venv/bin/python benchmarks/bench_attention_lm.py word --models attention-tied
    .venv/bin/python benchmarks/bench_attention_lm.py word --models lstm-attention-tied
    .venv/bin/python benchmarks/bench_attention_lm.py word-summary   # table + plot from the word runs
    .venv/bin/python benchmarks/bench_attention_lm.py weights  # attention weights on one validation sentence

Results go to benchmarks/out/lm_attention_*.json (gitignored), plots to benchmarks/figures/.
"""

import argparse
import json
import math
import time

import numpy as np

from bench_lm import FIGURES, OUT, dino_split, ngram_baselines, plt, word_split
from wordvec.data.lm_data import LMVocab, read_lines
from wordvec.models.lm.attention import AttentionLM
from wordvec.models.lm.rnn import RNNLM


def save(name, obj):
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"lm_attention_{name}.json").write_text(json.dumps(obj, indent=1))
    print(json.dumps({k: v for k, v in obj.items() if k != "curves"}, indent=1), flush=True)


def make_model(spec, vocab, width, ffn, blocks, context, dropout):
    """spec "attention-tied" | "lstm-untied" | "lstm-attention-tied" | ...: that model, seed 1."""
    kind, tie = spec.rsplit("-", 1)
    if kind == "attention":
        return AttentionLM(vocab, hidden_size=ffn, embedding_size=width, blocks=blocks, context=context,
                           tie_embeddings=tie == "tied", dropout=dropout, seed=1)
    return RNNLM(vocab, cell=kind, hidden_size=width, embedding_size=width, tie_embeddings=tie == "tied",
                 dropout=dropout, seed=1)


# ---------------------------------------------------------------- char level
def run_char(args):
    train_lines, valid_lines = dino_split()
    vocab = LMVocab.build(train_lines, "char", lowercase=True)
    train, valid = vocab.encode(train_lines), vocab.encode(valid_lines)
    result = {"baselines": ngram_baselines(train, valid, len(vocab)), "models": {},
              "settings": {k: v for k, v in vars(args).items() if k != "run"}}
    models = {
        # bench_lm.py char's LSTM exactly (H=128, D=32, dropout 0.2)
        "lstm": RNNLM(vocab, cell="lstm", hidden_size=128, embedding_size=32, dropout=0.2, seed=1),
        "attention": AttentionLM(vocab, hidden_size=args.ffn, embedding_size=args.width, blocks=args.blocks,
                                 context=32, tie_embeddings=True, dropout=0.2, seed=1),
        # the same LSTM, its states attending to the earlier ones (and 32 carried over)
        "lstm-attention": RNNLM(vocab, cell="lstm-attention", hidden_size=128, embedding_size=32, dropout=0.2,
                                seed=1),
    }
    for name, model in models.items():
        start = time.perf_counter()
        model.fit(train, valid, epochs=args.epochs, bptt=32, batch_size=16, lr=3e-3, optimizer="adam", clip=5.0,
                  progress=False, eval_batch_size=1)
        per_epoch = len(model.steps) // len(model.history)
        updates = [per_epoch * h["epoch"] for h in model.history]
        result["models"][name] = {
            "parameters": model.num_parameters, "seconds": time.perf_counter() - start,
            "best_valid": min(h["valid_loss"] for h in model.history), "final_valid": model.history[-1]["valid_loss"],
            "curve": [[u, h["valid_loss"]] for u, h in zip(updates, model.history)]}
        print(name, result["models"][name]["best_valid"], flush=True)
    models["attention"].save(OUT / "lm_attention_char_model")
    result["samples"] = [vocab.decode(s) for s in models["attention"].sample(10, temperature=1.0, seed=0)]
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(6, 4))
    for name, run in result["models"].items():
        curve = np.array(run["curve"])
        ax.plot(curve[:, 0], np.exp(curve[:, 1]), label=f"{name} ({run['parameters'] / 1e3:.0f}k parameters)")
    ax.axhline(math.exp(result["baselines"]["bigram"]), color="gray", linestyle="--", label="interpolated bigram")
    ax.set(xlabel="updates (B·T = 512 characters each)", ylabel="validation perplexity", ylim=(4.5, 10),
           title="Dinosaur names, char level: self-attention vs LSTM")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(FIGURES / "lm_attention_char.png", dpi=110)
    save("char", result)


# ---------------------------------------------------------------- word level
def word_data(args):
    train_path, valid_path = word_split(1_000_000, args.valid_tokens)
    train_lines, valid_lines = read_lines(train_path), read_lines(valid_path)
    vocab = LMVocab.build(train_lines, "word", max_size=10_000)
    return vocab, vocab.encode(train_lines), vocab.encode(valid_lines)


def run_word(args):
    vocab, train, valid = word_data(args)
    options = dict(epochs=5, bptt=32, batch_size=16, lr=args.lr, optimizer="adam", clip=5.0, progress=False,
                   eval_batch_size=32)
    for spec in args.models.split(","):
        model = make_model(spec, vocab, args.width, args.ffn, args.blocks, 32, 0.0)
        run = {"spec": spec, "parameters": model.num_parameters, "checks": [],
               "settings": {k: v for k, v in vars(args).items() if k != "run"}}
        for target in args.checks:
            model.fit(train, valid, max_updates=target, **options)
            seconds = sum(h["seconds"] for h in model.history)
            run["checks"].append([len(model.steps), model.history[-1]["valid_perplexity"], seconds])
            print(spec, run["checks"][-1], flush=True)
        if spec.startswith("attention"):
            model.save(OUT / "lm_attention_word_model")
        save(f"word_{spec}", run)


def run_word_summary(args):
    vocab, train, valid = word_data(args)
    base = ngram_baselines(train, valid, len(vocab))
    runs = [json.loads(p.read_text()) for p in sorted(OUT.glob("lm_attention_word_*.json"))
            if p.name != "lm_attention_word_summary.json"]
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(6.5, 4.2))
    for run in runs:
        checks = np.array(run["checks"])
        ax.plot(checks[:, 0], checks[:, 1], "o-", label=f"{run['spec']} ({run['parameters'] / 1e6:.2f}M parameters)")
    ax.axhline(math.exp(base["bigram"]), color="gray", linestyle="--", label="interpolated bigram")
    ax.axhline(math.exp(base["unigram"]), color="gray", linestyle=":", label="unigram")
    ax.set(xlabel="updates (B·T = 512 tokens each)", ylabel="validation perplexity", yscale="log", ylim=(150, 1100),
           title="Word level (V=10k): self-attention vs LSTM, same updates")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(FIGURES / "lm_attention_word.png", dpi=110)
    save("word_summary", {"baselines": base | {"bigram_ppl": math.exp(base["bigram"]),
                                                "unigram_ppl": math.exp(base["unigram"])},
                          "runs": {run["spec"]: run["checks"] for run in runs}})


# ---------------------------------------------------------------- attention weights
def run_weights(args):
    model = AttentionLM.load(OUT / f"lm_attention_{args.level}_model")
    if args.level == "word":  # validation lines are whole documents: a span of one
        _, valid_path = word_split(1_000_000, args.valid_tokens)
        words = read_lines(valid_path)[args.line].split()[args.start : args.start + args.length]
        tokens = [model.vocab.tokens[i] for i in model.vocab.encode([" ".join(words)])[1:-1]]
    else:
        tokens = ["\n"] + list(dino_split()[1][args.line])
    ids = [model.vocab.index.get(t, model.vocab.unk) for t in tokens]
    alpha = model.attention_weights(ids)
    labels = ["<eos>" if t in ("\n", "<eos>") else t for t in tokens]
    pyplot = plt()
    blocks = alpha.shape[0]
    fig, axes = pyplot.subplots(1, blocks, figsize=(5.2 * blocks, 5))
    for b, ax in enumerate(np.atleast_1d(axes)):
        ax.imshow(alpha[b], cmap="Blues", vmin=0, vmax=1)
        ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=7)
        ax.set_yticks(range(len(labels)), labels, fontsize=7)
        ax.set(title=f"block {b + 1}", xlabel="attends to (key position j <= i)", ylabel="query position i")
    fig.suptitle("Causal self-attention weights alpha_ij (row i predicts the token after i)")
    fig.tight_layout()
    fig.savefig(FIGURES / f"lm_attention_weights_{args.level}.png", dpi=110)
    print(" ".join(labels))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="experiment", required=True)
    for name, run in (("char", run_char), ("word", run_word), ("word-summary", run_word_summary),
                      ("weights", run_weights)):
        p = sub.add_parser(name)
        p.add_argument("--width", type=int, default=None, help="D (default 64 char, 128 word)")
        p.add_argument("--ffn", type=int, default=256, help="attention: feed-forward width F")
        p.add_argument("--blocks", type=int, default=2)
        p.add_argument("--epochs", type=int, default=30, help="char level")
        p.add_argument("--models", default="attention-tied,lstm-tied", help="word level")
        p.add_argument("--lr", type=float, default=5e-3, help="word level (bench_lm.py's 0.005)")
        p.add_argument("--checks", type=int, nargs="+", default=[300, 800, 1300, 1800],
                       help="word level: updates at which validation is measured")
        p.add_argument("--valid-tokens", type=int, default=50_000)
        p.add_argument("--level", choices=("char", "word"), default="word", help="weights: which saved model")
        p.add_argument("--line", type=int, default=0, help="weights: which validation line")
        p.add_argument("--start", type=int, default=0, help="weights, word level: first word of the span")
        p.add_argument("--length", type=int, default=20, help="weights, word level: words in the span")
        p.set_defaults(run=run)
    args = parser.parse_args()
    if args.width is None:
        args.width = 64 if args.experiment == "char" or args.level == "char" else 128
    args.run(args)


if __name__ == "__main__":
    main()
