"""`wordvec similar|analogy|evaluate|convert|info` through wordvec.cli.main: output, exit codes, errors."""

import json

import numpy as np
import pytest

from wordvec.cli import main
from wordvec.vectors.keyed import KeyedVectors
from wordvec.vectors.files import load_vectors


@pytest.fixture
def vectors_bin(tmp_path):
    """king - man + woman = queen exactly (word = concept + gender), plus filler words."""
    rng = np.random.default_rng(3)
    concept = {name: rng.standard_normal(16) for name in ("person", "royal", "child")}
    gender = {"m": rng.standard_normal(16), "f": rng.standard_normal(16)}
    table = {"man": ("person", "m"), "woman": ("person", "f"), "king": ("royal", "m"),
             "queen": ("royal", "f"), "boy": ("child", "m"), "girl": ("child", "f")}
    words = list(table) + [f"filler{i}" for i in range(30)]
    vectors = [concept[c] + gender[g] for c, g in table.values()] + list(rng.standard_normal((30, 16)) * 1.5)
    path = tmp_path / "vectors.bin"
    KeyedVectors(words, np.array(vectors, dtype=np.float32)).save_word2vec_format(path, binary=True)
    return path


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def assert_user_error(status, out, err, *needles):
    assert status == 2
    assert err.startswith("wordvec: error: ") and err.count("\n") == 1  # one sentence, no traceback
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err


def test_analogy_answers_queen(capsys, vectors_bin):
    for method in ("3cosadd", "3cosmul"):
        status, out, _ = run(capsys, "analogy", vectors_bin, "man", "king", "woman", "--method", method, "--topn", "3")
        assert status == 0
        lines = out.splitlines()
        assert len(lines) == 3 and lines[0].split()[0] == "queen"


def test_similar_prints_topn_neighbours_with_scores(capsys, vectors_bin):
    status, out, _ = run(capsys, "similar", vectors_bin, "king", "woman", "--negative", "man", "--topn", "4")
    assert status == 0
    rows = [line.split() for line in out.splitlines()]
    assert len(rows) == 4 and rows[0][0] == "queen"
    scores = [float(score) for _, score in rows]
    assert scores == sorted(scores, reverse=True) and all(-1 <= s <= 1 for s in scores)


def test_info_describes_the_file(capsys, vectors_bin):
    status, out, _ = run(capsys, "info", vectors_bin, "--head", "3")
    assert status == 0
    fields = dict(line.split(None, 1) for line in out.splitlines() if " " in line)
    assert fields["format"].strip() == "word2vec binary"
    assert fields["words"].strip() == "36" and fields["dimensions"].strip() == "16"
    assert "first words man woman king" in out and "norms" in fields


def test_convert_between_all_formats(capsys, tmp_path, vectors_bin):
    original = load_vectors(vectors_bin)
    chain = [vectors_bin, tmp_path / "v.txt", tmp_path / "v.glove", tmp_path / "v.wv", tmp_path / "v.vec"]
    for source, target in zip(chain, chain[1:]):
        status, out, _ = run(capsys, "convert", source, target)
        assert status == 0 and "wrote 36 vectors" in out
    status, _, _ = run(capsys, "convert", tmp_path / "v.vec", tmp_path / "v.data", "--binary")
    assert status == 0
    back = load_vectors(tmp_path / "v.data", fmt="binary")
    assert back.index_to_key == original.index_to_key
    np.testing.assert_array_equal(back.vectors, original.vectors)
    (tmp_path / "headerless.any").write_text("a 1 2\nb 3 4\n")
    status, out, _ = run(capsys, "info", tmp_path / "headerless.any", "--glove")
    assert status == 0 and "GloVe text" in out


def test_evaluate_json_has_the_stable_shape(capsys, vectors_bin, tmp_path):
    questions = tmp_path / "q.txt"
    questions.write_text(": family\nman king woman queen\nman boy woman girl\n: gram1-x\nking man queen woman\n")
    status, out, _ = run(capsys, "evaluate", vectors_bin, "--json", "--analogies", questions)
    assert status == 0
    result = json.loads(out)
    assert result["analogy"]["total"] == 1.0 and result["analogy"]["answered"] == 3
    assert result["analogy"]["semantic"] == 1.0 and result["analogy"]["syntactic"] == 1.0
    assert set(result["similarity"]) == {"wordsim353", "simlex999"}  # bundled by default
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("king\tqueen\t8\nman\tfiller3\t1\nboy\tgirl\t7\n")
    status, out, _ = run(capsys, "evaluate", vectors_bin, "--json", "--method", "3cosmul",
                         "--similarity", pairs, "--similarity", pairs, "--restrict-vocab", "3")
    result = json.loads(out)
    assert result["analogy"]["answered"] == 0 and result["analogy"]["questions"] == 19544
    assert list(result["similarity"]) == ["pairs"]  # keyed by file stem (given twice: one entry)
    stats = result["similarity"]["pairs"]
    assert (stats["pairs"], stats["covered"]) == (3, 3) and -1.0 <= stats["spearman"] <= 1.0


def test_evaluate_prints_a_table(capsys, vectors_bin):
    status, out, _ = run(capsys, "evaluate", vectors_bin)
    assert status == 0
    assert "capital-world" in out and "coverage" in out and "simlex999" in out and "36 words x 16 dimensions" in out


def test_user_errors_are_one_sentence_and_exit_2(capsys, tmp_path, vectors_bin):
    assert_user_error(*run(capsys, "similar", tmp_path / "missing.bin", "king"), "missing.bin")
    assert_user_error(*run(capsys, "similar", vectors_bin, "kingdom"), "'kingdom'", "not in the vocabulary")
    assert_user_error(*run(capsys, "analogy", vectors_bin, "man", "king", "emperor"), "'emperor'")
    broken = tmp_path / "broken.txt"
    broken.write_text("2 3\na 1 2 3\nb 1 x 3\n")
    assert_user_error(*run(capsys, "info", broken), "broken.txt, line 3", "'x' is not a number")
    assert_user_error(*run(capsys, "convert", vectors_bin, tmp_path / "out.unknown"), "cannot tell the format")
    assert_user_error(*run(capsys, "evaluate", vectors_bin, "--analogies", tmp_path / "none.txt"), "none.txt")


def test_help_teaches_with_examples(capsys):
    for command in ("similar", "analogy", "evaluate", "convert", "info"):
        with pytest.raises(SystemExit) as exit_:
            main([command, "--help"])
        assert exit_.value.code == 0
        out = capsys.readouterr().out
        assert "examples:" in out and f"wordvec {command}" in out and ".bin" in out
