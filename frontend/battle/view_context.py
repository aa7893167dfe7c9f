"""A player's view of a battle, indexed for drawing and wording (pure: the stdlib and ``game``).

``Ctx`` holds the view of ``battles.engine.view(state, side)`` (which the engine has already
redacted) and the card table: the pieces by id, what each may be called and the letters of
face-down cards, so that the board (``board_svg``) and the words (``words``) name the same
things the same way. As a second guard, a face-down piece is named only when it belongs to the
viewer.

Places are worded from the viewer's side: "your Left", "enemy Centre", "the Middle Ground
before your Right" (4.2: Left, Centre and Right as seen by their owner, so the enemy's Right
faces your Left); a spectator (``side=None``) reads "French Left", "Allied Centre".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from game import ARMY_NAMES, SIDE_NAMES, SIDES, TROOP_TYPES, other_side

SIDE_PEOPLE = {"french": "The French", "allied": "The Allies"}
SIDE_THE = {"french": "the French", "allied": "the Allies"}
SIDE_ARMY = {"french": "french", "allied": "british"}
POS_NAMES = {"left": "Left", "center": "Centre", "right": "Right"}
FORMATION_NAMES = {"line": "Line", "column": "Column", "square": "Square"}
PHASE_NAMES = {"deploy": "Deployment", "morale": "Morale Phase", "combat": "Combat Phase",
               "reinforce": "Reinforce Phase", "over": "Battle over"}
ELIMINATION_REASONS = {"routed": "routed", "killed": "killed", "decoy": "it was a decoy",
                       "alone": "left alone with the enemy"}
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


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
    troop = c.kind in TROOP_TYPES
    return Info(
        num=c.num, name=c.name, kind=c.kind, army=c.army, cv=c.cv if troop else None,
        fp=c.fp if troop else None, shock=c.shock if c.kind in ("infantry", "cavalry") else None,
        long=c.long if c.kind == "artillery" else None,
        short=c.short if c.kind == "artillery" else None,
        morale=_MORALE_LETTER.get(c.morale), off=c.off if c.kind == "general" else None,
        dfn=c.dfn if c.kind == "general" else None, corps=c.corps, tclass=c.tclass,
        tpos=c.tpos, move_limit=c.move_limit or None, horse=c.horse)


def kind_name(info: Info) -> str:
    if info.kind == "terrain" and info.tclass:
        return str(info.tclass).lower()
    if info.kind == "artillery" and info.horse:
        return "horse artillery"
    return info.kind or "card"


# -- places ------------------------------------------------------------------------------------


def facing_front(place: str) -> str:
    """The Middle Ground front before a Position (French Left / Allied Right share one)."""
    side, pos = place.split("_", 1)
    if side == "allied":
        pos = {"left": "right", "right": "left"}.get(pos, pos)
    return f"front_{pos}"


def facing(place: str) -> str:
    side, pos = place.split("_", 1)
    return f"{other_side(side)}_{ {'left': 'right', 'right': 'left'}.get(pos, pos)}"


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


def terrain_place(info: Info, side: str) -> str | None:
    """Where a Terrain card goes (11.0): its printed Position, Rivers on the Middle Ground."""
    pos = {"l": "left", "c": "center", "r": "right"}.get(str(info.tpos or "").lower())
    if pos is None or side not in SIDES:
        return None
    place = f"{side}_{pos}"
    return facing_front(place) if (info.tclass or "") == "river" else place


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
            for i, pid in enumerate(sorted(pids, key=sort_key)):
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
        return f"{info.name} ({kind_name(info)})"

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


def sort_key(value: Any) -> tuple:
    return (0, value, "") if isinstance(value, int) else (1, 0, str(value))


def side_of_place(place: Any) -> str | None:
    side = str(place or "").split("_", 1)[0]
    return side if side in SIDES else None


def is_terrain(p: Mapping, ctx: Ctx) -> bool:
    if "controlled_by" in p:
        return True
    info = ctx.info(ctx.card_of(p))
    return info is not None and info.kind == "terrain"


def cap(text: str) -> str:
    """`text` with its first letter capitalised (the rest left alone: "the Middle Ground")."""
    return text[:1].upper() + text[1:] if text else text


def reserve_panel(view: Mapping, side: str, cards=None) -> dict:
    """The Reserve panel of ``side`` on a board: its own cards by name (the ones drawn this
    turn marked new) and the enemy's Reserve as a count (the battle page, each campaign board)."""
    ctx = Ctx(view, cards)
    mine = (view.get("reserves") or {}).get(side) or {}
    drawn = set(mine.get("drawn_this_turn") or ())
    enemy = other_side(side)
    theirs = (view.get("reserves") or {}).get(enemy) or {}
    cards = []
    for num in mine.get("cards") or ():
        info = ctx.info(num)
        cards.append({"number": num, "name": info.name if info else f"Card {num}",
                      "type": _type_words(info) if info else "",
                      "army": info.army if info else "", "new": num in drawn})
    return {"cards": cards, "enemy_count": theirs.get("count", 0)}


def _type_words(info) -> str:
    if info.kind == "terrain" and info.tclass:
        return f"terrain ({info.tclass})"
    if info.kind == "artillery" and info.horse:
        return "horse artillery"
    return info.kind
