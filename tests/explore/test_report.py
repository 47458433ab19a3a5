"""`wordvec report`: one self-contained page per model kind or vector file, sections only with data."""

import base64
import re

import numpy as np
import pytest

from wordvec.cli import main
from wordvec.vectors.evaluate import evaluate_all
from wordvec.report import build_report
from wordvec.models.classifier.model import Classifier
from wordvec.models.saved import load_keyed_vectors
from wordvec.report.classifier import confusion_matrix, indicative_words

pytest.importorskip("matplotlib", reason="wordvec report needs matplotlib (pip install 'wordvec[plot]')")


def sections(html):
    return re.findall(r'<section id="[^"]+"><h2>([^<]+)</h2>', html)


def assert_self_contained(html):
    assert "<script" not in html.lower()
    assert not re.search(r'(src|href)="(?!data:image/png;base64,|#)', html)  # nothing fetched from anywhere
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', html)
    assert images
    for image in images:
        assert base64.b64decode(image).startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize("kind, expected", [
    ("word2vec", ["Overview", "Configuration", "Corpus and vocabulary", "Training", "Evaluation",
                  "Nearest neighbours", "Map of the top words"]),
    ("glove", ["Overview", "Configuration", "Corpus and vocabulary", "Training", "Evaluation",
               "Nearest neighbours", "Map of the top words"]),
    ("ppmi-svd", ["Overview", "Configuration", "Corpus and vocabulary", "Training", "Evaluation",
                  "Nearest neighbours", "Map of the top words"]),
    ("window", ["Overview", "Configuration", "Training", "Evaluation", "Nearest neighbours", "Map of the top words"]),
    ("rnnlm", ["Overview", "Configuration", "Corpus and vocabulary", "Training", "Nearest neighbours",
               "Map of the top words", "Samples"]),
    ("doc2vec", ["Overview", "Configuration", "Corpus and vocabulary", "Training", "Evaluation",
                 "Nearest neighbours", "Map of the top words", "Documents"]),
    ("text", ["Overview", "Evaluation", "Nearest neighbours", "Map of the top words"]),
    ("glove-text", ["Overview", "Evaluation", "Nearest neighbours", "Map of the top words"]),
])
def test_report_has_exactly_the_sections_the_input_has_data_for(saved, kind, expected):
    html = build_report(saved[kind])
    assert sections(html) == expected
    assert_self_contained(html)


def test_report_numbers_come_from_the_model(saved):
    path = saved["word2vec"]
    html = build_report(path)
    kv = load_keyed_vectors(path)
    result = evaluate_all(kv)
    assert f"{100 * result['analogy']['total']:.1f}% of {result['analogy']['answered']:,} answered" in html
    rho = result["similarity"]["wordsim353"]["spearman"]
    assert f"{rho:.4g}" in html
    assert "Zipf plot" in html and "loss" in html
    frequent = re.search(r"<h3>Frequent words</h3>(.*?)</table>", html).group(1)
    first_word = re.search(r"<td>([^<(]+) \(", frequent).group(1).strip()
    best, best_score = kv.most_similar(first_word, topn=1)[0]
    assert f"{best} {best_score:.2f}" in frequent


def test_doc2vec_report_shows_the_documents_from_the_model(saved):
    from wordvec.models.doc2vec.model import Doc2Vec

    html = build_report(saved["doc2vec"], evaluate=False)
    model = Doc2Vec.load(saved["doc2vec"])
    documents = re.search(r"<h2>Documents</h2>(.*?)</section>", html, re.S).group(1)
    assert f"<td>{len(model.tags):,}</td>" in documents and "line numbers" in documents
    first = re.search(r"<h3>Nearest documents</h3>.*?<td>([^<]+)</td><td>([^<]+)</td>", documents, re.S)
    tag, neighbours = first.group(1), first.group(2)
    best, score = model.dv.most_similar(int(tag), topn=1)[0]  # line tags are ints, as in gensim
    assert tag == "0" and neighbours.startswith(f"{best} {score:.2f}")
    assert f"<td>{model.vocab.corpus_tokens:,}</td>" in html  # the corpus section: tokens and documents


def test_language_model_report_shows_perplexity_and_samples(saved):
    html = build_report(saved["rnnlm"], samples=3)
    assert "Perplexity per epoch" in html
    assert len(re.findall(r"<li><code>", html.split('id="samples"')[1])) == 3


def test_cli_writes_the_page_and_refuses_bad_input(saved, tmp_path, capsys):
    out = tmp_path / "page.html"
    assert main(["report", str(saved["text"]), "-o", str(out), "--no-evaluate", "--top", "50"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "Evaluation" not in sections(html) and "The 50 most frequent words" not in html  # no counts: file order
    assert "The 50 first words of the file" in html
    assert main(["report", str(tmp_path / "missing.bin"), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wordvec: error: ") and err.count("\n") == 1


def _labelled_lines(path, n, seed):
    """Two classes, each with its own 10 words; 2 of 7 words per line are the class's."""
    rng = np.random.default_rng(seed)
    lines = []
    for _ in range(n):
        c = int(rng.integers(2))
        words = [f"k{c}w{rng.integers(10)}" for _ in range(2)] + [f"noise{rng.integers(200)}" for _ in range(5)]
        lines.append(f"__label__c{c} " + " ".join(words))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_classifier_report_has_its_history_indicative_words_and_confusion_matrix(tmp_path):
    train, test = _labelled_lines(tmp_path / "train.txt", 1500, 1), _labelled_lines(tmp_path / "test.txt", 300, 2)
    model = Classifier.train(str(train), valid=str(test), dim=8, epoch=4, lr=0.5, word_ngrams=2, bucket=5000,
                             verbose=0)
    model.save(tmp_path / "model.wv")
    model.save(tmp_path / "model.bin")
    html = build_report(tmp_path / "model.wv", test=test)
    assert sections(html) == ["Overview", "Labels", "Training", "Indicative words", "Test"]
    assert_self_contained(html)  # the loss curve
    assert f"{model.history[-1]['valid_p@1']:.4g}" in html
    n, precision, counts = confusion_matrix(model, test)
    assert (n, precision) == (model.test(str(test))[0], model.test(str(test))[1])  # one label per line here
    assert counts.sum() == n and np.trace(counts) > 0.9 * n
    assert f"{precision:.4f}" in html
    words = indicative_words(model, top=5)
    assert all(w.startswith("k0w") for w in words["__label__c0"])
    assert all(w.startswith("k1w") for w in words["__label__c1"])
    # fastText's .bin keeps no history: the same report without the Training section
    assert sections(build_report(tmp_path / "model.bin")) == ["Overview", "Labels", "Indicative words"]
