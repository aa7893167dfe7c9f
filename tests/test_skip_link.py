"""A skip link on every page (issue 28, "Keyboard"): every page template (not a partial,
whose name starts with "_") extends base.html, directly or through other templates,
and base.html opens its body with the skip link to ``<main id="main">``. The browser test
(tests/browser/test_learn_browser.py) checks that the first Tab reaches it and Enter moves
the focus to the main content."""

from __future__ import annotations

import re
from pathlib import Path

from frontend.play import frame

ROOT = Path(__file__).resolve().parent.parent
DIRS = [ROOT / "frontend" / "templates", ROOT / "accounts" / "templates"]


def _parent(path: Path) -> str | None:
    match = re.search(r'{%\s*extends\s+("([^"]+)"|frame)\s*%}', path.read_text())
    if match and match.group(1) == "frame":  # the game frame: a page, or a fragment alone
        return frame.PAGE
    return match.group(2) if match else None


def test_every_page_template_extends_the_base_with_the_skip_link():
    templates = {str(p.relative_to(d)): p for d in DIRS for p in d.rglob("*.html")}
    pages = {name: p for name, p in templates.items() if not p.name.startswith("_")}
    for name in pages:
        seen = name
        while seen != "base.html":
            parent = _parent(templates[seen])
            assert parent in templates, (name, seen, parent)
            seen = parent
    base = (DIRS[0] / "base.html").read_text()
    body = base.split("<body", 1)[1].split(">", 1)[1].lstrip()
    assert body.startswith('<a class="skip-link" href="#main"')
    assert '<main class="page" id="main" tabindex="-1">' in base
