"""An output stream whose encoding cannot hold a word: the error says writing failed."""

from .harness import assert_clean_failure, run_cli


def test_an_unencodable_output_is_reported_as_a_write_error(tmp_path):
    vectors = tmp_path / "v.txt"
    vectors.write_text("3 2\nx 1 0\ncafé 0.9 0.1\nnaïve 0.8 0.3\n", encoding="utf-8")
    result = run_cli("similar", vectors, "x", env={"PYTHONIOENCODING": "ascii"})
    line = assert_clean_failure(result, "writing output failed", "'ascii'")
    assert "not valid UTF-8" not in line and "input" not in line
    assert result.returncode == 2
    # the same file and query with an encoding that holds the words: the neighbours print
    fine = run_cli("similar", vectors, "x", env={"PYTHONIOENCODING": "utf-8"})
    assert fine.returncode == 0, fine.stderr
    assert "café" in fine.stdout and "naïve" in fine.stdout
