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
# fastText's own trainer (pybind11 bindings of its C++ code, prebuilt wheel of
# fastText 0.9.2) for bench_subword.py.
"$env_dir/bin/python" -m pip install -q "fasttext-wheel==0.9.2"
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

# A second build of the same word2vec.c whose random streams can be varied: the tool
# has no seed option (its two generators start at fixed values, so repeated runs
# differ only by thread timing), which makes its accuracy one draw from its seed
# distribution. This build adds W2V_SEED * 1000003 to both starting values (the
# initialisation's and each thread's); W2V_SEED unset or 0 trains exactly as the
# PyPI binary. The source is patched on the fly from the installed package, never
# copied into this repository. Used by bench_word2vec.py --systems c-seeded.
source="$("$env_dir/bin/python" -c "import word2vec, os; print(os.path.join(os.path.dirname(word2vec.__file__), 'includes', 'word2vec.c'))")"
seed_term='(unsigned long long)atoll(getenv("W2V_SEED") ? getenv("W2V_SEED") : "0") * 1000003ULL'
patched="$env_dir/word2vec-seeded.c"
sed -e "s|unsigned long long next_random = 1;|unsigned long long next_random = 1 + $seed_term;|" \
    -e "s|unsigned long long next_random = (long long)id;|unsigned long long next_random = (long long)id + $seed_term;|" \
    "$source" > "$patched"
if [ "$(grep -c 'W2V_SEED' "$patched")" != 2 ]; then
    echo "setup_peers.sh: could not add the seed to $source (its next_random lines changed?)" >&2
    exit 1
fi
gcc "$patched" -o "$env_dir/bin/word2vec-seeded" -lm -pthread -Ofast -Wall -march=native -funroll-loops -Wno-unused-result

"$env_dir/bin/python" -c "import gensim, sys; print('gensim', gensim.__version__, 'python', sys.version.split()[0])"
echo "word2vec C tool: $env_dir/bin/word2vec (and $env_dir/bin/word2vec-seeded, the same source with W2V_SEED)"
