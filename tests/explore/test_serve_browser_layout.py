"""Layout in headless Chromium: the explorer's map labels never cover one another (at any
zoom, with a word and its neighbours lit up), its neighbour bars span the range of the
scores shown, and the classifier report's confusion matrix of 14 labels scrolls inside its card."""

import pytest

from tests.explore.test_report_classifier_pages import labelled
from tests.explore.test_serve_browser import browser, page, texts, wait_for  # noqa: F401 (fixtures)
from wordvec.models.classifier.model import Classifier
from wordvec.report import write_report

LABEL_BOXES = ("return [...document.querySelectorAll('#map text')].map(t => { const b = t.getBBox(); "
               "return [t.textContent, b.x, b.y, b.x + b.width, b.y + b.height]; })")


def overlapping(boxes, slack=0.5):
    """Pairs of labels whose drawn boxes intersect (by more than ``slack`` pixels each way)."""
    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[1] + slack < b[3] and b[1] + slack < a[3] and a[2] + slack < b[4] and b[2] + slack < a[4]]


def test_map_labels_never_overlap(page):
    from selenium.webdriver.common.by import By

    seen = []
    for step in range(4):
        boxes = page.execute_script(LABEL_BOXES)
        assert boxes and overlapping(boxes) == [], (step, overlapping(boxes)[:5])
        seen.append(len(boxes))
        page.find_element(By.ID, "map-zoom-in").click()
    assert seen[-1] > seen[0]  # zooming in makes room for more words
    page.find_element(By.ID, "map-reset").click()
    page.find_element(By.ID, "map-find").send_keys("queen\n")
    wait_for(page, lambda: texts(page, "#map text.focus") == ["queen"])
    boxes = page.execute_script(LABEL_BOXES)
    assert overlapping(boxes) == [] and texts(page, "#map text.neighbour")


def test_neighbour_bars_span_the_scores_shown(page, server):
    from selenium.webdriver.common.by import By

    box = page.find_element(By.ID, "neighbour-word")
    box.clear()
    box.send_keys("king")
    expected = server["kv"].most_similar("king", topn=10)
    wait_for(page, lambda: texts(page, "#neighbour-results .word") == [w for w, _ in expected])
    widths = [float(s.get_attribute("style").split("width:")[1].split("%")[0])
              for s in page.find_elements(By.CSS_SELECTOR, "#neighbour-results .bar span")]
    low, high = expected[-1][1], expected[0][1]
    assert widths[0] == pytest.approx(100) and widths[-1] == pytest.approx(10)
    for width, (_, score) in zip(widths, expected):
        assert width == pytest.approx(10 + 90 * (score - low) / (high - low), abs=0.06)


def test_the_confusion_matrix_scrolls_inside_its_card(browser, tmp_path):
    train, test = labelled(tmp_path / "train.txt", 1500, 1), labelled(tmp_path / "test.txt", 200, 2)
    Classifier.train(str(train), dim=8, epoch=2, lr=0.5, verbose=0).save(tmp_path / "genre.bin")
    write_report(tmp_path / "genre.bin", tmp_path / "report.html", test=test)
    browser.set_window_size(1000, 900)
    try:
        browser.get((tmp_path / "report.html").as_uri())
        box, card = browser.execute_script(
            "const box = document.querySelector('div.scroll'); const card = box.closest('section');"
            "return [[box.scrollWidth, box.clientWidth], [card.scrollWidth, card.clientWidth]];")
    finally:
        browser.set_window_size(1400, 900)
    assert box[0] > box[1]  # the matrix is wider than its box, which scrolls
    assert card[0] <= card[1]  # and the card around it does not overflow
