"""One flag vocabulary for every command (docs/cli.md): every command's --help, the aliases,
no abbreviations, the "did you mean" of a mistyped flag or command, --version."""

import re

import pytest

import wordvec
from wordvec.cli import FOREIGN_COMMAND_LINES, build_parser, main
from wordvec.cli.flags import TRAINING_COMMANDS, VOCABULARY, command_parsers

PARSER = build_parser()
COMMANDS = [words for words, _ in command_parsers(PARSER) if words and words[0] not in FOREIGN_COMMAND_LINES]


def run(capsys, *argv):
    try:
        status = main([str(a) for a in argv])
    except SystemExit as stop:  # --help, --version and usage errors end in argparse
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err


def flag(spelling):
    """A regular expression for ``spelling`` as a whole flag (--dim, not --dims)."""
    return re.compile(rf"(?<![\w-]){re.escape(spelling)}(?![\w-])")


def test_the_registry_reaches_every_training_command():
    assert set(TRAINING_COMMANDS) <= set(COMMANDS)
    assert len(COMMANDS) > 25  # every command and subcommand, not only the top level


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_every_help_speaks_the_one_vocabulary(capsys, words):
    status, out, err = run(capsys, *words, "--help")
    assert status == 0 and err == "" and out.startswith("usage: wordvec " + " ".join(words))
    for aliases in VOCABULARY.values():
        for alias in aliases:
            own = any(alias in action.option_strings for action in dict(command_parsers(PARSER))[words]._actions)
            assert own or not flag(alias).search(out), f"`wordvec {' '.join(words)} --help` shows {alias}"
    for name in TRAINING_COMMANDS.get(words, ()):
        assert flag(name).search(out), f"`wordvec {' '.join(words)} --help` lacks {name}"


def test_abbreviations_are_off_on_every_parser():
    for words, parser in command_parsers(PARSER):
        assert parser.allow_abbrev is False, words


@pytest.mark.parametrize("words", sorted(TRAINING_COMMANDS), ids=" ".join)
def test_every_alias_parses_as_its_one_name(words):
    parser = dict(command_parsers(PARSER))[words]
    for name in TRAINING_COMMANDS[words]:
        action = parser._option_string_actions[name]
        for alias in VOCABULARY[name]:
            meant = parser._option_string_actions.get(alias)
            own = meant is not None and alias in meant.option_strings  # GloVe's --learning-rate
            assert meant is action or own, (words, alias)


def test_aliases_reach_the_same_setting():
    required = {("train",): ["c.txt", "-o", "v.bin"], ("doc2vec", "train"): ["c.txt", "-o", "m.d2v"],
                ("classify", "train"): ["t.txt", "-o", "m.bin"], ("lm", "train"): ["t.txt", "-o", "m"]}
    for words, rest in required.items():
        given = PARSER.parse_args([*words, *rest, "--epoch", "7", "--threads", "1", "--dim", "12", "--lr", "0.5"])
        named = PARSER.parse_args([*words, *rest, "--epochs", "7", "--workers", "1", "--vector-size", "12",
                                   "--alpha", "0.5"])
        assert vars(given) == vars(named), words
    args = PARSER.parse_args(["classify", "train", "t.txt", "-o", "m.bin", "--epochs", "9", "--workers", "3"])
    assert (args.epoch, args.threads) == (9, 3)  # classify's own fields, under the shared names


def test_an_alias_is_never_read_as_a_prefix(capsys):
    status, _, err = run(capsys, "doc2vec", "train", "c.txt", "-o", "m.d2v", "--vector-si", "5")
    assert status == 2 and "unrecognized arguments: --vector-si 5; did you mean --vector-size?" in err
    args = PARSER.parse_args(["doc2vec", "train", "c.txt", "-o", "m.d2v", "--epoch", "1"])
    assert args.epochs == 1


@pytest.mark.parametrize("argv, said", [
    (["train", "c.txt", "-o", "v.bin", "--epoc", "3"],
     "unrecognized arguments: --epoc 3; did you mean --epochs? (see `wordvec train --help`)"),
    (["classify", "train", "t.txt", "-o", "m.bin", "--wordngrams", "2"],
     "did you mean --word-ngrams? (see `wordvec classify train --help`)"),
    (["similar", "v.bin", "king", "--top", "3"], "did you mean --topn? (see `wordvec similar --help`)"),
    (["simlar", "v.bin", "king"], "unknown command 'simlar'; did you mean similar? (see `wordvec --help`)"),
    (["classify", "trian", "t.txt"], "unknown command 'trian'; did you mean train? (see `wordvec classify --help`)"),
    (["train", "c.txt", "-o", "v.bin", "--model", "sgg"], "--model 'sgg' is not a choice; did you mean sg?"),
    (["task", "ner", "--data", "d", "--lr", "nan"], "argument --lr (--alpha): must be a finite number"),
])
def test_mistakes_name_the_command_help_and_the_closest_spelling(capsys, argv, said):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wordvec: error: ") and said in lines[0], err


@pytest.mark.parametrize("group", ["doc2vec", "classify", "lm", "task"])
def test_a_group_without_its_command_lists_them_as_COMMAND(capsys, group):
    status, _, err = run(capsys, group)
    commands = dict(command_parsers(PARSER))[(group,)]._subparsers._group_actions[0].choices
    assert status == 2 and f"wordvec {group} needs a COMMAND: {', '.join(commands)}" in err
    _, out, _ = run(capsys, group, "--help")
    assert "COMMAND" in out and "{" not in out.splitlines()[0]


def test_version(capsys):
    status, out, _ = run(capsys, "--version")
    assert status == 0 and out.strip() == f"wordvec {wordvec.__version__}"
