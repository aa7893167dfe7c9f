"""The position: everything on the map and the cards, and whose move it is.

``new_game(cards)`` is the rulebook's GAME SETUP; ``to_json``/``from_json`` the stored form
(``FORMAT``, ``VERSION``). A state is small and copied whole by the computer players
(``State.copy``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game import other_side

from .cards import MORALE_START, PLACES, PRUSSIAN_MARKERS, SIDES, CardData

FORMAT = "belle-alliance-position"
VERSION = 1


other = other_side  # the side facing ``side`` (game/, the one home of the sides)


@dataclass(slots=True)
class State:
    cards: CardData
    turn: int  # 1, 2, ...
    phase: str  # "french" | "allied": whose player phase it is (the phasing player)
    markers: dict[str, int]  # card id -> markers in its box (corps, Grand Battery, Prussians)
    reserve: int  # Prussian division markers not yet on the battlefield
    entered: int  # Prussian division markers that have come onto the battlefield so far
    tracks: dict[str, list[str]]  # side -> the cards whose markers fill its casualty track
    morale: dict[str, int]
    control: dict[str, str]  # place -> side
    time: int  # index in cards.time_track
    time_reasons: list[str]  # the reasons the time marker already moved for ("only once")
    napoleon_used: bool
    wellington_used: bool
    last_card: dict[str, str | None]  # side -> the card that undertook its last action
    # An action being resolved that waits for a player's choice (which corps takes a
    # casualty): {"side", "queue": [[army, source], ...], "acting": side, "tests": [...]}.
    pending: dict[str, Any] | None
    winner: str | None
    reason: str | None

    def copy(self) -> State:
        p = self.pending
        return State(
            self.cards, self.turn, self.phase, dict(self.markers), self.reserve,
            self.entered, {s: list(t) for s, t in self.tracks.items()}, dict(self.morale),
            dict(self.control), self.time, list(self.time_reasons), self.napoleon_used,
            self.wellington_used, dict(self.last_card),
            None if p is None else {**p, "queue": [list(q) for q in p["queue"]],
                                    "tests": list(p["tests"])},
            self.winner, self.reason)

    def key(self) -> tuple[Any, ...]:
        """Equal for equal positions (the bots' transposition key)."""
        return (self.turn % 2, self.phase, tuple(sorted(self.markers.items())), self.reserve,
                self.entered, tuple(len(self.tracks[s]) for s in SIDES),
                tuple(self.morale[s] for s in SIDES), tuple(sorted(self.control.items())),
                self.time, tuple(self.time_reasons), self.napoleon_used,
                self.wellington_used, tuple(sorted(self.last_card.items(),
                                                   key=lambda kv: kv[0])),
                None if self.pending is None else repr(self.pending), self.winner)

    def casualties(self, side: str) -> int:
        return len(self.tracks[side])

    def to_move(self) -> str | None:
        if self.winner is not None:
            return None
        if self.pending is not None:
            return str(self.pending["side"])
        return self.phase


def new_game(cards: CardData) -> State:
    """GAME SETUP: the division markers in their corps boxes, the Prussians set aside, three
    markers in the Grand Battery's boxes, Plancenoit French, Hougoumont and La Haye Sainte
    Anglo-Allied, both morale markers on 10, the time marker on Midday."""
    markers = {c.id: c.markers for c in cards.cards.values()
               if c.kind in ("corps", "battery", "prussians")}
    return State(cards=cards, turn=1, phase="french", markers=markers,
                 reserve=PRUSSIAN_MARKERS, entered=0, tracks={s: [] for s in SIDES},
                 morale={s: MORALE_START for s in SIDES}, control=dict(PLACES), time=0,
                 time_reasons=[], napoleon_used=False, wellington_used=False,
                 last_card={s: None for s in SIDES}, pending=None, winner=None, reason=None)


def to_json(state: State) -> dict[str, Any]:
    return {
        "format": FORMAT, "version": VERSION, "edition": state.cards.edition,
        "turn": state.turn, "phase": state.phase, "markers": dict(state.markers),
        "reserve": state.reserve, "entered": state.entered,
        "tracks": {s: list(t) for s, t in state.tracks.items()},
        "morale": dict(state.morale), "control": dict(state.control), "time": state.time,
        "time_reasons": list(state.time_reasons), "napoleon_used": state.napoleon_used,
        "wellington_used": state.wellington_used, "last_card": dict(state.last_card),
        "pending": None if state.pending is None else {
            **state.pending, "queue": [list(q) for q in state.pending["queue"]],
            "tests": list(state.pending["tests"])},
        "winner": state.winner, "reason": state.reason,
    }


def from_json(doc: Mapping[str, Any], cards: CardData) -> State:
    if doc.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT}: {doc.get('format')!r}")
    if doc.get("version") != VERSION:
        raise ValueError(f"unsupported position version {doc.get('version')!r}")
    if doc.get("edition") != cards.edition:
        raise ValueError(f"a position of edition {doc.get('edition')!r}, cards of "
                         f"{cards.edition!r}")
    p = doc.get("pending")
    return State(
        cards=cards, turn=int(doc["turn"]), phase=str(doc["phase"]),
        markers={k: int(v) for k, v in doc["markers"].items()}, reserve=int(doc["reserve"]),
        entered=int(doc["entered"]), tracks={s: list(doc["tracks"][s]) for s in SIDES},
        morale={s: int(doc["morale"][s]) for s in SIDES}, control=dict(doc["control"]),
        time=int(doc["time"]), time_reasons=list(doc["time_reasons"]),
        napoleon_used=bool(doc["napoleon_used"]),
        wellington_used=bool(doc["wellington_used"]),
        last_card={s: doc["last_card"].get(s) for s in SIDES},
        pending=None if p is None else {**p, "queue": [list(q) for q in p["queue"]],
                                        "tests": list(p["tests"])},
        winner=doc.get("winner"), reason=doc.get("reason"))
