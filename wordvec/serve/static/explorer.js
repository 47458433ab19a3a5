// wordvec explorer: the page's behaviour, talking to the JSON API under /api/ (see README).
// No framework, no network beyond this server: plain DOM, fetch and one SVG map.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

async function api(endpoint, params) {
  const response = await fetch("/api/" + endpoint + "?" + new URLSearchParams(params));
  let body;
  try { body = await response.json(); } catch (e) { body = { error: "the server sent no JSON (" + response.status + ")" }; }
  return { ok: response.ok, status: response.status, body };
}

function setStatus(id, text, isError) {
  const el = $(id);
  el.textContent = text;
  el.classList.toggle("error", Boolean(isError));
  return el;
}

// "'kng' is not in the vocabulary. Did you mean: king, kings?" with clickable suggestions.
function showUnknown(statusId, body, pick) {
  const el = setStatus(statusId, body.error + ".", true);
  const suggestions = body.suggestions || [];
  if (!suggestions.length) return;
  el.append(" Did you mean: ");
  suggestions.forEach((word, i) => {
    const link = document.createElement("a");
    link.textContent = word;
    link.addEventListener("click", () => pick(word));
    el.append(link, i + 1 < suggestions.length ? ", " : "?");
  });
}

function renderPairs(listId, pairs, onWord, markBest) {
  const list = $(listId);
  list.replaceChildren();
  // Bars span the range of the scores shown (the lowest a tenth, the highest full), so that
  // 0.694 and 0.717 do not both look full; the numbers beside them stay exact.
  const scores = pairs.map((p) => p.score);
  const low = Math.min(...scores), high = Math.max(...scores);
  const length = (s) => (high - low > 1e-9 ? 10 + 90 * (s - low) / (high - low) : 100);
  list.title = pairs.length > 1 ? "bars from " + low.toFixed(3) + " (shortest) to " + high.toFixed(3) + " (full)" : "";
  pairs.forEach((pair, i) => {
    const item = document.createElement("li");
    if (markBest && i === 0) item.className = "best";
    const word = document.createElement("span");
    word.className = "word";
    word.textContent = pair.word;
    word.title = pair.line ? "line " + pair.line + ": " + pair.word : "show the neighbours of " + pair.word;
    word.addEventListener("click", () => onWord(pair.word));
    const bar = document.createElement("span");
    bar.className = "bar";
    const fill = document.createElement("span");
    fill.style.width = length(pair.score).toFixed(1) + "%";
    bar.append(fill);
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = pair.score.toFixed(3);
    item.append(word, bar, score);
    list.append(item);
  });
}

// ---------------------------------------------------------------- neighbours as you type
let neighbourRequest = 0;
let typingTimer = null;
let neighbourHint = "Neighbours appear as you type (cosine similarity).";

function lookUp(word) {
  $("neighbour-word").value = word;
  queryNeighbours();
  map.focusOn(word);
}

async function queryNeighbours() {
  const word = $("neighbour-word").value.trim();
  const ticket = ++neighbourRequest;  // answers to older keystrokes are dropped
  if (!word) {
    $("neighbour-results").replaceChildren();
    setStatus("neighbour-status", neighbourHint);
    return;
  }
  const { ok, body } = await api("neighbours", { word, topn: $("neighbour-topn").value });
  if (ticket !== neighbourRequest) return;
  if (!ok) {
    $("neighbour-results").replaceChildren();
    if (body.suggestions) showUnknown("neighbour-status", body, lookUp);
    else setStatus("neighbour-status", body.error, true);
    fillCompletions(body.suggestions || []);
    return;
  }
  setStatus("neighbour-status", "Nearest to " + body.word + ":");
  renderPairs("neighbour-results", body.neighbours, lookUp, false);
}

function fillCompletions(words) {
  const list = $("neighbour-completions");
  list.replaceChildren(...words.map((w) => { const o = document.createElement("option"); o.value = w; return o; }));
}

$("neighbour-word").addEventListener("input", () => {
  clearTimeout(typingTimer);
  typingTimer = setTimeout(queryNeighbours, 120);
});
$("neighbour-topn").addEventListener("change", queryNeighbours);
$("neighbour-form").addEventListener("submit", (e) => { e.preventDefault(); queryNeighbours(); });

// ---------------------------------------------------------------- sentences (a static model)
// The lines of the --sentences file nearest to a typed sentence, or without a file the
// model's tokens nearest to it; the status shows the tokens the model cut the sentence into.
let sentenceRequest = 0;
let sentenceTimer = null;
let sentenceHint = "";

async function querySentence() {
  const text = $("sentence-text").value.trim();
  const ticket = ++sentenceRequest;
  if (!text) {
    $("sentence-results").replaceChildren();
    setStatus("sentence-status", sentenceHint);
    return;
  }
  const { ok, body } = await api("sentence", { text, topn: 10 });
  if (ticket !== sentenceRequest) return;
  const cut = body.tokens && body.tokens.length ? "Tokens: " + body.tokens.join(" · ") + ". " : "";
  if (!ok) {
    $("sentence-results").replaceChildren();
    setStatus("sentence-status", cut + body.error + ".", true);
    return;
  }
  setStatus("sentence-status", cut + (body.against === "sentences" ? "Nearest lines:" : "Nearest tokens:"));
  const pick = body.against === "sentences" ? (line) => { $("sentence-text").value = line; querySentence(); } : lookUp;
  renderPairs("sentence-results", body.neighbours, pick, false);
}

$("sentence-text").addEventListener("input", () => {
  clearTimeout(sentenceTimer);
  sentenceTimer = setTimeout(querySentence, 200);
});
$("sentence-form").addEventListener("submit", (e) => { e.preventDefault(); querySentence(); });

function showStaticModel(info) {
  $("source").textContent = info.source + " · static sentence model · " + info.words.toLocaleString() +
                            " tokens × " + info.dimensions + " dimensions" +
                            (info.sentences ? " · " + info.sentences.toLocaleString() + " sentences of " +
                             info.sentence_file : "");
  $("sentence-card").hidden = false;
  $("sentence-title").textContent = info.sentences ? "Nearest sentences" : "Nearest tokens of a sentence";
  sentenceHint = info.sentences
    ? "The " + info.sentences.toLocaleString() + " lines of " + info.sentence_file +
      ", ranked by the cosine of their sentence vectors to yours."
    : "Without --sentences FILE the model's tokens are ranked against the sentence's vector.";
  setStatus("sentence-status", sentenceHint);
  $("neighbours-title").textContent = "Nearest tokens";
  $("neighbour-word").placeholder = "type a token, e.g. " + (map.words[0] || "the");
  neighbourHint = "Nearest tokens appear as you type (cosine of their weighted rows).";
  setStatus("neighbour-status", neighbourHint);
  $("similarity-title").textContent = "Token-pair similarity";
  $("map-title").textContent = "Map of the tokens";
  for (const option of $("map-size").options) option.textContent = option.textContent.replace("words", "tokens");
}

// ---------------------------------------------------------------- analogy
$("analogy-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const value = (id) => $(id).value.trim() || $(id).placeholder;
  const [a, b, c] = [value("analogy-a"), value("analogy-b"), value("analogy-c")];
  const method = document.querySelector("input[name=method]:checked").value;
  setStatus("analogy-status", "Solving…");
  const { ok, body } = await api("analogy", { a, b, c, method, topn: 10 });
  if (!ok) {
    $("analogy-results").replaceChildren();
    setStatus("analogy-status", body.error + (body.suggestions && body.suggestions.length
      ? ". Did you mean: " + body.suggestions.join(", ") + "?" : ""), true);
    return;
  }
  const best = body.answers.length ? body.answers[0].word : "(no answer)";
  setStatus("analogy-status", a + " is to " + b + " as " + c + " is to " + best +
            " (" + (method === "3cosmul" ? "3CosMul" : "3CosAdd") + ")");
  renderPairs("analogy-results", body.answers, lookUp, true);
});

// ---------------------------------------------------------------- similarity
$("similarity-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const value = (id) => $(id).value.trim() || $(id).placeholder;
  const [word1, word2] = [value("similarity-word1"), value("similarity-word2")];
  const { ok, body } = await api("similarity", { word1, word2 });
  const out = $("similarity-result");
  out.replaceChildren();
  if (!ok) {
    setStatus("similarity-status", body.error + (body.suggestions && body.suggestions.length
      ? ". Did you mean: " + body.suggestions.join(", ") + "?" : ""), true);
    return;
  }
  setStatus("similarity-status", "cos(" + word1 + ", " + word2 + ")");
  const bar = document.createElement("div");
  bar.className = "bar";
  const fill = document.createElement("span");
  const s = body.similarity;  // the bar grows from the middle (0) towards -1 or 1
  fill.style.left = (50 + 50 * Math.min(s, 0)).toFixed(1) + "%";
  fill.style.width = (50 * Math.abs(s)).toFixed(1) + "%";
  bar.append(fill);
  const scale = document.createElement("div");
  scale.className = "scale";
  for (const mark of ["−1", "0", "1"]) { const m = document.createElement("span"); m.textContent = mark; scale.append(m); }
  out.append(document.createTextNode(s.toFixed(4)), bar, scale);
});

// ---------------------------------------------------------------- the map
// The box a label takes on screen (text drawn at x + 5, baseline y - 4; an estimate of the
// glyphs' width, so that placing hundreds of labels needs no layout pass).
function labelBox(word, x, y, kind) {
  const size = kind === "focus" ? 13 : 11;
  const width = Math.max(1, [...word].length) * size * (kind ? 0.66 : 0.6) + 2;
  return { x0: x + 4, x1: x + 5 + width, y0: y - 4 - size, y1: y - 1 };
}

// Placed label boxes in a coarse grid: does a new box overlap any of them?
class LabelGrid {
  constructor() { this.cells = new Map(); this.w = 80; this.h = 16; }
  *keys(b) {
    for (let cx = Math.floor(b.x0 / this.w); cx <= Math.floor(b.x1 / this.w); cx++)
      for (let cy = Math.floor(b.y0 / this.h); cy <= Math.floor(b.y1 / this.h); cy++) yield cx + "," + cy;
  }
  overlaps(b) {
    for (const key of this.keys(b))
      for (const o of this.cells.get(key) || [])
        if (b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1) return true;
    return false;
  }
  add(b) {
    for (const key of this.keys(b)) {
      if (!this.cells.has(key)) this.cells.set(key, []);
      this.cells.get(key).push(b);
    }
  }
}

const map = {
  svg: $("map"), words: [], x: [], y: [], index: new Map(), circles: [], labels: new Map(),
  view: { k: 1, tx: 0, ty: 0 }, marked: new Map(), size: { w: 800, h: 640 }, what: "most frequent words",

  async load(n) {
    setStatus("map-status", "Projecting the top " + n + " words…");
    const { ok, body } = await api("map", { n });
    if (!ok) { setStatus("map-status", body.error, true); return; }
    this.words = body.words;
    this.index = new Map(body.words.map((w, i) => [w, i]));
    const pad = 0.06;
    const span = (v) => { const lo = Math.min(...v), hi = Math.max(...v); return [lo, (hi - lo) || 1]; };
    const [x0, xs] = span(body.x), [y0, ys] = span(body.y);
    this.x = body.x.map((v) => pad + (1 - 2 * pad) * (v - x0) / xs);       // 0..1, right = +PC1
    this.y = body.y.map((v) => 1 - pad - (1 - 2 * pad) * (v - y0) / ys);   // 0..1, up = +PC2
    this.build();
    this.reset();
    setStatus("map-status", body.n + " " + this.what + ", first two principal components (" +
              Math.round(100 * body.explained_variance) + "% of the variance). Drag to pan, scroll to zoom, " +
              "hover a point for its word, click it to light up its nearest neighbours.");
  },

  build() {
    const layerPoints = document.createElementNS(SVG, "g");
    const layerLabels = document.createElementNS(SVG, "g");
    this.circles = this.words.map((word, i) => {
      const c = document.createElementNS(SVG, "circle");
      c.setAttribute("r", 3.5);
      c.dataset.word = word;
      c.dataset.rank = i + 1;
      layerPoints.append(c);
      return c;
    });
    this.labels = new Map();
    this.labelLayer = layerLabels;
    this.svg.replaceChildren(layerPoints, layerLabels);
    this.marked = new Map();
  },

  screen(i) {
    const { k, tx, ty } = this.view;
    return [tx + k * this.x[i] * this.size.w, ty + k * this.y[i] * this.size.h];
  },

  // Labels: every marked word, then the most frequent words (more of them as you zoom in),
  // each only where it overlaps no label placed before it: the focus first, then its
  // neighbours, then by rank, so that crowded places show their most frequent words.
  render() {
    const rect = this.svg.getBoundingClientRect();
    this.size = { w: rect.width || 800, h: rect.height || 640 };
    this.circles.forEach((c, i) => {
      const [sx, sy] = this.screen(i);
      c.setAttribute("cx", sx.toFixed(1));
      c.setAttribute("cy", sy.toFixed(1));
    });
    const budget = Math.round(40 * this.view.k * this.view.k);
    const order = (i) => (this.marked.get(i) === "focus" ? 0 : this.marked.has(i) ? 1 : 2);
    const candidates = [...this.marked.keys()].sort((a, b) => order(a) - order(b) || a - b);
    for (let i = 0; i < Math.min(budget, this.words.length); i++) if (!this.marked.has(i)) candidates.push(i);
    const placed = new LabelGrid();
    const wanted = new Set();
    for (const i of candidates) {
      const [sx, sy] = this.screen(i);
      if (sx < -50 || sy < -20 || sx > this.size.w + 50 || sy > this.size.h + 20) continue;
      const box = labelBox(this.words[i], sx, sy, this.marked.get(i));
      if (placed.overlaps(box)) continue;
      placed.add(box);
      wanted.add(i);
    }
    for (const [i, label] of this.labels) if (!wanted.has(i)) { label.remove(); this.labels.delete(i); }
    for (const i of wanted) {
      const [sx, sy] = this.screen(i);
      let label = this.labels.get(i);
      if (!label) {
        label = document.createElementNS(SVG, "text");
        label.textContent = this.words[i];
        this.labelLayer.append(label);
        this.labels.set(i, label);
      }
      label.setAttribute("class", this.marked.get(i) || "");
      label.setAttribute("x", (sx + 5).toFixed(1));
      label.setAttribute("y", (sy - 4).toFixed(1));
    }
  },

  reset() { this.view = { k: 1, tx: 0, ty: 0 }; this.render(); },

  zoom(factor, cx, cy) {
    const v = this.view;
    const k = Math.min(Math.max(v.k * factor, 0.5), 60);
    v.tx = cx - (cx - v.tx) * (k / v.k);
    v.ty = cy - (cy - v.ty) * (k / v.k);
    v.k = k;
    this.render();
  },

  mark(classes) {
    this.marked = classes;
    this.circles.forEach((c, i) => {
      c.setAttribute("class", classes.get(i) || (classes.size ? "dim" : ""));
    });
    this.render();
  },

  // Light up `word` and its neighbours, and bring them into view.
  async focusOn(word) {
    word = word.trim();
    if (!word || !this.words.length) return;
    const { ok, body } = await api("neighbours", { word, topn: 10 });
    if (!ok) { setStatus("map-status", body.error + ".", true); return; }
    const classes = new Map();
    const missing = [];
    body.neighbours.forEach((p) => {
      if (this.index.has(p.word)) classes.set(this.index.get(p.word), "neighbour"); else missing.push(p.word);
    });
    const own = this.index.get(word);
    if (own !== undefined) classes.set(own, "focus");
    this.mark(classes);
    setStatus("map-status", "Neighbours of " + word + " lit up" + (own === undefined ? " (" + word +
              " itself is not on the map)" : "") + (missing.length ? "; not among the top " + this.words.length +
              ": " + missing.join(", ") : "") + ".");
    this.fit([...classes.keys()]);
  },

  // Zoom and pan so that the points `indices` fill about half of the view.
  fit(indices) {
    if (!indices.length) return;
    const xs = indices.map((i) => this.x[i] * this.size.w), ys = indices.map((i) => this.y[i] * this.size.h);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const k = Math.min(Math.max(Math.min(this.size.w / (2 * (x1 - x0) || 1), this.size.h / (2 * (y1 - y0) || 1)), 1), 30);
    this.view = { k, tx: this.size.w / 2 - k * (x0 + x1) / 2, ty: this.size.h / 2 - k * (y0 + y1) / 2 };
    this.render();
  },
};

(function wireMap() {
  const svg = map.svg, tooltip = $("map-tooltip");
  let drag = null;
  svg.addEventListener("pointerdown", (e) => {
    if (e.target.tagName === "circle") return;
    drag = { x: e.clientX, y: e.clientY, tx: map.view.tx, ty: map.view.ty };
    svg.classList.add("dragging");
    svg.setPointerCapture(e.pointerId);
  });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) return;
    map.view.tx = drag.tx + e.clientX - drag.x;
    map.view.ty = drag.ty + e.clientY - drag.y;
    map.render();
  });
  const endDrag = () => { drag = null; svg.classList.remove("dragging"); };
  svg.addEventListener("pointerup", endDrag);
  svg.addEventListener("pointercancel", endDrag);
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const rect = svg.getBoundingClientRect();
    map.zoom(Math.exp(-e.deltaY * 0.0015), e.clientX - rect.left, e.clientY - rect.top);
  }, { passive: false });
  svg.addEventListener("mouseover", (e) => {
    if (e.target.tagName !== "circle") return;
    e.target.classList.add("hover");
    tooltip.textContent = e.target.dataset.word + " · rank " + e.target.dataset.rank;
    const rect = svg.getBoundingClientRect();
    tooltip.style.left = (Number(e.target.getAttribute("cx")) + 10) + "px";
    tooltip.style.top = (Number(e.target.getAttribute("cy")) - 30) + "px";
    tooltip.hidden = false;
  });
  svg.addEventListener("mouseout", (e) => {
    if (e.target.tagName !== "circle") return;
    e.target.classList.remove("hover");
    tooltip.hidden = true;
  });
  svg.addEventListener("click", (e) => {
    if (e.target.tagName === "circle") lookUp(e.target.dataset.word);
  });
  const middle = () => [map.size.w / 2, map.size.h / 2];
  $("map-zoom-in").addEventListener("click", () => map.zoom(1.5, ...middle()));
  $("map-zoom-out").addEventListener("click", () => map.zoom(1 / 1.5, ...middle()));
  $("map-reset").addEventListener("click", () => { map.mark(new Map()); map.reset(); });
  $("map-size").addEventListener("change", () => map.load($("map-size").value));
  $("map-find").addEventListener("change", () => map.focusOn($("map-find").value));
  window.addEventListener("resize", () => map.render());
})();

// ---------------------------------------------------------------- start
(async function start() {
  const { ok, body } = await api("info", {});
  if (!ok) { setStatus("neighbour-status", body.error, true); return; }
  $("source").textContent = body.source + " · " + body.words.toLocaleString() + " words × " + body.dimensions +
                            " dimensions";
  if (body.kind === "static") map.what = "tokens (whole words first, in vocabulary order)";
  const size = $("map-size");
  const wanted = Number(size.value);
  for (const option of [...size.options]) if (Number(option.value) >= body.max_map_words) option.remove();
  if (wanted >= body.max_map_words || Number(size.options[size.options.length - 1].value) < body.max_map_words) {
    const all = document.createElement("option");  // a small vocabulary: offer all of it
    all.value = body.max_map_words;
    all.textContent = (body.max_map_words === body.words ? "all " : "") + body.max_map_words + " words";
    size.append(all);
    if (wanted >= body.max_map_words) size.value = all.value;
  }
  await map.load(size.value);
  if (body.kind === "static") showStaticModel(body);
  document.body.dataset.ready = "true";  // for tests and scripts: the map is drawn
})();
