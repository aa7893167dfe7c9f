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

from django.core.cache import cache

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


SNAPSHOT_EVERY = 40  # a replay's position kept (as JSON, in the cache) every this many steps
SNAPSHOT_SECONDS = 3600  # how long a finished match's replay index stays in the cache


def _index_key(kind: MatchKind, match: Match, rows: int, log: bool) -> str:
    # the seed and the number of rows too: a test database's ids are used again
    return f"play:replay:{kind.kind}:{match.pk}:{match.seed}:{rows}:{int(log)}"


def replay_book(kind: MatchKind, match: Match, keep: Callable[[int, int], bool] | None = None,
                *, log: bool = False) -> ReplayBook:
    """``match`` rebuilt from its setup and revealed seed, keeping a copy of the position
    after every step (or only after the steps ``keep(step, last step)`` wants: copies are the
    costly part) and checking each action's events (so every die) against those recorded.

    The steps are the actions still counting (undos and what they took back skipped), or,
    with ``log``, every row of the log (step ``n`` is the position after action ``n``: an
    action later taken back included, an undo row's the position without what it took
    back).

    A finished match's first replay is one whole pass; it leaves in the cache (issue 31) the
    check of its dice, each step's turn and the position every ``SNAPSHOT_EVERY`` steps, so
    that a later replay asking for a few steps (``keep``) starts from the snapshot before
    them: any step costs about the same short time. A lost cache only means a whole pass."""
    rows = list(match.actions.order_by("seq").only("seq", "side", "action", "events", "auto"))
    kept = effective_actions(rows)  # also checks that every undo takes back what it may
    played = rows if log else kept
    finished = match.status == MatchStatus.FINISHED and match.pk is not None
    key = _index_key(kind, match, len(rows), log) if finished else ""
    index = cache.get(key) if finished else None
    if index is not None and keep is not None:
        return _from_snapshots(kind, match, rows, played, keep, index)
    book, snapshots = _whole_pass(kind, match, played, keep)
    book.undone = (len(rows) - len(kept)) // 2
    if finished:
        c = book.check
        cache.set(key, {"check": [c.dice, c.actions, c.mismatch, c.detail],
                        "undone": book.undone, "turns": [s.turn for s in book.steps],
                        "snapshots": snapshots}, SNAPSHOT_SECONDS)
    return book


def _steps_of(played: list[Any], turns: list[Any]) -> list[Step]:
    steps = [Step(None, None, None, [], turns[0], None)]
    for row in played:
        undoes = row.action.get("undoes") if is_undo(row.action) else None
        steps.append(Step(row.seq, row.side, row.action, row.events, turns[len(steps)], None,
                          auto=row.auto, undoes=undoes))
    return steps


def _from_snapshots(kind: MatchKind, match: Match, rows: list[Any], played: list[Any],
                    keep: Callable[[int, int], bool], index: dict) -> ReplayBook:
    """The book from the cached index: every step's metadata, and the positions ``keep``
    wants rebuilt from the snapshot before each (undo rows as the whole pass does them)."""
    game = kind.game
    copier = getattr(game, "copy_state", None) or copy.deepcopy
    book = ReplayBook(kind, match, _steps_of(played, index["turns"]),
                      DiceCheck(*index["check"]), index["undone"])
    last = len(played)
    wanted = [i for i in range(last + 1) if keep(i, last)]
    snapshots = {int(k): v for k, v in index["snapshots"].items()}
    cards = kind.cards(match)
    at, state = -1, None
    for n in wanted:
        base = max(s for s in snapshots if s <= n)
        if state is None or at < base or at > n:
            at, state = base, game.from_json(snapshots[base], cards)
        while at < n:
            at += 1
            state = _advance(kind, match, state, played, at)
        book.steps[n].state = copier(state)
    return book


def _counting_before(played: list[Any], step: int) -> list[Any]:
    """The actions still counting after step ``step - 1`` (undo rows pop the last one)."""
    counting: list[Any] = []
    for row in played[:step - 1]:
        if is_undo(row.action):
            counting.pop()
        else:
            counting.append(row)
    return counting


def _advance(kind: MatchKind, match: Match, state: Any, played: list[Any], step: int) -> Any:
    """The position after step ``step`` from the one before it (unchecked: the whole pass
    checked every die)."""
    game = kind.game
    row = played[step - 1]
    if not is_undo(row.action):
        game.apply(state, row.action, game.dice(match.seed, row.seq), check=False)
        return state
    counting = _counting_before(played, step)[:-1]  # without what it took back
    state = kind.setup(match)
    for earlier in counting:
        game.apply(state, earlier.action, game.dice(match.seed, earlier.seq), check=False)
    return state


def _whole_pass(kind: MatchKind, match: Match, played: list[Any],
                keep: Callable[[int, int], bool] | None) -> tuple[ReplayBook, dict[int, Any]]:
    """The book in one pass from the setup, and the position every ``SNAPSHOT_EVERY`` steps
    as the module's JSON."""
    game = kind.game
    copier = getattr(game, "copy_state", None) or copy.deepcopy
    turn_of = getattr(game, "turn_of", None) or (lambda state: None)
    state = kind.setup(match)
    book = ReplayBook(kind, match)
    last = len(played)
    snapshots: dict[int, Any] = {}

    def keeping(step: int) -> Any:
        if step % SNAPSHOT_EVERY == 0:
            snapshots[step] = plain(game.to_json(state))  # a copy: the state plays on
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
    return book, snapshots


def first_difference(replayed: list[dict], recorded: list[dict]) -> str:
    """Where an action's replayed events first differ from the recorded ones, in words."""
    for i, (a, b) in enumerate(zip(replayed, recorded, strict=False)):
        if a != b:
            if a.get("dice") != b.get("dice"):
                return (f"event {i + 1} ({b.get('type')}): recorded dice {b.get('dice')}, "
                        f"the seed gives {a.get('dice')}")
            return f"event {i + 1} ({b.get('type')}) differs"
    return f"{len(recorded)} events recorded, {len(replayed)} replayed"
