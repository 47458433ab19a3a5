"""Fixtures of the explore tests (history, info, report, serve): one tiny model of each kind."""

import contextlib
import threading

import pytest

from tests.explore.models import build_all, random_vectors


@pytest.fixture(scope="session")
def saved(tmp_path_factory):
    """{kind: path} of small saved models and vector files (built once, ~5 s)."""
    return build_all(tmp_path_factory.mktemp("explore-models"))


@pytest.fixture(scope="session")
def server():
    """An explorer on a free localhost port over 600 random vectors with a few known words."""
    from wordvec.serve import make_server

    words = ["king", "queen", "man", "woman", "kingdom"] + [f"w{i:03d}" for i in range(595)]
    kv = random_vectors(words, dims=16, seed=0)
    # queen = king - man + woman exactly, so every analogy method must answer queen
    kv.vectors[1] = kv.vectors[0] - kv.vectors[2] + kv.vectors[3]
    kv.reset_norms()
    httpd = make_server(kv, "127.0.0.1", 0, source="test vectors")
    with serving(httpd) as url:
        yield {"url": url, "kv": kv, "httpd": httpd}


@contextlib.contextmanager
def serving(httpd):
    """``httpd`` answering on a thread of its own; its URL. Shut down and joined after."""
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    host, port = httpd.server_address[:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)
