"""A player's view of a battle, drawn and put into words (pure: the engine and the stdlib only).

* ``board_svg(view, side, cards)`` draws the battlefield of ``battles.engine.view(state, side)``
  as one accessible SVG document, ``side``'s own Positions at the bottom, the enemy's on top,
  the Middle Ground (and its Rivers) between, the Reserves as counts. Every piece is a small
  card (``<g class="piece" data-piece="<id>">`` with a ``<title>``) so a page can make it
  clickable; face-down enemy pieces are card backs showing only what the view gives (army,
  place, hits, formation, blown).
* ``describe_action(action, view, cards)``: a plain-English label for a legal action.
* ``describe_event(event, view_side, cards, view=)``: one battle-log line for an event;
  ``describe_events`` does a list, naming pieces revealed along the way.

Nothing here reads the engine's state: only the view (which the engine has already redacted)
and the card table, so a face-down enemy card can never be named. As a second guard, a
face-down piece is named only when it belongs to the viewer.

Places are worded from the viewer's side: "your Left", "enemy Centre", "the Middle Ground
before your Right" (4.2: Left, Centre and Right as seen by their owner, so the enemy's Right
faces your Left); a spectator (``side=None``) reads "French Left", "Allied Centre".
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, NamedTuple
from xml.sax.saxutils import escape as _escape

from game import ARMY_COLOURS, ARMY_NAMES, ARMY_TINTS, BATTLE_NAMES, SIDE_NAMES, SIDES

__all__ = ["board_svg", "describe_action", "describe_actions", "describe_event",
           "describe_events", "place_label"]

SIDE_PEOPLE = {"french": "The French", "allied": "The Allies"}
SIDE_THE = {"french": "the French", "allied": "the Allies"}
SIDE_ARMY = {"french": "french", "allied": "british"}
TYPE_NAMES = {"general": "General", "infantry": "Infantry", "cavalry": "Cavalry",
              "artillery": "Artillery", "terrain": "Terrain", "special": "Special"}
POS_NAMES = {"left": "Left", "center": "Centre", "right": "Right"}
FORMATION_NAMES = {"line": "Line", "column": "Column", "square": "Square"}
PHASE_NAMES = {"deploy": "Deployment", "morale": "Morale Phase", "combat": "Combat Phase",
               "reinforce": "Reinforce Phase", "over": "Battle over"}
ELIMINATION_REASONS = {"routed": "routed", "killed": "killed", "decoy": "it was a decoy",
                       "alone": "left alone with the enemy"}
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

PAPER = "#f8f3e3"
INK = "#1d1d1f"
MUTED = "#4a4a50"
HIT_RED = "#b3121b"
FIELD = "#e9efe0"
MIDDLE = "#dfe6d2"
RIVER = "#2f6db0"
TERRAIN_GREEN = "#2f5d27"
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

_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_NARROW = set("iljtfrI.,;:'!|()[] ’")
_WIDE = set("mwMW@%&—")


_NEEDS_ESCAPE = re.compile("[&<>\"'\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def esc(value: object) -> str:
    """Text or attribute value, XML-escaped (quotes too), without characters XML forbids."""
    text = "" if value is None else str(value)
    if not _NEEDS_ESCAPE.search(text):
        return text
    return _escape(_INVALID_XML.sub("", text), {'"': "&quot;", "'": "&apos;"})


def _clean(value: object) -> str:
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


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Estimated rendered width (no font metrics on the server; a little generous)."""
    return _text_units(text) * size * (1.18 if bold else 1.04)


@lru_cache(maxsize=4096)
def _shorten(text: str, size: float, width: float, bold: bool = False) -> str:
    """Cut `text` (with an ellipsis) so that squeezing by 30% at most makes it fit."""
    limit = width * 1.3
    if text_width(text, size, bold) <= limit:
        return text
    scale = size * (1.18 if bold else 1.04)
    budget = limit / scale - _units("…")
    used, cut = 0.0, 0
    for i, ch in enumerate(text):
        used += _units(ch)
        if used > budget:
            break
        cut = i + 1
    return text[:cut].rstrip(" ,·(") + "…"


# -- cards -------------------------------------------------------------------------------------


class Info(NamedTuple):
    """What the renderer needs of a card, from an engine ``Card`` or a catalogue record."""

    num: int
    name: str
    kind: str
    army: str
    cv: int | None
    fp: int | None
    shock: int | None
    long: int | None
    short: int | None
    morale: str | None  # "A".."D"
    off: int | None
    dfn: int | None
    corps: str | None
    tclass: str | None
    tpos: str | None
    move_limit: int | None
    horse: bool


_MORALE_LETTER = {4: "A", 3: "B", 2: "C", 1: "D"}


def _info(cards: Mapping | None, num: Any) -> Info | None:
    if cards is None or num is None:
        return None
    c = cards.get(num)
    if c is None and not isinstance(num, str):
        c = cards.get(str(num))
    if c is None:
        return None
    if isinstance(c, Mapping):  # a catalogue record
        morale = c.get("morale")
        return Info(
            num=int(c.get("number", num)), name=str(c.get("name") or ""),
            kind=str(c.get("type") or ""), army=str(c.get("army") or ""), cv=c.get("cv"),
            fp=c.get("firepower"), shock=c.get("shock"), long=c.get("fire_long"),
            short=c.get("fire_short"), morale=str(morale).upper() if morale else None,
            off=c.get("offense"), dfn=c.get("defense"), corps=c.get("corps"),
            tclass=c.get("terrain_class"), tpos=c.get("terrain_position"),
            move_limit=c.get("move_limit"), horse=c.get("artillery_kind") == "horse")
    troop = c.kind in ("infantry", "cavalry", "artillery")
    return Info(
        num=c.num, name=c.name, kind=c.kind, army=c.army, cv=c.cv if troop else None,
        fp=c.fp if troop else None, shock=c.shock if c.kind in ("infantry", "cavalry") else None,
        long=c.long if c.kind == "artillery" else None,
        short=c.short if c.kind == "artillery" else None,
        morale=_MORALE_LETTER.get(c.morale), off=c.off if c.kind == "general" else None,
        dfn=c.dfn if c.kind == "general" else None, corps=c.corps, tclass=c.tclass,
        tpos=c.tpos, move_limit=c.move_limit or None, horse=c.horse)


def _kind_name(info: Info) -> str:
    if info.kind == "terrain" and info.tclass:
        return str(info.tclass).lower()
    if info.kind == "artillery" and info.horse:
        return "horse artillery"
    return info.kind or "card"


# -- places ------------------------------------------------------------------------------------


def _facing_front(place: str) -> str:
    """The Middle Ground front before a Position (French Left / Allied Right share one)."""
    side, pos = place.split("_", 1)
    if side == "allied":
        pos = {"left": "right", "right": "left"}.get(pos, pos)
    return f"front_{pos}"


def _facing(place: str) -> str:
    side, pos = place.split("_", 1)
    other = "allied" if side == "french" else "french"
    return f"{other}_{ {'left': 'right', 'right': 'left'}.get(pos, pos)}"


def place_label(place: str | None, viewer: str | None) -> str:
    """A place in words from `viewer`'s side ("your Left", "enemy Reserve")."""
    if not place:
        return "the field"
    side, _, pos = str(place).partition("_")
    if side == "front":
        if viewer in SIDES:
            mine = _own_position_before(str(place), viewer)
            return f"the Middle Ground before your {POS_NAMES[mine]}"
        return {"front_left": "the Middle Ground (French Left, Allied Right)",
                "front_center": "the Middle Ground (the Centres)",
                "front_right": "the Middle Ground (French Right, Allied Left)"}.get(
                    str(place), "the Middle Ground")
    if side not in SIDES:
        return "the field"
    if pos == "reserve":
        if viewer == side:
            return "your Reserve"
        if viewer in SIDES:
            return "the enemy Reserve"
        return f"the {SIDE_NAMES[side]} Reserve"
    name = POS_NAMES.get(pos, pos.title())
    if viewer == side:
        return f"your {name}"
    if viewer in SIDES:
        return f"enemy {name}"
    return f"{SIDE_NAMES[side]} {name}"


def _own_position_before(front_place: str, viewer: str) -> str:
    pos = front_place.split("_", 1)[1]
    if viewer == "allied":
        pos = {"left": "right", "right": "left"}.get(pos, pos)
    return pos


def _terrain_place(info: Info, side: str) -> str | None:
    """Where a Terrain card goes (11.0): its printed Position, Rivers on the Middle Ground."""
    pos = {"l": "left", "c": "center", "r": "right"}.get(str(info.tpos or "").lower())
    if pos is None or side not in SIDES:
        return None
    place = f"{side}_{pos}"
    return _facing_front(place) if (info.tclass or "") == "river" else place


# -- what the view tells -----------------------------------------------------------------------


class Ctx:
    """The view, indexed: pieces by id, what each may be called, face-down letters."""

    def __init__(self, view: Mapping | None, cards: Mapping | None, *,
                 viewer: Any = "from-view", before: Mapping | None = None):
        self.view: Mapping = view or {}
        self.cards = cards if cards is not None else {}  # no cards given: none can be named
        self._infos: dict[Any, Info | None] = {}
        if viewer == "from-view":
            viewer = self.view.get("viewer")
        self.viewer: str | None = viewer if viewer in SIDES else None
        now = [p for p in self.view.get("pieces") or () if isinstance(p, Mapping)
               and "piece" in p]
        # pieces of the earlier view that have left the field since are still named
        self.pieces: dict[Any, Mapping] = {
            p["piece"]: p for p in (before or {}).get("pieces") or ()
            if isinstance(p, Mapping) and "piece" in p}
        self.pieces.update((p["piece"], p) for p in now)
        # Face-down cards the viewer cannot name are lettered A, B, ... per place (in piece
        # order), on the board and in the words alike.
        self.letters: dict[Any, str] = {}
        self.hidden_count: dict[str, int] = {}
        by_place: dict[str, list[Any]] = {}
        for p in now:
            if self.card_of(p) is None:
                by_place.setdefault(str(p.get("place")), []).append(p["piece"])
        for place, pids in by_place.items():
            self.hidden_count[place] = len(pids)
            for i, pid in enumerate(sorted(pids, key=_sort_key)):
                self.letters[pid] = LETTERS[i] if i < len(LETTERS) else str(i + 1)
        reserve = (self.view.get("reserves") or {}).get(self.viewer) or {}
        self.own_reserve = set(reserve.get("cards") or ()) if self.viewer else set()
        self.specials = {e.get("id"): e for e in self.view.get("specials") or ()
                         if isinstance(e, Mapping)}
        self.learned: dict[Any, Any] = {}  # piece id -> card, from visible events (a log)

    def card_of(self, p: Mapping | None) -> Any:
        """The piece's card number if the viewer may know it, else None."""
        if p is None:
            return None
        num = p.get("card")
        if num is None:
            return None
        if p.get("face_up") or (self.viewer is not None and p.get("side") == self.viewer):
            return num
        return None  # defence in depth: a face-down card of another side is never named

    def info(self, num: Any) -> Info | None:
        try:
            return self._infos[num]
        except KeyError:
            got = self._infos[num] = _info(self.cards, num)
            return got
        except TypeError:  # an unhashable "card" in a malformed view
            return None

    def name(self, num: Any, fallback: str = "a card") -> str:
        info = self.info(num)
        return info.name if info is not None and info.name else fallback

    def named(self, num: Any, fallback: str = "a card") -> str:
        """'Old Guard (infantry)'."""
        info = self.info(num)
        if info is None:
            return fallback
        return f"{info.name} ({_kind_name(info)})"

    def where(self, place: Any) -> str:
        return place_label(place, self.viewer)

    def piece_label(self, pid: Any, *, with_place: bool = False, side: Any = None) -> str:
        """A piece in words, naming only what the viewer may see."""
        p = self.pieces.get(pid)
        num = self.card_of(p) if p is not None else None
        if num is None:
            num = self.learned.get(pid)
        if num is not None:
            label = self.name(num)
            if with_place and p is not None:
                label += f" in {self.where(p.get('place'))}"
            return label
        if p is None:
            if side in SIDES:
                return "a French card" if side == "french" else "an Allied card"
            return "a card"
        army = ARMY_NAMES.get(str(p.get("army")), "")
        place = str(p.get("place"))
        letter = self.letters.get(pid, "")
        core = f"the face-down {army} card" if army else "the face-down card"
        if self.hidden_count.get(place, 0) > 1 and letter:
            core += f" {letter}"
        return f"{core} in {self.where(place)}"

    def terrain_label(self, pid: Any) -> str:
        p = self.pieces.get(pid)
        num = self.card_of(p) if p is not None else None
        if num is None:
            num = self.learned.get(pid)
        return self.name(num, "the terrain") if num is not None else "the terrain"


def _sort_key(value: Any) -> tuple:
    return (0, value, "") if isinstance(value, int) else (1, 0, str(value))


def _side_of_place(place: Any) -> str | None:
    side = str(place or "").split("_", 1)[0]
    return side if side in SIDES else None


def _is_terrain(p: Mapping, ctx: Ctx) -> bool:
    if "controlled_by" in p:
        return True
    info = ctx.info(ctx.card_of(p))
    return info is not None and info.kind == "terrain"


# -- drawing -----------------------------------------------------------------------------------


def _text(x: float, y: float, text: str, size: float, *, anchor: str = "start",
          weight: str = "normal", fill: str = INK, fit: float | None = None, cls: str = "",
          extra: str = "") -> str:
    bold = weight == "bold"
    if fit is not None:
        text = _shorten(text, size, fit, bold)
    attrs = [f'x="{x:.1f}"', f'y="{y:.1f}"', f'font-size="{size:g}"', f'fill="{fill}"']
    if anchor != "start":
        attrs.append(f'text-anchor="{anchor}"')
    if bold:
        attrs.append('font-weight="700"')
    if cls:
        attrs.append(f'class="{cls}"')
    if fit is not None and text_width(text, size, bold) > fit:
        attrs.append(f'textLength="{fit:.1f}" lengthAdjust="spacingAndGlyphs"')
    if extra:
        attrs.append(extra)
    return f"<text {' '.join(attrs)}>{esc(text)}</text>"


def _spans(x: float, y: float, parts: list[tuple[str, str, bool]], size: float, fit: float,
           cls: str, sep_fill: str = MUTED) -> str:
    """One line of differently coloured runs (text, fill, bold), squeezed to `fit`."""
    parts = [(t, f, b) for t, f, b in parts if t]
    if not parts:
        return ""
    sep = " · "
    width = sum(text_width(t, size, b) for t, _, b in parts) + text_width(sep, size) * (
        len(parts) - 1)
    while width > fit * 1.3 and len(parts) > 1:
        parts = parts[:-1]  # the least important run goes first (the tooltip has it all)
        width = sum(text_width(t, size, b) for t, _, b in parts) + text_width(sep, size) * (
            len(parts) - 1)
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


def _glyph(kind: str, tclass: str | None, cx: float, cy: float, colour: str = "#fff") -> str:
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
    if info.kind in ("infantry", "cavalry", "artillery"):
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


def _type_line(info: Info) -> str:
    kind = _kind_name(info).title() if info.kind == "terrain" else TYPE_NAMES.get(
        info.kind, info.kind.title())
    if info.kind == "artillery" and info.horse:
        kind = "Horse Art."
    rating = _ratings(info)
    return f"{kind} · {rating}" if rating else kind


def _long_ratings(info: Info) -> str:
    if info.kind in ("infantry", "cavalry", "artillery"):
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


def _status(p: Mapping, ctx: Ctx, info: Info | None) -> list[tuple[str, str, bool]]:
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


def _status_words(p: Mapping, ctx: Ctx) -> list[str]:
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


def _piece_title(p: Mapping, ctx: Ctx, engaged: bool, extra: list[str]) -> str:
    num = ctx.card_of(p)
    where = ctx.where(p.get("place"))
    if num is None:
        text = ctx.piece_label(p.get("piece"))
        words = [*extra, *_status_words(p, ctx)]
        return text[0].upper() + text[1:] + (f" ({', '.join(words)})" if words else "")
    info = ctx.info(num)
    army = ARMY_NAMES.get(str(p.get("army")), "")
    if info is None:
        head = f"{army} card in {where}"
    else:
        rating = _long_ratings(info)
        head = f"{info.name}: {army} {_kind_name(info)}" + (f", {rating}" if rating else "")
        head += f", in {where}"
    if "controlled_by" in p:
        ctrl = p.get("controlled_by")
        head += ", held by " + ("you" if ctrl == ctx.viewer else SIDE_THE.get(str(ctrl), "?"))
    words = [*extra, *_status_words(p, ctx)]
    if not p.get("face_up"):
        words.insert(0, "face down, hidden from the enemy")
    if engaged:
        words.append("engaged")
    return head + (f" ({', '.join(words)})" if words else "")


# The back of a card (1.0): a lattice over the army colour, drawn once.
_LATTICE = ('<path d="' + " ".join(f"M{i},0 L{i - CHIP_H},{CHIP_H}"
                                   for i in range(9, int(CHIP_W) + CHIP_H, 9))
            + '" stroke="#fff" stroke-opacity="0.12" stroke-width="1.5" fill="none"/>')


class Board:
    def __init__(self, view: Mapping, side: str, ctx: Ctx, prefix: str):
        self.view, self.side, self.ctx, self.prefix = view, side, ctx, prefix
        self.enemy = "allied" if side == "french" else "french"
        own_pos = [f"{side}_{p}" for p in ("left", "center", "right")]
        self.bottom = own_pos
        self.top = [_facing(p) for p in own_pos]
        self.middle = [_facing_front(p) for p in own_pos]
        self.at: dict[str, list[Mapping]] = {}
        for pid in sorted(ctx.pieces, key=_sort_key):
            p = ctx.pieces[pid]
            self.at.setdefault(str(p.get("place")), []).append(p)
        pend = view.get("pending") or {}
        self.pending = pend if isinstance(pend, Mapping) else {}
        decks = view.get("decks") or {}
        allied = "prussian" if "prussian" in decks and "british" not in decks else "british"
        self.side_army = {"french": "french", "allied": allied}  # Ligny, Wavre: Prussians
        self._engaged = {place: len({p.get("side") for p in here
                                     if not _is_terrain(p, ctx)}) > 1
                         for place, here in self.at.items()}

    def engaged(self, place: str) -> bool:
        """Cards of both sides (not counting Terrain) in the place (8.1)."""
        return self._engaged.get(place, False)

    def groups(self, place: str) -> tuple[list[Mapping], list[Mapping]]:
        """(far group, near group) in a Position box: the side nearer the viewer at the bottom.
        Terrain sits with the Position's owner."""
        owner = _side_of_place(place)
        home = [p for p in self.at.get(place, ()) if p.get("side") == owner or
                _is_terrain(p, self.ctx)]
        home.sort(key=lambda p: (not _is_terrain(p, self.ctx), _sort_key(p.get("piece"))))
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
        title = _piece_title(p, ctx, self.engaged(place), extra)
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
            marks = [(t, "#fff", True) for t, _, _ in [*pending, *_status(p, ctx, None)]]
            if marks:
                body.append(f'<rect x="5" y="30" width="{w - 10:.1f}" height="13" rx="3" '
                            f'fill="#000" fill-opacity="0.4"/>')
                body.append(_spans(9, 40.5, marks, 9.5, w - 18, "status", sep_fill="#fff"))
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
            body.append(_glyph(kind, info.tclass if info else None, BAND / 2 + 0.5, 12))
            if not up:  # own card still hidden from the enemy: an eye-slash mark in the band
                body.append(f'<text x="{BAND / 2 + 0.5:.1f}" y="{h - 7}" font-size="9" '
                            f'text-anchor="middle" fill="#fff" font-weight="700">?</text>')
            tx = BAND + 4
            fit = w - tx - 4
            name = info.name if info else "Unknown card"
            body.append(_text(tx, 14, name, 11.5, weight="bold", fit=fit, cls="name"))
            if info is not None:
                body.append(_text(tx, 27.5, _type_line(info), 9.5, fill=MUTED, fit=fit,
                                  cls="type"))
            marks = [*pending, *_status(p, ctx, info)]
            decoy = not up and kind not in ("infantry", "cavalry", "artillery")
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
            body.append(_spans(tx, 40.5, marks, 9.5, fit, "status"))
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
        owner = _side_of_place(place) or "french"
        army = self.side_army[owner]
        colour = ARMY_COLOURS[army]
        engaged = self.engaged(place)
        label = self.ctx.where(place)
        label = label[0].upper() + label[1:]
        parts = [f'<g class="position{" engaged" if engaged else ""}" '
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
                         f'<title>{esc(_cap(whose))} special in effect: {esc(name)}'
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
                words = _status_words(p, ctx)
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
            lines.append(f"{_cap(place_label(side + '_reserve', ctx.viewer))}: "
                         f"{res.get('count', 0)} cards.")
        return " ".join(lines)


def board_svg(view: dict, side: str, cards: Mapping | None = None, *,
              id_prefix: str = "board") -> str:
    """The battlefield of `view` (from ``battles.engine.view``) drawn from `side`'s point of
    view, as a standalone accessible SVG string. `cards`: the card table (default: the
    battle's card table, e.g. ``battles.setup.engine_cards``; catalogue records keyed by
    number also work; without it no card is named: the renderer reads no file)."""
    if side not in SIDES:
        side = view.get("viewer") if view.get("viewer") in SIDES else "french"
    prefix = re.sub(r"[^A-Za-z0-9_-]", "", id_prefix) or "board"
    ctx = Ctx(view, cards)
    return Board(view, side, ctx, prefix).render()


# -- actions in words ----------------------------------------------------------------------------


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _card_for_action(ctx: Ctx, action: Mapping, fallback: str = "a card",
                     kind: bool = True, public: bool = False) -> str:
    """The action's card, named only if the viewer holds it (own Reserve), or, for a card
    played face up (`public`: terrain, specials), once it shows in the view."""
    num = action.get("card")
    known = action.get("side") == ctx.viewer and ctx.viewer is not None and \
        num in ctx.own_reserve
    if not known and public:
        known = any(ctx.card_of(p) == num and p.get("face_up") for p in ctx.pieces.values()) \
            or any(e.get("card") == num for e in ctx.specials.values())
    if not known:
        return fallback
    return ctx.named(num, fallback) if kind else ctx.name(num, fallback)


def _formation_words(form: Any) -> str:
    return f"in {form}" if form else ""


def _pieces_list(ctx: Ctx, pids: Iterable) -> str:
    counts: dict[Any, int] = {}
    for pid in pids or ():
        counts[pid] = counts.get(pid, 0) + 1
    bits = []
    for pid, n in counts.items():
        label = ctx.piece_label(pid)
        bits.append(label + (f" ×{n}" if n > 1 else ""))
    if len(bits) <= 1:
        return "".join(bits)
    return ", ".join(bits[:-1]) + " and " + bits[-1]


def _safe_word(value: Any) -> str:
    return re.sub(r"[^a-z_]", "", str(value or "").lower())[:30].replace("_", " ")


def describe_action(action: dict, view: dict, cards: Mapping | None = None) -> str:
    """A plain-English label for an action, e.g. "Deploy Old Guard (infantry) to your Centre",
    "Fire: 1st Foot Guards at the face-down British card in enemy Left". Only what `view`
    shows is named. Plain text: escape it for HTML (Django templates do)."""
    return _clean(_action_label(action, Ctx(view, cards)))


def describe_actions(actions: Iterable[dict], view: dict, cards: Mapping | None = None
                     ) -> list[str]:
    """``describe_action`` for a list of actions (say all the legal ones), reading the view
    once."""
    ctx = Ctx(view, cards)
    return [_clean(_action_label(a, ctx)) for a in actions]


def _action_label(action: Mapping, ctx: Ctx) -> str:
    if not isinstance(action, Mapping):
        return "Unrecognised action"
    t = action.get("type")
    side = action.get("side")
    own = side == ctx.viewer and ctx.viewer is not None
    subject = "" if own or side not in SIDES else f"{SIDE_NAMES[side]}: "
    to = action.get("to")
    occupy = action.get("occupy")
    occ = f", occupying {ctx.terrain_label(occupy)}" if occupy else ""
    if t == "deploy":
        form = action.get("formation")  # MagWeb Q&A 4.1: Infantry in any formation
        fw = f" {_formation_words(form)}" if form else ""
        return (f"{subject}Deploy {_card_for_action(ctx, action)} to {ctx.where(to)}{fw}{occ}")
    if t == "decoy":
        card = _card_for_action(ctx, action)
        verb = "Deploy" if ctx.view.get("phase") == "deploy" else "Send"
        return f"{subject}{verb} {card} face down as a decoy to {ctx.where(to)}"
    if t == "deployment_done":
        return f"{subject}Finish deployment"
    if t == "play_terrain":
        card = _card_for_action(ctx, action, "a terrain card", public=True)
        info = ctx.info(action.get("card"))
        where = ""
        if info is not None and card != "a terrain card" and side in SIDES:
            place = _terrain_place(info, side)
            if place:
                where = (" on " if place.startswith("front") else " in ") + ctx.where(place)
        return f"{subject}Place terrain: {card}{where}"
    if t == "move":
        form = action.get("formation")
        fw = f" {_formation_words(form)}" if form else ""
        engaging = ""
        if to and side in SIDES and not str(to).endswith("reserve") and any(
                p.get("side") != side and not _is_terrain(p, ctx)
                for p in ctx.pieces.values() if p.get("place") == to):
            engaging = " (engaging)"
        if "card" in action and "piece" not in action:
            card = _card_for_action(ctx, action)
            src = place_label(f"{side}_reserve", ctx.viewer) if side in SIDES else "the Reserve"
            return f"{subject}Move {card} from {src} to {ctx.where(to)}{fw}{occ}{engaging}"
        pid = action.get("piece")
        p = ctx.pieces.get(pid)
        src = f" from {ctx.where(p.get('place'))}" if p is not None else ""
        if to and str(to).endswith("reserve"):
            return f"{subject}Withdraw {ctx.piece_label(pid)}{src} to {ctx.where(to)}"
        return f"{subject}Move {ctx.piece_label(pid)}{src} to {ctx.where(to)}{fw}{occ}{engaging}"
    if t == "change_formation":
        pid = action.get("piece")
        form = FORMATION_NAMES.get(str(action.get("formation")), "another formation").lower()
        return f"{subject}Form {form}: {ctx.piece_label(pid, with_place=True)}"
    if t == "occupy":
        return (f"{subject}Occupy {ctx.terrain_label(action.get('terrain'))} with "
                f"{ctx.piece_label(action.get('piece'), with_place=True)}")
    if t in ("fire", "shock"):
        verb = "Fire" if t == "fire" else "Shock"
        return (f"{subject}{verb}: {ctx.piece_label(action.get('piece'))} at "
                f"{ctx.piece_label(action.get('target'), with_place=True)}")
    if t == "play_special":
        card = _card_for_action(ctx, action, "a special card", kind=False, public=True)
        text = f"{subject}Play {card} on {ctx.where(action.get('at'))}"
        if "cancel" in action:
            e = ctx.specials.get(action.get("cancel"))
            target = ctx.name(e.get("card"), "a special") if e else "a special"
            text += f", cancelling {target}"
            if e and e.get("at") and e.get("at") != action.get("at"):
                text += f" (on {ctx.where(e.get('at'))})"
        if action.get("formation"):
            text += f", forming {str(action['formation']).lower()}"
        if action.get("pieces"):
            text += f" for {_pieces_list(ctx, action['pieces'])}"
        return text
    if t == "roll_morale":
        return f"{subject}Roll for morale"
    if t == "pass":
        pend = ctx.view.get("pending") or {}
        if ctx.view.get("phase") == "morale":
            return f"{subject}Pass: play no special before the enemy's Morale rolls"
        if isinstance(pend, Mapping) and pend.get("type") in ("fire", "shock"):
            return (f"{subject}Pass: let the {pend['type']} of "
                    f"{ctx.piece_label(pend.get('piece'))} on "
                    f"{ctx.piece_label(pend.get('target'))} go ahead")
        if isinstance(pend, Mapping) and pend.get("type") == "move":
            return f"{subject}Pass: no answer to {ctx.piece_label(pend.get('piece'))} engaging"
        return f"{subject}Pass"
    if t == "end_phase":
        return f"{subject}End the Combat Phase"
    if t == "end_turn":
        return f"{subject}End your turn" if own else f"{subject}End the turn"
    word = _safe_word(t)
    return f"{subject}Other action" + (f" ({word})" if word else "")


# -- events in words ----------------------------------------------------------------------------


def _who(side: Any, view_side: str | None) -> str:
    """The subject of a plural verb: "You", "The French", "The Allies"."""
    if side == view_side and side in SIDES:
        return "You"
    return SIDE_PEOPLE.get(str(side), "Someone")


def _hits_words(n: int) -> str:
    return "no hits" if not n else f"{n} hit" + ("s" if n != 1 else "")


def _dice_words(dice: Any) -> str:
    if not isinstance(dice, list | tuple) or not dice:
        return "no dice"
    return ", ".join(str(d) for d in dice)


def describe_event(event: dict, view_side: str | None, cards: Mapping | None = None, *,
                   view: Mapping | None = None, before: Mapping | None = None) -> str:
    """One battle-log line for an event `view_side` may see (``events_for``), e.g. "Old Guard
    fires at the face-down British card in enemy Left: rolls 5, 2, hitting on 4+: 1 hit".

    Pieces are named from `view` (`view_side`'s view after the action) and `before` (its view
    before it, for pieces that have since left the field), and from the event itself. An event
    meant for the other side only gets a line that gives nothing away. Plain text: escape it
    for HTML (Django templates do)."""
    ctx = Ctx(view, cards, viewer=view_side, before=before)
    return _clean(_event_line(event, ctx))


def _event_line(event: Mapping, ctx: Ctx) -> str:
    if not isinstance(event, Mapping):
        return "Something happened"
    vis = event.get("visibility", "all")
    t = event.get("type")
    side = event.get("side")
    who = _who(side, ctx.viewer)
    if vis != "all" and vis != ctx.viewer:
        if t == "drawn":
            return f"{who} look at the cards drawn"
        return f"{who} note a hidden card"

    enemy = {"french": "allied", "allied": "french"}.get(str(side))

    def piece(key: str = "piece", **kw: Any) -> str:
        kw.setdefault("side", enemy if key == "target" else side)
        return ctx.piece_label(event.get(key), **kw)

    def card(key: str = "card", fallback: str = "a card") -> str:
        return ctx.name(event.get(key), fallback)

    def place(key: str) -> str:
        return ctx.where(event.get(key))

    if t in ("deploy", "enter"):
        pid = event.get("piece")
        if "card" in event:
            ctx.learned[pid] = event["card"]
            what = ctx.named(event["card"])
        else:
            known = ctx.card_of(ctx.pieces.get(pid)) or ctx.learned.get(pid)
            what = (f"{ctx.name(known)} face down" if known is not None and side == ctx.viewer
                    else f"a face-down {ARMY_NAMES.get(str(event.get('army')), '')} card"
                    .replace("  ", " "))
        verb = "deploy" if t == "deploy" else "bring"
        tail = "" if t == "deploy" else " from the Reserve"
        occ = (f", occupying {ctx.terrain_label(event['occupy'])}"
               if event.get("occupy") else "")
        form = f" in {event['formation']}" if event.get("formation") else ""
        return f"{who} {verb} {what}{tail} to {place('to')}{form}{occ}"
    if t in ("deploy_card", "enter_card", "decoy_card"):
        ctx.learned[event.get("piece")] = event.get("card")
        what = "decoy" if t == "decoy_card" else "face-down card"
        return f"Your {what} is {ctx.named(event.get('card'))} (the enemy cannot see it)"
    if t == "deployment_done":
        return f"{who} finish deploying"
    if t == "terrain":
        ctx.learned[event.get("piece")] = event.get("card")
        at = event.get("at")
        prep = "on" if str(at).startswith("front") else "in"
        return f"{who} place terrain: {card()} {prep} {place('at')}"
    if t == "move":
        src, dst = place("from"), place("to")
        if str(event.get("to", "")).endswith("reserve"):
            return f"{_cap(piece())} withdraws from {src} to {dst}"
        return f"{_cap(piece())} moves from {src} to {dst}"
    if t == "reveal":
        pid = event.get("piece")
        ctx.learned[pid] = event.get("card")
        p = ctx.pieces.get(pid)
        where = f" in {ctx.where(p.get('place'))}" if p is not None else ""
        return f"Revealed{where}: {ctx.named(event.get('card'))}"
    if t == "declare":
        verb = "fire at" if event.get("attack") == "fire" else "a shock on"
        return f"{_cap(piece())} declares {verb} {piece('target', with_place=True)}"
    if t in ("fire", "shock"):
        power = event.get("power")
        need = f", hitting on {7 - power}+" if isinstance(power, int) else ""
        verb = "fires at" if t == "fire" else "shocks"
        return (f"{_cap(piece())} {verb} {piece('target')}: rolls {_dice_words(event.get('dice'))}"
                f"{need}: {_hits_words(int(event.get('hits') or 0))}")
    if t == "attack_void":
        return f"The attack of {piece()} on {piece('target')} is void"
    if t == "general_hits":
        n = int(event.get("hits") or 0)
        return f"{_cap(piece())} takes {n} general hit" + ("s" if n != 1 else "")
    if t == "blown":
        return f"{_cap(piece())} is blown"
    if t == "recovered":
        return f"{_cap(piece())} recovers from being blown"
    if t == "formation":
        return f"{_cap(piece())} forms {str(event.get('formation', '')).lower()}"
    if t == "occupy":
        return f"{_cap(piece())} occupies {ctx.terrain_label(event.get('terrain'))}"
    if t == "special":
        text = f"{who} play {card(fallback='a special')} on {place('at')}"
        if event.get("formation"):
            text += f", forming {str(event['formation']).lower()}"
        if event.get("pieces"):
            text += f" for {_pieces_list(ctx, event['pieces'])}"
        return text
    if t == "cancelled":
        return f"{card(fallback='A special')} is cancelled by {card('by', 'a special')}"
    if t == "specials_discarded":
        names = [ctx.name(n, "a special") for n in event.get("cards") or ()]
        return "Specials discarded: " + (", ".join(names) if names else "none")
    if t == "morale":
        verdict = "routs" if event.get("routed") else "holds"
        return (f"{_cap(piece())} (morale {event.get('value')}) rolls "
                f"{_dice_words(event.get('dice'))}: {verdict}")
    if t == "general_morale":
        verdict = "is killed" if event.get("killed") else "survives"
        return (f"{_cap(piece())} rolls {_dice_words(event.get('dice'))} for his general hits "
                f"and {verdict}")
    if t == "hit_removed":
        return f"A hit is removed from {piece()}"
    if t == "rallied":
        ctx.learned[event.get("piece")] = event.get("card")
        return f"{ctx.named(event.get('card'))} routs but rallies to the Reserve"
    if t == "eliminated":
        ctx.learned[event.get("piece")] = event.get("card")
        reason = ELIMINATION_REASONS.get(str(event.get("reason")), "eliminated")
        if side == ctx.viewer and side in SIDES:
            whose = "Your "
        elif ctx.viewer in SIDES:
            whose = "Enemy "
        else:
            whose = f"{SIDE_NAMES[side]} " if side in SIDES else ""
        return f"{whose}{ctx.named(event.get('card'))} is eliminated ({reason})"
    if t == "captured":
        by = event.get("by")
        return f"{_who(by, ctx.viewer)} capture {ctx.terrain_label(event.get('terrain'))}" + (
            f" with {_pieces_list(ctx, event.get('occupants'))}" if event.get("occupants")
            else "")
    if t == "draw":
        n = int(event.get("count") or 0)
        army = ARMY_NAMES.get(str(event.get("army")), "")
        return (f"{who} draw {n} card{'s' if n != 1 else ''} from the {army} deck"
                .replace("  ", " "))
    if t == "drawn":
        names = [ctx.named(n) for n in event.get("cards") or ()]
        return "You drew: " + (", ".join(names) if names else "nothing")
    if t == "prussians_arrive":
        return f"The Prussians arrive: {card(fallback='a Prussian General')} is drawn"
    if t == "turn":
        whose = "your turn" if side == ctx.viewer else \
            f"the {SIDE_NAMES.get(str(side), '?')} turn"
        return f"Turn {event.get('turn')}: {whose}"
    if t == "battle_over":
        winner = event.get("winner")
        if winner is None:
            result = "a draw"
        elif winner == ctx.viewer:
            result = "you win"
        else:
            result = f"{SIDE_THE.get(str(winner), 'the winners')} win"
        reason = event.get("reason")
        if reason == "occupation":
            how = f" by holding {ctx.where(event.get('position'))} alone"
        elif reason == "turn_cap":
            lost = event.get("lost_bp") or {}
            how = (" on the turn limit (BP lost: French "
                   f"{lost.get('french', '?')}, Allied {lost.get('allied', '?')})")
        else:
            how = f" ({_safe_word(reason)})" if reason else ""
        return f"The battle is over: {result}{how}"
    word = _safe_word(t)
    return "Something happened" + (f" ({word})" if word else "")


def describe_events(events: Iterable[Mapping], view_side: str | None,
                    cards: Mapping | None = None, *, view: Mapping | None = None,
                    before: Mapping | None = None) -> list[str]:
    """Log lines for the events of one action, as `view_side` sees them: events meant for the
    other side are dropped (as ``events_for``), and pieces revealed or named on the way are
    named in the lines after."""
    ctx = Ctx(view, cards, viewer=view_side, before=before)
    out = []
    for e in events:
        vis = e.get("visibility", "all") if isinstance(e, Mapping) else "all"
        if vis != "all" and vis != view_side:
            continue
        out.append(_clean(_event_line(e, ctx)))
    return out
