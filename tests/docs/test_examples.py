"""Every example runs: each Python block and each shell line of README.md and docs/**/*.md
is run (``running.py`` says how each kind of line is handled) in a copy of a workspace of
small files (``workspace.py``), so that a renamed flag or method fails here, not for a user.

The counts below are the documentation's: a block added, removed or changed in kind
changes them, and the test names the file whose count moved, so no block goes unrun
without a decision.  Blocks that are not run (layer diagrams, command help, output) are
counted; JSON and TOML blocks are parsed.
"""

import concurrent.futures
import importlib.util
import json
import shutil
import tomllib
from collections import Counter

import pytest

from tests.docs import running, workspace
from tests.docs.blocks import Block, ROOT, all_blocks, blocks_of, documents

# fenced blocks of each document, by kind (blocks.KINDS)
BLOCKS = {
    "README.md": {"python": 1, "shell": 10},
    "docs/architecture.md": {"text": 2},
    "docs/guides/documents.md": {"shell": 1},
    "docs/guides/models.md": {"shell": 1},
    "docs/guides/pretrained.md": {"python": 1, "shell": 1},
    "docs/guides/ray.md": {"shell": 1},
    "docs/guides/report.md": {"shell": 1},
    "docs/guides/static.md": {"python": 1, "shell": 1},
    "docs/guides/subwords-phrases.md": {"python": 1, "shell": 2},
    "docs/guides/train.md": {"shell": 2},
    "docs/guides/vectors.md": {"python": 1, "shell": 1},
    "docs/migrating.md": {"python": 5, "shell": 2},
    "docs/reference/cli.md": {"text": 37},
}

# what each document's run does: Python blocks and shell lines run (python, run, serve),
# lines counted but not run (running.NOT_RUN)
EXECUTED = {
    "README.md": {"python": 1, "run": 20, "serve": 1, "install": 5, "suite": 1},
    "docs/guides/documents.md": {"run": 4, "serve": 1},
    "docs/guides/models.md": {"run": 7},
    "docs/guides/pretrained.md": {"python": 1, "run": 6},
    "docs/guides/ray.md": {"run": 4, "cluster": 1},
    "docs/guides/report.md": {"run": 1, "serve": 1},
    "docs/guides/static.md": {"python": 1, "run": 5, "install": 1},
    "docs/guides/subwords-phrases.md": {"python": 1, "run": 5},
    "docs/guides/train.md": {"run": 7, "marked": 1},
    "docs/guides/vectors.md": {"python": 1, "run": 6},
    "docs/migrating.md": {"python": 5, "run": 13, "peer": 2},
}


def _counts(blocks):
    counts = {}
    for block in blocks:
        counts.setdefault(block.path, Counter())[block.kind] += 1
    return {path: dict(kinds) for path, kinds in counts.items()}


def _differences(expected, found):
    return [f"{path}: expected {expected.get(path, {})}, found {found.get(path, {})}"
            for path in sorted(set(expected) | set(found)) if expected.get(path, {}) != found.get(path, {})]


def test_every_fenced_block_is_counted():
    found = _counts(all_blocks())
    assert not _differences(BLOCKS, found), (
        "the documentation's fenced blocks changed; update BLOCKS (and EXECUTED) after making the new "
        "blocks run:\n" + "\n".join(_differences(BLOCKS, found)))
    assert sum(sum(kinds.values()) for kinds in BLOCKS.values()) == 72


def test_every_block_has_a_kind_and_readable_directives():
    for block in all_blocks():
        assert block.kind != "unknown", f"{block.where}: a block in {block.language!r}, which the test does not classify"
        assert not block.problems, f"{block.where}: {'; '.join(block.problems)}"
        for name in block.placeholders:
            assert name in workspace.PLACEHOLDERS, f"{block.where}: no placeholder {name!r} in the workspace"
            assert name in block.runnable_text(), f"{block.where}: placeholder {name!r} is not in the block"
        if block.given:
            assert block.kind == "python", f"{block.where}: 'given' applies to Python blocks"


def test_every_shell_line_has_a_known_kind():
    for block in all_blocks():
        if block.kind == "shell":
            for line in running.command_lines(block.runnable_text()):
                for kind, part in running.command_parts(line):
                    assert kind != "unknown", f"{block.where}: the test does not know how to run {part!r}"


def test_data_blocks_parse():
    for block in all_blocks():
        if block.kind == "json":
            json.loads(block.text)
        elif block.kind == "toml":
            tomllib.loads(block.text)


def test_the_collector_reads_fences_and_directives(tmp_path, monkeypatch):
    page = tmp_path / "page.md"
    page.write_text("text\n\n<!-- example: placeholder big.bin; replace --epochs 15 => --epochs 1 -->\n\n"
                    "~~~bash\nwordvec train big.bin --epochs 15\n```\nstill inside\n~~~\n\n"
                    "````json\n{\"a\": 1}\n````\n", encoding="utf-8")
    monkeypatch.setattr("tests.docs.blocks.ROOT", tmp_path)
    first, second = blocks_of("page.md")
    assert (first.line, first.kind, first.placeholders) == (5, "shell", ("big.bin",))
    assert first.runnable_text() == "wordvec train big.bin --epochs 1\n```\nstill inside\n"
    assert (second.kind, second.text) == ("json", '{"a": 1}\n')
    assert running.command_parts("python3 -m venv .venv && .venv/bin/wordvec demo") == [
        ("install", "python3 -m venv .venv"), ("run", "wordvec demo")]


# ------------------------------------------------------------------ running the examples

@pytest.fixture(scope="module")
def template(tmp_path_factory):
    return workspace.write_template(tmp_path_factory.mktemp("docs") / "template")


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return running.program_folder(tmp_path_factory.mktemp("docs") / "bin")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    started = running.ForkServer(tmp_path_factory.mktemp("docs-logs"))
    try:
        yield started
    finally:
        started.close()


def _run_document(path, template, programs, server, tmp_path, extra_env=None):
    folder = tmp_path / "work"
    shutil.copytree(template, folder)
    env = running.environment(programs, tmp_path / "cache", extra_env)
    outcomes = []
    for block in blocks_of(path):
        if block.kind in ("python", "shell"):
            outcomes += running.run_block(block, folder, env, server)
            if outcomes and not outcomes[-1].ok:
                break
    return outcomes


@pytest.mark.parametrize("text, expected", [
    ("wordvec train corpus.txt -o v.bin --no-such-flag 3\n", "--no-such-flag"),
    ("echo king | wordvec similar vectors.bin --no-such-flag\n", "--no-such-flag"),
    ("from wordvec import Word2Vec\nWord2Vec(corpus_file='corpus.txt', no_such_argument=1)\n", "no_such_argument"),
])
def test_a_renamed_flag_or_argument_fails(text, expected, template, programs, server, tmp_path):
    block = Block("page.md", 1, "python" if "import" in text else "bash", text)
    shutil.copytree(template, tmp_path / "work")
    env = running.environment(programs, tmp_path / "cache")
    [outcome] = running.run_block(block, tmp_path / "work", env, server)
    assert not outcome.ok and expected in outcome.detail


RAY_PAGE = "docs/guides/ray.md"


def _run_ray_page(template, programs, folder):
    """The Ray page's outcomes, on a local head node that lives as long as the run."""
    server = running.ForkServer(folder / "logs")
    try:
        with running.ray_head(folder) as ray_env:
            return _run_document(RAY_PAGE, template, programs, server, folder, ray_env)
    finally:
        server.close()


@pytest.fixture(scope="module")
def ray_page(template, programs, tmp_path_factory):
    """The Ray page runs beside the other pages (its minute is mostly waiting for Ray's
    processes to start), in a thread of its own with its own fork server; its test waits."""
    if importlib.util.find_spec("ray") is None:
        yield None
        return
    folder = tmp_path_factory.mktemp("ray-page")
    (folder / "logs").mkdir()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        outcomes = pool.submit(_run_ray_page, template, programs, folder)
        yield outcomes
        concurrent.futures.wait([outcomes])


@pytest.mark.parametrize("path", [*sorted(set(EXECUTED) - {RAY_PAGE}), RAY_PAGE])  # Ray last: it runs meanwhile
def test_the_examples_of_a_document_run(path, template, programs, server, ray_page, tmp_path):
    if path == RAY_PAGE:
        if ray_page is None:
            pytest.skip("Ray is not installed (pip install -e '.[ray]')")
        outcomes = ray_page.result()
    else:
        outcomes = _run_document(path, template, programs, server, tmp_path)
    failed = [outcome for outcome in outcomes if not outcome.ok]
    assert not failed, "\n".join(f"{o.where}: {o.command}\n{o.detail}" for o in failed)
    done = dict(Counter(outcome.kind for outcome in outcomes))
    assert done == EXECUTED[path], f"{path}: expected {EXECUTED[path]} lines and blocks, ran {done}"


def test_every_document_with_examples_is_run():
    runnable = {block.path for block in all_blocks() if block.kind in ("python", "shell")}
    assert runnable == set(EXECUTED)
