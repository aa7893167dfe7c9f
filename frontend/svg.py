"""The SVG kit shared by every drawing in ``frontend`` (card faces, the battle board, the deck
and standings charts): escaping, plain-text cleaning and an estimated text width.

Pure (the stdlib only). There are no font metrics on the server, so widths are estimates:
one set of per-character units, scaled by the font's width (``PRINTED`` for the card faces'
Georgia and Helvetica, ``SYSTEM_UI`` for the board), deliberately a little generous so that
text sized by them fits when drawn.
"""

from __future__ import annotations

import re
from functools import lru_cache
from xml.sax.saxutils import escape as _escape

__all__ = ["INK", "PAPER", "PRINTED", "SYSTEM_UI", "TYPE_NAMES", "Font",
           "clean", "ellipsis", "esc", "fmt_number", "shorten", "text_width"]

PAPER = "#f8f3e3"
INK = "#1d1d1f"
# A card type as printed on a card face and a board chip.
TYPE_NAMES = {"general": "General", "infantry": "Infantry", "cavalry": "Cavalry",
              "artillery": "Artillery", "terrain": "Terrain", "special": "Special"}

# Characters XML 1.0 forbids even when escaped.
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_NEEDS_ESCAPE = re.compile("[&<>\"'\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_NARROW = set("iljtfrI.,;:'!|()[] ’")
_WIDE = set("mwMW@%&—")
# A font's width: size per unit of (regular, bold) text. One pair per font, not per
# caller: measured in Chromium, system-ui runs ~5% wider than Georgia/Helvetica and ~10% in
# bold, so one pair for both either wraps card names that fit or lets board labels overflow.
Font = tuple[float, float]
PRINTED: Font = (1.0, 1.07)
SYSTEM_UI: Font = (1.04, 1.18)


def esc(value: object) -> str:
    """Text or attribute value, XML-escaped (quotes too), without characters XML forbids."""
    text = "" if value is None else str(value)
    if not _NEEDS_ESCAPE.search(text):  # most labels: no work (the board escapes thousands)
        return text
    return _escape(_INVALID_XML.sub("", text), {'"': "&quot;", "'": "&apos;"})


def clean(value: object) -> str:
    """Plain text for labels (callers escape for HTML): forbidden characters removed."""
    return _INVALID_XML.sub("", "" if value is None else str(value))


def _units(ch: str) -> float:
    if ch in _NARROW:
        return 0.32
    if ch in _WIDE:
        return 0.88
    if ch.isupper() or ch.isdigit():
        return 0.66
    return 0.54


@lru_cache(maxsize=8192)
def _text_units(text: str) -> float:
    return sum(_units(ch) for ch in text)


def text_width(text: str, size: float, bold: bool = False, font: Font = PRINTED) -> float:
    """Estimated rendered width of `text` at font `size` in `font` (a little generous)."""
    return _text_units(text) * size * font[bold]


@lru_cache(maxsize=4096)
def shorten(text: str, size: float, width: float, bold: bool = False,
            font: Font = PRINTED) -> str:
    """Cut `text` (with an ellipsis) so that squeezing by 30% at most makes it fit `width`."""
    limit = width * 1.3
    if text_width(text, size, bold, font) <= limit:
        return text
    budget = limit / (size * font[bold]) - _units("…")
    used, cut = 0.0, 0
    for i, ch in enumerate(text):
        used += _units(ch)
        if used > budget:
            break
        cut = i + 1
    return text[:cut].rstrip(" ,·(") + "…"


def ellipsis(text: str, limit: int) -> str:
    """`text` cut to `limit` characters at most, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[:max(limit - 1, 1)] + "…"


def fmt_number(value: float) -> str:
    """A count or score as shown: "3", "2.5"."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
