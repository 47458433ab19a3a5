"""The explorer server under hostile requests: `/api/map` for every size keeps at most
its byte budget of maps (least recently used dropped, answers unchanged), and a POSTed
JSON string holding a lone surrogate is a 400 with a message, not an empty reply."""

import json
import threading
import urllib.error
import urllib.request

import pytest

from wordvec.serve import api, make_server
from wordvec.serve.cache import BytesLRU, size_of

from .world import keyed_vectors


@pytest.fixture
def served():
    kv = keyed_vectors([f"w{i}" for i in range(400)], dims=8)
    server = make_server(kv, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    yield server, f"http://{host}:{port}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


def post(url, body):
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize("body", [b'{"word": "\\ud800"}', b'{"\\udfff": "w1"}', b'{"word": ["\\ud800"]}'])
def test_a_lone_surrogate_is_a_400_with_a_message(served, body):
    server, url = served
    status, answer = post(url + "/api/neighbours", body)
    assert status == 400
    assert "surrogate" in answer["error"]
    status, answer = post(url + "/api/neighbours", b'{"word": "w1", "topn": 3}')  # still serving
    assert status == 200 and len(answer["neighbours"]) == 3


def test_map_answers_of_every_size_stay_within_the_byte_budget(served, monkeypatch):
    server, url = served
    explorer = server.api
    budget = 3 * size_of(explorer.handle("map", {"n": "400"})[1])
    explorer._maps = BytesLRU(budget)
    first = explorer.handle("map", {"n": "300"})[1]
    for n in range(2, 401):
        status, answer = explorer.handle("map", {"n": str(n)})
        assert status == 200 and len(answer["words"]) == n
        assert explorer._maps.bytes <= budget
    assert len(explorer._maps) < 100
    assert explorer.handle("map", {"n": "300"})[1] == first  # dropped, then made again the same


def test_the_default_budget_is_bounded():
    assert api.MAP_CACHE_BYTES <= 64 << 20
    cache = BytesLRU(1000)
    cache.get_or_make("big", lambda: "x" * 5000)  # larger than the budget: answered, not kept
    assert len(cache) == 0 and cache.bytes == 0
