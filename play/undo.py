"""Undo, for every game: take back one's last action(s) within one's own turn (issue 12,
"Undo"; as on Rally the Troops).

A player may take back their last action still counting, one per request, while:

- the match is under way and it is their move, in their own turn (the game says what "their
  turn" is: ``game.undo_turn_refusal``; for EAGLES the phasing side on the board being
  played, not a campaign decision);
- the action is theirs and nothing of the opponent's came after it (a response window the
  opponent answered ends undo: their answer is an action of theirs);
- the game does not close the window on it (``game.undo_refusal``: for EAGLES a die rolled,
  a card revealed, drawn or shown to the opponent for the first time, the end of a turn, a
  deployment, a battle, a campaign decision).

An undo is a new action row (``{"type": "undo", "undoes": k}``, one public event
``{"type": "undone", "undoes": k, "side": ...}``), never a rewrite of the log; the position
is rebuilt from the setup by replaying the actions still counting (``effective_actions``,
the function every replay uses). The opponent keeps what they saw of the undone action (its
public events) and learns only that it was taken back. The next action rolls the dice of its
own new ``seq`` (fair: the seed is secret and the undone action rolled no die).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db import transaction

from config.errors import BadInput, Conflict
from game import other_side

from . import turns
from .log import UNDO, UNDONE, effective_actions, is_undo, plain
from .registry import Match, MatchKind

Row = tuple[int, str, dict]  # (seq, side, action)
CHUNK = 16  # rows read at a time from the end of the log: the end usually decides


def undo_record(side: str, seq: int) -> tuple[str, dict, list[dict]]:
    """The (side, action, events) of the undo row taking back action ``seq``."""
    return side, {"type": UNDO, "undoes": seq}, \
        [{"type": UNDONE, "undoes": seq, "side": side, "visibility": "all"}]


def last_counting(rows: Iterable[Sequence[Any]]) -> tuple[Sequence[Any] | None, list[str]]:
    """The last action still counting and the sides of the rows after it (undos and the
    actions they took back), ``rows`` read from the END of the log: an undo takes back the
    last action still counting, so undos and what they undo nest like brackets."""
    pending = 0
    after: list[str] = []
    for row in rows:
        if is_undo(row[2]):
            pending += 1
        elif pending:
            pending -= 1
        else:
            return row, after
        after.append(row[1])
    return None, after


def _rows_from_the_end(match: Match) -> Iterator[Row]:
    qs = match.actions.filter(seq__lte=match.seq).order_by("-seq")
    start = 0
    while True:
        rows = list(qs.values_list("seq", "side", "action")[start:start + CHUNK])
        yield from rows
        if len(rows) < CHUNK:
            return
        start += CHUNK


def undo_target(kind: MatchKind, match: Match, side: str, rows: Sequence[Row] | None = None,
                known_events: tuple[int, list] | None = None) -> tuple[int | None, str]:
    """(the seq ``side`` may take back now, "") or (None, why not). ``rows``: the match's
    (seq, side, action) in seq order, if already read (the end of the log is enough when
    it decides); ``known_events``: (seq, its events), if already read."""
    game = kind.game
    if match.status != turns.ACTIVE or match.state is None:
        return None, f"the {kind.noun} is not under way"
    if match.to_move != side:
        return None, "it is not your move"
    why = game.undo_turn_refusal(match.state, side)
    if why is not None:
        return None, why
    last, after = last_counting(reversed(rows) if rows is not None
                                else _rows_from_the_end(match))
    if last is None:
        return None, "there is nothing to take back"
    seq, who, action = last[0], last[1], last[2]
    if who != side or any(s != side for s in after):
        return None, "your opponent has acted since your last action"
    if known_events is not None and known_events[0] == seq:
        events = known_events[1]
    else:
        events = match.actions.filter(seq=seq).values_list("events", flat=True).first() or []
    why = game.undo_refusal(action, events, side, None, match.state)
    if why is not None and game.shown_cards(events, other_side(side)):
        # Only a card the opponent had not been shown before ends undo: as kept with the
        # rows when ``seq`` is the last one (Match.shown), else read from the log.
        kept = match.shown
        known: set[int] = set()
        if kept is not None and kept.get("seq") == seq:
            known.update(kept["before"].get(other_side(side), ()))
        else:
            for earlier in match.actions.filter(seq__lt=seq).values_list("events", flat=True):
                known |= game.shown_cards(earlier, other_side(side))
        why = game.undo_refusal(action, events, side, known, match.state)
    if why is not None:
        return None, f"your last action cannot be taken back: {why}"
    return seq, ""


def can_undo(kind: MatchKind, match: Match, side: str | None,
             rows: Sequence[Row] | None = None, last: Sequence[Any] | None = None) -> bool:
    """Whether ``side`` may take an action back now. ``last``: the log's last row as (seq,
    side, action[, events]), when the caller has it (an action just recorded): a plain
    action there is the last one still counting, so it alone answers "did the opponent act
    since?" (an undo row needs the rows before it), and its events need no read."""
    known = None
    if rows is None and last is not None and last[0] == match.seq and not is_undo(last[2]):
        rows = [(last[0], last[1], last[2])]
        if len(last) > 3:
            known = (last[0], last[3])
    return side is not None and undo_target(kind, match, side, rows, known)[0] is not None


def rebuild(kind: MatchKind, match: Match, start: Any, rows: Iterable[Any], *,
            check: bool = True) -> Any:
    """``start`` (the setup) advanced by the actions of ``rows`` still counting, each with
    the dice of its own seq and checked against its recorded events (``RuntimeError`` when
    one differs: a tampered log); ``check``: test each action's legality too."""
    game = kind.game
    for row in effective_actions(list(rows)):
        events = game.apply(start, row.action, game.dice(match.seed, row.seq),
                            check=check)
        if plain(events) != row.events:
            raise RuntimeError(f"{kind.noun} {match.pk}: action {row.seq} replays "
                               "differently")
    return start


def replay(kind: MatchKind, match: Match) -> Any:
    """``match``'s state rebuilt from its setup (``kind.setup``) and the actions still
    counting (``rebuild``); ``RuntimeError`` if an action's events differ from those
    recorded."""
    rows = kind.action_model.objects.filter(**{kind.match_field: match}).order_by("seq")
    return rebuild(kind, match, kind.setup(match), rows)


def undo(kind: MatchKind, match_id: Any, user: Any, seq: Any) -> int:
    """Take back ``user``'s last action still counting if ``seq`` is the match's current
    sequence number: a new action ``{"type": "undo", "undoes": k}`` is appended and the
    position is rebuilt from the setup without action ``k``. Returns ``k``. 409
    ``cannot_undo`` with the reason otherwise; 409 ``out_of_time`` (and the match ends by
    time) once the mover's flag has fallen."""
    if type(seq) is not int:
        raise BadInput(f"seq must be a whole number: the seq of the {kind.noun} you last saw")
    late = None
    with transaction.atomic():
        match, side = kind.lock(user, match_id)
        if match.status != turns.ACTIVE:
            raise Conflict(f"the {kind.noun} is not under way: there is nothing to take back",
                           code="cannot_undo", seq=match.seq)
        turns.refuse_if_paused(kind, match)
        late = turns.end_if_out_of_time(kind, match)
        if late is None:
            target = _undo_locked(kind, match, side, seq)
    if late is not None:
        raise late  # the end by time is committed: no undo once the flag has fallen
    return target


def _undo_locked(kind: MatchKind, match: Match, side: str, seq: int) -> int:
    if seq != match.seq:
        raise Conflict(f"the {kind.noun} has moved on: reload", code="stale_seq",
                       seq=match.seq)
    rows = list(match.actions.order_by("seq"))
    target, why = undo_target(kind, match, side, [(r.seq, r.side, r.action) for r in rows])
    if target is None:
        raise Conflict(f"you cannot undo now: {why}", code="cannot_undo", seq=match.seq,
                       reason=why)
    # Each action was checked when played and its events are compared: no legality test
    # again, so the row is locked for as short a time as can be.
    state = rebuild(kind, match, kind.setup(match), [r for r in rows if r.seq != target],
                    check=False)
    turns.record(kind, match, state, [undo_record(side, target)])
    return target
