"""Counting and training on a real local Ray cluster: a head node and a second node on
127.0.0.1 (one CPU each, so the two training workers run in two worker processes on two
nodes), started once for this module and always stopped.

Checks: counts bit-identical to the single-process counters (vocabulary order and ties
included), trained vectors that solve the synthetic analogies, and a worker killed
mid-run (SIGKILL of its process) restarted from the last synchronised parameters
without changing the result.
"""

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

# before Ray reads its configuration (at import): token authentication with a token of
# this session (a fresh machine has none in ~/.ray) for the nodes and this driver alike,
# and no usage statistics
os.environ.update(RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="token")
os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")

from wordvec.cli import main  # noqa: E402
from wordvec.data.cooccur import count_cooccurrences, load_cooccurrence  # noqa: E402
from wordvec.data.corpus import Corpus  # noqa: E402
from wordvec.distributed import counting, pieces, training  # noqa: E402
from wordvec.data.encode import encode_corpus  # noqa: E402
from wordvec.errors import WordvecError  # noqa: E402
from wordvec.models.count.glove import GloVe  # noqa: E402
from wordvec.models.word2vec.model import Word2Vec  # noqa: E402
from wordvec.data.synthetic import analogy_questions, write_corpus  # noqa: E402
from wordvec.data.vocab import Vocabulary  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 90


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _ray_start(args, env, log):
    """``ray start ... --block`` in its own session, so that stopping it reaches all of
    its processes (raylet, GCS, workers) and nothing else."""
    command = [sys.executable, "-m", "ray.scripts.scripts", "start", "--block", "--disable-usage-stats", *args]
    return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def _stop(process):
    """SIGTERM, then (Ray drains a node for up to 30 s) SIGKILL to its whole session."""
    for sig, grace in ((signal.SIGTERM, 3), (signal.SIGKILL, 30)):
        try:
            os.killpg(process.pid, sig)
            process.wait(timeout=grace)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """The address of a running two-node cluster this process is connected to."""
    # Ray's socket paths must stay under 108 bytes: a short folder of its own, not pytest's
    # (whose per-worker paths under pytest-xdist are too long)
    temp = Path(tempfile.mkdtemp(prefix="wordvec-ray-"))
    log_path = tmp_path_factory.mktemp("ray") / "ray.log"
    port = _free_port()
    address = f"127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    log = open(log_path, "w")
    started = []
    try:
        started.append(_ray_start(["--head", "--node-ip-address=127.0.0.1", f"--port={port}", "--num-cpus=1",
                                   "--include-dashboard=false", f"--temp-dir={temp}"], env, log))
        deadline = time.monotonic() + START_TIMEOUT
        while True:  # the GCS answers on its port once the head is up
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if started[0].poll() is not None or time.monotonic() > deadline:
                pytest.skip(f"Ray could not start a local head node (see {log_path})")
            time.sleep(0.2)
        started.append(_ray_start([f"--address={address}", "--node-ip-address=127.0.0.1", "--num-cpus=1"],
                                  env, log))
        ray.init(address=address, logging_level="WARNING")
        while sum(1 for node in ray.nodes() if node["Alive"]) < 2:
            if time.monotonic() > deadline:
                pytest.skip(f"Ray could not start a second local node (see {log_path})")
            time.sleep(0.2)
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        for process in reversed(started):
            _stop(process)
        log.close()
        shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "synthetic.txt"
    write_corpus(path, tokens=200_000, seed=3)
    return path


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces of at least 64 KB, so that the 1 MB corpus is cut into ~16 byte ranges."""
    monkeypatch.setattr(pieces, "MIN_PIECE_BYTES", 1 << 16)


def analogy_accuracy(wv):
    questions = [q for _, qs in analogy_questions() for q in qs[::7]]
    return sum(wv.most_similar(positive=[b, c], negative=[a], topn=1)[0][0] == d
               for a, b, c, d in questions) / len(questions)


# -- counting ------------------------------------------------------------------------

def test_vocabulary_is_bit_identical(cluster, corpus_file, small_pieces, tmp_path):
    planned = pieces.plan_pieces(corpus_file, 16, at="space")
    assert len(planned) > 8 and all(p.byte_range for p in planned)
    for lowercase in (False, True):
        vocab, info = counting.count_vocabulary(corpus_file, min_count=3, lowercase=lowercase, pieces=16)
        single = Vocabulary.build(Corpus(corpus_file, lowercase=lowercase), min_count=3)
        assert info["pieces"] == len(planned)
        assert vocab.words == single.words
        assert np.array_equal(vocab.counts, single.counts)
        assert vocab.corpus_tokens == single.corpus_tokens
    # ties are broken by first appearance over the whole corpus, across files
    directory = tmp_path / "ties"
    directory.mkdir()
    (directory / "a.txt").write_text("zeta beta\nalpha zeta\n")
    (directory / "b.txt").write_text("gamma beta alpha\ngamma\n")
    (directory / "c.txt").write_text("delta delta delta " * 3 + "\n")
    vocab, _ = counting.count_vocabulary(directory, min_count=1)
    assert vocab.words == Vocabulary.build(Corpus(directory), min_count=1).words
    assert vocab.words == ["delta", "zeta", "beta", "alpha", "gamma"]
    with pytest.raises(WordvecError, match="max-vocab-size"):
        counting.count_vocabulary(corpus_file, max_vocab_size=100)


@pytest.mark.parametrize("window, symmetric, weighting", [(5, True, "harmonic"), (3, False, "uniform")])
def test_cooccurrences_are_bit_identical(cluster, corpus_file, small_pieces, window, symmetric, weighting):
    vocab, X, info = counting.count_cooccurrences(corpus_file, window=window, symmetric=symmetric,
                                                  weighting=weighting, min_count=2, pieces=16, reducers=3)
    corpus = Corpus(corpus_file)
    single_vocab = Vocabulary.build(corpus, min_count=2)
    encoded = encode_corpus(corpus, single_vocab, use_cache=False)
    single = count_cooccurrences(encoded.ids, encoded.offsets, len(single_vocab), window=window,
                                 symmetric=symmetric, weighting=weighting)
    assert info["pieces"] > 8 and info["reducers"] == 3
    assert vocab.words == single_vocab.words
    assert info["pairs"] == single.pairs and info["tokens"] == encoded.num_tokens
    for part in ("data", "indices", "indptr"):
        assert np.array_equal(getattr(X, part), getattr(single.matrix, part)), part
    assert X.data.dtype == single.matrix.data.dtype


def test_cli_counts_on_the_cluster(cluster, corpus_file, tmp_path, capsys):
    assert main(["vocab", str(corpus_file), "--min-count", "2", "-o", str(tmp_path / "ray.tsv"),
                 "--ray", cluster]) == 0
    assert main(["vocab", str(corpus_file), "--min-count", "2", "-o", str(tmp_path / "one.tsv")]) == 0
    assert (tmp_path / "ray.tsv").read_bytes() == (tmp_path / "one.tsv").read_bytes()
    assert main(["cooccur", str(corpus_file), "--window", "4", "--min-count", "2", "-o",
                 str(tmp_path / "ray.npz"), "--ray", cluster, "--no-progress"]) == 0
    assert main(["cooccur", str(corpus_file), "--window", "4", "--min-count", "2", "-o",
                 str(tmp_path / "one.npz"), "--no-progress"]) == 0
    X, words, counts, meta = load_cooccurrence(tmp_path / "ray.npz")
    Y, words_one, counts_one, meta_one = load_cooccurrence(tmp_path / "one.npz")
    assert words == words_one and np.array_equal(counts, counts_one) and meta == meta_one
    assert (X != Y).nnz == 0 and np.array_equal(X.indptr, Y.indptr)
    capsys.readouterr()
    status = main(["vocab", str(corpus_file), "--max-vocab-size", "50", "--ray", cluster])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "max-vocab-size" in err[0]
    broken = tmp_path / "broken.txt.xz"  # a task's WordvecError reaches the CLI as one sentence
    broken.write_bytes(b"\xfd7zXZ\x00 not really xz")
    status = main(["vocab", str(broken), "--ray", cluster])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "cannot read" in err[0]


# -- training ------------------------------------------------------------------------

def _word2vec(corpus_file, **options):
    settings = dict(vector_size=32, window=5, min_count=2, epochs=5, sg=1, progress=False)
    settings.update(options)
    model = Word2Vec(**settings)
    vocab, _ = counting.count_vocabulary(corpus_file, min_count=model.min_count)
    model.set_vocabulary(vocab)
    return model, encode_corpus(Corpus(corpus_file), vocab)


SYNC_EVERY = 20_000


@pytest.fixture(scope="module")
def sparse_run(cluster, corpus_file):
    """Skip-gram with negative sampling, 2 workers, sparse deltas: the quality run, and
    the undisturbed twin of the run in which a worker is killed."""
    model, encoded = _word2vec(corpus_file)
    training.train_word2vec(model, encoded, workers_per_node=1, sync="sparse", sync_every=SYNC_EVERY, hot_rows=0)
    return model, encoded


def _check_learned(model, encoded):
    history = model.history
    assert [h["epoch"] for h in history] == [1, 2, 3, 4, 5]
    assert all(h["workers"] == 2 and h["restarts"] == 0 and h["syncs"] == history[0]["syncs"] >= 5
               for h in history)
    assert sum(h["words"] for h in history) == 5 * encoded.num_tokens == model.trained_words
    assert history[-1]["loss"] < history[0]["loss"]
    assert history[-1]["alpha"] == pytest.approx(model.min_alpha)
    assert all(h["sync_bytes"] > 0 for h in history)
    assert analogy_accuracy(model.wv) > 0.5


def test_word2vec_learns_the_synthetic_analogies(sparse_run):
    _check_learned(*sparse_run)


def test_model_averaging_learns_them_too(cluster, corpus_file):
    model, encoded = _word2vec(corpus_file)
    training.train_word2vec(model, encoded, workers_per_node=1, sync="average", sync_every=SYNC_EVERY, hot_rows=0)
    _check_learned(model, encoded)


def test_summed_sparse_deltas_the_default_learn_them_too(cluster, corpus_file):
    from wordvec.distributed import DEFAULT_SYNC

    assert DEFAULT_SYNC == "sparse-sum"
    model, encoded = _word2vec(corpus_file)  # and the default hot rows, every tenth of the interval
    training.train_word2vec(model, encoded, workers_per_node=1, sync_every=4 * SYNC_EVERY)
    assert all(h["sync"] == "sparse-sum" for h in model.history)
    _check_learned(model, encoded)


def test_a_killed_worker_is_restarted_without_changing_the_run(cluster, corpus_file, sparse_run):
    """SIGKILL one worker's process after the second synchronisation: the driver restarts it
    from the last synchronised parameters and the run ends exactly where the undisturbed
    run ends (every chunk's schedule position and random state are fixed)."""
    undisturbed, _ = sparse_run
    killed = []

    def kill_once(run, info):
        if not killed and info["round"] == 1:
            pid = run.worker_pids()[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    model, encoded = _word2vec(corpus_file)
    training.train_word2vec(model, encoded, workers_per_node=1, sync="sparse", sync_every=SYNC_EVERY,
                            hot_rows=0, on_round=kill_once)
    assert killed and model.history[-1]["restarts"] == 1
    assert np.array_equal(model.W_in, undisturbed.W_in)
    assert np.array_equal(model.W_out, undisturbed.W_out)
    assert [h["loss"] for h in model.history] == [h["loss"] for h in undisturbed.history]


def test_glove_trains_like_the_single_process_model(cluster, corpus_file):
    """With 40 synchronisations per epoch the loss follows the single-process run's (with
    3 per epoch, stale replicas of this 417-word vocabulary lag: 0.088 against 0.077
    after 6 epochs)."""
    options = dict(vector_size=16, window=5, x_max=10.0, epochs=4, min_count=2, progress=False)
    single = GloVe(corpus_file=str(corpus_file), workers=2, **options)
    model = GloVe(**options)
    vocab, X, _ = counting.count_cooccurrences(corpus_file, window=5, min_count=2)
    model.set_cooccurrence(vocab.words, vocab.counts, X)
    training.train_glove(model, workers_per_node=1, sync_every=X.nnz // 80)
    losses = [h["loss"] for h in model.history]
    assert len(losses) == 4 and losses[-1] < 0.7 * losses[0]
    assert sum(h["updates"] for h in model.history) == 4 * X.nnz
    assert losses[-1] < 1.05 * single.history[-1]["loss"]
    assert analogy_accuracy(model.wv) > analogy_accuracy(single.wv) - 0.1


def test_cli_trains_on_the_cluster(cluster, corpus_file, tmp_path, capsys):
    out = tmp_path / "v.bin"
    status = main(["train", str(corpus_file), "-o", str(out), "--model", "cbow", "--loss", "hs",
                   "--vector-size", "16", "--epochs", "1", "--min-count", "2", "--ray", cluster,
                   "--workers-per-node", "1", "--sync", "average", "--sync-every", "50000",
                   "--no-progress", "--no-eval", "--json"])
    assert status == 0 and out.exists()
    import json
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert printed["history"][0]["workers"] == 2 and printed["history"][0]["sync"] == "average"
    status = main(["train", str(corpus_file), "-o", str(out), "--ray", cluster, "--workers-per-node", "5",
                   "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "--workers-per-node 5" in err[0]
    status = main(["train", str(corpus_file), "-o", str(out), "--model", "cbow", "--vector-size", "16",
                   "--epochs", "1", "--min-count", "2", "--ray", cluster, "--workers-per-node", "1",
                   "--sync-every", "80000", "--hot-rows", "20", "--no-progress", "--no-eval", "--json"])
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert status == 0 and printed["history"][0]["syncs"] >= 4  # hot rows every 8,000 words
    for options, says in ((["--model", "glove", "--hot-rows", "20"], "for word2vec"),
                          (["--hot-rows", "0", "--hot-sync-every", "1000"], "needs hot rows")):
        status = main(["train", str(corpus_file), "-o", str(out), "--ray", cluster, *options, "--no-progress"])
        err = capsys.readouterr().err.strip().splitlines()
        assert status == 2 and len(err) == 1 and says in err[0]


# -- hot rows synchronised more often than the rest -------------------------------------

@pytest.fixture(scope="module")
def hot_run(cluster, corpus_file):
    """Every row every 4 rounds, the 50 busiest rows of each matrix every round."""
    model, encoded = _word2vec(corpus_file)
    training.train_word2vec(model, encoded, workers_per_node=1, sync_every=4 * SYNC_EVERY, hot_rows=50,
                            hot_sync_every=SYNC_EVERY)
    return model, encoded


def test_hot_rows_covering_every_row_change_nothing(cluster, corpus_file, sparse_run):
    """Partial rounds that send every row are full rounds: the same vectors, bit for bit."""
    undisturbed, _ = sparse_run
    model, encoded = _word2vec(corpus_file)
    training.train_word2vec(model, encoded, workers_per_node=1, sync="sparse", sync_every=4 * SYNC_EVERY,
                            hot_rows=10**6, hot_sync_every=SYNC_EVERY)
    assert np.array_equal(model.W_in, undisturbed.W_in) and np.array_equal(model.W_out, undisturbed.W_out)


def test_hot_rows_learn_the_analogies_with_smaller_syncs(hot_run, sparse_run):
    model, encoded = hot_run
    _check_learned(model, encoded)
    every_row = sparse_run[0].history[0]
    assert model.history[0]["syncs"] == every_row["syncs"]
    assert model.history[0]["bytes_per_sync"] < 0.6 * every_row["bytes_per_sync"]


def test_a_worker_killed_in_a_partial_round_is_replayed_exactly(cluster, corpus_file, hot_run):
    """Killed after round 2's sync, the worker dies in round 3, the third partial round
    since the last full one: its successor replays the partial rounds from the last full
    round's parameters and the run ends where the undisturbed one does."""
    undisturbed, _ = hot_run
    killed = []

    def kill_once(run, info):
        if not killed and info["epoch"] == 1 and info["round"] == 1:
            pid = run.worker_pids()[1]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    model, encoded = _word2vec(corpus_file)
    training.train_word2vec(model, encoded, workers_per_node=1, sync_every=4 * SYNC_EVERY, hot_rows=50,
                            hot_sync_every=SYNC_EVERY, on_round=kill_once)
    assert killed and model.history[-1]["restarts"] == 1
    assert np.array_equal(model.W_in, undisturbed.W_in) and np.array_equal(model.W_out, undisturbed.W_out)
    assert [h["loss"] for h in model.history] == [h["loss"] for h in undisturbed.history]


def test_hot_sync_interval_must_fit_in_the_full_one(cluster, corpus_file):
    model, encoded = _word2vec(corpus_file)
    with pytest.raises(WordvecError, match="hot_sync_every"):
        training.train_word2vec(model, encoded, workers_per_node=1, sync_every=SYNC_EVERY, hot_rows=50,
                                hot_sync_every=2 * SYNC_EVERY)
