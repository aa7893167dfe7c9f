"""The Stratego: Waterloo board as SVG (pure: the stdlib), drawn from a viewer's view only:
12 x 10 squares (RULINGS R1-R6), the viewer's own back row at the bottom (a spectator sees
the French side's), the set-up rows, the lines of retreat (the viewer's own card's sector
marked; every sector once the game is over), the Prussian flag, the terrain tiles of the
Standard and Expert games as the view holds them (a building's hits and flag, a ruin, the mud
tiles), and the pieces: own and revealed ones with their type and strength, the
enemy's unrevealed ones with their back only (the view holds nothing more).

``board_svg(view, side, ...)`` for play: ``links`` (square -> href: a selectable piece),
``targets`` (square -> (form id, kind)), ``selected``, ``marked`` (the opponent's last
action). ``setup_svg(view, side, placement, reserve)``: the set-up editor (static/frontend/
stratego.js swaps pieces between slots)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from .words import LETTERS, SHORT, piece_name, tile_name

COLS, ROWS = 12, 10
S = 40  # a square's side in SVG units
HOME = {"french": (0, 1, 2, 3), "allied": (6, 7, 8, 9)}
SECTORS = {"french": {"left": (0, 1, 2, 3), "centre": (4, 5, 6, 7), "right": (8, 9, 10, 11)},
           "allied": {"left": (11, 10, 9, 8), "centre": (7, 6, 5, 4), "right": (3, 2, 1, 0)}}
BACK_ROW = {"french": 0, "allied": 9}
PRUSSIAN_FLAG = ((11, 4), (11, 5))
BACK_GLYPH = {"infantry": "▮", "cavalry": "◆", "artillery": "●"}
FILL = {"french": "#1f4e9c", "allied": "#b3261e", "prussian": "#222"}


def xy(col: int, row: int, side: str | None) -> tuple[int, int]:
    """The top-left corner of square (col, row) as ``side`` sees the board."""
    if side == "allied":
        return (COLS - 1 - col) * S, row * S
    return col * S, (ROWS - 1 - row) * S


def _pair(value: Any) -> tuple[int, int] | None:
    if isinstance(value, Sequence) and len(value) == 2 and all(isinstance(v, int)
                                                                for v in value):
        return int(value[0]), int(value[1])
    return None


def _grid(view: Mapping[str, Any], side: str | None, out: list[str]) -> None:
    mine = ((view.get("sides") or {}).get(side or "") or {}).get("lines_of_retreat") or {}
    own_lines = {_pair(p) for p in mine.get("squares") or ()}
    revealed = view.get("lines_of_retreat_revealed") or {}
    shown_lines = set(own_lines)
    for owner, sector in revealed.items():
        for c in SECTORS.get(owner, {}).get(sector, ()):
            shown_lines.add((c, BACK_ROW[owner]))
    for row in range(ROWS):
        for col in range(COLS):
            x, y = xy(col, row, side)
            cls = "sq"
            if row in HOME["french"]:
                cls += " home-french"
            elif row in HOME["allied"]:
                cls += " home-allied"
            else:
                cls += " middle"
            if (col, row) in shown_lines:
                cls += " retreat"
            out.append(f'<rect class="{cls}" x="{x}" y="{y}" width="{S}" height="{S}" '
                       f'data-sq="{col},{row}"/>')
    # the lines of retreat: each back row cut in three sectors (R3)
    for owner, row in BACK_ROW.items():
        for sector, cols in SECTORS[owner].items():
            xs = [xy(c, row, side)[0] for c in cols]
            y = xy(cols[0], row, side)[1]
            x0 = min(xs)
            out.append(f'<rect class="sector" x="{x0 + 2}" y="{y + 2}" width="{4 * S - 4}" '
                       f'height="{S - 4}"><title>{escape(owner.capitalize())} lines of '
                       f'retreat: {sector}</title></rect>')
    _terrain(view, side, out)
    for col, row in PRUSSIAN_FLAG:
        x, y = xy(col, row, side)
        out.append(f'<g class="prussian-flag" transform="translate({x + 26} {y + 3})">'
                   '<title>The Prussian flag (their entry squares)</title>'
                   '<line x1="0" y1="0" x2="0" y2="14" stroke="#222" stroke-width="1.5"/>'
                   '<path d="M0 0h10l-3 3 3 3h-10z" fill="#222"/></g>')
    # the coordinates along two edges
    for col in range(COLS):
        x, _ = xy(col, 0, side)
        out.append(f'<text class="coord" x="{x + 3}" y="{ROWS * S - 3}">{LETTERS[col]}</text>')
    for row in range(ROWS):
        _, y = xy(0, row, side)
        out.append(f'<text class="coord" x="{COLS * S - 3}" y="{y + 11}" '
                   f'text-anchor="end">{row + 1}</text>')


def _box(squares: Sequence[Any], side: str | None) -> tuple[int, int, int, int]:
    """The box (x, y, width, height) around ``squares`` as ``side`` sees the board."""
    xs = [xy(*sq, side) for sq in (_pair(q) for q in squares) if sq is not None]
    x0, y0 = min(p[0] for p in xs), min(p[1] for p in xs)
    return x0, y0, max(p[0] for p in xs) + S - x0, max(p[1] for p in xs) + S - y0


def _terrain(view: Mapping[str, Any], side: str | None, out: list[str]) -> None:
    """The tiles of the view (Standard and Expert): buildings with their hits (four destroy
    one: a ruin) and their flag, the hill, Plancenoit, and the mud tiles (Expert)."""
    for t in view.get("terrain") or ():
        squares = t.get("squares") or ()
        if not squares:
            continue
        x, y, w, h = _box(squares, side)
        kind = str(t.get("kind") or "building")
        cls = f"terrain {kind}" + (" ruin" if t.get("destroyed") else "")
        name = tile_name(t.get("name"))
        hits = f", {t['damage']} of 4 hits" if t.get("damage") else ""
        out.append(f'<rect class="{escape(cls)}" x="{x + 1}" y="{y + 1}" width="{w - 2}" '
                   f'height="{h - 2}" data-testid="tile-{escape(str(t.get("name")))}">'
                   f'<title>{escape(name)}{escape(hits)}</title></rect>')
        if t.get("damage") and not t.get("destroyed"):
            out.append(f'<text class="tile-hits" x="{x + 3}" y="{y + h - 3}">'
                       f'{"✕" * int(t["damage"])}</text>')
        owner = t.get("owner")
        if owner in FILL:
            out.append(f'<path class="tile-flag" d="M{x + w - 12} {y + 3}v12M{x + w - 12} '
                       f'{y + 3}h9l-2 3 2 3h-9" stroke="{FILL[owner]}" fill="{FILL[owner]}">'
                       f'<title>{escape(owner.capitalize())} flag</title></path>')
    mud = [sq for sq in (_pair(q) for q in (view.get("options") or {}).get("mud") or ())
           if sq is not None]
    for col, row in mud:
        x, y = xy(col, row, side)
        out.append(f'<rect class="mud" x="{x}" y="{y}" width="{S}" height="{S}" '
                   f'data-testid="mud-{col}-{row}"><title>Mud: artillery cannot move onto '
                   'it</title></rect>')


def piece_svg(p: Mapping[str, Any], x: int, y: int, extra: str = "") -> str:
    """One piece at (x, y): its face when the view holds its type, else its back."""
    army = str(p.get("army") or p.get("side") or "")
    fill = FILL.get(army, FILL.get(str(p.get("side")), "#555"))
    known = bool(p.get("type"))
    title = escape(piece_name(p))
    body = [f'<rect x="4" y="4" width="{S - 8}" height="{S - 8}" rx="4" fill="{fill}"/>']
    if known:
        short = SHORT.get(str(p["type"]), "?")
        strength = p.get("strength")
        body.append(f'<text class="pc-type" x="{S // 2}" y="17" text-anchor="middle">'
                    f'{escape(short)}</text>')
        if strength is not None:
            body.append(f'<text class="pc-str" x="{S // 2}" y="31" text-anchor="middle">'
                        f'{int(strength)}</text>')
        if p.get("revealed"):
            body.append('<circle cx="32" cy="8" r="2.5" fill="#fff"><title>revealed'
                        '</title></circle>')
    else:
        glyph = BACK_GLYPH.get(str(p.get("back")), "?")
        body.append(f'<text class="pc-back" x="{S // 2}" y="26" text-anchor="middle">'
                    f'{glyph}</text>')
    cls = "pc" + (" known" if known else " back")
    return (f'<g class="{cls}" transform="translate({x} {y})"{extra}><title>{title}</title>'
            + "".join(body) + "</g>")


def _svg(inner: list[str], height: int, label: str, extra: str = "") -> str:
    return (f'<svg class="sw-board" viewBox="0 0 {COLS * S} {height}" role="img" '
            f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg"{extra}>'
            + "".join(inner) + "</svg>")


def board_svg(view: Mapping[str, Any], side: str | None, *,
              links: Mapping[tuple[int, int], str] | None = None,
              targets: Mapping[tuple[int, int], tuple[str, str]] | None = None,
              selected: tuple[int, int] | None = None,
              marked: Sequence[tuple[int, int]] = ()) -> str:
    links, targets = links or {}, targets or {}
    out: list[str] = []
    _grid(view, side, out)
    for p in view.get("board") or ():
        sq = _pair(p.get("square"))
        if sq is None:
            continue
        x, y = xy(*sq, side)
        g = piece_svg(p, x, y, f' data-testid="piece-{sq[0]}-{sq[1]}"')
        href = links.get(sq)
        if href and sq not in targets:
            g = (f'<a href="{escape(href)}" class="pick" data-testid="pick-{sq[0]}-{sq[1]}" '
                 f'aria-label="Select {escape(piece_name(p))}">{g}</a>')
        out.append(g)
    for sq in marked:
        x, y = xy(*sq, side)
        out.append(f'<rect class="last-enemy" x="{x + 1}" y="{y + 1}" width="{S - 2}" '
                   f'height="{S - 2}"><title>The opponent\'s last action</title></rect>')
    if selected is not None:
        x, y = xy(*selected, side)
        out.append(f'<rect class="selected" x="{x + 1}" y="{y + 1}" width="{S - 2}" '
                   f'height="{S - 2}"/>')
    for sq, (form_id, kind) in targets.items():
        x, y = xy(*sq, side)
        out.append(f'<a href="#{escape(form_id)}" class="target-link" '
                   f'data-submit="{escape(form_id)}" data-testid="target-{sq[0]}-{sq[1]}">'
                   f'<rect class="target {escape(kind)}" x="{x + 2}" y="{y + 2}" '
                   f'width="{S - 4}" height="{S - 4}"><title>{escape(kind)} '
                   f'{LETTERS[sq[0]]}{sq[1] + 1}</title></rect></a>')
    return _svg(out, ROWS * S, "The battlefield")


TRAY_ROWS = 1  # the set-up editor's reserve tray: 12 slots under the board (at most 10)


def setup_svg(view: Mapping[str, Any], side: str, placement: Mapping[str, tuple[int, int]],
              reserve: Sequence[str], pieces: Mapping[str, Mapping[str, Any]]) -> str:
    """The set-up editor: the board (the enemy's set-up as backs, if made) with ``side``'s
    pieces where ``placement`` puts them, and the reserve tray under it. Each home square
    and tray slot is a ``slot``; stratego.js swaps what two clicked slots hold."""
    out: list[str] = []
    _grid(view, side, out)
    for p in view.get("board") or ():
        sq = _pair(p.get("square"))
        if sq is not None and p.get("side") != side:
            out.append(piece_svg(p, *xy(*sq, side)))
    for row in HOME[side]:
        for col in range(COLS):
            x, y = xy(col, row, side)
            out.append(f'<rect class="slot" x="{x}" y="{y}" width="{S}" height="{S}" '
                       f'data-slot="{col},{row}" data-x="{x}" data-y="{y}" '
                       f'data-testid="slot-{col}-{row}"/>')
    tray_y = ROWS * S + 20
    out.append(f'<text class="tray-title" x="2" y="{tray_y - 6}">Reserve (at most 10; '
               'commanders must stay on the board)</text>')
    for i in range(COLS * TRAY_ROWS):
        x, y = (i % COLS) * S, tray_y + (i // COLS) * S
        out.append(f'<rect class="slot tray" x="{x}" y="{y}" width="{S}" height="{S}" '
                   f'data-slot="r{i}" data-x="{x}" data-y="{y}" data-testid="slot-r{i}"/>')
    for pid, (col, row) in placement.items():
        x, y = xy(col, row, side)
        out.append(piece_svg(pieces[pid], x, y,
                             f' data-piece="{escape(pid)}" data-at="{col},{row}"'))
    for i, pid in enumerate(reserve):
        x, y = (i % COLS) * S, tray_y + (i // COLS) * S
        out.append(piece_svg(pieces[pid], x, y, f' data-piece="{escape(pid)}" data-at="r{i}"'))
    return _svg(out, tray_y + TRAY_ROWS * S + 2, "Your set-up", ' data-setup="1"')
