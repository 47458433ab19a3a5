"""`wordvec report` and the explorer (`wordvec serve`) on a static sentence model: the page's
numbers and the API's answers, each checked against NumPy on the model's own arrays."""

import json
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

import numpy as np
import pytest

from tests.hostile.harness import assert_clean_failure, run_main
from wordvec.models.static.model import StaticModel
from wordvec.models.static.query import nearest
from wordvec.report import build_report
from wordvec.serve import make_static_server

pytest.importorskip("matplotlib", reason="wordvec report needs matplotlib (pip install 'wordvec[plot]')")

SENTENCES = ["the movie was good", "a dull film", "", "the best song of the year",
             "the river runs through the city", "many people walk on the road", "a funny and happy story"]


@pytest.fixture(scope="module")
def trained(distilled, tmp_path_factory):
    """A distilled model trained one step further toward given targets (so it has a history), saved."""
    directory = tmp_path_factory.mktemp("static-report")
    model = StaticModel(distilled.vectors.copy(), distilled.tokenizer, weights=distilled.weights.copy(),
                        config=distilled.config, projection=distilled.projection)
    corpus = [line for line in SENTENCES if line]
    targets = np.random.default_rng(0).standard_normal((len(corpus), len(model.projection[0]))).astype(np.float32)
    model.fit(corpus, targets=targets, epochs=2, alpha=0.05, min_alpha=0.01, threads=1)
    model.save(directory / "model")
    (directory / "sentences.txt").write_text("\n".join(SENTENCES) + "\n")
    return directory / "model", directory / "sentences.txt"


def sections(html):
    return re.findall(r'<section id="[^"]+"><h2>([^<]+)</h2>', html)


def section(html, title):
    return re.search(rf"<h2>{title}</h2>(.*?)</section>", html, re.S).group(1)


def test_the_report_shows_the_vocabulary_weights_history_and_map(trained):
    path, _ = trained
    model = StaticModel.load(path)
    html = build_report(path, top=40)
    assert sections(html) == ["Overview", "Configuration", "Vocabulary", "Weights", "Training", "Nearest tokens",
                              "Map of the tokens"]
    assert "<script" not in html.lower() and not re.search(r'(src|href)="(?!data:image/png;base64,|#)', html)
    overview = section(html, "Overview")
    assert f"<th>tokens</th><td>{len(model)}</td>" in overview and f"<td>{model.dim}</td>" in overview
    assert "sentence vectors are unit length" in overview and "PCA from 32 to 16" in overview
    assert "<dt>sif_coefficient</dt><dd>0.0001</dd>" in section(html, "Configuration")

    vocabulary = section(html, "Vocabulary")
    pieces = sum(t.startswith("##") for t in model.tokens)
    words = sum(len(t) > 1 and not t.startswith("##") and t not in ("[PAD]", "[UNK]") for t in model.tokens)
    assert f'<td>continuation pieces</td><td class="num">{pieces}</td>' in vocabulary
    assert f'<td>whole words</td><td class="num">{words}</td>' in vocabulary
    assert '<td>special tokens</td><td class="num">2</td>' in vocabulary

    weights = section(html, "Weights")
    lengths = np.linalg.norm(model.vectors * model.weights[:, None], axis=1)
    first = re.search(r'<tbody><tr><td class="num">1</td><td>([^<]+)</td><td class="num">([^<]+)</td>'
                      r'<td>([^<]+)</td><td class="num">([^<]+)</td>', weights)
    assert first.groups() == (model.tokens[lengths.argmax()], f"{lengths.max():.4g}",
                              model.tokens[lengths.argmin()], f"{lengths.min():.4g}")
    assert weights.count("<img") == 1  # the weights live in the rows: no separate weights to plot

    training = section(html, "Training")
    assert [h["objective"] for h in model.history] == ["teacher", "teacher"]
    for entry in model.history:
        assert f'<td class="num">{entry["loss"]:.4g}</td>' in training
    assert "The first 40 whole-word tokens of the vocabulary" in section(html, "Map of the tokens")


def test_the_report_command_writes_the_page_and_keeps_its_output_gate(trained, tmp_path):
    path, _ = trained
    result = run_main("report", path, "-o", tmp_path / "page.html", "--top", "20")
    assert result.returncode == 0, result.stderr
    assert "Map of the tokens" in (tmp_path / "page.html").read_text(encoding="utf-8")
    assert_clean_failure(run_main("report", path, "-o", path / "page.html"), "refusing to write")
    assert not (path / "page.html").exists()


@pytest.fixture(scope="module")
def explorer(trained):
    path, sentences = trained
    httpd = make_static_server(StaticModel.load(path), "127.0.0.1", 0, source=str(path), sentences=sentences)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    host, port = httpd.server_address[:2]
    yield f"http://{host}:{port}"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=10)


def ask(url, endpoint, **params):
    try:
        with urllib.request.urlopen(f"{url}/api/{endpoint}?{urllib.parse.urlencode(params)}", timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def cosines(matrix, vector):
    matrix = np.asarray(matrix, dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1)
    return matrix @ vector / np.where(norms > 0, norms, 1) / np.linalg.norm(vector)


def test_the_explorer_answers_nearest_tokens_and_sentences(trained, explorer):
    path, _ = trained
    model = StaticModel.load(path)
    status, info = ask(explorer, "info")
    assert status == 200 and info["kind"] == "static" and info["words"] == len(model)
    assert info["sentences"] == len([s for s in SENTENCES if s])

    rows = np.asarray(model.vectors * model.weights[:, None], dtype=np.float64)
    row = model.tokens.index("movie")
    scores = cosines(rows, rows[row])
    scores[row] = -np.inf
    expected = np.argsort(-scores, kind="stable")[:5]
    status, answer = ask(explorer, "neighbours", word="movie", topn=5)
    assert status == 200
    assert [n["word"] for n in answer["neighbours"]] == [model.tokens[i] for i in expected]
    np.testing.assert_allclose([n["score"] for n in answer["neighbours"]], scores[expected], atol=1e-5)

    query = "a good movie"
    vector = model.encode([query])[0].astype(np.float64)
    lines = [s for s in SENTENCES if s]
    scores = cosines(model.encode(lines), vector)
    expected = np.argsort(-scores, kind="stable")[:3]
    status, answer = ask(explorer, "sentence", text=query, topn=3)
    assert status == 200 and answer["against"] == "sentences" and answer["tokens"] == ["a", "good", "movie"]
    assert [n["word"] for n in answer["neighbours"]] == [lines[i] for i in expected]
    assert [n["line"] for n in answer["neighbours"]] == [SENTENCES.index(lines[i]) + 1 for i in expected]
    np.testing.assert_allclose([n["score"] for n in answer["neighbours"]], scores[expected], atol=1e-5)

    status, answer = ask(explorer, "map", n=10)
    assert answer["words"] == [t for t in model.tokens if len(t) > 1 and t[:2] != "##" and t[0] != "["][:10]


def test_the_explorer_refuses_what_it_cannot_answer(explorer):
    status, answer = ask(explorer, "neighbours", word="moviez")
    assert status == 404 and "movie" in answer["suggestions"]
    status, answer = ask(explorer, "sentence", text="   ")
    assert status == 400 and "empty" in answer["error"]
    status, answer = ask(explorer, "sentence", text="§ ¶")  # nothing the tokenizer knows: [UNK] is dropped
    assert status == 404 and "no token the model knows" in answer["error"]
    status, answer = ask(explorer, "sentence", text="a film", color="red")
    assert status == 400 and "unknown parameter" in answer["error"]


def test_without_a_sentence_file_a_sentence_ranks_the_tokens_as_similar_does(trained):
    path, _ = trained
    httpd = make_static_server(StaticModel.load(path), "127.0.0.1", 0, source=str(path))
    try:
        status, answer = httpd.api.handle("sentence", {"text": "the best song", "topn": "4"})
    finally:
        httpd.server_close()
    assert status == 200 and answer["against"] == "tokens"
    expected = nearest(path, "the best song", 4)
    assert [(n["word"], n["score"]) for n in answer["neighbours"]] == [(w, round(s, 6)) for w, s in expected]


def test_serve_refuses_flags_that_do_not_fit_the_model(trained, tmp_path):
    path, sentences = trained
    assert_clean_failure(run_main("serve", path, "--docs", "--port", "0"), "--docs", "static")
    (tmp_path / "v.txt").write_text("2 2\na 1 0\nb 0 1\n")
    assert_clean_failure(run_main("serve", tmp_path / "v.txt", "--sentences", sentences, "--port", "0"),
                         "--sentences", "static")
    assert_clean_failure(run_main("serve", path, "--sentences", tmp_path / "none.txt", "--port", "0"), "none.txt")
