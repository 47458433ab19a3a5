#!/usr/bin/env bash
# Build the peer systems for bench_word2vec.py in their own virtual environment,
# kept apart from wordvec's .venv so neither can change the other's packages.
#
#   benchmarks/setup_peers.sh [ENV_DIR]      (default: benchmarks/.peers)
#
# Installs gensim 4.4.0 and the PyPI package word2vec 0.11.1, whose install step
# compiles Mikolov's original word2vec.c (gcc -Ofast -march=native) into
# ENV_DIR/bin/word2vec. We use that build on purpose: the newest word2vec.c on
# GitHub never clears its end-of-file flag after seeking back at an epoch's end,
# so with 2 threads it trains only ~60% of the requested words.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
env_dir="${1:-$here/.peers}"
python="${PYTHON:-python3}"

if [ ! -x "$env_dir/bin/python" ]; then
    "$python" -m venv "$env_dir"
fi
"$env_dir/bin/python" -m pip install -q --upgrade pip setuptools wheel setuptools_scm
"$env_dir/bin/python" -m pip install -q "gensim==4.4.0"
# --no-binary/--no-cache-dir: compile word2vec.c on this machine (-march=native),
# never reuse a wheel built elsewhere.
"$env_dir/bin/python" -m pip install -q --no-cache-dir --no-binary word2vec "word2vec==0.11.1"

if [ ! -x "$env_dir/bin/word2vec" ]; then
    echo "setup_peers.sh: $env_dir/bin/word2vec was not built; see the pip output above" >&2
    exit 1
fi
# The C tool prints its usage (and exits 0 or 1) when run without arguments.
"$env_dir/bin/word2vec" 2>&1 | head -n 1 | grep -q "WORD VECTOR estimation toolkit" || {
    echo "setup_peers.sh: $env_dir/bin/word2vec does not look like the word2vec C tool" >&2
    exit 1
}
"$env_dir/bin/python" -c "import gensim, sys; print('gensim', gensim.__version__, 'python', sys.version.split()[0])"
echo "word2vec C tool: $env_dir/bin/word2vec"
