"""Card faces and backs drawn from card data alone (no card art ships with the site).

Pure functions: a card record (the dict of ``cards.catalogue.records.card_record``) and a finish in,
a self-contained, accessible SVG document string out. Nothing here touches Django.

Layout of a face (250 x 350 units, the 2.5 x 3.5 proportions of a playing card):

* the frame in the army colour (1.0: Blue French, Red British, Gray Prussian backs);
* the printing (18.0): the number oval, the border and the rating boxes in gold, silver or
  bronze ink;
* the card number in the oval top-left, the O/B reference top-right (17.4);
* the name, wrapped onto two lines and shrunk to fit;
* a type symbol drawn with plain shapes (a star for generals, NATO-like boxes for troops,
  a glyph per terrain class, a crown for specials, 13.0);
* the ratings: troops CV, F (or long/short for artillery), S and morale (6.0-7.3);
  generals Offense/Defense and corps (12.1-12.3); terrain class, position, battle and move
  limit (11.0); specials an excerpt of their text; and the card's Battle Points (15.0).
"""

from __future__ import annotations

import re

from frontend.svg import INK, PAPER, TYPE_NAMES, esc, text_width
from game import ARMY_COLOURS, ARMY_NAMES, ARMY_TINTS, BATTLE_NAMES, TROOP_TYPES

WIDTH, HEIGHT = 250, 350

FINISH_COLOURS = {"gold": "#c9a227", "silver": "#a8a9ad", "bronze": "#b0713a"}
FINISH_DARK = {"gold": "#7a6114", "silver": "#5c5d61", "bronze": "#6b4121"}
FINISHES = ("gold", "silver", "bronze")
NATIONALITY_NAMES = {"british": "British", "kgl": "KGL", "hanoverian": "Hanoverian",
                     "brunswick": "Brunswick", "nassau": "Nassau", "netherlands": "Netherlands"}
POSITION_NAMES = {"l": "Left", "c": "Center", "r": "Right"}

SERIF = "Georgia, 'Times New Roman', serif"
SANS = "'Helvetica Neue', Arial, sans-serif"


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap of `text` into lines no wider than `width` (a long word stays whole)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, size, bold) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def fit_lines(text: str, width: float, max_lines: int, largest: float, smallest: float,
              bold: bool = False) -> tuple[list[str], float]:
    """The largest font size (and its lines) at which `text` fits `max_lines` lines."""
    size = largest
    while size > smallest:
        lines = wrap(text, size, width, bold)
        if len(lines) <= max_lines and all(text_width(x, size, bold) <= width for x in lines):
            return lines, size
        size -= 0.5
    lines = wrap(text, smallest, width, bold)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1:])]
    return lines, smallest


def text_el(x: float, y: float, text: str, size: float, *, anchor: str = "middle",
            weight: str = "normal", fill: str = INK, family: str = SANS, fit: float | None = None,
            cls: str = "", extra: str = "") -> str:
    """One <text>; with `fit`, squeezed by textLength if the estimate says it would overflow."""
    attrs = [f'x="{x:g}"', f'y="{y:g}"', f'font-size="{size:g}"', f'font-family="{esc(family)}"',
             f'text-anchor="{anchor}"', f'fill="{fill}"']
    if weight != "normal":
        attrs.append(f'font-weight="{weight}"')
    if cls:
        attrs.append(f'class="{cls}"')
    if fit is not None and text_width(text, size, weight == "bold") > fit:
        attrs.append(f'textLength="{fit:g}" lengthAdjust="spacingAndGlyphs"')
    if extra:
        attrs.append(extra)
    return f"<text {' '.join(attrs)}>{esc(text)}</text>"


def excerpt(text: str, limit: int) -> str:
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:.")
    return cut + "…"


# -- plain words ---------------------------------------------------------------------------


def type_line(card: dict) -> str:
    """'Infantry · KGL', 'Horse Artillery', 'General · Corps I', 'Terrain · Hill'."""
    kind = card.get("type") or ""
    label = TYPE_NAMES.get(kind, kind.title())
    if kind == "artillery" and card.get("artillery_kind"):
        label = f"{str(card['artillery_kind']).title()} {label}"
    if kind == "terrain" and card.get("terrain_class"):
        label = f"{label} · {str(card['terrain_class']).title()}"
    nationality = card.get("nationality")
    if nationality and nationality != "british" and card.get("army") == "british":
        label = f"{label} · {NATIONALITY_NAMES.get(nationality, str(nationality).title())}"
    return label


def artillery_fire(card: dict) -> str:
    """'F1/F3' (long/short, 7.23), or the single firepower when a range is missing."""
    long_, short = card.get("fire_long"), card.get("fire_short")
    if long_ is not None and short is not None:
        return f"F{long_}/F{short}"
    value = long_ if long_ is not None else short if short is not None else card.get("firepower")
    return f"F{value}" if value is not None else "–"


def corps_label(card: dict) -> str:
    corps = card.get("corps")
    if not corps:
        return "–"
    return "Army" if corps == "A" else str(corps)


def title_text(card: dict) -> str:
    return f"#{card.get('number')} {card.get('name', '')}".strip()


def description(card: dict, finish: str) -> str:
    """A sentence for screen readers: everything printed on the face, in words."""
    army = ARMY_NAMES.get(card.get("army") or "", str(card.get("army") or "").title())
    parts = [f"{finish.title()} printing", f"{army} {type_line(card)}"]
    kind = card.get("type")
    if card.get("ob"):
        parts.append(f"O/B {card['ob']}")
    if kind in TROOP_TYPES:
        fire = artillery_fire(card) if kind == "artillery" else f"F{card.get('firepower')}"
        rating = f"{card.get('cv')} CV, {fire}"
        if card.get("shock") is not None:
            rating += f", S{card['shock']}"
        if card.get("morale"):
            rating += f", morale {str(card['morale']).upper()}"
        parts.append(rating)
    elif kind == "general":
        parts.append(f"Offense {card.get('offense')}, Defense {card.get('defense')}, "
                     f"corps {corps_label(card)}")
    elif kind == "terrain":
        where = POSITION_NAMES.get(str(card.get("terrain_position") or "").lower(), "")
        battle = BATTLE_NAMES.get(card.get("terrain_battle") or "", "")
        parts.append(f"{battle} {where}".strip())
        if card.get("move_limit"):
            parts.append(f"move limit {card['move_limit']}")
    elif kind == "special" and card.get("special_text"):
        parts.append(excerpt(card["special_text"], 160))
    parts.append(f"{card.get('bp')} BP")
    return ". ".join(p for p in parts if p) + "."


# -- symbols -------------------------------------------------------------------------------


def _star(cx: float, cy: float, outer: float, inner: float) -> str:
    import math

    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + i * math.pi / 5
        points.append(f"{cx + radius * math.cos(angle):.1f},{cy - radius * math.sin(angle):.1f}")
    return " ".join(points)


def symbol(card: dict, colour: str, accent: str, cx: float = 125, cy: float = 177) -> str:
    """The type symbol, centred on (cx, cy), about 110 x 80 units."""
    kind = card.get("type")
    line = f'stroke="{colour}" stroke-width="4" stroke-linejoin="round"'
    stroke = f'{line} fill="none"'
    box_w, box_h = 96, 60
    x0, y0, x1, y1 = cx - box_w / 2, cy - box_h / 2, cx + box_w / 2, cy + box_h / 2
    box = f'<rect x="{x0:g}" y="{y0:g}" width="{box_w}" height="{box_h}" fill="#fff" {line}/>'
    diagonal = f'<line x1="{x0:g}" y1="{y1:g}" x2="{x1:g}" y2="{y0:g}" {stroke}/>'
    if kind == "general":
        shape = (f'<polygon points="{_star(cx, cy, 44, 18)}" fill="{accent}" '
                 f'stroke="{colour}" stroke-width="3" stroke-linejoin="round"/>')
    elif kind == "infantry":
        shape = (box + f'<line x1="{x0:g}" y1="{y0:g}" x2="{x1:g}" y2="{y1:g}" {stroke}/>'
                 + diagonal)
    elif kind == "cavalry":
        shape = box + diagonal
    elif kind == "artillery":
        shape = box + f'<circle cx="{cx:g}" cy="{cy:g}" r="11" fill="{colour}"/>'
        if (card.get("artillery_kind") or "").lower() == "horse":
            shape += diagonal
    elif kind == "terrain":
        shape = terrain_glyph(str(card.get("terrain_class") or "").lower(), colour, cx, cy)
    elif kind == "special":
        shape = crown(colour, accent, cx, cy)
    else:
        shape = box
    return f'<g class="symbol symbol-{esc(kind or "unknown")}">{shape}</g>'


def crown(colour: str, accent: str, cx: float, cy: float) -> str:
    left, right, top, base = cx - 46, cx + 46, cy - 34, cy + 20
    points = [(left, base), (left - 4, top + 8), (cx - 24, cy - 6), (cx, top - 4),
              (cx + 24, cy - 6), (right + 4, top + 8), (right, base)]
    poly = " ".join(f"{x:g},{y:g}" for x, y in points)
    jewels = "".join(f'<circle cx="{x:g}" cy="{y - 6:g}" r="6" fill="{accent}" '
                     f'stroke="{colour}" stroke-width="2"/>'
                     for x, y in (points[1], points[3], points[5]))
    band = (f'<rect x="{left:g}" y="{base:g}" width="{right - left:g}" height="14" rx="2" '
            f'fill="{colour}"/>')
    return (f'<polygon points="{poly}" fill="{accent}" stroke="{colour}" stroke-width="3" '
            f'stroke-linejoin="round"/>{band}{jewels}')


def terrain_glyph(kind: str, colour: str, cx: float, cy: float) -> str:
    if kind.startswith("hill") or kind == "ridge":
        return (f'<path d="M{cx - 58:g},{cy + 28:g} Q{cx - 20:g},{cy - 44:g} {cx + 10:g},'
                f'{cy - 8:g} Q{cx + 30:g},{cy - 34:g} {cx + 58:g},{cy + 28:g} Z" fill="#9bb07a" '
                f'stroke="{colour}" stroke-width="3"/>'
                f'<line x1="{cx - 62:g}" y1="{cy + 28:g}" x2="{cx + 62:g}" y2="{cy + 28:g}" '
                f'stroke="{colour}" stroke-width="3"/>')
    if kind.startswith("wood") or kind == "forest":
        trees = []
        for dx, dy, r in ((-34, 6, 20), (0, -8, 25), (34, 6, 20)):
            x, y = cx + dx, cy + dy
            trees.append(f'<rect x="{x - 3:g}" y="{y + r - 6:g}" width="6" height="{26 - dy:g}" '
                         f'fill="#6b4a2b"/><circle cx="{x:g}" cy="{y:g}" r="{r}" fill="#4f7d3a" '
                         f'stroke="{colour}" stroke-width="2.5"/>')
        return "".join(trees)
    if kind.startswith("river") or kind.startswith("bridge") or kind == "stream":
        waves = "".join(
            f'<path d="M{cx - 60:g},{cy + dy:g} q15,-12 30,0 t30,0 t30,0 t30,0" fill="none" '
            f'stroke="#3b6fb0" stroke-width="5" stroke-linecap="round"/>'
            for dy in (-16, 0, 16))
        if kind.startswith("bridge"):
            waves += (f'<path d="M{cx - 40:g},{cy + 6:g} Q{cx:g},{cy - 34:g} {cx + 40:g},'
                      f'{cy + 6:g}" fill="none" stroke="{colour}" stroke-width="6"/>')
        return waves
    if kind.startswith(("build", "farm", "village", "town", "chateau", "church")):
        return (f'<rect x="{cx - 40:g}" y="{cy - 6:g}" width="80" height="40" fill="#e9dcc0" '
                f'stroke="{colour}" stroke-width="3"/>'
                f'<polygon points="{cx - 48:g},{cy - 4:g} {cx:g},{cy - 40:g} {cx + 48:g},'
                f'{cy - 4:g}" fill="#a3542f" stroke="{colour}" stroke-width="3" '
                f'stroke-linejoin="round"/>'
                f'<rect x="{cx - 8:g}" y="{cy + 12:g}" width="16" height="22" fill="{colour}"/>'
                f'<rect x="{cx - 32:g}" y="{cy + 4:g}" width="14" height="12" fill="{colour}"/>'
                f'<rect x="{cx + 18:g}" y="{cy + 4:g}" width="14" height="12" fill="{colour}"/>')
    return (f'<rect x="{cx - 48:g}" y="{cy - 30:g}" width="96" height="60" fill="#fff" '
            f'stroke="{colour}" stroke-width="3" stroke-dasharray="8 5"/>')


# -- the face ------------------------------------------------------------------------------


def _box(x: float, y: float, w: float, h: float, value: str, label: str, finish: str,
         cls: str, value_size: float = 22) -> str:
    ring, dark = FINISH_COLOURS[finish], FINISH_DARK[finish]
    return (f'<g class="rating {cls}">'
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="5" fill="#fff" '
            f'stroke="{ring}" stroke-width="3.5"/>'
            + text_el(x + w / 2, y + h / 2 + value_size * 0.36, value, value_size,
                      weight="bold", fit=w - 8, cls="value")
            + text_el(x + w / 2, y + h + 11, label, 8.5, fill=dark, weight="bold",
                      fit=w + 4, cls="label")
            + "</g>")


def _boxes(items: list[tuple[str, str, str]], finish: str, y: float = 246, h: float = 40,
           left: float = 20, right: float = 230, gap: float = 7) -> str:
    if not items:
        return ""
    w = (right - left - gap * (len(items) - 1)) / len(items)
    out = []
    for i, (value, label, cls) in enumerate(items):
        size = 22 if len(value) <= 3 else 15 if len(value) <= 5 else 12
        out.append(_box(left + i * (w + gap), y, w, h, value, label, finish, cls, size))
    return "".join(out)


def ratings(card: dict, finish: str) -> str:
    kind = card.get("type")
    if kind in TROOP_TYPES:
        items = [(str(card.get("cv") if card.get("cv") is not None else "–"), "CV", "rating-cv")]
        if kind == "artillery":
            items.append((artillery_fire(card), "LONG/SHORT", "rating-fire"))
        else:
            fp = card.get("firepower")
            items.append((f"F{fp}" if fp is not None else "–", "FIRE", "rating-fire"))
        if card.get("shock") is not None:
            items.append((f"S{card['shock']}", "SHOCK", "rating-shock"))
        morale = str(card.get("morale") or "–").upper()
        items.append((morale, "MORALE", "rating-morale"))
        return _boxes(items, finish)
    if kind == "general":
        items = [(f"{card.get('offense', '–')}/{card.get('defense', '–')}", "OFF/DEF",
                  "rating-command"),
                 (corps_label(card), "CORPS", "rating-corps")]
        out = _boxes(items, finish)
        honours = []
        if card.get("chief_of_staff"):
            honours.append("Chief of Staff")
        if card.get("second_in_command"):
            honours.append("Second in command")
        if card.get("corps") == "A":
            honours.insert(0, "Army Commander")
        if honours:
            out += text_el(120, 316, " · ".join(honours), 9, weight="bold",
                           fill=FINISH_DARK[finish], fit=140, cls="honours")
        return out
    if kind == "terrain":
        position = str(card.get("terrain_position") or "–").upper()
        items = [(str(card.get("terrain_class") or "–").title(), "CLASS", "rating-class"),
                 (position, "POSITION", "rating-position")]
        if card.get("move_limit"):
            items.append((str(card["move_limit"]), "MOVE LIMIT", "rating-move"))
        out = _boxes(items, finish)
        battle = BATTLE_NAMES.get(card.get("terrain_battle") or "", "")
        if battle:
            out += text_el(120, 318, battle, 11, weight="bold", fill=FINISH_DARK[finish],
                           family=SERIF, fit=140, cls="terrain-battle")
        return out
    if kind == "special":
        text = excerpt(card.get("special_text") or "", 150)
        lines, size = fit_lines(text, 196, 5, 10.5, 7.5)
        out = [f'<rect x="20" y="242" width="210" height="66" rx="5" fill="#fff" '
               f'stroke="{FINISH_COLOURS[finish]}" stroke-width="2.5"/>']
        for i, line in enumerate(lines):
            out.append(text_el(125, 242 + 13 + i * (size + 2), line, size, family=SERIF,
                               fit=200, cls="special-text"))
        timing = card.get("special_timing")
        if timing:
            out.append(text_el(120, 324, str(timing).replace("_", " ").title(), 8.5,
                               weight="bold", fill=FINISH_DARK[finish], fit=120,
                               cls="special-timing"))
        return "".join(out)
    return ""


def render_card_svg(card: dict, finish: str = "bronze", *, id_prefix: str | None = None) -> str:
    """The face of one card in one printing: a complete, standalone SVG document."""
    finish = finish if finish in FINISH_COLOURS else "bronze"
    army = card.get("army") or ""
    colour = ARMY_COLOURS.get(army, "#444")
    tint = ARMY_TINTS.get(army, "#eee")
    ring, dark = FINISH_COLOURS[finish], FINISH_DARK[finish]
    prefix = re.sub(r"[^A-Za-z0-9_-]", "", id_prefix or f"card-{card.get('number')}-{finish}")
    title_id, desc_id = f"{prefix}-title", f"{prefix}-desc"
    kind = card.get("type") or ""

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="{title_id} {desc_id}" '
        f'class="card-face army-{esc(army)} type-{esc(kind)} finish-{finish}" '
        f'data-number="{esc(card.get("number"))}" data-finish="{finish}">',
        f'<title id="{title_id}">{esc(title_text(card))}</title>',
        f'<desc id="{desc_id}">{esc(description(card, finish))}</desc>',
        # Frame in the army colour, paper inside, printing border.
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="{colour}"/>',
        f'<rect x="9" y="9" width="232" height="332" rx="9" fill="{PAPER}" stroke="{ring}" '
        f'stroke-width="4" class="printing-border"/>',
        f'<rect x="15" y="15" width="220" height="320" rx="6" fill="none" stroke="{colour}" '
        f'stroke-width="1" stroke-opacity="0.5"/>',
        # Number oval (top-left) and O/B (top-right).
        f'<ellipse cx="44" cy="37" rx="26" ry="18" fill="{ring}" stroke="{dark}" '
        f'stroke-width="2" class="printing-oval"/>',
        text_el(44, 44, str(card.get("number", "")), 19, weight="bold", fill=INK, fit=40,
                cls="number"),
    ]
    if card.get("ob"):
        parts.append(text_el(228, 32, str(card["ob"]), 11, anchor="end", weight="bold",
                             fill=colour, fit=150, cls="ob"))
    parts.append(text_el(228, 48, type_line(card), 9.5, anchor="end", fill=dark, fit=150,
                         cls="type-line"))
    # Name: up to two lines, shrunk to fit.
    name = str(card.get("name") or "")
    lines, size = fit_lines(name, 206, 2, 22, 11, bold=True)
    top = 84 if len(lines) == 1 else 76
    for i, line in enumerate(lines):
        parts.append(text_el(125, top + i * (size + 2), line, size, weight="bold",
                             family=SERIF, fill=colour, fit=206, cls="name"))
    # Art panel with the type symbol.
    parts.append(f'<rect x="20" y="118" width="210" height="118" rx="5" fill="{tint}" '
                 f'stroke="{colour}" stroke-width="1.5"/>')
    parts.append(symbol(card, colour, ring))
    parts.append(ratings(card, finish))
    # Battle Points (15.0), bottom-right seal.
    parts.append(f'<g class="rating rating-bp"><circle cx="216" cy="321" r="15" fill="{colour}" '
                 f'stroke="{ring}" stroke-width="3"/>'
                 + text_el(216, 323, str(card.get("bp", "–")), 12, weight="bold", fill="#fff",
                           fit=22, cls="value")
                 + text_el(216, 331.5, "BP", 6, weight="bold", fill="#fff", cls="label")
                 + "</g>")
    parts.append(text_el(24, 331, finish.upper(), 7, anchor="start", weight="bold", fill=dark,
                         cls="finish-label"))
    parts.append("</svg>")
    return "".join(parts)


def render_card_back(army: str, *, id_prefix: str | None = None) -> str:
    """A face-down card: only its army shows (1.0, Blue French, Red British, Gray Prussian)."""
    army = army if army in ARMY_COLOURS else "french"
    colour = ARMY_COLOURS[army]
    name = ARMY_NAMES[army]
    prefix = re.sub(r"[^A-Za-z0-9_-]", "", id_prefix or f"card-back-{army}")
    lattice = "".join(
        f'<path d="M{x},20 L{x + 120},330" stroke="#fff" stroke-opacity="0.12" stroke-width="2"/>'
        f'<path d="M{x + 120},20 L{x},330" stroke="#fff" stroke-opacity="0.12" stroke-width="2"/>'
        for x in range(-100, 250, 30))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="{prefix}-title" '
        f'class="card-back army-{army}" data-army="{army}">'
        f'<title id="{prefix}-title">{name} card (face down)</title>'
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="{colour}"/>'
        f'<svg x="12" y="12" width="226" height="326" viewBox="0 20 226 310">{lattice}</svg>'
        f'<rect x="12" y="12" width="226" height="326" rx="9" fill="none" stroke="#fff" '
        f'stroke-opacity="0.7" stroke-width="2"/>'
        f'<ellipse cx="125" cy="175" rx="92" ry="58" fill="{colour}" stroke="#fff" '
        f'stroke-width="3"/>'
        f'<polygon points="{_star(125, 152, 16, 7)}" fill="#fff"/>'
        + text_el(125, 190, "EAGLES", 26, weight="bold", fill="#fff", family=SERIF)
        + text_el(125, 210, f"{name.upper()} · 1815", 9, weight="bold", fill="#fff",
                  fit=140)
        + "</svg>"
    )
