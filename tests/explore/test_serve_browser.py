"""End-to-end: headless Chromium (Debian's, driven by Selenium + chromedriver) against `wordvec serve`.

CI installs the browser (`.ci/run`: apt-get install chromium chromium-driver; the `browser`
extra brings selenium).  Where they cannot be installed these tests skip with that reason.
"""

import os
import shutil
import tempfile

import pytest

from tests.explore.conftest import serving

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,900")


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="headless-browser tests need selenium "
                                    "(pip install -e '.[browser]')")
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        pytest.skip("headless-browser tests need Debian's chromium and chromium-driver "
                    "(apt-get install chromium chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="wordvec-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser, server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(server["url"] + "/")
    WebDriverWait(browser, 20).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    return browser


def wait_for(driver, condition, timeout=10):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(lambda d: condition())


def texts(driver, selector):
    from selenium.webdriver.common.by import By

    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, selector)]


def test_typing_a_word_shows_its_neighbours(page, server):
    from selenium.webdriver.common.by import By

    box = page.find_element(By.ID, "neighbour-word")
    box.send_keys("kng")  # not a word: a clear message with suggestions
    wait_for(page, lambda: "not in the vocabulary" in page.find_element(By.ID, "neighbour-status").text)
    assert "king" in page.find_element(By.ID, "neighbour-status").text
    box.clear()
    box.send_keys("king")
    expected = [word for word, _ in server["kv"].most_similar("king", topn=10)]
    wait_for(page, lambda: texts(page, "#neighbour-results .word") == expected)
    if os.environ.get("WORDVEC_SCREENSHOT"):  # to look at the page: WORDVEC_SCREENSHOT=page.png pytest ...
        page.save_screenshot(os.environ["WORDVEC_SCREENSHOT"])


def test_submitting_an_analogy_shows_the_answer(page):
    from selenium.webdriver.common.by import By

    for field, word in (("analogy-a", "man"), ("analogy-b", "king"), ("analogy-c", "woman")):
        page.find_element(By.ID, field).send_keys(word)
    for method in ("3cosadd", "3cosmul"):
        page.find_element(By.CSS_SELECTOR, f"input[name=method][value='{method}']").click()
        page.execute_script("document.getElementById('analogy-results').replaceChildren()")
        page.find_element(By.ID, "analogy-submit").click()
        wait_for(page, lambda: texts(page, "#analogy-results .word")[:1] == ["queen"])
        assert "is to queen" in page.find_element(By.ID, "analogy-status").text


def test_word_pair_similarity(page, server):
    from selenium.webdriver.common.by import By

    page.find_element(By.ID, "similarity-word1").send_keys("king")
    page.find_element(By.ID, "similarity-word2").send_keys("queen")
    page.find_element(By.ID, "similarity-submit").click()
    expected = f"{server['kv'].similarity('king', 'queen'):.4f}"
    wait_for(page, lambda: page.find_element(By.ID, "similarity-result").text.startswith(expected))


def test_hovering_the_map_names_the_word_and_clicking_lights_up_its_neighbours(page, server):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    circles = page.find_elements(By.CSS_SELECTOR, "#map circle")
    assert len(circles) == 500
    point = page.find_element(By.CSS_SELECTOR, '#map circle[data-word="queen"]')
    ActionChains(page).move_to_element(point).perform()
    tooltip = page.find_element(By.ID, "map-tooltip")
    wait_for(page, lambda: tooltip.is_displayed() and tooltip.text.startswith("queen"))
    point.click()
    on_map = set(page.execute_script("return [...document.querySelectorAll('#map circle')].map(c => c.dataset.word)"))
    expected = {w for w, _ in server["kv"].most_similar("queen", topn=10)} & on_map
    wait_for(page, lambda: {c.get_attribute("data-word")
                            for c in page.find_elements(By.CSS_SELECTOR, "#map circle.neighbour")} == expected)
    assert page.find_element(By.CSS_SELECTOR, "#map circle.focus").get_attribute("data-word") == "queen"
    assert texts(page, "#neighbour-results .word")[0] == server["kv"].most_similar("queen", topn=1)[0][0]
    labels = set(texts(page, "#map text.neighbour"))
    assert labels and labels <= expected
    # zooming in (the + button) spreads the points apart
    before = [float(point.get_attribute("cx")), float(point.get_attribute("cy"))]
    other = page.find_element(By.CSS_SELECTOR, '#map circle[data-word="w100"]')
    gap = abs(float(other.get_attribute("cx")) - before[0])
    page.find_element(By.ID, "map-zoom-in").click()
    assert abs(float(other.get_attribute("cx")) - float(point.get_attribute("cx"))) == pytest.approx(1.5 * gap, rel=0.01)



def test_dragging_the_map_pans_it(page):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    svg = page.find_element(By.ID, "map")
    point = page.find_element(By.CSS_SELECTOR, '#map circle[data-word="king"]')
    before = float(point.get_attribute("cx")), float(point.get_attribute("cy"))
    # grab the map at its top-left corner (empty: the points keep a 6% margin) and move it
    ActionChains(page).move_to_element_with_offset(svg, -svg.size["width"] // 2 + 5, -svg.size["height"] // 2 + 5) \
        .click_and_hold().move_by_offset(60, 40).release().perform()
    after = float(point.get_attribute("cx")), float(point.get_attribute("cy"))
    assert after == pytest.approx((before[0] + 60, before[1] + 40), abs=1.5)


@pytest.fixture(scope="module")
def static_server(tmp_path_factory):
    """An explorer over a static sentence model of random token vectors (the tiny WordPiece
    tokenizer of tests/static/teacher.py) and a file of sentences."""
    import numpy as np

    pytest.importorskip("tokenizers", reason="static models need the static extra (pip install -e '.[static]')")
    from tests.static.teacher import make_tokenizer, vocabulary
    from wordvec.models.static.model import StaticModel
    from wordvec.serve import make_static_server

    vocab = vocabulary()
    rng = np.random.default_rng(3)
    model = StaticModel(rng.standard_normal((len(vocab), 12)), make_tokenizer(vocab),
                        weights=rng.uniform(0.5, 1.5, len(vocab)))
    sentences = tmp_path_factory.mktemp("static-explorer") / "sentences.txt"
    lines = ["the movie was good", "a dull film", "the best song of the year", "the river runs through the city",
             "many people walk on the road", "a funny and happy story"]
    sentences.write_text("\n".join(lines) + "\n")
    httpd = make_static_server(model, "127.0.0.1", 0, source="static test model", sentences=sentences)
    with serving(httpd) as url:
        yield {"url": url, "model": model, "lines": lines}


def test_a_static_model_shows_nearest_sentences_and_tokens(browser, static_server):
    import numpy as np
    from selenium.webdriver.common.by import By

    model, lines = static_server["model"], static_server["lines"]
    browser.get(static_server["url"] + "/")
    wait_for(browser, lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-ready"), timeout=20)
    assert browser.find_element(By.ID, "sentence-card").is_displayed()
    assert browser.find_element(By.ID, "neighbours-title").text == "Nearest tokens"

    browser.find_element(By.ID, "sentence-text").send_keys("a good movie")
    scores = model.encode(lines) @ model.encode(["a good movie"])[0]
    expected = [lines[i] for i in np.argsort(-scores, kind="stable")]
    wait_for(browser, lambda: texts(browser, "#sentence-results .word") == expected)
    assert "a · good · movie" in browser.find_element(By.ID, "sentence-status").text

    browser.find_element(By.ID, "neighbour-word").send_keys("movie")
    rows = model.vectors * model.weights[:, None]
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    scores = rows @ rows[model.tokens.index("movie")]
    expected = [model.tokens[i] for i in np.argsort(-scores, kind="stable")[1:11]]
    wait_for(browser, lambda: texts(browser, "#neighbour-results .word") == expected)
    if os.environ.get("WORDVEC_SCREENSHOT"):
        browser.save_screenshot(os.environ["WORDVEC_SCREENSHOT"])
