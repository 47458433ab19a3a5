"""The fenced blocks of README.md and docs/**/*.md, found and classified.

A block opens with a line of three or more backticks or tildes (its info string names the
language) and closes with a line of the same character, at least as long.  An HTML comment
on the line just before the opening (blank lines between are allowed) may tell how the
example runs; it is invisible on the rendered page:

    <!-- example: placeholder GoogleNews-vectors-negative300.bin; replace --bucket 2000000 => --bucket 20000 -->

Directives, separated by ``;``:

- ``placeholder NAME ...``: NAME stands for a big file (or folder) the example does not make;
  the test's workspace holds a small one of that name (``workspace.PLACEHOLDERS``).
- ``replace OLD => NEW``: the example runs with OLD replaced by NEW (a smaller scale, a
  cluster's address); the page keeps what a user types.
- ``given NAME ...``: a Python block uses NAME as defined earlier on its page or by the
  user's own program; the test defines it first (``running.GIVEN``).
- ``not run TEXT: REASON``: the shell lines containing TEXT are counted, not run, for REASON.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPENING = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")
DIRECTIVES = re.compile(r"^\s*<!--\s*example:(?P<body>.*?)-->\s*$", re.S)

# a block's language (the first word of its info string) -> what the test does with it
KINDS = {
    "python": "python", "py": "python",
    "bash": "shell", "sh": "shell", "shell": "shell", "console": "shell",
    "": "text", "text": "text", "output": "text",
    "json": "json", "toml": "toml",
}


@dataclass(frozen=True)
class Block:
    path: str  # relative to the repository root
    line: int  # of the opening fence, from 1
    language: str
    text: str
    placeholders: tuple = ()
    replacements: tuple = ()  # (old, new) pairs
    given: tuple = ()
    not_run: tuple = ()  # (text, reason) pairs
    problems: tuple = field(default=())  # a directive the test cannot read

    @property
    def kind(self):
        return KINDS.get(self.language, "unknown")

    @property
    def where(self):
        return f"{self.path}:{self.line}"

    def runnable_text(self):
        text = self.text
        for old, new in self.replacements:
            text = text.replace(old, new)
        return text


def documents():
    """README.md and every .md file under docs/, as paths relative to the repository root."""
    return ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))]


def blocks_of(path):
    lines = (ROOT / path).read_text(encoding="utf-8").split("\n")
    found, number = [], 0
    while number < len(lines):
        opening = OPENING.match(lines[number])
        if not opening:
            number += 1
            continue
        fence = opening["fence"]
        end = number + 1
        while end < len(lines) and not re.match(rf"^ {{0,3}}{fence[0]}{{{len(fence)},}}\s*$", lines[end]):
            end += 1
        found.append(_block(path, number, opening["info"].lower(), "\n".join(lines[number + 1:end]) + "\n",
                            _comment_before(lines, number)))
        number = end + 1
    return found


def _comment_before(lines, number):
    """The ``<!-- example: ... -->`` comment ending on the last non-blank line above ``number``."""
    end = number - 1
    while end >= 0 and not lines[end].strip():
        end -= 1
    if end < 0 or not lines[end].rstrip().endswith("-->"):
        return ""
    start = end
    while start > 0 and "<!--" not in lines[start]:
        start -= 1
    match = DIRECTIVES.match("\n".join(lines[start:end + 1]))
    return match["body"] if match else ""


def _block(path, index, language, text, comment):
    placeholders, replacements, given, not_run, problems = [], [], [], [], []
    for directive in filter(None, (part.strip() for part in comment.split(";"))):
        word, _, rest = directive.partition(" ")
        if word == "placeholder":
            placeholders += rest.split()
        elif word == "given":
            given += rest.split()
        elif word == "replace" and " => " in rest:
            old, new = rest.split(" => ", 1)
            if old.strip() not in text:
                problems.append(f"replace: {old.strip()!r} is not in the block")
            replacements.append((old.strip(), new.strip()))
        elif word == "not" and rest.startswith("run ") and ": " in rest:
            marked, reason = rest.removeprefix("run ").split(": ", 1)
            if marked not in text:
                problems.append(f"not run: {marked!r} is not in the block")
            not_run.append((marked, reason))
        else:
            problems.append(f"unknown directive {directive!r}")
    return Block(path, index + 1, language.removeprefix("{").removesuffix("}").lstrip("."), text,
                 tuple(placeholders), tuple(replacements), tuple(given), tuple(not_run), tuple(problems))


def all_blocks():
    return [block for path in documents() for block in blocks_of(path)]
