"""Replays and exports of finished matches, for every game (issue 12, "Spectators and
replays"; the service's issue: "replays (step, viewpoint, dice re-derived from the revealed
seed), export").

Once a match is over its seed is public, so anyone who may see it (its players; anyone, if it
is public) may replay it: every action, from either side's view or with every card shown, and
the dice checked. Before the end the seed and the actions stay secret: the replay and the
export are refused (409 ``<noun>_not_over`` to whoever may see the match, 404 to anyone else).

- ``replayable(kind, user, match_id)``: the match, or the refusal.
- ``export(kind, match)``: the match's setup (the kind's ``export_setup``), its revealed seed,
  every action with its events, and the outcome, as a document of the kind's
  ``export_format`` (a battle's is ``eagles-battle/1``, which ``battles.engine.replay_file``
  replays offline with no Django).
- ``replay_book(kind, match, keep=None)``: the match rebuilt action by action from its setup
  (``kind.setup``) and revealed seed (``game.dice``) in one pass, each action's events
  compared with the recorded ones (``DiceCheck``), the position after every action kept
  (copies) so a replay page draws any step without replaying again.

Nothing here reads a game's state: the module answers (``view``; and, when it has them, the
optional members of ``protocol.Replays``: ``revealed_view``, ``copy_state``, ``turn_of``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from config.errors import Conflict, NotFound

from .log import count_dice, effective_actions, is_undo, plain
from .models import MatchStatus
from .registry import Match, MatchKind
from .seats import match_pk, side_of

NEVER_PLAYED = (MatchStatus.WAITING, MatchStatus.CANCELLED, MatchStatus.DECLINED,
                MatchStatus.EXPIRED)
ALL = "all"  # the viewpoint with every card shown


def not_over(kind: MatchKind) -> Conflict:
    noun = kind.noun
    return Conflict(f"the {noun} is not over: the seed stays secret until the {noun} ends",
                    code=f"{noun}_not_over")


def replayable(kind: MatchKind, user: Any, match_id: Any) -> Match:
    """A finished match of ``kind`` that ``user`` may replay: one they played, or any public
    one. A private match of others does not exist for them (404), nor one never played;
    one not over yet is 409 ``<noun>_not_over``."""
    noun = kind.noun
    match = (kind.model.objects.select_related("french_player", "allied_player")
             .filter(pk=match_pk(match_id, noun)).first())
    if match is None or (side_of(match, user) is None and not match.public):
        raise NotFound(f"no such {noun}")
    if match.status in NEVER_PLAYED:
        raise NotFound(f"this {noun} was never played: there is nothing to replay")
    if match.status != MatchStatus.FINISHED:
        raise not_over(kind)
    return match


def export_format(kind: MatchKind) -> str:
    """The ``format`` of ``kind``'s exports: the kind's own, else ``<kind>/1``."""
    return kind.export_format or f"{kind.kind}/1"


def export(kind: MatchKind, match: Match) -> dict[str, Any]:
    """Setup, revealed seed and actions of a finished match: ``{"format", "id", <the kind's
    setup columns>, "seed", "seed_hash", "actions", "outcome"}``. 409 before the end."""
    if match.status != MatchStatus.FINISHED:
        raise not_over(kind)
    return {
        "format": export_format(kind),
        "id": match.pk,
        **kind.export_setup(match),
        "seed": str(match.seed),
        "seed_hash": match.seed_hash,
        # ``auto``: played by auto-play (a pass with no answer held, a forced move); a replay
        # ignores it (the action and its dice are the same either way)
        "actions": [{"seq": r.seq, "side": r.side, "action": r.action, "events": r.events,
                     "auto": r.auto} for r in match.actions.order_by("seq")],
        "outcome": match.outcome,
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
    turn: int | None  # the game's turn in this position (``turn_of``; None: it has none)
    state: Any  # None: not kept (replay_book's ``keep``)
    auto: bool = False  # played by auto-play (play/autoplay.py)
    undoes: int | None = None  # an undo row (``log=True``): the seq it took back


@dataclass
class ReplayBook:
    kind: MatchKind
    match: Match
    steps: list[Step] = field(default_factory=list)  # steps[0]: the setup
    check: DiceCheck = field(default_factory=DiceCheck)
    undone: int = 0

    def view(self, n: int, viewpoint: str | None) -> dict:
        """The module's view after step ``n``: a side's own, ``all`` (every card: the
        module's ``revealed_view``, else a spectator's) or None (a spectator's)."""
        return view_of(self.kind, self.steps[n].state, viewpoint)

    def turns(self) -> list[tuple[int | None, int]]:
        """(turn, first step of that turn), in order."""
        out: list[tuple[int | None, int]] = []
        for i, step in enumerate(self.steps):
            if not out or out[-1][0] != step.turn:
                out.append((step.turn, i))
        return out


def view_of(kind: MatchKind, state: Any, viewpoint: str | None) -> dict:
    game = kind.game
    if viewpoint in game.sides:
        return game.view(state, viewpoint)
    revealed = getattr(game, "revealed_view", None)
    if viewpoint == ALL and revealed is not None:
        return revealed(state)
    return game.view(state, None)


def replay_book(kind: MatchKind, match: Match, keep: Callable[[int, int], bool] | None = None,
                *, log: bool = False) -> ReplayBook:
    """``match`` rebuilt from its setup and revealed seed in one pass, keeping a copy of the
    position after every step (or only after the steps ``keep(step, last step)`` wants:
    copies are the costly part) and checking each action's events (so every die) against
    those recorded.

    The steps are the actions still counting (undos and what they took back skipped), or,
    with ``log``, every row of the log (step ``n`` is the position after action ``n``: an
    action later taken back included, an undo row's the position without what it took
    back)."""
    game = kind.game
    copier = getattr(game, "copy_state", None) or copy.deepcopy
    turn_of = getattr(game, "turn_of", None) or (lambda state: None)
    state = kind.setup(match)
    book = ReplayBook(kind, match)
    rows = list(match.actions.order_by("seq").only("seq", "side", "action", "events", "auto"))
    kept = effective_actions(rows)  # also checks that every undo takes back what it may
    book.undone = (len(rows) - len(kept)) // 2
    played = rows if log else kept
    last = len(played)

    def keeping(step: int) -> Any:
        return copier(state) if keep is None or keep(step, last) else None

    book.steps.append(Step(None, None, None, [], turn_of(state), keeping(0)))
    counting: list[Any] = []  # with ``log``: the actions still counting so far
    for row in played:
        undoes = None
        if is_undo(row.action):  # only with ``log``: rebuilt without what it took back
            undoes = row.action.get("undoes")
            counting.pop()  # effective_actions checked it is the last one still counting
            state = kind.setup(match)
            for earlier in counting:
                game.apply(state, earlier.action, game.dice(match.seed, earlier.seq),
                           check=False)
        else:
            counting.append(row)
            events = plain(game.apply(state, row.action, game.dice(match.seed, row.seq),
                                      check=False))
            book.check.actions += 1
            book.check.dice += count_dice(events)
            if book.check.ok and events != row.events:
                book.check.mismatch = row.seq
                book.check.detail = first_difference(events, row.events)
        book.steps.append(Step(row.seq, row.side, row.action, row.events, turn_of(state),
                               keeping(len(book.steps)), auto=row.auto, undoes=undoes))
    return book


def first_difference(replayed: list[dict], recorded: list[dict]) -> str:
    """Where an action's replayed events first differ from the recorded ones, in words."""
    for i, (a, b) in enumerate(zip(replayed, recorded, strict=False)):
        if a != b:
            if a.get("dice") != b.get("dice"):
                return (f"event {i + 1} ({b.get('type')}): recorded dice {b.get('dice')}, "
                        f"the seed gives {a.get('dice')}")
            return f"event {i + 1} ({b.get('type')}) differs"
    return f"{len(recorded)} events recorded, {len(replayed)} replayed"
