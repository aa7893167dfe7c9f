"""Replays and exports of finished battles (issue 12, "Spectators and replays").

Once a battle is over its seed is public, so anyone who may see the battle (its players;
anyone, if it is public) may replay it: every action, from either side's view or with every
card shown, and the dice checked. Before the end the seed and the actions stay secret: the
replay and the export are refused (409 ``battle_not_over`` to whoever may see the battle,
404 to anyone else).

- ``replayable(user, battle_id)``: the battle, or the refusal.
- ``export(battle)``: the ``eagles-battle/1`` document that ``battles.engine.replay_file``
  replays offline with no Django.
- ``replay_book(battle)``: the battle rebuilt action by action from the revealed seed in one
  pass, each action's events compared with the recorded ones (``DiceCheck``), the position
  after every action kept (copies) so a replay page draws any step without replaying again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .engine import SIDES, State, apply, view
from .engine.replay_file import FORMAT, action_dice, count_dice, effective_actions, plain
from .errors import Conflict, NotFound
from .models import Battle, Status
from .selectors import battle_pk, side_of
from .setup import catalogue_now, setup_state

NEVER_PLAYED = (Status.WAITING, Status.CANCELLED, Status.DECLINED, Status.EXPIRED)


def replayable(user, battle_id) -> Battle:
    """A finished battle ``user`` may replay: one they played, or any public one. A private
    battle of others does not exist for them (404); one not over yet is 409."""
    battle = (Battle.objects.select_related("french_player", "allied_player")
              .filter(pk=battle_pk(battle_id)).first())
    if battle is None or (side_of(battle, user) is None and not battle.public):
        raise NotFound("no such battle")
    if battle.status in NEVER_PLAYED:
        raise NotFound("this battle was never played: there is nothing to replay")
    if battle.status != Status.FINISHED:
        raise Conflict("the battle is not over: the seed stays secret until the battle ends",
                       code="battle_not_over")
    return battle


def export(battle: Battle) -> dict[str, Any]:
    """Setup and actions of a finished battle, replayable offline
    (``python -m battles.engine.replay_file``)."""
    if battle.status != Status.FINISHED:
        raise Conflict("the battle is not over: the seed stays secret until the battle ends",
                       code="battle_not_over")
    return {
        "format": FORMAT,
        "id": battle.pk,
        "battle": battle.battle,
        "settings": battle.settings,
        "scale": battle.scale,
        "deck_kinds": battle.deck_kinds,
        "decks": battle.decks,
        "catalogue_version": battle.catalogue_version,
        # a battle set up before its records were kept plays with the catalogue as it is
        # now (setup.engine_cards): the export carries those
        "card_records": battle.card_records or catalogue_now()[1],
        "seed": str(battle.seed),
        "seed_hash": battle.seed_hash,
        # ``auto``: played by auto-play (a pass with no answer held, a forced move); the
        # offline replayer ignores it (the action and its dice are the same either way)
        "actions": [{"seq": r.seq, "side": r.side, "action": r.action, "events": r.events,
                     "auto": r.auto} for r in battle.actions.order_by("seq")],
        "outcome": battle.outcome,
    }


@dataclass
class DiceCheck:
    dice: int = 0  # dice re-derived from the seed
    actions: int = 0  # actions replayed
    mismatch: int | None = None  # seq of the first action that replays differently
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.mismatch is None


@dataclass
class Step:
    seq: int | None  # the action's seq (None: the setup)
    side: str | None
    action: dict | None
    events: list[dict]
    turn: int
    state: State | None  # None: not kept (replay_book's ``keep``)
    auto: bool = False  # played by auto-play (play/autoplay.py)


@dataclass
class ReplayBook:
    battle: Battle
    steps: list[Step] = field(default_factory=list)  # steps[0]: the setup
    check: DiceCheck = field(default_factory=DiceCheck)
    undone: int = 0

    def view(self, n: int, viewpoint: str) -> dict:
        """The engine's view after step ``n`` from ``french``, ``allied`` or ``all``
        (both sides' own views merged: every card shown)."""
        state = self.steps[n].state
        if viewpoint in SIDES:
            return view(state, viewpoint)
        return merged_view(state)

    def turns(self) -> list[tuple[int, int]]:
        """(turn, first step of that turn), in order."""
        out: list[tuple[int, int]] = []
        for i, step in enumerate(self.steps):
            if not out or out[-1][0] != step.turn:
                out.append((step.turn, i))
        return out


def merged_view(state: State) -> dict:
    """A view with every card: the French view, with the Allied view's own cards added (the
    battle is over and the seed public, so nothing is secret any more). Every piece is shown
    face up so that the renderers name it (they never name another side's face-down card);
    ``face_down`` says which were face down on the table."""
    french, allied = view(state, "french"), view(state, "allied")
    theirs = {p["piece"]: p for p in allied["pieces"]}
    pieces = []
    for p in french["pieces"]:
        other = theirs.get(p["piece"], {})
        pieces.append({**p, **({"card": other["card"]} if "card" in other else {}),
                       "face_up": True, "face_down": not p["face_up"]})
    return {**french, "viewer": None, "pieces": pieces,
            "reserves": {"french": french["reserves"]["french"],
                         "allied": allied["reserves"]["allied"]}}


def replay_book(battle: Battle, keep: Callable[[int, int], bool] | None = None
                ) -> ReplayBook:
    """The battle rebuilt from its setup and revealed seed in one pass (undone actions
    skipped), keeping a copy of the position after every action (or only after the steps
    ``keep(step, last step)`` wants: copies are the costly part) and checking each action's
    events (so every die) against those recorded."""
    state = setup_state(battle)
    book = ReplayBook(battle)
    rows = list(battle.actions.order_by("seq").only("seq", "side", "action", "events",
                                                           "auto"))
    kept = effective_actions(rows)
    book.undone = (len(rows) - len(kept)) // 2
    last = len(kept)

    def copy(step: int) -> State | None:
        return state.copy() if keep is None or keep(step, last) else None

    book.steps.append(Step(None, None, None, [], state.turn, copy(0)))
    for row in kept:
        events = apply(state, row.action, action_dice(battle.seed, row.seq), check=False)
        book.check.actions += 1
        book.check.dice += count_dice(events)
        if book.check.ok and plain(events) != row.events:
            book.check.mismatch = row.seq
            book.check.detail = _first_difference(plain(events), row.events)
        book.steps.append(Step(row.seq, row.side, row.action, row.events, state.turn,
                               copy(len(book.steps)), auto=row.auto))
    return book


def _first_difference(replayed: list[dict], recorded: list[dict]) -> str:
    for i, (a, b) in enumerate(zip(replayed, recorded, strict=False)):
        if a != b:
            if a.get("dice") != b.get("dice"):
                return (f"event {i + 1} ({b.get('type')}): recorded dice {b.get('dice')}, "
                        f"the seed gives {a.get('dice')}")
            return f"event {i + 1} ({b.get('type')}) differs"
    return f"{len(recorded)} events recorded, {len(replayed)} replayed"
