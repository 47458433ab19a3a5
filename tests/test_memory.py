"""Resident-memory housekeeping: LLVM pages handed back, kernels loaded before the data."""

import logging
import sys

import numpy as np
import pytest

from wordvec import memory
from wordvec.kernels import tokens as token_kernels
from wordvec.kernels import word2vec as w2v_kernels
from wordvec.models.word2vec.model import Word2Vec
from wordvec.models.word2vec.epochs import load_kernels

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and glibc")


def _signatures():
    return {name: len(getattr(module, name).signatures)
            for module, names in ((token_kernels, ("count_block", "merge_counts", "lookup_block", "finish_block")),
                                  (w2v_kernels, ("train_chunk_compiled",)))
            for name in names}


def test_load_kernels_loads_exactly_what_training_text_uses(tmp_path):
    """If the warm-up's argument types drifted from training's, training would compile a
    second specialisation after the LLVM pages were handed back, on top of the model (the
    word2vec kernel has one specialisation per vector size: the warm-up names it)."""
    load_kernels(text=True, vector_size=8)
    before = _signatures()
    assert all(count >= 1 for count in before.values())
    corpus = tmp_path / "c.txt"
    corpus.write_text("the cat sat on the mat\nthe dog sat on the log\n" * 20)
    for sg, hs in ((1, 0), (0, 0), (1, 1)):
        Word2Vec(corpus_file=str(corpus), sg=sg, hs=hs, negative=0 if hs else 5, vector_size=8,
                 min_count=1, epochs=1, workers=1, progress=False, cache_dir=tmp_path / "cache")
    assert _signatures() == before


@linux_only
def test_llvm_pages_are_released_and_kernels_still_run():
    clean = memory.clean_mappings("libllvmlite")
    assert clean, "Numba is imported, so LLVM's code is mapped"
    assert all(end > start for start, end in clean)
    writable = {tuple(int(x, 16) for x in line.split()[0].split("-"))
                for line in open("/proc/self/maps") if "libllvmlite" in line and line.split()[1][1] == "w"}
    assert writable and not writable & set(clean)  # written pages are never advised
    advised = memory.release_compiler_pages()
    assert advised > 0
    # the released code is read back from the file when it is needed again
    state = np.array([7], dtype=np.uint64)
    expected = (7 * 25214903917 + 11) % 2**64 >> 32
    assert int(w2v_kernels.lcg_next(state)) == expected


def test_release_finds_nothing_for_a_library_that_is_not_loaded():
    assert memory.clean_mappings("no-such-library-xyz") == []


@linux_only
def test_freed_buffers_threshold_is_set_on_glibc():
    assert memory.return_freed_buffers() is True


def test_verbose_does_not_turn_on_numba_compiler_traces(tmp_path):
    from wordvec.cli import main

    corpus = tmp_path / "c.txt"
    corpus.write_text("a b c a b c d\n" * 30)
    status = main(["train", str(corpus), "-o", str(tmp_path / "v.txt"), "--min-count", "1",
                   "--epochs", "1", "--no-eval", "--no-progress", "-v"])
    assert status == 0
    # Numba logs every compilation's bytecode and type inference at DEBUG
    assert logging.getLogger("numba").level >= logging.INFO
