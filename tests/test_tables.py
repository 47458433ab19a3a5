"""README's comparison tables are what benchmarks/results/ gives (benchmarks/tables.py)."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tables_module():
    spec = importlib.util.spec_from_file_location("benchmark_tables", ROOT / "benchmarks" / "tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tables = _tables_module()


@pytest.mark.parametrize("document", tables.DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_table_equals_what_its_records_give(document):
    text = document.read_text(encoding="utf-8")
    assert tables.render(text) == text, (f"a table in {document} differs from benchmarks/results/: "
                                         "run .venv/bin/python benchmarks/tables.py")


def test_the_generated_tables_are_there():
    """README's headline table and benchmarks/README's table of each job come from their records."""
    assert "headline" in tables.tables_in((ROOT / "README.md").read_text(encoding="utf-8"))
    assert {"word2vec", "vocab", "count", "doc2vec", "doc2vec-tutorial", "classify", "load", "phrases", "evaluate", "ann", "static",
            "estimate"} <= set(tables.tables_in((ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")))


def _rows_outside_blocks(text):
    return [line for line in tables.BLOCK.sub("", text).splitlines() if line.startswith("|")]


def test_benchmarks_readme_has_no_table_made_by_hand():
    """Every table row of benchmarks/README.md lies between table markers."""
    assert _rows_outside_blocks("<!-- table:x -->\n| a |\n<!-- /table -->\n| b |") == ["| b |"]
    assert _rows_outside_blocks((ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")) == []


def test_every_row_of_benchmarks_readme_names_its_record():
    text = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    for match in tables.BLOCK.finditer(text):
        rows = [line for line in match.group(3).splitlines() if line.startswith("|") and not line.startswith("|---")]
        assert all(".json`" in row for row in rows[1:]), (match.group(2), rows)


def test_the_tables_name_the_machine_they_ran_on():
    text = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    for match in tables.BLOCK.finditer(text):
        assert "Ran on " in match.group(3) and " CPUs" in match.group(3), match.group(2)


def test_every_record_is_a_complete_benchmark_record():
    records = sorted((ROOT / "benchmarks" / "results").rglob("*.json"))
    for path in records:
        record = json.loads(path.read_text(encoding="utf-8"))
        if record.get("format") != "wordvec-benchmark-record":
            continue  # an older kind of record (e.g. bitwise-20261125.json)
        for key in ("command_line", "commit", "system", "load_before", "load_after", "runs"):
            assert record.get(key) is not None, (path, key)
        assert record["runs"], path
        for run in record["runs"]:  # records.RUN_FIELDS, None only where a run could not measure one
            assert {"wall_seconds", "cpu_seconds", "peak_rss_mb"} <= set(run), (path, run)
            assert run["wall_seconds"] is None or run["wall_seconds"] > 0, (path, run)


def test_a_missing_record_fails_the_check(monkeypatch, tmp_path):
    monkeypatch.setattr(tables, "RESULTS", tmp_path)  # no records at all
    with pytest.raises(tables.MissingRecord, match="word2vec.json"):
        tables.render("<!-- table:headline -->\n| old |\n<!-- /table -->")


def test_a_changed_figure_is_caught(tmp_path, monkeypatch):
    """Copy the records, change one measured peak: benchmarks/README's table no longer matches."""
    for path in (ROOT / "benchmarks" / "results").rglob("*.json"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    record = json.loads((tmp_path / "estimate.json").read_text(encoding="utf-8"))
    record["runs"][0]["peak_rss_mb"] *= 2
    (tmp_path / "estimate.json").write_text(json.dumps(record), encoding="utf-8")
    text = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    assert tables.render(text) == text
    monkeypatch.setattr(tables, "RESULTS", tmp_path)
    assert tables.render(text) != text
