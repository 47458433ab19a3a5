"""HTML building blocks of the report: escaped text, tables, figures, the page itself.

Everything user-controlled (words, file names, hyperparameter values) goes through
:func:`escape`; the page carries its CSS inline and no script.
"""

import html
import math
import re

from wordvec import __version__

CSS = """
:root { --ink:#1f2933; --muted:#616e7c; --line:#e4e7eb; --accent:#2563eb; --paper:#ffffff; --band:#f5f7fa; }
* { box-sizing: border-box; }
body { margin:0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--ink);
       background:var(--band); }
header { background:var(--ink); color:#fff; padding:22px 32px; }
header h1 { margin:0; font-size:22px; font-weight:600; }
header p { margin:4px 0 0; color:#cbd2d9; font-size:13px; word-break:break-all; }
nav { padding:10px 32px; background:var(--paper); border-bottom:1px solid var(--line); font-size:13px; }
nav a { color:var(--accent); text-decoration:none; margin-right:16px; }
main { max-width:980px; margin:0 auto; padding:8px 24px 48px; }
section { background:var(--paper); border:1px solid var(--line); border-radius:8px; padding:18px 24px;
          margin:18px 0; }
h2 { margin:0 0 12px; font-size:18px; }
h3 { margin:18px 0 8px; font-size:15px; color:var(--muted); }
table { border-collapse:collapse; width:100%; font-size:13.5px; }
th, td { text-align:left; padding:5px 10px; border-bottom:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:600; background:var(--band); }
th.num { text-align:right; }
td:first-child { white-space:nowrap; }
td.num { text-align:right; font-variant-numeric: tabular-nums; white-space:nowrap; }
table.kv th { width:32%; background:none; font-weight:500; }
dl.grid { display:grid; grid-template-columns: repeat(2, minmax(0, 1fr) minmax(0, 1fr)); margin:0; font-size:13.5px; }
dl.grid dt, dl.grid dd { margin:0; padding:5px 10px; border-bottom:1px solid var(--line); }
dl.grid dt { color:var(--muted); }
dl.grid dd { font-variant-numeric: tabular-nums; word-break:break-word; }
figure { margin:16px 0 4px; text-align:center; }
figure img { max-width:100%; height:auto; }
figcaption { color:var(--muted); font-size:12.5px; margin-top:4px; }
code { font: 13px ui-monospace, "DejaVu Sans Mono", monospace; background:var(--band); padding:1px 4px;
       border-radius:3px; }
footer { color:var(--muted); font-size:12px; text-align:center; padding:16px; }
div.scroll { overflow-x:auto; max-width:100%; }
div.scroll table { width:auto; min-width:100%; }
div.scroll th { white-space:nowrap; }
"""


def escape(text):
    return html.escape(str(text), quote=True)


def display_word(word):
    """A token as shown on the page: whitespace and control tokens (a character model's
    space or newline) as their Python repr, everything else as is."""
    return word if word and word.split() == [word] and word.isprintable() else repr(word)


def display_value(value):
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):  # e.g. a classifier's classes
        return ", ".join(display_value(v) for v in value)
    return "–" if value is None else str(value)


def _cell(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return '<td class="num">–</td>'
    if isinstance(value, bool):
        return f"<td>{value}</td>"
    if isinstance(value, int):
        return f'<td class="num">{value:,}</td>'
    if isinstance(value, float):
        text = f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
        return f'<td class="num">{text}</td>'
    return f"<td>{escape(value)}</td>"


def key_value_table(rows):
    body = "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows)
    return f'<table class="kv">{body}</table>'


def key_value_grid(rows):
    """Many short key/value pairs (a configuration) in two column pairs."""
    return '<dl class="grid">' + "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in rows) + "</dl>"


def data_table(header, rows):
    numeric = [all(isinstance(row[i], (int, float)) or row[i] is None for row in rows) for i in range(len(header))]
    head = "".join(f'<th{" class=num" if num else ""}>{escape(h)}</th>' for h, num in zip(header, numeric))
    body = "".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def scrolling(html):
    """``html`` (a wide table) in a box that scrolls sideways inside its section."""
    return f'<div class="scroll">{html}</div>'


def figure(data_uri, caption):
    return f'<figure><img src="{data_uri}" alt="{escape(caption)}"><figcaption>{escape(caption)}</figcaption></figure>'


def section(title, body):
    anchor = title.lower().replace(" ", "-")
    return f'<section id="{escape(anchor)}"><h2>{escape(title)}</h2>{body}</section>'


def document(title, sections):
    """The whole page: header, a contents bar linking the sections, the sections."""
    links = []
    for block in sections:
        match = re.match(r'<section id="([^"]+)"><h2>([^<]+)</h2>', block)
        if match:
            links.append(f'<a href="#{match.group(1)}">{match.group(2)}</a>')
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"<header><h1>wordvec report</h1><p>{escape(title.split(': ', 1)[-1])}</p></header>"
            f"<nav>{''.join(links)}</nav><main>{''.join(sections)}</main>"
            f"<footer>made by wordvec {escape(__version__)} · self-contained: no network needed</footer>"
            f"</body></html>\n")
