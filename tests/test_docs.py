"""The documentation's reference pages are what the code says (docs/reference/generate.py)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GENERATE = ROOT / "docs" / "reference" / "generate.py"


def _generator():
    spec = importlib.util.spec_from_file_location("generate", GENERATE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_pages_are_current():
    result = subprocess.run([sys.executable, str(GENERATE), "--check"], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_command_line_page_lists_every_command_and_flag():
    from wordvec.cli import COMMANDS, build_parser

    page = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    assert all(f"| `{name}` |" in page for name in COMMANDS)
    train = build_parser(argv=["--help"])._subparsers._group_actions[0].choices["train"]
    flags = [option for action in train._actions for option in action.option_strings if option.startswith("--") and option != "--help"]
    assert flags and all(f"`{flag}`" in page for flag in flags)


def test_the_python_page_documents_every_public_name():
    import wordvec

    page = (ROOT / "docs" / "reference" / "api.md").read_text(encoding="utf-8")
    for name in wordvec.__all__:
        module, attribute = wordvec._FRONT_DOOR[name]
        assert f"::: {module}.{attribute}\n" in page


def test_a_stale_page_is_caught(tmp_path, monkeypatch):
    generator = _generator()
    stale = tmp_path / "cli.md"
    stale.write_text("an old page\n", encoding="utf-8")
    monkeypatch.setattr(generator, "CLI_PAGE", stale)
    monkeypatch.setattr(generator, "API_PAGE", tmp_path / "api.md")
    assert generator.main(["--check"]) == 1
    assert generator.main([]) == 0 and generator.main(["--check"]) == 0
