"""One flag vocabulary for every command, and the help a mistyped flag or command gets.

Every command that trains names a setting the way ``wordvec train`` does, with gensim's
names (``--epochs --workers --vector-size --alpha --min-count --window ...``).  The
spellings users bring from fastText, the word2vec C tool and other libraries (``--epoch``,
``--threads``, ``--dim``, ``--lr`` ...) are accepted as aliases wherever the setting
exists: ``apply_vocabulary`` walks the built parsers, shows each setting under its one name
in ``--help`` and makes every other spelling parse to the same option.  docs/cli.md lists
the table.
"""

import argparse

# the one name of a setting -> the other spellings accepted for it
VOCABULARY = {
    "--epochs": ("--epoch", "--iter", "--iterations"),
    "--workers": ("--threads", "--thread"),
    "--vector-size": ("--dim", "--size", "--dimensions", "--embedding-size", "--embedding"),
    "--alpha": ("--lr", "--learning-rate"),
    "--min-alpha": ("--min-lr",),
    "--min-count": ("--minCount", "--min-freq"),
    "--window": ("--ws", "--window-size"),
    "--negative": ("--neg",),
    "--min-n": ("--minn",),
    "--max-n": ("--maxn",),
    "--word-ngrams": ("--wordNgrams",),
    "--min-count-label": ("--minCountLabel",),
}
CANONICAL = {alias: name for name, aliases in VOCABULARY.items() for alias in (name, *aliases)}

# the commands that train (their words on the command line) and the settings each must show
TRAINING_COMMANDS = {
    ("train",): ("--epochs", "--workers", "--vector-size", "--alpha", "--min-count", "--window"),
    ("doc2vec", "train"): ("--epochs", "--workers", "--vector-size", "--alpha", "--min-count", "--window"),
    ("classify", "train"): ("--epochs", "--workers", "--vector-size", "--alpha", "--min-count"),
    ("classify", "quantize"): ("--epochs", "--workers", "--alpha"),
    ("lm", "train"): ("--epochs", "--workers", "--vector-size", "--alpha", "--min-count"),
    ("task", "ner"): ("--epochs", "--vector-size", "--alpha", "--window"),
    ("task", "pos"): ("--epochs", "--vector-size", "--alpha", "--window"),
    ("task", "sentiment"): ("--epochs", "--vector-size", "--alpha", "--window"),
    ("task", "charlm"): ("--epochs", "--vector-size", "--alpha", "--window"),
    ("cooccur",): ("--min-count", "--window"),
    ("phrases",): ("--min-count",),
}


def command_parsers(parser, words=()):
    """Every parser under ``parser`` with the words that reach it: ((), top), (("train",), ...)."""
    yield words, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from command_parsers(sub, words + (name,))


def apply_vocabulary(parser):
    """Give every option of ``parser`` and its subcommands named in VOCABULARY its one name
    in the help and every alias on the command line."""
    for _, command in command_parsers(parser):
        for action in list(command._actions):
            names = [CANONICAL[s] for s in action.option_strings if s in CANONICAL]
            if not names:
                continue
            name = names[0]
            if command._option_string_actions.get(name, action) is not action:
                continue  # the command has an option of that name already: this one keeps its own (GloVe's --learning-rate)
            short = [s for s in action.option_strings if not s.startswith("--")]
            action.option_strings = short + [name]
            if action.metavar is None and action.nargs != 0:  # not argparse's EPOCH, LR
                action.metavar = "F" if name in ("--alpha", "--min-alpha") else "N"
            for spelling in (name, *VOCABULARY[name]):
                taken = command._option_string_actions.get(spelling)
                if taken is None or taken is action:  # an option of its own with that name wins
                    command._option_string_actions[spelling] = action


def closest(word, candidates):
    """The candidate nearest to ``word`` (a typo, another tool's spelling), or None."""
    import difflib  # only for a mistake: not part of every command's start-up

    candidates = list(candidates)
    if word in CANONICAL and CANONICAL[word] in candidates:
        return CANONICAL[word]
    folded = {c.lower(): c for c in candidates}
    found = difflib.get_close_matches(word.lower(), list(folded), n=1, cutoff=0.6)
    return folded[found[0]] if found else None
