"""The cards and the map as data: what the rulebook leaves to the cards and the map.

``parse_cards(doc)`` checks a card-data document (a ``dict`` as read from JSON; the engine
never reads a file: ``belle_alliance.loader`` does) and returns an immutable ``CardData``.
The format is described in ``belle_alliance/data/README.md``. The engine reads every card's
actions, targets, modifiers, outcome tables, counter-attacks, captures and requirements, the
casualty tracks, the morale track's B box and the time track from here; what the rulebook
itself fixes (the components' counts, the setup, the turn, the rout tests) is checked against
the document, not read from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game import SIDES

DATA_FORMAT = "belle-alliance-cards"
DATA_VERSION = 1

# "8 French cards, 5 Anglo-Allied cards, 1 Prussian card, 18 French division markers, 14
# Anglo-Allied division markers, 6 Prussian division markers" (GAME COMPONENTS).
CARD_COUNTS = {"french": 8, "allied": 6}  # the Allied player also plays the Prussian card
KIND_COUNTS = {
    "french": {"corps": 6, "battery": 1, "napoleon": 1},
    "allied": {"corps": 4, "wellington": 1, "prussians": 1},
}
DIVISION_MARKERS = {"french": 18, "allied": 14}
PRUSSIAN_MARKERS = 6
# "Place three blue markers in the Grand Battery's boxes" (GAME SETUP).
BATTERY_MARKERS = 3
# "Plancenoit initially contains a French marker"; Hougoumont and La Haye Sainte an
# Anglo-Allied one (GAME SETUP).
PLACES = {"plancenoit": "french", "hougoumont": "allied", "la_haye_sainte": "allied"}
# "Place a blue marker on the French morale track in the square with the number 10."
MORALE_START = 10
EFFECT_KEYS = ("FC", "AC", "FM", "AM", "capture", "enter", "battery")
CONDITION_KEYS = ("control", "time_at_least", "markers_at_least", "markers_at_most",
                  "reserve_at_least", "used")
ACTION_KINDS = ("action", "counter")
BOX_LABELS = ("", "RT", "RT+1", "RT+2", "B")


class CardDataError(ValueError):
    """A card-data document that does not fit the format or the rulebook's components."""


@dataclass(frozen=True, slots=True)
class Effect:
    """One line of an outcome table. FC/AC: casualties; FM/AM: morale losses; ``capture``: a
    place the acting side takes; ``enter``: Prussian markers entering the battlefield;
    ``battery``: Grand Battery markers lost."""

    FC: int = 0
    AC: int = 0
    FM: int = 0
    AM: int = 0
    capture: str | None = None
    enter: int = 0
    battery: int = 0

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k in EFFECT_KEYS:
            v = getattr(self, k)
            if v:
                out[k] = v
        return out


@dataclass(frozen=True, slots=True)
class Condition:
    """All of its parts must hold. ``control``: place -> side; ``time_at_least``: a time-track
    index; ``markers_at_least``/``markers_at_most``: card -> markers on the battlefield;
    ``reserve_at_least``: Prussian markers not yet entered; ``used``: "napoleon" or
    "wellington" -> whether that once-a-game card has been used."""

    control: tuple[tuple[str, str], ...] = ()
    time_at_least: int | None = None
    markers_at_least: tuple[tuple[str, int], ...] = ()
    markers_at_most: tuple[tuple[str, int], ...] = ()
    reserve_at_least: int | None = None
    used: tuple[tuple[str, bool], ...] = ()


@dataclass(frozen=True, slots=True)
class Modifier:
    value: int
    when: Condition
    why: str = ""


@dataclass(frozen=True, slots=True)
class ActionDef:
    """One action of a card. ``kind`` "counter": a counter-attack, legal only against a target
    that undertook the opponent's last action. ``targets``: the enemy cards it may target
    (empty: none, e.g. the Prussians' march). ``table``: six effects, for results 1..6."""

    id: str
    name: str
    kind: str
    targets: tuple[str, ...]
    requires: Condition
    modifiers: tuple[Modifier, ...]
    table: tuple[Effect, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class CardDef:
    id: str
    side: str
    kind: str  # corps | battery | napoleon | wellington | prussians
    name: str
    commander: str
    markers: int  # at setup on the battlefield (the Prussians none: PRUSSIAN_MARKERS to come)
    divisions: tuple[str, ...]
    actions: tuple[ActionDef, ...]
    note: str = ""

    def action(self, action_id: str) -> ActionDef:
        for a in self.actions:
            if a.id == action_id:
                return a
        raise KeyError(action_id)


@dataclass(frozen=True, slots=True)
class CardData:
    """A whole edition: the cards, the tracks and the places' capture effects."""

    edition: str
    version: int
    title: str
    publisher: bool  # True only for a file with the publisher's own tables
    cards: Mapping[str, CardDef]
    order: tuple[str, ...]  # the cards in the document's order
    casualty_tracks: Mapping[str, tuple[str, ...]]  # side -> box labels, top to bottom
    morale_broken_at: int  # the morale track's B box
    time_track: tuple[str, ...]
    place_names: Mapping[str, str]
    on_capture: Mapping[str, Effect]  # place -> morale effect when it changes hands
    napoleon_roll: str  # "best_of_two" | "modifier"
    napoleon_modifier: int
    doc: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    by_side: Mapping[str, tuple[CardDef, ...]] = field(repr=False, compare=False,
                                                       default_factory=dict)
    by_kind: Mapping[str, CardDef] = field(repr=False, compare=False, default_factory=dict)

    def side_cards(self, side: str) -> tuple[CardDef, ...]:
        return self.by_side[side]

    def card_of_kind(self, kind: str) -> CardDef:
        """The one card of a kind but ``corps`` (``battery``, ``napoleon``, ``wellington``,
        ``prussians``)."""
        return self.by_kind[kind]

    def rt_modifier(self, label: str) -> int:
        return int(label[3:]) if label.startswith("RT+") else 0


def _int(value: Any, where: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise CardDataError(f"{where}: expected an integer >= {low}, got {value!r}")
    return value


def _effect(doc: Any, where: str, places: Mapping[str, str]) -> Effect:
    if not isinstance(doc, Mapping):
        raise CardDataError(f"{where}: an outcome is an object")
    unknown = set(doc) - set(EFFECT_KEYS) - {"text"}
    if unknown:
        raise CardDataError(f"{where}: unknown keys {sorted(unknown)}")
    capture = doc.get("capture")
    if capture is not None and capture not in places:
        raise CardDataError(f"{where}: unknown place {capture!r}")
    return Effect(**{k: _int(doc.get(k, 0), f"{where}.{k}") for k in
                     ("FC", "AC", "FM", "AM", "enter", "battery")}, capture=capture)


def _condition(doc: Any, where: str, cards: set[str], places: Mapping[str, str]
               ) -> Condition:
    if doc is None:
        return Condition()
    if not isinstance(doc, Mapping):
        raise CardDataError(f"{where}: a condition is an object")
    unknown = set(doc) - set(CONDITION_KEYS)
    if unknown:
        raise CardDataError(f"{where}: unknown condition keys {sorted(unknown)}")
    control = tuple(sorted((doc.get("control") or {}).items()))
    for place, side in control:
        if place not in places or side not in SIDES:
            raise CardDataError(f"{where}: bad control {place!r}: {side!r}")

    def counts(key: str) -> tuple[tuple[str, int], ...]:
        out = tuple(sorted((c, _int(n, f"{where}.{key}")) for c, n in
                           (doc.get(key) or {}).items()))
        for c, _ in out:
            if c not in cards:
                raise CardDataError(f"{where}.{key}: unknown card {c!r}")
        return out

    used = tuple(sorted((doc.get("used") or {}).items()))
    for name, flag in used:
        if name not in ("napoleon", "wellington") or not isinstance(flag, bool):
            raise CardDataError(f"{where}.used: bad entry {name!r}: {flag!r}")
    t = doc.get("time_at_least")
    r = doc.get("reserve_at_least")
    return Condition(control=control,
                     time_at_least=None if t is None else _int(t, f"{where}.time_at_least"),
                     markers_at_least=counts("markers_at_least"),
                     markers_at_most=counts("markers_at_most"),
                     reserve_at_least=None if r is None else _int(r, f"{where}.reserve"),
                     used=used)


def parse_cards(doc: Mapping[str, Any]) -> CardData:
    """Check ``doc`` (the JSON document) and return the ``CardData``; ``CardDataError`` names
    the first thing wrong."""
    if doc.get("format") != DATA_FORMAT:
        raise CardDataError(f"not a {DATA_FORMAT} document: format {doc.get('format')!r}")
    if doc.get("version") != DATA_VERSION:
        raise CardDataError(f"unsupported card-data version {doc.get('version')!r}")
    edition = doc.get("edition")
    if not isinstance(edition, str) or not edition:
        raise CardDataError("the document names its edition")
    m = doc.get("map") or {}
    places_doc = m.get("places") or {}
    if set(places_doc) != set(PLACES):
        raise CardDataError(f"map.places: expected {sorted(PLACES)}")
    card_docs = doc.get("cards")
    if not isinstance(card_docs, list):
        raise CardDataError("cards: a list")
    ids = [c.get("id") for c in card_docs]
    if len(set(ids)) != len(ids) or not all(isinstance(i, str) and i for i in ids):
        raise CardDataError("cards: every card has a unique id")
    id_set = set(ids)
    cards: dict[str, CardDef] = {}
    for c in card_docs:
        cid: str = c["id"]
        side = c.get("side")
        kind = c.get("kind")
        if side not in SIDES:
            raise CardDataError(f"card {cid}: side {side!r}")
        if kind not in KIND_COUNTS[side]:
            raise CardDataError(f"card {cid}: kind {kind!r} is not a {side} card kind")
        actions = []
        for a in c.get("actions") or ():
            where = f"card {cid} action {a.get('id')!r}"
            if a.get("kind", "action") not in ACTION_KINDS:
                raise CardDataError(f"{where}: kind {a.get('kind')!r}")
            table = a.get("table")
            if not isinstance(table, Mapping) or set(table) != {str(i) for i in range(1, 7)}:
                raise CardDataError(f"{where}: the table has the rows '1'..'6'")
            targets = tuple(a.get("targets") or ())
            for t in targets:
                if t not in id_set:
                    raise CardDataError(f"{where}: unknown target {t!r}")
            mods = tuple(Modifier(value=int(md["value"]),
                                  when=_condition(md.get("when"), f"{where} modifier",
                                                  id_set, places_doc),
                                  why=str(md.get("why", "")))
                         for md in a.get("modifiers") or ())
            actions.append(ActionDef(
                id=str(a["id"]), name=str(a.get("name", a["id"])),
                kind=str(a.get("kind", "action")), targets=targets,
                requires=_condition(a.get("requires"), f"{where} requires", id_set,
                                    places_doc),
                modifiers=mods,
                table=tuple(_effect(table[str(i)], f"{where} row {i}", places_doc)
                            for i in range(1, 7)),
                note=str(a.get("note", ""))))
        cards[cid] = CardDef(
            id=cid, side=side, kind=kind, name=str(c.get("name", cid)),
            commander=str(c.get("commander", "")),
            markers=_int(c.get("markers", 0), f"card {cid}.markers"),
            divisions=tuple(c.get("divisions") or ()), actions=tuple(actions),
            note=str(c.get("note", "")))
    for side in SIDES:
        mine = [cd for cd in cards.values() if cd.side == side]
        if len(mine) != CARD_COUNTS[side]:
            raise CardDataError(f"{side}: {CARD_COUNTS[side]} cards, not {len(mine)}")
        for kind, n in KIND_COUNTS[side].items():
            if sum(1 for cd in mine if cd.kind == kind) != n:
                raise CardDataError(f"{side}: {n} card(s) of kind {kind}")
        div = sum(cd.markers for cd in mine if cd.kind == "corps")
        if div != DIVISION_MARKERS[side]:
            raise CardDataError(f"{side}: {DIVISION_MARKERS[side]} division markers in the "
                                f"corps boxes, not {div}")
        for cd in mine:
            if cd.kind == "corps" and cd.markers < 1:
                raise CardDataError(f"card {cd.id}: a corps starts with markers")
            if cd.kind not in ("corps", "battery") and cd.markers:
                raise CardDataError(f"card {cd.id}: only corps and the battery hold markers")
            if cd.kind == "napoleon" and cd.actions:
                raise CardDataError("Napoleon makes an action more effective; it has none")
            if cd.kind != "napoleon" and not cd.actions:
                raise CardDataError(f"card {cd.id}: no action")
            for a in cd.actions:
                for t in a.targets:
                    if cards[t].side == side:
                        raise CardDataError(f"card {cd.id} {a.id}: targets its own side")
                    if cards[t].kind not in ("corps", "battery", "prussians"):
                        raise CardDataError(f"card {cd.id} {a.id}: target {t} holds no "
                                            "markers")
                if a.kind == "counter" and not a.targets:
                    raise CardDataError(f"card {cd.id} {a.id}: a counter-attack has a target")
    battery = next(cd for cd in cards.values() if cd.kind == "battery")
    if battery.markers != BATTERY_MARKERS:
        raise CardDataError(f"the Grand Battery has {BATTERY_MARKERS} markers")
    tracks: dict[str, tuple[str, ...]] = {}
    for side in SIDES:
        track = tuple((m.get("casualty_tracks") or {}).get(side) or ())
        if not track or any(b not in BOX_LABELS for b in track):
            raise CardDataError(f"map.casualty_tracks.{side}: boxes from {BOX_LABELS}")
        if track[-1] != "B" or "B" in track[:-1]:
            raise CardDataError(f"map.casualty_tracks.{side}: one B box, the last")
        if side != "french" and any(b.startswith("RT+") for b in track):
            raise CardDataError("only the French casualty track has RT+1/RT+2 boxes")
        limit = DIVISION_MARKERS[side]
        if len(track) > limit:
            raise CardDataError(f"map.casualty_tracks.{side}: longer than the army's "
                                f"{limit} division markers")
        tracks[side] = track
    morale = m.get("morale") or {}
    if morale.get("start", MORALE_START) != MORALE_START:
        raise CardDataError("the morale tracks start at 10")
    broken = _int(morale.get("broken_at", 0), "map.morale.broken_at")
    if broken >= MORALE_START:
        raise CardDataError("map.morale.broken_at: below 10")
    time_track = tuple(str(t) for t in m.get("time_track") or ())
    if not time_track or time_track[0] != "Midday":
        raise CardDataError("map.time_track starts with Midday")
    nap = next(cd for cd in cards.values() if cd.kind == "napoleon")
    nap_doc = next(c for c in card_docs if c["id"] == nap.id).get("effect") or {}
    roll = nap_doc.get("roll", "modifier")
    if roll not in ("best_of_two", "modifier"):
        raise CardDataError("Napoleon's effect: roll 'best_of_two' or 'modifier'")
    on_capture: dict[str, Effect] = {}
    names: dict[str, str] = {}
    for place, pdoc in places_doc.items():
        names[place] = str(pdoc.get("name", place))
        on_capture[place] = _effect(pdoc.get("on_capture") or {}, f"map.places.{place}",
                                    places_doc)
    return CardData(
        edition=edition, version=DATA_VERSION, title=str(doc.get("title", edition)),
        publisher=bool(doc.get("publisher", False)), cards=cards, order=tuple(ids),
        casualty_tracks=tracks, morale_broken_at=broken, time_track=time_track,
        place_names=names, on_capture=on_capture, napoleon_roll=roll,
        napoleon_modifier=_int(nap_doc.get("modifier", 0), "Napoleon's modifier"),
        doc=doc,
        by_side={s: tuple(cards[c] for c in ids if cards[c].side == s) for s in SIDES},
        by_kind={cd.kind: cd for cd in cards.values() if cd.kind != "corps"})
