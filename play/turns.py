"""The game service's moves, once for every kind of match: recording actions, ending a match,
the computer's turn, the clocks' flag fall, expiry of waiting matches, and the signals that
tell the rest of the site.

Each function takes a ``registry.MatchKind`` (or its name) and a match row; the game's rules
are asked through ``kind.game`` (``protocol.GameModule``) and nothing here reads a state.
Writes run under the match's row lock, in the caller's transaction where one is named
("locked"), else in their own.

Dice and the computer's tie-breaks for action number ``n`` come from the secret seed and
``n`` alone (``game.dice``, ``game.bot_rng``), so the setup plus the action list replays the
match exactly, whoever played, whenever.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Max, Q
from django.utils import timezone

from config.errors import BadInput, Conflict, NotAllowed, NotFound
from game import other_side

from . import alongside, autoplay, clock, enqueue, sql
from .models import MatchStatus
from .registry import Match, MatchKind
from .seats import match_pk, side_of
from .signals import match_changed, match_finished
from .thinking import Thinking, busy

log = logging.getLogger(__name__)

Move = tuple[str, dict, list]  # (side, action, events)

# The computer plays until a person must act; a normal streak is under 25 actions. Past
# BOT_PATIENCE in one go it only ends phases (a guard: the engine once let a card shuttle
# between Reserve and Position, RULINGS 8.2-b); past BOT_MAX_ACTIONS the task stops and
# leaves the match waiting for the computer (logged: a bug to look at).
BOT_PATIENCE = 200
BOT_MAX_ACTIONS = 400
# A match nobody joins expires (open matches and invitations alike).
EXPIRY = timedelta(days=7)
ACTIVE, WAITING, FINISHED = MatchStatus.ACTIVE, MatchStatus.WAITING, MatchStatus.FINISHED
CANCELLED, DECLINED, EXPIRED = MatchStatus.CANCELLED, MatchStatus.DECLINED, MatchStatus.EXPIRED


@dataclass
class Snapshot:
    """A match's position (parsed once) and its log rows after some ``since``: read once, it
    serves every viewer's view of one change (the live messages)."""

    state: Any
    # (seq, side, action, events, auto, auto_reason)
    rows: list[tuple[int, str, dict, list, bool, str]]
    # The log's last row as (seq, side, action, events), when the caller has it (an action
    # just recorded): the undo check then reads less, or nothing.
    last: tuple[int, str, dict, list] | None = None
    # The legal actions of the side to move in ``state``, when the recording listed them
    # (auto-play lists them to see whether one is forced): each message reuses them.
    listed: dict[str, list] = field(default_factory=dict)

    def legal_actions(self, side: str, compute: Callable[[], list]) -> list:
        """``side``'s legal actions in ``state``: as listed when recorded, else ``compute()``."""
        found = self.listed.get(side)
        return found if found is not None else compute()


# --- Telling the site -----------------------------------------------------------------------

def changed(kind: MatchKind, match: Match, *, by: str | None = None, last_side: str | None = None,
            since: int | None = None, snap: Snapshot | None = None,
            written: tuple[str, ...] = ()) -> None:
    """Send ``signals.match_changed`` once this transaction commits (see there for what goes
    along; ``written``: the ``alongside`` parts written with the action)."""
    match_id, seq, status = match.pk, match.seq, match.status
    extra: dict[str, Any] = {"paused": getattr(match, "paused_at", None) is not None}
    if by is not None:
        extra.update(by=by, last_side=last_side or by, to_move=match.to_move)
    if by is not None or written:  # (the end's parts too: ``end_written``)
        extra["written"] = written
    if since is not None:
        extra["since"] = since
        if snap is not None:
            extra.update(match=match, snap=snap)
    name = kind.kind

    def send() -> None:
        for receiver, error in match_changed.send_robust(
                sender=kind.model, kind=name, match_id=match_id, seq=seq, status=status,
                **extra):
            if isinstance(error, Exception):
                log.error("%s %s: match_changed listener %r failed: %r", name, match_id,
                          receiver, error)

    transaction.on_commit(send)


def finish(kind: MatchKind, match: Match, outcome: dict, fields: list[str] | None = None,
           since: int | None = None, snap: Snapshot | None = None) -> None:
    """End ``match`` (locked, in its transaction) with ``outcome`` (``{"winner", "reason",
    ...}``): the one way a match ends, whether the game decided it or a player resigned, ran
    out of time or left. Saves ``fields`` as well, stops the clocks, sends
    ``match_finished`` inside the transaction (ratings, tournament results) and
    ``match_changed`` after it (``end_written`` then ``announce_end``)."""
    announce_end(kind, match, end_written(kind, match, outcome, fields), since=since, snap=snap)


def end_written(kind: MatchKind, match: Match, outcome: dict, fields: list[str] | None = None,
                actions: list[Any] | None = None) -> dict[str, Any]:
    """``finish``'s write: ``match`` finished with ``outcome``, its ``fields`` and the end's
    columns saved (and ``actions``, its last rows, inserted). On PostgreSQL the rows, the
    match's row and the ``alongside`` parts of the end (its notices, a tournament game's
    link) are one statement (issue 31: an ending action in 4 round trips). Returns the
    parts' returned rows by name (``match_finished``'s ``written``)."""
    now = timezone.now()
    fields = [*(fields or []), *kind.on_finish(match, now)]
    match.status = FINISHED
    match.outcome = outcome
    match.finished_at = now
    match.to_move = ""
    parts, written = alongside.keeping(alongside.parts(kind, match, "", connection.vendor))
    sql.insert_and_update(actions or [], match, [*dict.fromkeys(fields), "status", "outcome",
                                                 "finished_at", "to_move"], parts=parts)
    return written


def announce_end(kind: MatchKind, match: Match, written: dict[str, Any],
                 since: int | None = None, snap: Snapshot | None = None) -> None:
    """``finish``'s signals, once ``end_written`` wrote the end: ``match_finished`` now (in
    the transaction; ``written``: the end's parts' rows) and ``match_changed`` on commit."""
    match_finished.send(sender=kind.model, kind=kind.kind, match=match, written=written)
    changed(kind, match, since=since, snap=snap, written=tuple(written))


# --- Recording actions ----------------------------------------------------------------------

def record(kind: MatchKind, match: Match, state: Any, moves: list[Move], *,
           ask_computer: bool = True, auto: int = 0, reasons: list[str] | None = None,
           listed: dict[str, list] | None = None) -> None:
    """Append ``moves`` after ``match.seq`` (locked) and save the snapshot; if the computer
    must act now, ask a worker for its turn. The last ``auto`` moves were auto-played
    (``autoplay.extend``): their rows are flagged, with ``reasons`` (one each, "" when
    forced: the player's standing choice otherwise) as their ``auto_reason``; ``listed``:
    the legal actions auto-play listed for the side to move now (the messages of the change
    reuse them). The unique (match, seq) constraint refuses a second writer from the same
    seq (409 ``stale_seq``)."""
    first = match.seq + 1
    auto_from = len(moves) - auto
    why = [""] * (len(moves) - len(reasons or ())) + list(reasons or ())
    rows = [(first + i, side, action, events, i >= auto_from, why[i])
            for i, (side, action, events) in enumerate(moves)]
    actions = [kind.action_model(**{kind.match_field: match}, seq=seq, side=side,
                                 action=action, events=events, auto=is_auto,
                                 auto_reason=reason)
               for seq, side, action, events, is_auto, reason in rows]
    before_seq, before_side, before_doc = match.seq, match.to_move, match.state
    kept = shown_after(kind, match, moves)
    match.seq += len(moves)
    fields = ["seq", *kind.save_state(match, state)]
    if kept is not None or match.shown is not None:
        match.shown = kept
        fields.append("shown")
    ended = kind.game.turns_ended(before_doc, match.state) if match.time_control else []
    fields += clock.on_position(match, before_side, ended, timezone.now())
    over = kind.game.outcome(state) is not None
    # other apps' rows written with these (a "your move" notice): ``alongside``
    parts = [] if over else alongside.parts(kind, match, moves[0][0], connection.vendor)
    # The position and the new log rows as they are now: the websockets' messages of this
    # change are built from them after commit, without reading the match again.
    snap = Snapshot(state, rows, last=(match.seq, *moves[-1]), listed=listed or {})
    written: dict[str, Any] = {}
    try:  # no savepoint: a refusal rolls the caller's whole transaction back
        with transaction.atomic(savepoint=False):
            if over:  # the rows with the finished match's row (``end_written``)
                written = end_written(kind, match, kind.final_outcome(match, state), fields,
                                      actions)
            else:  # the rows and the match's row in one statement (PostgreSQL: one trip)
                sql.insert_and_update(actions, match, fields, parts=parts)
    except IntegrityError:
        match.seq = before_seq
        raise Conflict(f"the {kind.noun} has moved on: reload", code="stale_seq",
                       seq=before_seq) from None
    enqueue.flag_fall_on_commit(kind.kind, match)
    if over:
        announce_end(kind, match, written, since=first - 1, snap=snap)
        return
    changed(kind, match, by=moves[0][0], last_side=moves[-1][0], since=first - 1, snap=snap,
            written=tuple(part.name for part in parts))
    if ask_computer and match.to_move and match.to_move == match.computer_side():
        enqueue.bot_move_on_commit(kind.kind, match.pk, match.seq)


def shown_after(kind: MatchKind, match: Match, moves: list[Move]) -> dict | None:
    """``match.shown`` once ``moves`` are appended after ``match.seq``: the cards each side
    was named before the last new row, and by it (``Match.shown``), from the kept value and
    the new rows' events alone; None when it was not kept up to ``match.seq`` (a match
    begun before the column: its undo checks read the log, as they always did)."""
    game = kind.game
    old = match.shown
    if match.seq == 0:
        before: dict[str, set] = {side: set() for side in game.sides}
    elif old is not None and old.get("seq") == match.seq:
        before = {side: {*old["before"].get(side, ()), *old["last"].get(side, ())}
                  for side in game.sides}
    else:
        return None
    for _side, _action, events in moves[:-1]:
        for side in game.sides:
            before[side] |= game.shown_cards(events, side)
    last = moves[-1][2]
    return {"seq": match.seq + len(moves),
            "before": {side: sorted(cards) for side, cards in before.items()},
            "last": {side: sorted(game.shown_cards(last, side)) for side in game.sides}}


def refuse_if_paused(kind: MatchKind, match: Match) -> None:
    """A match its tournament's organiser paused takes no action (409 ``paused``)."""
    if match.paused_at is not None:
        raise Conflict(paused_message(kind), code="paused", seq=match.seq)


def paused_message(kind: MatchKind) -> str:
    return (f"the tournament's organiser has paused this {kind.noun}: no action is taken and "
            "the clocks stand still until they resume the tournament")


# --- Before the start -----------------------------------------------------------------------

def cancel(kind: MatchKind, match_id: Any, user: Any) -> Match:
    """End a match nobody has joined yet: its creator cancels it (``cancelled``), the invited
    user declines it (``declined``). Once started it cannot be (409: resign instead); once
    expired, 409 ``expired``."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed("log in to play")
    with transaction.atomic():
        match = (kind.model.objects.select_for_update(of=("self",))
                 .filter(pk=match_pk(match_id, kind.noun)).first())
        if match is None:
            raise NotFound(f"no such {kind.noun}")
        creator = side_of(match, user) is not None
        invitee = not creator and match.invited_id == user.pk
        if not (creator or invitee):
            if match.status == WAITING and not match.invited_id:
                raise NotAllowed(f"only its creator can cancel an open {kind.noun}")
            raise NotFound(f"no such {kind.noun}")
        if match.status == CANCELLED:
            raise Conflict(f"the {kind.noun} was already cancelled")
        if match.status == DECLINED:
            raise Conflict("the invitation was already declined")
        if match.status == EXPIRED:
            raise Conflict(f"the {kind.noun} expired: nobody took the seat in time",
                           code="expired")
        if match.status != WAITING:
            raise Conflict(f"the {kind.noun} has started: it can no longer be cancelled; "
                           "resign instead", seq=match.seq)
        match.status = DECLINED if invitee else CANCELLED
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "finished_at"])
        changed(kind, match)
    return match


# --- Playing ---------------------------------------------------------------------------------

def act(kind: MatchKind, match_id: Any, user: Any, seq: Any, action: Any) -> list[dict]:
    """Apply ``user``'s ``action`` if ``seq`` is the match's current sequence number (the
    last one the player saw); returns the events of that action the user may see. The
    actions forced on a person right after it (a lone pass, ...) are played with it
    (``autoplay``); if the computer must act next, a worker is asked."""
    if type(seq) is not int:
        raise BadInput(f"seq must be a whole number: the seq of the {kind.noun} you last saw")
    if not isinstance(action, dict):
        raise BadInput("action must be an object: one of legal_actions")
    return _locked_play(kind, match_id, user, seq, action, [])


def _locked_play(kind: MatchKind, match_id: Any, user: Any, seq: int, action: dict,
                 more: list) -> list[dict]:
    """``act``'s and ``act_many``'s one transaction: the match locked, under way, not
    paused, not out of time, then the actions played; the events ``user``'s side may see."""
    late = None
    with transaction.atomic():
        match, side = kind.lock(user, match_id)
        require_under_way(kind, match)
        refuse_if_paused(kind, match)
        late = end_if_out_of_time(kind, match)
        if late is None:
            events = _play(kind, match, side, seq, action, more=more)
    if late is not None:  # raised once the end by time is committed
        raise late
    return kind.game.events_for(events, side)


MAX_BATCH = 40  # a guard: a whole deployment is at most 12 cards face-down plus terrain


def act_many(kind: MatchKind, match_id: Any, user: Any, seq: Any, actions: Any
             ) -> list[dict]:
    """Apply several of ``user``'s actions from one submit (a deployment's placements: the
    game's ``batch_actions``), one after the other in one transaction, each checked by the
    game against the position it is played in, as ``act`` checks one; each is its own log
    row with the dice of its own seq (undo and replays read them as single actions). One
    illegal: 400 naming it (``game.name_action``) and nothing is applied. The actions forced
    on a person after the last one are played as after ``act``. Returns the events the user
    may see."""
    if type(seq) is not int:
        raise BadInput(f"seq must be a whole number: the seq of the {kind.noun} you last saw")
    batchable = frozenset(getattr(kind.game, "batch_actions", ()))
    if not isinstance(actions, list) or not actions:
        raise BadInput("actions must be a non-empty list of legal actions")
    if len(actions) > MAX_BATCH:
        raise BadInput(f"at most {MAX_BATCH} actions in one submit, not {len(actions)}")
    for i, action in enumerate(actions, 1):
        if not isinstance(action, dict):
            raise BadInput(f"action {i} must be an object: one of legal_actions")
        if action.get("type") not in batchable:
            raise BadInput(f"action {i} ({action.get('type')!r}) cannot be played with "
                           "others in one submit: only "
                           + (", ".join(sorted(batchable)) or "single actions"),
                           code="not_batchable")
    return _locked_play(kind, match_id, user, seq, actions[0], actions[1:])


def require_under_way(kind: MatchKind, match: Match) -> None:
    """409 unless the match is active: still waiting for its second player, never started
    (cancelled, declined, expired) or over."""
    if match.status == WAITING:
        raise Conflict("waiting for an opponent: nobody has taken the other seat yet",
                       seq=match.seq)
    if match.status in (CANCELLED, DECLINED, EXPIRED):
        raise Conflict(f"the {kind.noun} never started: it was {match.status}",
                       code="expired" if match.status == EXPIRED else "conflict",
                       seq=match.seq)
    if match.status != ACTIVE:
        raise Conflict(f"the {kind.noun} is over", seq=match.seq)


def _play(kind: MatchKind, match: Match, side: str, seq: int, action: dict,
          more: list[dict] | None = None) -> list[dict]:
    """``act`` under the row lock, the match active and its clock running; ``more``: the
    further actions of one submit (``act_many``), each played after the one before."""
    game = kind.game
    if seq != match.seq:
        raise Conflict(f"the {kind.noun} has moved on: reload", code="stale_seq",
                       seq=match.seq)
    if match.to_move != side:
        waiting = "computer" if match.to_move == match.computer_side() else "opponent"
        raise Conflict(f"it is not your move: waiting for {waiting}", seq=match.seq)
    batch = [action, *(more or ())]
    for a in batch:
        if a.get("side", side) != side:
            raise BadInput(f"you play the {side} side: an action's side must be {side!r}")
    # The position is read and its legal actions listed once: both are the costly part.
    cards = kind.cards(match)
    state = game.from_json(match.state, cards)
    moves: list[Move] = []
    all_events: list[dict] = []
    for i, a in enumerate(batch):
        if i and game.to_move(state) != side:  # the turn passed on: the rest cannot follow
            raise BadInput(f"{_named(kind, a, cards, i, len(batch))}: it is no longer your "
                           "move after the actions before it: nothing was played",
                           code="illegal_action")
        a = game.normalise_action(a, side)
        legal = game.legal_actions(state, side)
        if a in legal:
            a = legal[legal.index(a)]  # the game's own dict (12, never 12.0 or True)
        try:  # not legal: the game says why, and nothing changes (the transaction rolls back)
            events = game.apply(state, a, game.dice(match.seed, match.seq + i + 1),
                                legal=legal)
        except game.IllegalAction as exc:
            if len(batch) == 1:
                raise BadInput(str(exc), code="illegal_action") from None
            raise BadInput(f"{_named(kind, a, cards, i, len(batch))} is not legal: {exc}; "
                           "nothing was played", code="illegal_action") from None
        moves.append((side, a, events))
        all_events += events
    events = all_events
    reasons: list[str] = []  # forced moves, auto-passes (forced or chosen) after it
    listed: dict[str, list] = {}  # the next position's legal actions, listed once
    auto = autoplay.extend(kind, match, state, moves, reasons=reasons, listed=listed)
    record(kind, match, state, moves, auto=auto, reasons=reasons, listed=listed)
    return events


def _named(kind: MatchKind, action: dict, cards: Any, i: int, n: int) -> str:
    """Action ``i`` (from 0) of a submit of ``n``, as the game names it (``name_action``)."""
    name = getattr(kind.game, "name_action", None)
    what = name(action, cards) if name is not None else repr(action.get("type"))
    return f"action {i + 1} of {n} ({what})"


# --- Time -----------------------------------------------------------------------------------

def end_if_out_of_time(kind: MatchKind, match: Match) -> Conflict | None:
    """If the side to move of the locked, active ``match`` has run out of time, end it by
    time (that side loses) and return the refusal to give whoever tried to act; None while
    the clock still runs."""
    now = timezone.now()
    loser = clock.out_of_time(match, now)
    if loser is None:
        return None
    outcome, fields = clock.flag_fell(match, now)
    finish(kind, match, kind.off_board_outcome(match, outcome), fields)
    return Conflict(f"the {loser} side ran out of time: the {kind.noun} is over",
                    code="out_of_time", seq=match.seq)


def end_by(kind: MatchKind, match_id: Any, user: Any, verb: str,
           outcome_of: Callable[[Any, str], tuple[str | None, str]]) -> Match:
    """End the match away from the board in one transaction: ``user`` resigns, claims, ...;
    ``outcome_of(match, side)`` gives (winner, reason) or raises the refusal. If the flag
    fell first, the match ends by time instead and the 409 ``out_of_time`` is raised once
    that is committed. The loser is recorded: the side facing the winner."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed("log in to play")
    late = None
    with transaction.atomic():
        match, side = kind.lock(user, match_id)
        if match.status == WAITING:
            raise Conflict(f"the {kind.noun} has not started: you cannot {verb} yet (cancel "
                           "it instead)", seq=match.seq)
        if match.status != ACTIVE:
            raise Conflict(f"the {kind.noun} is over", seq=match.seq)
        refuse_if_paused(kind, match)
        late = end_if_out_of_time(kind, match)
        if late is None:
            winner, reason = outcome_of(match, side)
            fields = []
            if match.clock_started_at is not None and match.time_control:
                fields = clock.on_position(match, match.to_move, [], timezone.now())
            loser = other_side(winner) if winner else None
            finish(kind, match, kind.off_board_outcome(
                match, {"winner": winner, "reason": reason, "loser": loser}), fields)
    if late is not None:
        raise late
    return match


def resign(kind: MatchKind, match_id: Any, user: Any) -> Match:
    """``user`` resigns (at any moment while the match is active, whoever has the move): the
    other side wins, reason ``resigned`` (``end_by``)."""
    return end_by(kind, match_id, user, "resign",
                  lambda match, side: (other_side(side), "resigned"))


def flag_fall(kind: MatchKind, match_id: int, seq: int | None = None) -> bool:
    """End the match by time if the side to move is out of time; returns whether it did.
    Idempotent: with ``seq`` (the ``play.flag_fall`` task) it does nothing unless the match
    is still at that ``seq``, active, unpaused and past its deadline; a task that arrives
    early (clock skew) books itself again for the deadline."""
    with transaction.atomic():
        match = kind.model.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != ACTIVE or match.paused_at is not None \
                or (seq is not None and match.seq != seq):
            return False  # a paused match's clocks stand still: its resume books it again
        if end_if_out_of_time(kind, match) is not None:
            return True
        if seq is not None:
            enqueue.flag_fall_on_commit(kind.kind, match)
        return False


def overdue_flags(kind: MatchKind, now: datetime | None = None) -> list[tuple[int, int]]:
    """(id, seq) of the active, unpaused matches past their deadline (a partial index on
    ``deadline``): the beat tick ends them (a lost or never-booked flag-fall task)."""
    now = now or timezone.now()
    return list(kind.model.objects.filter(status=ACTIVE, deadline__isnull=False,
                                          deadline__lte=now, paused_at__isnull=True)
                .order_by("deadline").values_list("pk", "seq")[:500])


def expire_waiting(kind: MatchKind, now: datetime | None = None) -> list[int]:
    """Mark the waiting matches past ``expires_at`` expired (nobody took the seat in time);
    returns their ids. Each under its row lock: a join at the same moment wins or loses
    cleanly."""
    now = now or timezone.now()
    due = list(kind.model.objects.filter(status=WAITING, expires_at__lte=now)
               .values_list("pk", flat=True)[:500])
    done = []
    for pk in due:
        with transaction.atomic():
            match = kind.model.objects.select_for_update().filter(pk=pk).first()
            if match is None or match.status != WAITING or \
                    match.expires_at is None or match.expires_at > now:
                continue
            match.status = EXPIRED
            match.finished_at = now
            match.save(update_fields=["status", "finished_at"])
            changed(kind, match)
            done.append(pk)
    return done


# --- The computer ---------------------------------------------------------------------------

def bot_move(kind: MatchKind, match_id: int, seq: int) -> int:
    """The computer plays from ``seq`` until a person must act or the match ends; returns
    the number of actions applied. Idempotent: does nothing (0) unless the match is still at
    ``seq`` with the computer to move, so a repeated or late task changes nothing.

    The computer thinks outside any transaction (a search takes up to its CPU budget per
    decision, seconds per turn): on SQLite (BEGIN IMMEDIATE) a transaction would hold the
    whole database's write lock meanwhile, on PostgreSQL the match's row, blocking the
    player's resignation and the clock. Its actions are then recorded in one short
    transaction, only if the match has not moved on while it thought; a thinking mark
    (``thinking``) keeps a second worker off the same turn."""
    match = kind.model.objects.filter(pk=match_id).first()
    if not computer_to_move(match, seq):
        return 0
    mark = Thinking(kind.kind, match_id, seq)
    if not mark.claim():
        return 0  # another worker is thinking this very turn (a re-sent task)
    try:
        state = kind.game.from_json(match.state, kind.cards(match))
        moves, stuck = computer_turn(kind, match, state, mark.refresh)
        with transaction.atomic():
            match = kind.model.objects.select_for_update().filter(pk=match_id).first()
            if not computer_to_move(match, seq):
                return 0  # resigned, paused or played meanwhile: what it chose is dropped
            auto, reasons, listed = 0, list[str](), dict[str, list]()
            if moves and not stuck:  # the person's auto-passes and forced moves after it
                auto = autoplay.extend(kind, match, state, moves, reasons=reasons,
                                       listed=listed)
            if moves:
                record(kind, match, state, moves, ask_computer=not stuck, auto=auto,
                       reasons=reasons, listed=listed)
            return len(moves)
    finally:
        mark.release()


def computer_to_move(match: Match, seq: int) -> bool:
    """The match is active, unpaused (the resume asks again), still at ``seq`` and the
    computer's side must act."""
    if match is None or match.status != ACTIVE or match.seq != seq or \
            match.paused_at is not None:
        return False
    me = match.computer_side()
    return me is not None and match.to_move == me


def computer_turn(kind: MatchKind, match: Match, state: Any, alive: Callable[[], None]
                  ) -> tuple[list[Move], bool]:
    """The computer's actions from ``state`` (applied to it) until the other side must act
    or the match ends, and whether it got stuck (BOT_MAX_ACTIONS). ``alive`` is called
    before each decision (the thinking mark's refresh)."""
    game = kind.game
    me = match.computer_side()
    bot = game.bot(match.bot, kind.bot_cards(match))
    moves: list[Move] = []
    while game.to_move(state) == me:
        if len(moves) >= BOT_MAX_ACTIONS:
            log.error("%s %s: the computer made %d actions without handing over",
                      kind.kind, match.pk, len(moves))
            return moves, True  # not asked again: a loop of tasks would never end either
        alive()
        n = match.seq + len(moves) + 1
        legal = game.legal_actions(state, me)
        ending = [a for a in legal if a["type"] in game.ending_actions]
        if len(moves) >= BOT_PATIENCE and ending:
            action = ending[0]
        else:  # the bot sees what its side may see, nothing more
            seen = game.view(state, me) if bot.needs_view else None
            action = bot.choose(seen, legal, game.bot_rng(match.seed, n))
        if action in legal:
            action = legal[legal.index(action)]
        # Checked by the game as a player's action is (``submit_action``): a listed action,
        # or one the game checks itself (a set-up of the bot's own, which no list holds).
        try:
            events = game.apply(state, action, game.dice(match.seed, n), legal=legal)
        except game.IllegalAction as exc:
            raise RuntimeError(f"bot {match.bot} chose an illegal action {action!r}: {exc}"
                               ) from None
        moves.append((me, action, events))
    return moves, False


def stalled_computer_turns(kind: MatchKind, now: datetime | None = None, grace_seconds: float = 5.0
                           ) -> list[tuple[int, int]]:
    """(id, seq) of the active matches waiting for the computer since more than
    ``grace_seconds`` (its ``bot_move`` message was lost, or a worker died with it): the
    periodic tick sends ``bot_move`` again, which is idempotent."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=grace_seconds)
    sides = kind.game.sides
    # The computer's side is the one without a player; whose move it is, a column.
    seat_empty = Q()
    for side in sides:
        seat_empty |= Q(to_move=side, **{f"{side}_player__isnull": True})
    candidates = (kind.model.objects.filter(status=ACTIVE, paused_at__isnull=True)
                  .exclude(bot="").filter(seat_empty)
                  .annotate(last=Max("actions__created_at")).order_by("pk")
                  .values_list("pk", "seq", "last", "created_at"))
    waiting = [(pk, seq) for pk, seq, last, created_at in candidates
               if (last or created_at) <= cutoff]
    thought = busy(kind.kind, waiting)  # a worker is thinking them: not lost
    return [turn for turn in waiting if turn not in thought]
