"""What a piece on the battle board shows: its type symbol, its ratings line, its status
marks (and their line) and its tooltip (pure: the stdlib and ``game``). Only what ``Ctx``
lets the viewer know is named.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from frontend.svg import INK, SYSTEM_UI, TYPE_NAMES, esc, text_width
from game import ARMY_NAMES, TROOP_TYPES

from .view_context import FORMATION_NAMES, SIDE_THE, Ctx, Info, kind_name

MUTED = "#4a4a50"
HIT_RED = "#b3121b"
TERRAIN_GREEN = "#2f5d27"


def glyph(kind: str, tclass: str | None, cx: float, cy: float, colour: str = "#fff") -> str:
    """A small type symbol (NATO-like boxes for troops, a star for Generals)."""
    w, h = 12, 8
    x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
    line = f'stroke="{colour}" stroke-width="1.4" fill="none"'
    box = f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{w}" height="{h}" {line}/>'
    slash = f'<line x1="{x0:.1f}" y1="{y1:.1f}" x2="{x1:.1f}" y2="{y0:.1f}" {line}/>'
    if kind == "general":
        pts = []
        for i in range(10):
            r = 6.5 if i % 2 == 0 else 2.8
            a = math.pi / 2 + i * math.pi / 5
            pts.append(f"{cx + r * math.cos(a):.1f},{cy - r * math.sin(a):.1f}")
        return f'<polygon points="{" ".join(pts)}" fill="{colour}"/>'
    if kind == "infantry":
        return (box + slash + f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                f'{line}/>')
    if kind == "cavalry":
        return box + slash
    if kind == "artillery":
        return box + f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="2" fill="{colour}"/>'
    if kind == "terrain":
        t = (tclass or "").lower()
        if t == "river":
            return (f'<path d="M{x0:.1f},{cy - 2:.1f} q3,-3 6,0 t6,0 M{x0:.1f},{cy + 2:.1f} '
                    f'q3,-3 6,0 t6,0" {line}/>')
        if t == "woods":
            return (f'<circle cx="{cx - 3:.1f}" cy="{cy:.1f}" r="3.2" fill="{colour}"/>'
                    f'<circle cx="{cx + 3:.1f}" cy="{cy - 1:.1f}" r="3.6" fill="{colour}"/>')
        if t == "building":
            return (f'<polygon points="{x0:.1f},{cy:.1f} {cx:.1f},{y0 - 2:.1f} {x1:.1f},'
                    f'{cy:.1f}" fill="{colour}"/><rect x="{x0 + 2:.1f}" y="{cy:.1f}" '
                    f'width="{w - 4}" height="{h / 2 + 1:.1f}" fill="{colour}"/>')
        return (f'<path d="M{x0 - 1:.1f},{y1:.1f} Q{cx:.1f},{y0 - 5:.1f} {x1 + 1:.1f},{y1:.1f} Z" '
                f'fill="{colour}"/>')
    if kind == "special":
        return (f'<polygon points="{x0:.1f},{y1:.1f} {x0:.1f},{y0:.1f} {cx - 3:.1f},{cy:.1f} '
                f'{cx:.1f},{y0 - 1:.1f} {cx + 3:.1f},{cy:.1f} {x1:.1f},{y0:.1f} {x1:.1f},'
                f'{y1:.1f}" fill="{colour}"/>')
    return box


def _ratings(info: Info) -> str:
    if info.kind in TROOP_TYPES:
        bits = [f"{info.cv} CV" if info.cv is not None else ""]
        if info.kind == "artillery":
            if info.long is not None and info.short is not None:
                bits.append(f"F{info.long}/{info.short}")
        elif info.fp is not None:
            bits.append(f"F{info.fp}")
        if info.shock:
            bits.append(f"S{info.shock}")
        if info.morale:
            bits.append(info.morale)
        return " ".join(b for b in bits if b)
    if info.kind == "general":
        corps = "Army" if info.corps == "A" else f"Corps {info.corps}" if info.corps else ""
        return " ".join(b for b in (f"{info.off}/{info.dfn}", corps) if b)
    if info.kind == "terrain":
        return f"limit {info.move_limit}" if info.move_limit else ""
    return ""


def type_line(info: Info) -> str:
    kind = kind_name(info).title() if info.kind == "terrain" else TYPE_NAMES.get(
        info.kind, info.kind.title())
    if info.kind == "artillery" and info.horse:
        kind = "Horse Art."
    rating = _ratings(info)
    return f"{kind} · {rating}" if rating else kind


def _long_ratings(info: Info) -> str:
    if info.kind in TROOP_TYPES:
        bits = [f"{info.cv} CV" if info.cv is not None else ""]
        if info.kind == "artillery":
            bits.append(f"fire {info.long} long / {info.short} short")
        else:
            bits.append(f"firepower {info.fp}")
        if info.shock:
            bits.append(f"shock {info.shock}")
        if info.morale:
            bits.append(f"morale {info.morale}")
        return ", ".join(b for b in bits if b)
    if info.kind == "general":
        corps = "army commander" if info.corps == "A" else f"corps {info.corps}"
        return f"offense {info.off}, defense {info.dfn}, {corps}"
    if info.kind == "terrain":
        return f"move limit {info.move_limit}" if info.move_limit else ""
    return ""


def status_marks(p: Mapping, ctx: Ctx, info: Info | None) -> list[tuple[str, str, bool]]:
    """The markers on a piece, most important first: hits, blown, formation, terrain, ..."""
    out: list[tuple[str, str, bool]] = []
    hits = int(p.get("hits") or 0)
    if hits:
        out.append((f"{hits} hit" + ("s" if hits != 1 else ""), HIT_RED, True))
    ghits = int(p.get("general_hits") or 0)
    if ghits:
        out.append((f"{ghits} gen. hit" + ("s" if ghits != 1 else ""), HIT_RED, True))
    if p.get("blown"):
        out.append(("Blown", "#8a4b00", True))
    form = p.get("formation")
    if form and ((info is not None and info.kind == "infantry") or
                 (info is None and form != "line")):
        out.append((FORMATION_NAMES.get(str(form), str(form).title()), INK, False))
    occ = p.get("occupies")
    if occ:
        out.append((f"in {ctx.terrain_label(occ)}", TERRAIN_GREEN, False))
    if p.get("fired"):
        out.append(("fired", MUTED, False))
    moves = int(p.get("moves") or 0)
    if moves:
        out.append(("moved" if moves == 1 else f"moved ×{moves}", MUTED, False))
    return out


def status_words(p: Mapping, ctx: Ctx) -> list[str]:
    words = []
    hits = int(p.get("hits") or 0)
    if hits:
        words.append(f"{hits} hit" + ("s" if hits != 1 else ""))
    ghits = int(p.get("general_hits") or 0)
    if ghits:
        words.append(f"{ghits} general hit" + ("s" if ghits != 1 else ""))
    if p.get("blown"):
        words.append("blown")
    info = ctx.info(ctx.card_of(p))
    form = p.get("formation")
    if form and ((info is not None and info.kind == "infantry") or
                 (info is None and form != "line")):
        words.append(f"in {form}")
    if p.get("occupies"):
        words.append(f"occupying {ctx.terrain_label(p['occupies'])}")
    if p.get("fired"):
        words.append("has fired")
    if p.get("moves"):
        words.append("has moved")
    return words


def piece_title(p: Mapping, ctx: Ctx, engaged: bool, extra: list[str]) -> str:
    num = ctx.card_of(p)
    where = ctx.where(p.get("place"))
    if num is None:
        text = ctx.piece_label(p.get("piece"))
        words = [*extra, *status_words(p, ctx)]
        return text[0].upper() + text[1:] + (f" ({', '.join(words)})" if words else "")
    info = ctx.info(num)
    army = ARMY_NAMES.get(str(p.get("army")), "")
    if info is None:
        head = f"{army} card in {where}"
    else:
        rating = _long_ratings(info)
        head = f"{info.name}: {army} {kind_name(info)}" + (f", {rating}" if rating else "")
        head += f", in {where}"
    if "controlled_by" in p:
        ctrl = p.get("controlled_by")
        head += ", held by " + ("you" if ctrl == ctx.viewer else SIDE_THE.get(str(ctrl), "?"))
    words = [*extra, *status_words(p, ctx)]
    if not p.get("face_up"):
        words.insert(0, "face down, hidden from the enemy")
    if engaged:
        words.append("engaged")
    return head + (f" ({', '.join(words)})" if words else "")


def marks_line(x: float, y: float, parts: list[tuple[str, str, bool]], size: float, fit: float,
               cls: str, sep_fill: str = MUTED) -> str:
    """A chip's line of status marks: differently coloured runs (text, fill, bold), the least
    important dropped when they cannot fit, squeezed to `fit`."""
    parts = [(t, f, b) for t, f, b in parts if t]
    if not parts:
        return ""
    sep = " · "

    def line_width(runs: list[tuple[str, str, bool]]) -> float:
        return sum(text_width(t, size, b, SYSTEM_UI) for t, _, b in runs) + text_width(
            sep, size, font=SYSTEM_UI) * (len(runs) - 1)

    width = line_width(parts)
    while width > fit * 1.3 and len(parts) > 1:
        parts = parts[:-1]  # the least important run goes first (the tooltip has it all)
        width = line_width(parts)
    out = []
    for i, (t, f, b) in enumerate(parts):
        lead = esc(sep) if i else ""
        weight = ' font-weight="700"' if b else ""
        out.append(f'<tspan fill="{sep_fill}">{lead}</tspan>' if lead else "")
        out.append(f'<tspan fill="{f}"{weight}>{esc(t)}</tspan>')
    squeeze = (f' textLength="{fit:.1f}" lengthAdjust="spacingAndGlyphs"'
               if width > fit else "")
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" class="{cls}"{squeeze}>'
            + "".join(out) + "</text>")
