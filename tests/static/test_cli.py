"""`wordvec static distill|train|pairs`, and `wordvec embed|similar` with a static model."""

import numpy as np

from tests.hostile.harness import run_main
from wordvec.models.static.model import StaticModel


def test_static_commands_end_to_end(tiny_teacher, tmp_path):
    model, trained, paired = tmp_path / "m", tmp_path / "m2", tmp_path / "m3"
    result = run_main("static", "distill", tiny_teacher, "-o", model, "--dims", "12")
    assert result.returncode == 0, result.stderr
    assert StaticModel.load(model).dim == 12

    (tmp_path / "s.txt").write_text("the movie was good\na dull film\n\nthe best song\n")
    result = run_main("embed", model, tmp_path / "s.txt", "-o", tmp_path / "s.npy")
    assert result.returncode == 0, result.stderr
    vectors = np.load(tmp_path / "s.npy")
    np.testing.assert_allclose(vectors, StaticModel.load(model).encode(
        ["the movie was good", "a dull film", "", "the best song"]), atol=1e-6)

    result = run_main("similar", model, "the", "movie", "was", "good", "--sentences", tmp_path / "s.txt", "--topn", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("the movie was good")
    result = run_main("similar", model, "movie", "--topn", "1")
    assert result.stdout.split()[0] == "movie"

    (tmp_path / "c.txt").write_text("".join(f"the movie was very good {i}\n" for i in range(50)))
    result = run_main("static", "train", model, tmp_path / "c.txt", "-o", trained, "--teacher", tiny_teacher,
                      "--epochs", "2", "--alpha", "0.1")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "m2.teacher-cache" / "teacher.json").is_file()
    assert not np.allclose(StaticModel.load(trained).vectors, StaticModel.load(model).vectors)

    (tmp_path / "p.tsv").write_text("the movie\ta film\ngood song\tgreat music\nthe river\twater\n")
    result = run_main("static", "pairs", trained, tmp_path / "p.tsv", "-o", paired, "--batch-size", "3",
                      "--matryoshka", "4", "8")
    assert result.returncode == 0, result.stderr
    assert "contrastive loss" in result.stdout


def test_the_output_gate_refuses_an_input_before_any_work(tiny_teacher, distilled, tmp_path):
    """Each static command's output is checked against its inputs first: the model it starts
    from, its text, the teacher (a directory: nothing may be written inside it)."""
    model = tmp_path / "m"
    distilled.save(model)
    (tmp_path / "c.txt").write_text("the movie was good\n")
    (tmp_path / "p.tsv").write_text("the movie\ta film\n")
    before = {path: path.read_bytes() for path in sorted(tmp_path.rglob("*")) if path.is_file()}
    cases = [("static", "distill", tiny_teacher, "-o", tiny_teacher / "inside"),
             ("static", "train", model, tmp_path / "c.txt", "-o", model, "--teacher", tiny_teacher),
             ("static", "pairs", model, tmp_path / "p.tsv", "-o", model / "inside")]
    for argv in cases:
        result = run_main(*argv)
        assert result.returncode == 2 and "refusing to write" in result.stderr, (argv, result.stderr)
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert before == {path: path.read_bytes() for path in sorted(tmp_path.rglob("*")) if path.is_file()}
    assert not (tiny_teacher / "inside").exists()
