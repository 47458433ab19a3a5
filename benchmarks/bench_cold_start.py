"""The first run of each command on a fresh install: how many seconds it adds over the run
right after it, with and without `wordvec compile` at install time.

wordvec is installed (not editable) into a virtual environment of its own (``--venv``,
made once and reused); "fresh" means no compiled kernel in its Numba cache (the ``.nbi`` /
``.nbc`` files beside the installed package, deleted) and an empty encoded-corpus cache
(``WORDVEC_CACHE``, a new folder for every run, so that the second run does not skip
reading either).  Two passes, each from an empty kernel cache:

  without   each command twice in a row: the first compiles what it uses, the second
            loads it (the extra seconds of a first run without the install step);
  compiled  ``wordvec compile`` first (its time recorded), then each command twice.

Every command runs as a whole child process (wall from the parent, CPU from wait4); the
first run's log is searched for the compile announcement and the closing "compiled N
kernels in S s" line (its S recorded).  The inputs: the first ``--corpus-bytes`` of
wordbench-10m (about 180k tokens per MB), genre's training and test files, the
test file's text for predict, doc2vec inference and embed.  ``--vector-size 300`` and
``150``: a size with a kernel of its own (``wordvec.kernels.sizes``, compiled by ``wordvec
compile``) and one that shares the kernel of every other size (the "new vector size" rows).

    flock /tmp/wordvec-bench.lock python benchmarks/bench_cold_start.py --venv /tmp/wordvec-cold-venv
"""

import argparse
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib.records import REPO, Record  # noqa: E402

SHARED = REPO.parent / "shared" / "data"
COMPILED = re.compile(r"compiled (\d+) kernels in ([0-9.]+) s")
ANNOUNCED = "compiling kernels (first run only"


def commands(data, out):
    """(name, argv after `wordvec` or a Python snippet) in order: later ones read earlier outputs."""
    corpus, train, test, text = data["corpus"], data["train"], data["test"], data["text"]
    common = ["--epochs", "1", "--no-eval", "--no-progress"]
    return [
        ("train sg-ns", ["train", corpus, "-o", f"{out}/sg.bin", "--model", "sg", *common]),
        ("train cbow-ns", ["train", corpus, "-o", f"{out}/cbow.bin", "--model", "cbow", *common]),
        ("train sg-hs", ["train", corpus, "-o", f"{out}/sg-hs.bin", "--model", "sg", "--loss", "hs", *common]),
        ("train cbow-hs", ["train", corpus, "-o", f"{out}/cbow-hs.bin", "--model", "cbow", "--loss", "hs", *common]),
        ("train sg-ns, vector size 300", ["train", corpus, "-o", f"{out}/sg300.bin", "--model", "sg",
                                          "--vector-size", "300", *common]),
        ("train sg-ns, vector size 150", ["train", corpus, "-o", f"{out}/sg150.bin", "--model", "sg",
                                          "--vector-size", "150", *common]),
        ("classify train", ["classify", "train", train, "-o", f"{out}/genre.bin", "--no-progress"]),
        ("classify predict", ["classify", "predict", f"{out}/genre.bin", text]),
        ("doc2vec train", ["doc2vec", "train", text, "-o", f"{out}/docs.d2v", "--epochs", "5"]),
        ("doc2vec infer", ["doc2vec", "infer", f"{out}/docs.d2v", text, "-o", f"{out}/inferred.npy"]),
        ("embed", ["embed", f"{out}/sg.bin", text, "-o", f"{out}/embedded.npy"]),
        ("convert to text", ["convert", f"{out}/sg.bin", f"{out}/sg.txt"]),
        ("load_vectors of a text file", "import sys, wordvec; wordvec.load_vectors(sys.argv[1])", f"{out}/sg.txt"),
    ]


def prepare(scratch, corpus_bytes):
    scratch.mkdir(parents=True, exist_ok=True)
    data = {"corpus": scratch / "corpus.txt", "train": scratch / "genre.train", "test": scratch / "genre.test",
            "text": scratch / "genre.text"}
    with lzma.open(SHARED / "corpus" / "wordbench-10m.txt.xz", "rb") as f:
        head = f.read(corpus_bytes)
    data["corpus"].write_bytes(head[:head.rfind(b"\n") + 1])
    for split in ("train", "test"):
        with lzma.open(SHARED / "tasks" / "docs" / f"genre.{split}.txt.xz", "rb") as f:
            data[split].write_bytes(f.read())
    lines = data["test"].read_bytes().splitlines()
    data["text"].write_bytes(b"".join(line.split(b" ", 1)[-1] + b"\n" for line in lines))
    return {key: str(path) for key, path in data.items()}


def install(venv):
    """A virtual environment with this tree's wordvec installed as a user would (not editable)."""
    if not (venv / "bin" / "wordvec").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(REPO)], check=True)
    else:  # the environment is reused; the wordvec in it is always this tree's
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-deps", "--force-reinstall", str(REPO)],
                       check=True)
    package = subprocess.run([str(venv / "bin" / "python"), "-c", "import wordvec, os; print(os.path.dirname("
                              "wordvec.__file__))"], check=True, capture_output=True, text=True,
                             cwd=tempfile.gettempdir()).stdout.strip()  # not this tree's wordvec
    if Path(package).resolve().is_relative_to(REPO.resolve()):
        raise SystemExit(f"{venv} imports wordvec from this tree ({package}), not from its own install")
    return Path(package)


def empty_kernel_cache(package):
    removed = 0
    for path in list(package.rglob("*.nbi")) + list(package.rglob("*.nbc")):
        path.unlink()
        removed += 1
    return removed


def measured(argv, env, scratch):
    """One whole run: wall and CPU seconds, exit status, what its log says of compiling."""
    env = dict(env, WORDVEC_CACHE=tempfile.mkdtemp(dir=scratch, prefix="corpus-cache-"))
    before = os.times()
    started = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=scratch)  # not this tree
    wall = time.perf_counter() - started
    after = os.times()
    shutil.rmtree(env["WORDVEC_CACHE"], ignore_errors=True)
    said = result.stdout + result.stderr
    found = COMPILED.search(said)
    return {"status": result.returncode, "wall_seconds": wall,
            "cpu_seconds": (after.children_user - before.children_user) + (after.children_system - before.children_system),
            "announced_compiling": ANNOUNCED in said,
            "kernels_compiled": int(found.group(1)) if found else 0,
            "compiling_seconds": float(found.group(2)) if found else 0.0,
            "tail": said.strip().splitlines()[-1:] if result.returncode else []}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, default=Path(tempfile.gettempdir()) / "wordvec-cold-venv")
    parser.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()) / "wordvec-bench-cold")
    parser.add_argument("--corpus-bytes", type=int, default=6_000_000)
    parser.add_argument("--passes", nargs="+", default=["without", "compiled"], choices=["without", "compiled"])
    parser.add_argument("--name", default="cold-start-" + time.strftime("%Y%m%d"))
    args = parser.parse_args(argv)

    data = prepare(args.scratch, args.corpus_bytes)
    package = install(args.venv)
    bin_dir = args.venv / "bin"
    env = dict(os.environ, WORDVEC_NO_PROGRESS="1")
    env.pop("NUMBA_CACHE_DIR", None)
    record = Record(args.name, note="whole processes, one at a time; the machine may be shared (load recorded)")
    sizes = subprocess.run([str(args.venv / "bin" / "python"), "-c", "from wordvec.kernels.sizes import "
                            "CONSTANT_VECTOR_SIZES as s; print(*s)"], check=True, capture_output=True, text=True,
                           cwd=tempfile.gettempdir()).stdout.split()
    record.data["settings"] = {"corpus_bytes": args.corpus_bytes, "venv": str(args.venv), "package": str(package),
                               "compiled_vector_sizes": [int(size) for size in sizes]}
    for pass_name in args.passes:
        out = args.scratch / pass_name
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        removed = empty_kernel_cache(package)
        print(f"{pass_name}: emptied the kernel cache ({removed} files)", flush=True)
        if pass_name == "compiled":
            run = measured([str(bin_dir / "wordvec"), "compile"], env, args.scratch)
            record.add_run(system="wordvec", config="wordvec compile", **{"pass": pass_name}, first=run,
                           load=list(os.getloadavg()))
            print(f"  wordvec compile: {run['wall_seconds']:.1f} s (status {run['status']})", flush=True)
        for name, command, *rest in commands(data, out):
            argv = ([str(bin_dir / "wordvec"), *command] if isinstance(command, list)
                    else [str(bin_dir / "python"), "-c", command, *rest])
            first, second = measured(argv, env, args.scratch), measured(argv, env, args.scratch)
            extra = first["wall_seconds"] - second["wall_seconds"]
            record.add_run(system="wordvec", config=name, **{"pass": pass_name}, first=first, second=second,
                           extra_seconds=extra, wall_seconds=first["wall_seconds"],
                           cpu_seconds=first["cpu_seconds"], load=list(os.getloadavg()))
            print(f"  {name}: first {first['wall_seconds']:.1f} s, second {second['wall_seconds']:.1f} s, "
                  f"extra {extra:.1f} s (compiled {first['kernels_compiled']} kernels, "
                  f"{first['compiling_seconds']:.1f} s; status {first['status']}/{second['status']})", flush=True)
    print(record.save())


if __name__ == "__main__":
    main()
