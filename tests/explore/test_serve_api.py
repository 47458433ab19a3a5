"""`wordvec serve` over HTTP: answers equal the KeyedVectors methods; bad requests get a 4xx and a sentence."""

import json
import socket
import urllib.error
import urllib.request

import numpy as np
import pytest

from wordvec.cli import build_parser
from wordvec.cli import main
from wordvec.vectors.files import save_vectors


def get(server, path, method="GET", body=None, headers=None):
    request = urllib.request.Request(server["url"] + path, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def api(server, path, **options):
    status, _, body = get(server, path, **options)
    return status, json.loads(body)


def raw(server, data, timeout=10):
    """Send raw bytes on a fresh connection; return everything the server answers."""
    host, port = server["httpd"].server_address[:2]
    with socket.create_connection((host, port), timeout=timeout) as connection:
        connection.sendall(data)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_answers_come_from_the_same_keyedvectors_methods(server):
    kv = server["kv"]
    status, body = api(server, "/api/neighbours?word=king&topn=7")
    assert status == 200
    assert [(p["word"], pytest.approx(p["score"], abs=1e-6)) for p in body["neighbours"]] == [
        (w, pytest.approx(s, abs=1e-6)) for w, s in kv.most_similar("king", topn=7)]
    for method in ("3cosadd", "3cosmul"):
        status, body = api(server, f"/api/analogy?a=man&b=king&c=woman&method={method}&topn=3")
        assert status == 200 and body["answers"][0]["word"] == "queen"
        assert [p["word"] for p in body["answers"]] == [w for w, _ in kv.analogy("man", "king", "woman", topn=3,
                                                                                   method=method)]
    status, body = api(server, "/api/similarity?word1=king&word2=w001")
    assert status == 200 and body["similarity"] == pytest.approx(kv.similarity("king", "w001"), abs=1e-6)
    status, body = api(server, "/api/complete?prefix=kin")
    assert body["words"] == ["king", "kingdom"]
    status, body = api(server, "/api/map?n=50")
    assert status == 200 and len(body["words"]) == len(body["x"]) == len(body["y"]) == 50
    assert body["words"][:2] == ["king", "queen"]  # the most frequent words
    status, body = api(server, "/api/info")
    assert body["words"] == len(kv) and body["dimensions"] == kv.vector_size


def test_post_with_a_json_body_answers_like_get(server):
    status, body = api(server, "/api/neighbours", method="POST", body=json.dumps({"word": "king", "topn": 3}).encode(),
                       headers={"Content-Type": "application/json"})
    assert status == 200 and body == api(server, "/api/neighbours?word=king&topn=3")[1]


@pytest.mark.parametrize("path, status, needle", [
    ("/api/neighbours?word=kng", 404, "'kng' is not in the vocabulary"),
    ("/api/neighbours?word=", 400, "empty"),
    ("/api/neighbours?word=%20%20", 400, "empty"),
    ("/api/neighbours", 400, "missing parameter 'word'"),
    ("/api/neighbours?word=king&topn=100000000", 400, "between 1 and 100"),
    ("/api/neighbours?word=king&topn=-1", 400, "between 1 and 100"),
    ("/api/neighbours?word=king&topn=lots", 400, "whole number"),
    ("/api/neighbours?word=king&topn=1e999", 400, "whole number"),
    ("/api/neighbours?word=%ff%fe", 400, "UTF-8"),
    ("/api/neighbours?word=king&word=queen", 400, "given twice"),
    ("/api/neighbours?word=king&colour=red", 400, "unknown parameter 'colour'"),
    ("/api/analogy?a=man&b=king", 400, "missing parameter 'c'"),
    ("/api/analogy?a=man&b=king&c=woman&method=3cosdiv", 400, "3cosadd, 3cosmul"),
    ("/api/similarity?word1=king&word2=emperor", 404, "'emperor' is not in the vocabulary"),
    ("/api/map?n=100000000", 400, "between 2 and 5000"),
    ("/api/complete?prefix=" + "k" * 5000, 400, "longer than"),
    ("/api/nothing", 404, "no API endpoint"),
    ("/etc/passwd", 404, "nothing at"),
    ("/api/neighbours?word=" + "x" * 9000, 414, "longer than"),
    ("/api/neighbours?" + "&".join(f"p{i}=1" for i in range(50)), 400, "too many"),
])
def test_bad_requests_get_a_4xx_and_one_clear_sentence(server, path, status, needle):
    got, body = api(server, path)
    assert got == status and needle in body["error"]


def test_unknown_words_come_with_suggestions(server):
    status, body = api(server, "/api/neighbours?word=kingd")
    assert status == 404 and body["suggestions"] == ["kingdom"]
    status, body = api(server, "/api/neighbours?word=KING")
    assert status == 404 and body["suggestions"][0] == "king"


@pytest.mark.parametrize("method, body, headers, status, needle", [
    ("DELETE", None, {}, 405, "not allowed"),
    ("PUT", b"{}", {}, 405, "not allowed"),
    ("POST", b"[1, 2", {}, 400, "not a JSON object"),
    ("POST", b"[1, 2]", {}, 400, "must be a JSON object"),
    ("POST", b"\xff\xfe", {}, 400, "UTF-8"),
    ("POST", b"{\"word\": [\"king\"]}", {}, 400, "must be a string"),
    ("POST", b"[" * 100_000, {}, 413, "larger than"),
])
def test_malformed_or_oversized_bodies(server, method, body, headers, status, needle):
    got, answer = api(server, "/api/neighbours", method=method, body=body, headers=headers)
    assert got == status and needle in answer["error"]


def test_garbled_requests_get_a_400_not_a_dropped_connection(server):
    for junk in (b"GARBAGE\r\n\r\n", b"\x00\xff\xfe junk HTTP/1.1\r\n\r\n", b"GET /api/info HTTP/9.9\r\n\r\n",
                 b"GET /api/info HTTP/1.0\r\n" + b"X-Big: " + b"a" * 70_000 + b"\r\n\r\n"):
        answer = raw(server, junk)
        status = int(answer.split(b" ", 2)[1])
        assert 400 <= status < 500, answer[:200]
        assert b'{"error": ' in answer


def test_a_stalled_client_does_not_block_others(server):
    host, port = server["httpd"].server_address[:2]
    stalled = [socket.create_connection((host, port)) for _ in range(20)]  # more than the compute slots
    try:
        for connection in stalled:
            connection.sendall(b"GET /api/neighbours?word=king HTTP/1.1\r\nHost: x\r\n")  # headers never end
        # answered while 20 others hang (a blocked server would make urlopen time out and raise)
        status, body = api(server, "/api/neighbours?word=queen")
        assert status == 200 and body["neighbours"]
    finally:
        for connection in stalled:
            connection.close()


def test_page_and_assets_are_local_and_locked_down(server):
    status, headers, page = get(server, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    text = page.decode()
    assert "http://" not in text and "https://" not in text
    for asset in ("/explorer.js", "/explorer.css"):
        status, _, data = get(server, asset)
        assert status == 200 and b"https://" not in data.replace(b"http://www.w3.org/2000/svg", b"")


def test_cli_binds_to_localhost_by_default_and_reports_a_busy_port(server, capsys, tmp_path):
    args = build_parser().parse_args(["serve", "vectors.bin"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    vectors = tmp_path / "v.txt"
    save_vectors(server["kv"], vectors)
    port = server["httpd"].server_address[1]  # taken by the test server
    assert main(["serve", str(vectors), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wordvec: error: cannot listen on 127.0.0.1") and err.count("\n") == 1


@pytest.mark.parametrize("kind", ["word2vec", "glove", "ppmi-svd", "window", "rnnlm", "doc2vec", "text",
                                  "glove-text"])
def test_the_api_serves_every_model_kind_and_vector_file(saved, kind):
    from wordvec.models.saved import load_keyed_vectors
    from wordvec.serve.api import ExplorerAPI

    kv = load_keyed_vectors(saved[kind])
    api_ = ExplorerAPI(kv, source=str(saved[kind]))
    word = kv.index_to_key[-1]  # for the language model: a character, maybe a space
    status, body = api_.handle("neighbours", {"word": word, "topn": "3"})
    assert status == 200 and [p["word"] for p in body["neighbours"]] == [w for w, _ in kv.most_similar(word, topn=3)]
    status, body = api_.handle("map", {"n": "10"})
    assert status == 200 and len(body["words"]) == 10 and np.isfinite(body["x"]).all()


def test_the_api_serves_a_doc2vec_models_documents_by_tag(saved, capsys):
    """``wordvec serve MODEL --docs``: the keys are the documents' tags (line numbers), the
    neighbours the document vectors' own; a word model refuses --docs in one sentence."""
    from wordvec.models.doc2vec.model import Doc2Vec
    from wordvec.models.saved import load_document_vectors
    from wordvec.serve.api import ExplorerAPI

    dv = Doc2Vec.load(saved["doc2vec"]).dv
    api_ = ExplorerAPI(load_document_vectors(saved["doc2vec"]), source=str(saved["doc2vec"]))
    status, body = api_.handle("info", {})
    assert status == 200 and body["words"] == len(dv) and body["dimensions"] == 32
    status, body = api_.handle("neighbours", {"word": "3", "topn": "4"})
    expected = dv.most_similar(3, topn=4)  # line tags are ints, as in gensim; the explorer shows them as text
    assert status == 200 and [(p["word"], round(p["score"], 5)) for p in body["neighbours"]] == [
        (str(t), round(float(s), 5)) for t, s in expected]
    assert main(["serve", str(saved["word2vec"]), "--docs", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "not a Doc2Vec model" in err and err.count("\n") == 1


def test_a_client_that_stops_sending_is_dropped_after_the_socket_timeout(server, monkeypatch):
    from wordvec.serve.server import ExplorerHandler

    monkeypatch.setattr(ExplorerHandler, "timeout", 0.5)  # 10 s in use; short here to keep the test fast
    host, port = server["httpd"].server_address[:2]
    with socket.create_connection((host, port), timeout=10) as connection:
        connection.sendall(b"GET /api/info HTTP/1.1\r\nHost: x\r\n")  # and then nothing
        # the server closes the connection (were it to wait for ever, recv would raise at our 10 s timeout)
        assert connection.recv(1024) == b""


def test_the_command_serves_a_model_directory_until_stopped(saved):
    import re
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "wordvec", "serve", str(saved["word2vec"]), "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = process.stdout.readline()
        url = re.search(r"at (http://127\.0\.0\.1:\d+/)", line).group(1)
        with urllib.request.urlopen(url + "api/info", timeout=10) as response:
            info = json.loads(response.read())
        assert info["source"] == str(saved["word2vec"]) and info["dimensions"] == 24
    finally:
        process.terminate()
        process.wait(timeout=10)
