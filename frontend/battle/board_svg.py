"""The battle board: a player's view of a battle drawn as one accessible SVG document (pure:
the stdlib and ``game``).

``board_svg(view, side, cards)`` draws the battlefield of ``battles.engine.view(state, side)``,
``side``'s own Positions at the bottom, the enemy's on top, the Middle Ground (and its Rivers)
between, the Reserves as counts. Every piece is a small card (``<g class="piece"
data-piece="<id>">`` with a ``<title>``) so a page can make it clickable; face-down enemy
pieces are card backs showing only what the view gives (army, place, hits, formation, blown).
Nothing here reads the engine's state: only the view and the card table (``Ctx``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from frontend.svg import INK, PAPER, SYSTEM_UI, esc, shorten, text_width
from game import (
    ARMY_COLOURS,
    ARMY_NAMES,
    ARMY_TINTS,
    BATTLE_NAMES,
    SIDE_NAMES,
    SIDES,
    TROOP_TYPES,
    other_side,
)

from .piece_labels import (
    HIT_RED,
    MUTED,
    TERRAIN_GREEN,
    glyph,
    marks_line,
    piece_title,
    status_marks,
    status_words,
    type_line,
)
from .view_context import (
    PHASE_NAMES,
    SIDE_ARMY,
    SIDE_THE,
    Ctx,
    cap,
    facing,
    facing_front,
    is_terrain,
    place_label,
    side_of_place,
    sort_key,
)

__all__ = ["board_svg"]

FIELD = "#e9efe0"
MIDDLE = "#dfe6d2"
RIVER = "#2f6db0"
SANS = "system-ui, 'Helvetica Neue', Arial, sans-serif"

# Geometry (viewBox units). 420 wide so that text stays legible scaled to a 375 px phone.
WIDTH = 420
MARGIN = 6
GAP = 4
COL_W = (WIDTH - 2 * MARGIN - 2 * GAP) / 3
PAD = 3
CHIP_W = COL_W - 2 * PAD
CHIP_H = 46
CHIP_GAP = 4
BAND = 17
BOX_HEAD = 18
SPECIAL_H = 13


def _text(x: float, y: float, text: str, size: float, *, anchor: str = "start",
          weight: str = "normal", fill: str = INK, fit: float | None = None, cls: str = "",
          extra: str = "") -> str:
    bold = weight == "bold"
    if fit is not None:
        text = shorten(text, size, fit, bold, SYSTEM_UI)
    attrs = [f'x="{x:.1f}"', f'y="{y:.1f}"', f'font-size="{size:g}"', f'fill="{fill}"']
    if anchor != "start":
        attrs.append(f'text-anchor="{anchor}"')
    if bold:
        attrs.append('font-weight="700"')
    if cls:
        attrs.append(f'class="{cls}"')
    if fit is not None and text_width(text, size, bold, SYSTEM_UI) > fit:
        attrs.append(f'textLength="{fit:.1f}" lengthAdjust="spacingAndGlyphs"')
    if extra:
        attrs.append(extra)
    return f"<text {' '.join(attrs)}>{esc(text)}</text>"


# The back of a card (1.0): a lattice over the army colour, drawn once.
_LATTICE = ('<path d="' + " ".join(f"M{i},0 L{i - CHIP_H},{CHIP_H}"
                                   for i in range(9, int(CHIP_W) + CHIP_H, 9))
            + '" stroke="#fff" stroke-opacity="0.12" stroke-width="1.5" fill="none"/>')


class Board:
    def __init__(self, view: Mapping, side: str, ctx: Ctx, prefix: str,
                 marked: tuple = ((), ())):
        self.view, self.side, self.ctx, self.prefix = view, side, ctx, prefix
        # what the opponent just changed (frontend.battle.board_ux.changed_marks): a ring
        self.marked_pieces, self.marked_places = set(marked[0]), set(marked[1])
        self.enemy = other_side(side)
        own_pos = [f"{side}_{p}" for p in ("left", "center", "right")]
        self.bottom = own_pos
        self.top = [facing(p) for p in own_pos]
        self.middle = [facing_front(p) for p in own_pos]
        self.at: dict[str, list[Mapping]] = {}
        for pid in sorted(ctx.pieces, key=sort_key):
            p = ctx.pieces[pid]
            self.at.setdefault(str(p.get("place")), []).append(p)
        pend = view.get("pending") or {}
        self.pending = pend if isinstance(pend, Mapping) else {}
        decks = view.get("decks") or {}
        allied = "prussian" if "prussian" in decks and "british" not in decks else "british"
        self.side_army = {"french": "french", "allied": allied}  # Ligny, Wavre: Prussians
        self._engaged = {place: len({p.get("side") for p in here
                                     if not is_terrain(p, ctx)}) > 1
                         for place, here in self.at.items()}

    def engaged(self, place: str) -> bool:
        """Cards of both sides (not counting Terrain) in the place (8.1)."""
        return self._engaged.get(place, False)

    def groups(self, place: str) -> tuple[list[Mapping], list[Mapping]]:
        """(far group, near group) in a Position box: the side nearer the viewer at the bottom.
        Terrain sits with the Position's owner."""
        owner = side_of_place(place)
        home = [p for p in self.at.get(place, ()) if p.get("side") == owner or
                is_terrain(p, self.ctx)]
        home.sort(key=lambda p: (not is_terrain(p, self.ctx), sort_key(p.get("piece"))))
        away = [p for p in self.at.get(place, ()) if p not in home]
        return (home, away) if owner == self.enemy else (away, home)

    # -- pieces

    def chip(self, p: Mapping, x: float, y: float) -> str:
        ctx = self.ctx
        pid = p.get("piece")
        num = ctx.card_of(p)
        place = str(p.get("place"))
        army = str(p.get("army") or SIDE_ARMY.get(str(p.get("side")), "french"))
        colour = ARMY_COLOURS.get(army, "#444")
        side = str(p.get("side"))
        classes = ["piece", f"side-{esc(side)}", f"army-{esc(army)}",
                   "mine" if side == self.side else "theirs"]
        if self.pending.get("piece") == pid and self.pending.get("type") in ("fire", "shock"):
            classes.append("pending-attacker")
        if self.pending.get("target") == pid and self.pending.get("type") in ("fire", "shock"):
            classes.append("pending-target")
        extra = []
        kind = self.pending.get("type")
        if "pending-attacker" in classes:
            extra.append(f"has declared {'fire' if kind == 'fire' else 'a shock'} on "
                         f"{ctx.piece_label(self.pending.get('target'))}")
        if "pending-target" in classes:
            extra.append(f"the target of {ctx.piece_label(self.pending.get('piece'))}")
        title = piece_title(p, ctx, self.engaged(place), extra)
        attrs = (f'data-piece="{esc(pid)}" data-side="{esc(side)}" data-place="{esc(place)}" '
                 + (f'data-card="{esc(num)}" ' if num is not None else "") +
                 f'transform="translate({x:.1f},{y:.1f})" tabindex="0" role="img" '
                 f'aria-label="{esc(title)}"')
        body: list[str] = []
        w, h = CHIP_W, CHIP_H
        pending: list[tuple[str, str, bool]] = []
        if "pending-attacker" in classes:
            pending.append(("firing" if self.pending.get("type") == "fire" else "shocking",
                            "#a35200", True))
        if "pending-target" in classes:
            pending.append(("target", "#a35200", True))
        if num is None:  # a card back: its army, and the markers the view shows
            classes.append("face-down")
            letter = ctx.letters.get(pid, "")
            body.append(f'<rect width="{w:.1f}" height="{h}" rx="4" fill="{colour}"/>')
            body.append(_LATTICE)
            body.append(f'<rect x="2" y="2" width="{w - 4:.1f}" height="{h - 4}" rx="3" '
                        f'fill="none" stroke="#fff" stroke-opacity="0.75"/>')
            body.append(_text(9, 15, f"{ARMY_NAMES.get(army, '')} card", 11,
                              weight="bold", fill="#fff", fit=w - 36))
            body.append(_text(9, 27, "face down", 9.5, fill="#fff", fit=w - 36))
            if letter:
                body.append(f'<circle cx="{w - 14:.1f}" cy="14" r="9" fill="#fff"/>')
                body.append(_text(w - 14, 18, letter, 11, anchor="middle", weight="bold",
                                  fill=colour, cls="letter"))
            marks = [(t, "#fff", True) for t, _, _ in [*pending, *status_marks(p, ctx, None)]]
            if marks:
                body.append(f'<rect x="5" y="30" width="{w - 10:.1f}" height="13" rx="3" '
                            f'fill="#000" fill-opacity="0.4"/>')
                body.append(marks_line(9, 40.5, marks, 9.5, w - 18, "status", sep_fill="#fff"))
        else:
            info = ctx.info(num)
            kind = info.kind if info else "card"
            classes.append(f"type-{esc(kind)}")
            up = bool(p.get("face_up"))
            terrain = "controlled_by" in p or (kind == "terrain" and up)
            fill = "#eef3e6" if terrain else PAPER
            if not up:
                classes.append("face-down")
            dash = '' if up else ' stroke-dasharray="4 2.5"'
            body.append(f'<rect x="0.75" y="0.75" width="{w - 1.5:.1f}" height="{h - 1.5}" '
                        f'rx="4" fill="{fill}" stroke="{colour}" stroke-width="1.5"{dash}/>')
            body.append(f'<path d="M4.75,0.75 h{BAND - 4:g} v{h - 1.5} h-{BAND - 4:g} '
                        f'a4,4 0 0 1 -4,-4 v-{h - 9.5} a4,4 0 0 1 4,-4 z" fill="{colour}"/>')
            body.append(glyph(kind, info.tclass if info else None, BAND / 2 + 0.5, 12))
            if not up:  # own card still hidden from the enemy: an eye-slash mark in the band
                body.append(f'<text x="{BAND / 2 + 0.5:.1f}" y="{h - 7}" font-size="9" '
                            f'text-anchor="middle" fill="#fff" font-weight="700">?</text>')
            tx = BAND + 4
            fit = w - tx - 4
            name = info.name if info else "Unknown card"
            body.append(_text(tx, 14, name, 11.5, weight="bold", fit=fit, cls="name"))
            if info is not None:
                body.append(_text(tx, 27.5, type_line(info), 9.5, fill=MUTED, fit=fit,
                                  cls="type"))
            marks = [*pending, *status_marks(p, ctx, info)]
            decoy = not up and kind not in TROOP_TYPES
            if decoy:
                classes.append("decoy")
                marks.insert(0, ("Decoy", "#6b4a00", True))
            elif terrain:
                ctrl = p.get("controlled_by")
                if ctrl and ctrl != side:
                    marks.insert(0, (f"taken by {SIDE_NAMES.get(str(ctrl), '?')}", HIT_RED,
                                     True))
                else:
                    held = "yours" if ctrl == self.side and self.ctx.viewer == self.side \
                        else f"{SIDE_NAMES.get(str(ctrl), '')} held"
                    marks.insert(0, (held, TERRAIN_GREEN, False))
            if not up and not decoy:
                marks.append(("face down", MUTED, False))
            body.append(marks_line(tx, 40.5, marks, 9.5, fit, "status"))
        if pid in self.marked_pieces:
            classes.append("changed")
            body.append(f'<rect class="ring" x="-2.5" y="-2.5" width="{w + 5:.1f}" '
                        f'height="{h + 5}" rx="6" fill="none" stroke="#00a0b0" '
                        f'stroke-width="3"/>')
        if "pending-target" in classes or "pending-attacker" in classes:
            body.append(f'<rect x="-1.5" y="-1.5" width="{w + 3:.1f}" height="{h + 3}" rx="5" '
                        f'fill="none" stroke="#e07b00" stroke-width="2.5" '
                        f'stroke-dasharray="{"5 3" if "pending-target" in classes else "0"}"/>')
        return (f'<g class="{" ".join(classes)}" {attrs}><title>{esc(title)}</title>'
                + "".join(body) + "</g>")

    # -- boxes

    def specials_at(self, place: str) -> list[Mapping]:
        return [e for e in self.view.get("specials") or () if isinstance(e, Mapping)
                and e.get("at") == place]

    def box_height(self, place: str) -> float:
        far, near = self.groups(place)
        n = len(far) + len(near)
        h = BOX_HEAD + len(self.specials_at(place)) * SPECIAL_H + max(n, 1) * (
            CHIP_H + CHIP_GAP) + PAD
        if far and near:
            h += 6
        return h

    def box(self, place: str, x: float, y: float, h: float) -> str:
        owner = side_of_place(place) or "french"
        army = self.side_army[owner]
        colour = ARMY_COLOURS[army]
        engaged = self.engaged(place)
        label = self.ctx.where(place)
        label = label[0].upper() + label[1:]
        changed = " changed" if place in self.marked_places else ""
        parts = [f'<g class="position{" engaged" if engaged else ""}{changed}" '
                 f'data-place="{esc(place)}">',
                 f'<title>{esc(label)}{" (engaged)" if engaged else ""}</title>',
                 f'<rect x="{x:.1f}" y="{y:.1f}" width="{COL_W:.1f}" height="{h:.1f}" rx="6" '
                 f'fill="{ARMY_TINTS[army]}" stroke="{colour}" stroke-width="1.5"/>',
                 _text(x + 6, y + 13, label, 10.5, weight="bold", fill=colour,
                       fit=COL_W - (58 if engaged else 12))]
        if engaged:
            bx = x + COL_W - 49
            parts.append(f'<rect x="{bx:.1f}" y="{y + 3.5:.1f}" width="45" height="12" rx="6" '
                         f'fill="{HIT_RED}"/>')
            parts.append(_text(bx + 22.5, y + 12.6, "Engaged", 8.5, anchor="middle",
                               weight="bold", fill="#fff", cls="engaged-mark"))
        cy = y + BOX_HEAD
        for e in self.specials_at(place):
            name = self.ctx.name(e.get("card"), "Special")
            left = e.get("left")
            by = str(e.get("side"))
            if self.ctx.viewer in SIDES:
                whose = "your" if by == self.ctx.viewer else "enemy"
            else:
                whose = SIDE_NAMES.get(by, "")
            uses = f" ×{left}" if isinstance(left, int) and left > 1 else ""
            tint = ARMY_COLOURS[self.side_army.get(by, "french")]
            parts.append(f'<g class="special" data-special="{esc(e.get("id"))}" '
                         f'data-side="{esc(by)}">'
                         f'<title>{esc(cap(whose))} special in effect: {esc(name)}'
                         f'{esc(uses)}</title>'
                         + _text(x + 6, cy + 9.5, f"★ {name}{uses} ({whose})", 9.5,
                                 weight="bold", fill=tint, fit=COL_W - 12) + "</g>")
            cy += SPECIAL_H
        far, near = self.groups(place)
        for i, p in enumerate(far):
            parts.append(self.chip(p, x + PAD, cy + i * (CHIP_H + CHIP_GAP)))
        cy += len(far) * (CHIP_H + CHIP_GAP)
        if far and near:
            parts.append(f'<line x1="{x + 8:.1f}" y1="{cy + 1:.1f}" x2="{x + COL_W - 8:.1f}" '
                         f'y2="{cy + 1:.1f}" stroke="{MUTED}" stroke-dasharray="3 3"/>')
            cy += 6
        for i, p in enumerate(near):
            parts.append(self.chip(p, x + PAD, cy + i * (CHIP_H + CHIP_GAP)))
        if not far and not near:
            parts.append(_text(x + COL_W / 2, cy + CHIP_H / 2 + 3, "empty", 10,
                               anchor="middle", fill=MUTED))
        parts.append("</g>")
        return "".join(parts)

    def front(self, place: str, x: float, y: float, h: float) -> str:
        pieces = self.at.get(place, [])
        rivers = bool(pieces)
        label = self.ctx.where(place)
        parts = [f'<g class="front{" river" if rivers else ""}" data-place="{esc(place)}">',
                 f'<title>{esc(label[0].upper() + label[1:])}'
                 f'{": a river" if rivers else ""}</title>',
                 f'<rect x="{x:.1f}" y="{y:.1f}" width="{COL_W:.1f}" height="{h:.1f}" rx="4" '
                 f'fill="{MIDDLE}"/>']
        if rivers:
            mid = y + h / 2
            for dy in (-h / 2 + 5, h / 2 - 5):
                parts.append(f'<path d="M{x:.1f},{mid + dy:.1f} ' + " ".join(
                    f"q{COL_W / 12:.1f},{-3 if k % 2 else 3} {COL_W / 6:.1f},0"
                    for k in range(6)) + f'" fill="none" stroke="{RIVER}" stroke-width="2.5"/>')
            for i, p in enumerate(pieces):
                parts.append(self.chip(p, x + PAD, y + 9 + i * (CHIP_H + CHIP_GAP)))
        else:
            parts.append(_text(x + COL_W / 2, y + h / 2 + 3.5, "Middle Ground", 9.5,
                               anchor="middle", fill=MUTED))
        parts.append("</g>")
        return "".join(parts)

    def strip(self, side: str, x: float, y: float, w: float, h: float) -> str:
        view = self.view
        res = (view.get("reserves") or {}).get(side) or {}
        count = res.get("count", len(res.get("cards") or ()))
        mine = self.ctx.viewer == side
        decks = view.get("decks") or {}
        armies = [a for a in decks if (a == "french") == (side == "french")]
        deck = ", ".join(f"{ARMY_NAMES.get(a, a)} {decks[a]}" if len(armies) > 1
                         else str(decks[a]) for a in armies)
        elim = len((view.get("eliminated") or {}).get(side) or ())
        army = self.side_army[side]
        colour = ARMY_COLOURS[army]
        who = "Your" if mine else ("Enemy" if self.ctx.viewer else SIDE_NAMES[side])
        head = f"{who} Reserve: {count} card{'s' if count != 1 else ''}"
        rest = [f"deck {deck}" if deck else "", f"{elim} lost" if elim else ""]
        fresh = len(res.get("drawn_this_turn") or ()) if mine else 0
        if fresh:
            rest.insert(0, f"{fresh} held until next turn")
        detail = " · ".join(r for r in rest if r)
        title = f"{head}" + (f"; {detail}" if detail else "")
        if mine:
            title += " (your cards are listed with the board)"
        place = f"{side}_reserve"
        return (f'<g class="reserve{" mine" if mine else ""}" data-place="{place}" '
                f'data-count="{esc(count)}"><title>{esc(title)}</title>'
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="6" '
                f'fill="{colour}"/>'
                + f'<rect x="{x + 8:.1f}" y="{y + 6:.1f}" width="9" height="12" rx="1.5" '
                f'fill="none" stroke="#fff" stroke-width="1.2"/>'
                f'<rect x="{x + 11:.1f}" y="{y + 8:.1f}" width="9" height="12" rx="1.5" '
                f'fill="{colour}" stroke="#fff" stroke-width="1.2"/>'
                + _text(x + 26, y + h / 2 + 4.5, head, 12, weight="bold", fill="#fff",
                        fit=w * 0.55)
                + _text(x + w - 8, y + h / 2 + 4, detail, 10, anchor="end", fill="#fff",
                        fit=w * 0.38)
                + "</g>")

    def header(self, y: float) -> tuple[str, float]:
        view, ctx = self.view, self.ctx
        battle = BATTLE_NAMES.get(str(view.get("battle")), str(view.get("battle") or "Battle"))
        turn = view.get("turn")
        phase = PHASE_NAMES.get(str(view.get("phase")), str(view.get("phase") or ""))
        active = view.get("active")
        bits = [battle, f"Turn {turn}" if turn else ""]
        if view.get("phase") not in ("deploy", "over") and active in SIDES:
            bits.append(("Your " if active == ctx.viewer else f"{SIDE_NAMES[active]} ") +
                        phase)
        else:
            bits.append(phase)
        parts = [_text(MARGIN + 2, y + 14, " · ".join(b for b in bits if b), 13,
                       weight="bold", fit=WIDTH - 2 * MARGIN - 4, cls="heading")]
        prio = view.get("priority")
        out = view.get("outcome")
        line = ""
        colour = MUTED
        if isinstance(out, Mapping):
            winner = out.get("winner")
            if winner is None:
                line = "The battle is over: a draw"
            elif winner == ctx.viewer:
                line = "The battle is over: you have won"
            elif ctx.viewer:
                line = "The battle is over: you have lost"
            else:
                line = f"The battle is over: {SIDE_THE.get(str(winner), '?')} win"
            colour = HIT_RED
        elif prio in SIDES:
            if prio == ctx.viewer:
                line = "Your move"
                colour = "#0b6b2f"
            else:
                line = f"Waiting for the {SIDE_NAMES[prio]}"
            if view.get("step") == "response":
                line += " (response)"
        if line:
            parts.append(_text(MARGIN + 2, y + 29, line, 11, weight="bold", fill=colour,
                               fit=WIDTH - 2 * MARGIN - 4, cls="status-line"))
        return "".join(parts), 36

    def render(self) -> str:
        ctx, view = self.ctx, self.view
        y = MARGIN
        head, dy = self.header(y)
        parts = [head]
        y += dy
        strip_h = 24
        parts.append(self.strip(self.enemy, MARGIN, y, WIDTH - 2 * MARGIN, strip_h))
        y += strip_h + GAP
        row_h = max(self.box_height(p) for p in self.top)
        for i, place in enumerate(self.top):
            parts.append(self.box(place, MARGIN + i * (COL_W + GAP), y, row_h))
        y += row_h + GAP
        n_front = max(len(self.at.get(p, ())) for p in self.middle)
        mid_h = 26 if n_front == 0 else 18 + n_front * (CHIP_H + CHIP_GAP) - CHIP_GAP
        for i, place in enumerate(self.middle):
            parts.append(self.front(place, MARGIN + i * (COL_W + GAP), y, mid_h))
        y += mid_h + GAP
        row_h = max(self.box_height(p) for p in self.bottom)
        for i, place in enumerate(self.bottom):
            parts.append(self.box(place, MARGIN + i * (COL_W + GAP), y, row_h))
        y += row_h + GAP
        parts.append(self.strip(self.side, MARGIN, y, WIDTH - 2 * MARGIN, strip_h))
        y += strip_h + MARGIN
        height = y
        battle = BATTLE_NAMES.get(str(view.get("battle")), "the battle")
        who = f"the {SIDE_NAMES[ctx.viewer]}" if ctx.viewer else "a spectator"
        title = f"{battle}, turn {view.get('turn', 0)}: the battlefield as seen by {who}"
        desc = self.description()
        p = self.prefix
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" '
                f'width="{WIDTH}" height="{height:.0f}" role="img" '
                f'aria-labelledby="{p}-title {p}-desc" class="battle-board side-{self.side}" '
                f'data-side="{self.side}" font-family="{esc(SANS)}" '
                f'preserveAspectRatio="xMidYMin meet">'
                f'<title id="{p}-title">{esc(title)}</title>'
                f'<desc id="{p}-desc">{esc(desc)}</desc>'
                f'<rect width="{WIDTH}" height="{height:.0f}" fill="{FIELD}"/>'
                + "".join(parts) + "</svg>")

    def description(self) -> str:
        ctx = self.ctx
        lines = [f"Your side ({SIDE_NAMES[self.side]}) is at the bottom."
                 if ctx.viewer == self.side else
                 f"The {SIDE_NAMES[self.side]} side is at the bottom."]
        for place in [*self.top, *self.middle, *self.bottom]:
            pieces = self.at.get(place, [])
            if not pieces and place.startswith("front"):
                continue
            label = ctx.where(place)
            names = []
            for p in pieces:
                num = ctx.card_of(p)
                words = status_words(p, ctx)
                base = ctx.name(num) if num is not None else ctx.piece_label(p.get("piece"))
                if num is not None and not p.get("face_up"):
                    words.insert(0, "face down")
                if num is None:
                    base = base.rsplit(" in ", 1)[0]
                names.append(base + (f" ({', '.join(words)})" if words else ""))
            engaged = " (engaged)" if self.engaged(place) else ""
            body = "; ".join(names) if names else "empty"
            lines.append(f"{label[0].upper() + label[1:]}{engaged}: {body}.")
        for side in (self.enemy, self.side):
            res = (self.view.get("reserves") or {}).get(side) or {}
            lines.append(f"{cap(place_label(side + '_reserve', ctx.viewer))}: "
                         f"{res.get('count', 0)} cards.")
        return " ".join(lines)


def board_svg(view: dict, side: str, cards: Mapping | None = None, *,
              id_prefix: str = "board", marked: tuple = ((), ())) -> str:
    """The battlefield of `view` (from ``battles.engine.view``) drawn from `side`'s point of
    view, as a standalone accessible SVG string. `cards`: the card table (default: the
    battle's card table, e.g. ``battles.setup.engine_cards``; catalogue records keyed by
    number also work; without it no card is named: the renderer reads no file)."""
    if side not in SIDES:
        side = view.get("viewer") if view.get("viewer") in SIDES else "french"
    prefix = re.sub(r"[^A-Za-z0-9_-]", "", id_prefix) or "board"
    ctx = Ctx(view, cards)
    return Board(view, side, ctx, prefix, marked).render()


# -- actions in words ----------------------------------------------------------------------------
