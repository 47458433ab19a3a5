"""The folder tree is the architecture (docs/architecture.md): no import cycles anywhere in
the package, imports at the top of files, and the import-linter contracts hold."""

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "wordvec"


def strongly_connected_components(graph):
    """Tarjan's algorithm, iterative: the cycles of a module graph, as sets of modules."""
    index, low, on_stack, stack, components, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]; counter[0] += 1
        stack.append(root); on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]; counter[0] += 1
                    stack.append(child); on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop(); on_stack.discard(member); component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(component)
    return components


def module_graph():
    graph = grimp.build_graph("wordvec", include_external_packages=False)
    return {m: {i for i in graph.find_modules_directly_imported_by(m)} for m in graph.modules}


def test_strongly_connected_components_finds_a_planted_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert strongly_connected_components(graph) == [{"a", "b", "c"}]


def test_the_package_has_no_import_cycles():
    # a package's __init__ re-exporting its own modules is not a cycle of meaning
    graph = {m: {i for i in imports if not m.startswith(i + ".")} for m, imports in module_graph().items()}
    cycles = strongly_connected_components(graph)
    assert cycles == [], "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in cycles)


# Imports inside functions are allowed only for optional heavy dependencies and measured
# start-up cost; each such import of wordvec's own code must be listed here with its reason.
DEFERRED_OWN_IMPORTS = {
    # `import wordvec` must not import Numba (0.5 s): the front door resolves names on first use
    "wordvec/__init__.py",
    # the command registry imports only the command's module: `wordvec --help` 0.09-0.13 s, not 1.3-1.8 s
    "wordvec/cli/__init__.py",
    # classify's --pretrained-vectors reader: wordvec.vectors loads SciPy, 0.45 s and ~30 MB of
    # every `wordvec classify` process otherwise
    "wordvec/models/classifier/model.py",
    # `wordvec train` without --ray: the distributed counting and training load SciPy, ~0.25 s of
    # every local run; and of its models only the one --model names (the count models load SciPy)
    "wordvec/cli/ray_run.py",
    "wordvec/cli/train/options.py",
    # `classify predict`/`test` run on NumPy alone (models.classifier_predict): the compiled
    # classifier (Numba, ~0.6 s of a predict process) is imported only to train, quantize,
    # or read a model with character n-grams; the training config (~1 ms) only to train
    "wordvec/cli/classify.py",
    # the Huffman tree of an hs model's labels: ~0.5 ms of every other predict process
    "wordvec/models/classifier/predict.py",
    # loading a small word2vec .bin and querying it runs on NumPy alone (vectors.reading,
    # binary_records): Numba's import and the cached kernels cost ~0.3 s and ~50 MB of the
    # process, so the compiled readers, the compiled word table and search's many-query
    # merge, pooling and n-gram hashing are imported where they are first used
    "wordvec/vectors/reading.py",
    "wordvec/vectors/wordtable.py",
    "wordvec/vectors/search.py",
    "wordvec/vectors/embed.py",
    "wordvec/vectors/subword.py",
    # a fastText file without character n-grams (most classifiers) reads on NumPy alone
    "wordvec/vectors/fasttext_words.py",
}


def test_the_command_line_and_keyed_vectors_do_not_load_scipy_stats():
    # scipy.stats takes 1.3-1.5 s to import (measured at load 5), which every command and
    # `wordvec --help` would pay: only the similarity evaluations import it, where they need it
    probe = ("import sys, wordvec.cli, wordvec.vectors.keyed; wordvec.cli.build_parser(); "
             "print('scipy.stats' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "False"


def test_own_imports_sit_at_the_top_of_files():
    inside = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative in DEFERRED_OWN_IMPORTS:
            continue
        tree = ast.parse(path.read_text(), filename=relative)
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("wordvec"):
                    inside.append(f"{relative}:{node.lineno} from {node.module}")
                elif isinstance(node, ast.Import) and any(a.name.startswith("wordvec") for a in node.names):
                    inside.append(f"{relative}:{node.lineno} import {node.names[0].name}")
                elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
                    inside.append(f"{relative}:{node.lineno} importlib.import_module")
    assert inside == [], "imports of wordvec inside functions:\n" + "\n".join(inside)


def test_import_linter_contracts_hold():
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    if lint is None:
        if os.environ.get("CI"):
            pytest.fail("lint-imports is not installed (the dev extra provides it)")
        pytest.skip("lint-imports is not installed (pip install -e '.[dev]')")
    result = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
