"""Deck statistics as an SVG bar chart, drawn on the server from data (pure, no Django).

``deck_chart(stats)`` takes the dict of ``decks.stats.deck_statistics`` and draws one SVG with a
panel of horizontal bars per breakdown (type, morale, corps). Horizontal bars keep labels
readable on a phone: the SVG scales to its container through its viewBox. Every text is
XML-escaped, since card, corps and type names come from data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from frontend.svg import ellipsis, esc, fmt_number

WIDTH = 360
LABEL_W = 120
VALUE_W = 34
BAR_H = 16
ROW_H = 22
TITLE_H = 26
GAP = 12
BAR_COLOURS = {"type": "#1f3f8f", "morale": "#8a6d1d", "corps": "#4d5560"}
DEFAULT_COLOUR = "#232a3a"

# (stats key, panel title, colour key): the breakdowns drawn, in order (decks/stats.py keys).
PANELS = (
    ("by_type", "Cards by type", "type"),
    ("by_morale", "Troops by morale", "morale"),
    ("by_corps", "Troops and generals by corps", "corps"),
)
NONE_LABELS = {"type": "other", "morale": "no morale", "corps": "no corps"}


def pretty(panel: str, label: str) -> str:
    """A breakdown's key as shown: "infantry" -> "Infantry", morale "a" -> "A"."""
    if label in ("none", "—"):
        return NONE_LABELS.get(panel, label)
    if panel == "type":
        return label.capitalize()
    if panel == "morale":
        return f"Morale {label.upper()}"
    if panel == "corps":
        return "Army (A)" if label == "A" else f"Corps {label}"
    return label


def _rows(data) -> list[tuple[str, float]]:
    """A breakdown as (label, value) rows: from a mapping or an iterable of pairs."""
    if data is None:
        return []
    items: Iterable = data.items() if isinstance(data, Mapping) else data
    rows = []
    for item in items:
        try:
            label, value = item
        except (TypeError, ValueError):
            continue
        if isinstance(value, Mapping):  # {"count": n, ...}
            value = value.get("count", value.get("cards", 0))
        try:
            number = float(value)
        except (TypeError, ValueError):
            continue
        if number < 0 or number != number:  # negative or NaN: not a count
            continue
        rows.append(("—" if label in (None, "") else str(label), number))
    return rows


def bar_panel(title: str, rows: list[tuple[str, float]], y: float,
              colour: str) -> tuple[str, float]:
    """One titled panel of horizontal bars at height y; returns (svg, height used)."""
    parts = [f'<text x="0" y="{y + 16:g}" class="chart-title" font-size="14" '
             f'font-weight="700" fill="#1d1d1f">{esc(title)}</text>']
    top = y + TITLE_H
    largest = max((v for _, v in rows), default=0) or 1
    span = WIDTH - LABEL_W - VALUE_W
    for i, (label, value) in enumerate(rows):
        row_y = top + i * ROW_H
        width = span * value / largest
        parts.append(
            f'<g class="chart-row" data-label="{esc(label)}" data-value="{esc(fmt_number(value))}">'
            f'<title>{esc(label)}: {esc(fmt_number(value))}</title>'
            f'<text x="{LABEL_W - 6}" y="{row_y + BAR_H - 4:g}" text-anchor="end" '
            f'font-size="12" fill="#1d1d1f">{esc(ellipsis(label, 18))}</text>'
            f'<rect x="{LABEL_W}" y="{row_y:g}" width="{width:.1f}" height="{BAR_H}" rx="2" '
            f'fill="{colour}"/>'
            f'<text x="{LABEL_W + width + 4:.1f}" y="{row_y + BAR_H - 4:g}" font-size="12" '
            f'fill="#1d1d1f">{esc(fmt_number(value))}</text></g>')
    if not rows:
        parts.append(f'<text x="0" y="{top + 12:g}" font-size="12" fill="#5f5a50">none</text>')
    height = TITLE_H + max(len(rows), 1) * ROW_H
    return "".join(parts), height


def deck_chart(stats: Mapping | None, *, title: str = "Deck statistics") -> str:
    """The SVG chart (a string) of a deck's statistics: cards by type, morale and corps."""
    stats = stats or {}
    panels, y = [], 0.0
    for key, panel_title, colour_key in PANELS:
        data = stats.get(key)
        if data is None:
            continue
        rows = [(pretty(colour_key, label), value) for label, value in _rows(data)]
        svg, height = bar_panel(panel_title, rows, y,
                                BAR_COLOURS.get(colour_key, DEFAULT_COLOUR))
        panels.append(svg)
        y += height + GAP
    if not panels:
        panels.append('<text x="0" y="16" font-size="12" fill="#5f5a50">No cards yet</text>')
        y = 24 + GAP
    height = max(y - GAP, 24)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="deck-chart" role="img" '
            f'viewBox="0 0 {WIDTH} {height:g}" width="{WIDTH}" height="{height:g}" '
            f'aria-label="{esc(title)}" font-family="system-ui, sans-serif">'
            f'<title>{esc(title)}</title>{"".join(panels)}</svg>')
