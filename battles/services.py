# Over 500 lines on purpose: one idea, the battle service's use cases (create, join, act, the
# computer, time, resign, undo), each one short transaction under the battle's row lock.
"""The battle service: EAGLES battles against the computer or between two people, one use
case per function.

Each write runs in one transaction under the battle's row lock (``select_for_update``) and
raises a ``BattleError`` (``errors.py``, with the HTTP status the API answers with) on bad
input, changing nothing. The engine (``battles.engine``) decides what is legal and what
happens; this module persists, checks who may act and when (optimistic concurrency on the
battle's ``seq``), and asks a worker for the computer's moves. What a player sees is built in
``selectors.battle_view`` only (re-exported here).

Dice and the computer's tie-breaks for action number ``n`` come from the secret seed and
``n`` alone (``dice_for``, ``bot_rng``), so the setup plus the action list replays the battle
exactly (``replay``), whoever played, whenever.

Two people: ``create_battle(..., opponent="open" | "<username>")`` seats the creator and
leaves the other seat empty (anyone's, or reserved for the invited user); the battle is
``waiting`` until ``join_battle`` takes the seat, or ``cancel_battle`` ends it. The engine
position is built when the battle starts (at join, once both sides' decks are known), so
nothing about the joiner's deck ever shows in what the creator saw before.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone

from . import autoplay, cardcache, clock, dealing, pausing, presence, setup
from . import undo as undo_rules
from .bots import BOTS, get_bot
from .engine import (
    DEFAULT_SETTINGS,
    SIDES,
    IllegalAction,
    SeededDice,
    State,
    apply,
    check_action,
    events_for,
    from_json,
    legal_actions,
    to_json,
    view,
)
from .engine.state import BATTLES
from .errors import BattleError, Conflict, NotAllowed, NotFound
from .models import Battle, BattleAction, Status
from .selectors import (  # noqa: F401 (reads, part of the service's API)
    Snapshot,
    battle_list,
    battle_of,
    battle_pk,
    battle_summary,
    battle_view,
    battles_of,
    computer_side,
    invitations_of,
    joinable,
    open_battles,
    open_summary,
    priority,
    side_of,
    waiting_for,
)
from .signals import battle_changed, battle_finished
from .thinking import Thinking, busy

log = logging.getLogger(__name__)

# The computer plays until a human has priority; a normal streak is under 25 actions (greedy
# and random bots, all four battles). Past BOT_PATIENCE in one go it only ends phases (a guard:
# the engine once let a card shuttle between Reserve and Position, RULINGS 8.2-b); past
# BOT_MAX_ACTIONS the
# task stops and leaves the battle waiting for the computer (logged: a bug to look at).
BOT_PATIENCE = 200
BOT_MAX_ACTIONS = 400
ENDING_ACTIONS = ("pass", "roll_morale", "end_phase", "end_turn", "deployment_done")
TURN_CAP_MAX = 100
COMPUTER, OPEN = "computer", "open"  # the opponents create_battle knows besides a username
# A battle nobody joins expires (open battles and invitations alike; battles/README.md).
EXPIRY = timedelta(days=7)
# A flag-fall task is booked with an ETA only for deadlines this close; later ones (a
# correspondence move) are found by the beat tick (a broker holds far ETAs badly: Redis
# redelivers them after its visibility timeout).
FLAG_FALL_ETA_MAX = timedelta(hours=1)


# --- Helpers --------------------------------------------------------------------------------

def new_seed() -> int:
    """A fresh secret seed (63 bits: fits a signed BIGINT)."""
    return secrets.randbits(63)


def seed_hash(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def dice_for(seed: int, seq: int) -> SeededDice:
    """The dice of action number ``seq``: an endless stream fixed by the seed and ``seq``."""
    return SeededDice(f"{seed}:{seq}")


def bot_rng(seed: int, seq: int) -> random.Random:
    return random.Random(f"eagles-bot:{seed}:{seq}")


def _lock(user, battle_id) -> tuple[Battle, str]:
    # Without the card records (cardcache: read once per process, on first use).
    battle = (Battle.objects.select_for_update(of=("self",)).filter(pk=battle_pk(battle_id))
              .select_related("french_player", "allied_player")
              .defer(*cardcache.DEFERRED).first())
    side = side_of(battle, user) if battle is not None else None
    if side is None:
        raise NotFound("no such battle")
    return battle, side


def _enqueue_bot_move(battle_id: int, seq: int) -> None:
    """Ask a worker to play the computer's move once this transaction commits."""
    def send():
        from . import tasks

        tasks.send_bot_move(battle_id, seq)

    transaction.on_commit(send)


def _enqueue_flag_fall(battle: Battle) -> None:
    """Book ``battles.flag_fall(battle_id, seq)`` for the battle's deadline, once this
    transaction commits (idempotent by ``seq``; the beat tick is the safety net)."""
    deadline, battle_id, seq = battle.deadline, battle.pk, battle.seq
    if deadline is None or deadline - timezone.now() > FLAG_FALL_ETA_MAX:
        return

    def send():
        from . import tasks

        tasks.send_flag_fall(battle_id, seq, deadline)

    transaction.on_commit(send)


def _save_state(battle: Battle, state: State | None) -> list[str]:
    """Set ``battle``'s snapshot and the columns read from it (whose move, turn, phase), the
    one place they are written so they never disagree; returns the fields to save."""
    battle.state = to_json(state) if state is not None else None
    battle.to_move = (SIDES[state.priority] if state is not None and state.outcome is None
                      else "")
    battle.turn = state.turn if state is not None else None
    battle.phase = state.phase if state is not None else ""
    return ["state", "to_move", "turn", "phase"]


def _record(battle: Battle, state: State, moves: list[tuple[str, dict, list]], *,
            ask_computer: bool = True, auto: int = 0) -> None:
    """Append ``moves`` (side, action, events) after ``battle.seq`` and save the snapshot; if
    the computer has priority now, ask a worker for its move. The last ``auto`` moves were
    played by auto-play (``autoplay.extend``): their rows are flagged ``auto``. The unique
    (battle, seq) constraint refuses a second writer from the same seq."""
    first = battle.seq + 1
    auto_from = len(moves) - auto
    try:
        with transaction.atomic():
            BattleAction.objects.bulk_create([
                BattleAction(battle=battle, seq=first + i, side=side, action=action,
                             events=events, auto=i >= auto_from)
                for i, (side, action, events) in enumerate(moves)])
    except IntegrityError:
        raise Conflict("the battle has moved on: reload", code="stale_seq",
                       seq=battle.seq) from None
    battle.seq += len(moves)
    before = (battle.to_move, battle.turn)
    fields = ["seq", *_save_state(battle, state)]
    fields += clock.on_position(battle, *before, timezone.now())
    _enqueue_flag_fall(battle)
    # The position and the new log rows as they are now: the websockets' messages of this
    # change are built from them after commit, without reading the battle again.
    snap = Snapshot(state, [(first + i, side, action, events, i >= auto_from)
                            for i, (side, action, events) in enumerate(moves)],
                    last=(battle.seq, moves[-1][0], moves[-1][1]))
    if state.outcome is not None:
        finish_battle(battle, dict(state.outcome), fields, since=first - 1, snap=snap)
    else:
        battle.save(update_fields=fields)
        changed(battle, last_side=moves[-1][0], since=first - 1, snap=snap)
    if ask_computer and state.outcome is None and \
            SIDES[state.priority] == battle.computer_side():
        _enqueue_bot_move(battle.pk, battle.seq)


def changed(battle: Battle, last_side: str | None = None, since: int | None = None,
            snap: Snapshot | None = None) -> None:
    """Tell listeners (``signals.battle_changed``) once this transaction commits. After
    actions, ``last_side`` (who made the last one) and ``to_move`` go along: a listener can
    tell without a query whether the move changed hands; ``since``: the seq before the
    actions (the websockets build each side's message of them once, ``live.notify``), with
    ``battle`` (the row as saved) and ``snap`` (the position and the actions' rows after
    ``since``) so that they need not read them again."""
    battle_id, seq, status = battle.pk, battle.seq, battle.status
    extra = {} if last_side is None else {"last_side": last_side, "to_move": battle.to_move}
    extra["paused"] = battle.paused_at is not None  # a pause moves neither seq nor status
    if since is not None:
        extra["since"] = since
        if snap is not None:
            extra.update(battle=battle, snap=snap)

    def send():
        for receiver, error in battle_changed.send_robust(
                sender=Battle, battle_id=battle_id, seq=seq, status=status, **extra):
            if isinstance(error, Exception):
                log.error("battle %s: battle_changed listener %r failed: %r", battle_id,
                          receiver, error)

    transaction.on_commit(send)


def finish_battle(battle: Battle, outcome: dict, fields: list[str] | None = None,
                  since: int | None = None, snap: Snapshot | None = None) -> None:
    """End ``battle`` (locked by the caller, inside its transaction) with ``outcome``
    (``{"winner", "reason", "turn", ...}``): the one way a battle ends, whether the engine
    decided it or a player resigned, ran out of time or left. Saves ``fields`` as well,
    stops the clocks, then sends ``battle_finished`` inside the transaction (ratings,
    tournament results) and ``battle_changed`` after it."""
    battle.status = Status.FINISHED
    battle.outcome = outcome
    battle.finished_at = timezone.now()
    battle.to_move = ""
    battle.deadline = None
    battle.save(update_fields=[*(fields or []), "status", "outcome", "finished_at",
                               "to_move", "deadline"])
    battle_finished.send(sender=Battle, battle=battle)
    changed(battle, since=since, snap=snap)


# --- Creating a battle ----------------------------------------------------------------------

def _clean_settings(settings) -> dict:
    if settings is None:
        return dict(DEFAULT_SETTINGS)
    if not isinstance(settings, dict):
        raise BattleError("settings must be an object, e.g. {\"turn_cap\": 40}")
    unknown = sorted(set(settings) - set(DEFAULT_SETTINGS))
    if unknown:
        raise BattleError(f"unknown setting {unknown[0]!r}; known: "
                          f"{', '.join(sorted(DEFAULT_SETTINGS))}")
    out = {**DEFAULT_SETTINGS, **settings}
    cap = out["turn_cap"]  # None (the default): no cap, a battle between people (RULINGS 5.0-c)
    if cap is not None and (type(cap) is not int or not 1 <= cap <= TURN_CAP_MAX):
        raise BattleError(f"turn_cap must be a whole number from 1 to {TURN_CAP_MAX}, "
                          "or null for no limit")
    if type(out["decoys"]) is not bool:
        raise BattleError("decoys must be true or false")
    return out


def _invitee(user, opponent: str):
    """The user invited by name (as they log in: case does not matter)."""
    users = get_user_model().objects.filter(is_active=True)
    found = users.filter(username=opponent).first() or \
        (list(users.filter(username__iexact=opponent)[:1]) or [None])[0]
    if found is None:
        raise NotFound(f"no player named {opponent!r}: invite someone by their username, or "
                       f"create an open battle (opponent \"open\")")
    if found.pk == user.pk:
        raise BattleError("you cannot invite yourself: invite another player by their "
                          "username, or create an open battle (opponent \"open\")")
    return found


def create_battle(user, battle, side, bot="greedy", deck_version_id=None, settings=None,
                  opponent=COMPUTER, scale=None, deal=None, time_control=None,
                  public=True, rated=False) -> Battle:
    """A new battle of ``user`` playing ``side``. ``opponent``: ``"computer"`` (``bot`` plays
    the other side; the battle starts at once), ``"open"`` (the other seat is anyone's to
    take) or a username (the seat is reserved for that player); against a person the battle
    is ``waiting`` until they ``join_battle`` (``bot`` is then unused). ``scale`` (2.0, one
    per battle, default "1"); the user's deck: ``deck_version_id`` (a custom deck at that
    scale) or ``deal`` (``{"pool": "collection" | "set", "historical": bool}``); every other
    army is dealt from the whole set, historical (``battles/dealing.py``). ``time_control``
    (``clock.validate``; default untimed) and ``public`` (anyone may watch). ``rated``: the
    result updates both players' ratings (``ratings/``; between people only)."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed("log in to play")
    if battle not in BATTLES:
        raise BattleError(f"unknown battle {battle!r}; choose from {', '.join(BATTLES)}")
    if side not in SIDES:
        raise BattleError(f"side must be french or allied, not {side!r}")
    if not isinstance(opponent, str) or not opponent:
        raise BattleError('opponent must be "computer", "open" or a username')
    against_computer = opponent == COMPUTER
    if type(rated) is not bool:
        raise BattleError("rated must be true or false")
    if rated and against_computer:
        raise BattleError("games against the computer are never rated")
    if against_computer and bot not in BOTS:
        raise BattleError(f"unknown bot {bot!r}; choose from {', '.join(sorted(BOTS))}")
    settings = _clean_settings(settings)
    time_control = clock.validate(time_control)
    if type(public) is not bool:
        raise BattleError("public must be true or false")
    invited = None if opponent in (COMPUTER, OPEN) else _invitee(user, opponent)
    scale = dealing.clean_scale(battle, scale)
    choices, version = dealing.choose(user, battle, side, scale, deck_version_id, deal)
    seed = new_seed()
    catalogue_version, records = setup.catalogue_now()
    # Dealt once every side's deck is known: now against the computer, at join otherwise.
    decks = (dealing.deal_decks(battle, seed, scale, choices, setup.table(records))
             if against_computer else {})
    b = Battle(battle=battle, seed=seed, decks=decks, settings=settings, scale=scale,
               deck_kinds=dealing.deck_kinds(choices, scale))
    setup.record_setup(b, catalogue_version, records)
    # Against a person the position is built when they join with their deck: the setup
    # shuffles every army from one stream, so a position built now would change at join.
    state = setup.setup_state(b) if against_computer else None
    _save_state(b, state)
    b.time_control, b.bot = time_control, bot if against_computer else ""
    b.french_player_id = user.pk if side == "french" else None  # for the clock: whose seat
    b.allied_player_id = user.pk if side == "allied" else None
    now = timezone.now()
    b.clocks = clock.initial_clocks(time_control, SIDES)
    if state is not None:
        clock.start(b, now)
    with transaction.atomic():
        b = Battle.objects.create(
            state=b.state, to_move=b.to_move, turn=b.turn, phase=b.phase,
            battle=battle, settings=settings, bot=bot if against_computer else "",
            invited=invited, seed=seed, seed_hash=seed_hash(seed), decks=decks,
            catalogue_version=b.catalogue_version, card_records=b.card_records,
            deck_kinds=b.deck_kinds, scale=scale, deck_choices=choices, rated=rated,
            status=Status.ACTIVE if against_computer else Status.WAITING,
            french_player=user if side == "french" else None,
            allied_player=user if side == "allied" else None,
            time_control=time_control, public=public, clocks=b.clocks,
            clock_started_at=b.clock_started_at, deadline=b.deadline,
            expires_at=None if against_computer else now + EXPIRY,
            **({f"{version.army}_deck": version} if version is not None else {}))
        _enqueue_flag_fall(b)
        if state is not None and SIDES[state.priority] != side:
            _enqueue_bot_move(b.pk, 0)
        changed(b)
    return b


def _lock_any(battle_id) -> Battle:
    battle = Battle.objects.select_for_update().filter(pk=battle_pk(battle_id)).first()
    if battle is None:
        raise NotFound("no such battle")
    return battle


def join_battle(battle_id, user, deck_version_id=None, deal=None) -> Battle:
    """``user`` takes the empty seat of a waiting battle (an open one: anyone but its
    creator; an invitation: only the invited user), optionally with one of their valid decks
    for that side or a pool to deal from (as at creation); the battle starts: the decks are
    dealt and the position is built from every army's deck. Under the battle's row lock, so
    of two people joining at once exactly one gets the seat; the other 409 "the seat is
    taken"."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed("log in to play")
    with transaction.atomic():
        battle = _lock_any(battle_id)
        mine = side_of(battle, user)
        if mine is not None:
            raise BattleError(f"you already play the {mine} side of this battle")
        if battle.bot or battle.invited_id not in (None, user.pk):
            raise NotFound("no such battle")  # against the computer, or someone else's invitation
        if battle.status == Status.CANCELLED:
            raise Conflict("the battle was cancelled by its creator")
        if battle.status == Status.DECLINED:
            raise Conflict("you declined this battle")
        if battle.status == Status.EXPIRED or (
                battle.status == Status.WAITING and battle.expires_at is not None
                and battle.expires_at <= timezone.now()):
            raise Conflict("this battle expired: nobody took the seat in time", code="expired")
        if battle.status != Status.WAITING:
            raise Conflict("the seat is taken")
        side = battle.free_seat()
        choices, version = dealing.choose(user, battle.battle, side, battle.scale,
                                          deck_version_id, deal)
        fields = ["decks", "deck_choices", "status", f"{side}_player",
                  "catalogue_version", "card_records", "deck_kinds"]
        catalogue_version, records = setup.catalogue_now()  # the position is built now
        battle.deck_choices = {**battle.deck_choices, **choices}
        battle.decks = dealing.deal_decks(battle.battle, battle.seed, battle.scale,
                                          battle.deck_choices, setup.table(records))
        battle.deck_kinds = dealing.deck_kinds(battle.deck_choices, battle.scale)
        if version is not None:
            setattr(battle, f"{version.army}_deck", version)
            fields.append(f"{version.army}_deck")
        setattr(battle, f"{side}_player", user)
        setup.record_setup(battle, catalogue_version, records)
        fields += _save_state(battle, setup.setup_state(battle))
        battle.status = Status.ACTIVE
        fields += clock.start(battle, timezone.now())
        battle.save(update_fields=fields)
        _enqueue_flag_fall(battle)
        changed(battle)
    return battle


def cancel_battle(battle_id, user) -> Battle:
    """End a battle nobody has joined yet: its creator cancels it (``cancelled``), the
    invited user declines it (``declined``). Once started it cannot be (409): resign
    instead; once expired, 409 ``expired``."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed("log in to play")
    with transaction.atomic():
        battle = _lock_any(battle_id)
        creator = side_of(battle, user) is not None
        invitee = not creator and battle.invited_id == user.pk
        if not (creator or invitee):
            if battle.status == Status.WAITING and not battle.invited_id:
                raise NotAllowed("only its creator can cancel an open battle")
            raise NotFound("no such battle")
        if battle.status == Status.CANCELLED:
            raise Conflict("the battle was already cancelled")
        if battle.status == Status.DECLINED:
            raise Conflict("the invitation was already declined")
        if battle.status == Status.EXPIRED:
            raise Conflict("the battle expired: nobody took the seat in time", code="expired")
        if battle.status != Status.WAITING:
            raise Conflict("the battle has started: it can no longer be cancelled; resign "
                           "instead")
        battle.status = Status.DECLINED if invitee else Status.CANCELLED
        battle.finished_at = timezone.now()
        battle.save(update_fields=["status", "finished_at"])
        changed(battle)
    return battle


# --- Playing --------------------------------------------------------------------------------

def act(battle_id, user, seq, action) -> list[dict]:
    """Apply ``user``'s ``action`` if ``seq`` is the battle's current sequence number (the
    last one the player saw); returns the events of that action the user may see."""
    if type(seq) is not int:
        raise BattleError("seq must be a whole number: the seq of the battle you last saw")
    if not isinstance(action, dict):
        raise BattleError("action must be an object: one of legal_actions")
    events, side, late = _act(battle_id, user, seq, action)
    if late is not None:
        raise late
    return events_for(events, side)


def _act(battle_id, user, seq, action) -> tuple[list, str, Conflict | None]:
    """``act`` in its transaction: (events, side, None), or ([], side, the refusal) when the
    flag has fallen (the battle was ended by time and that is committed)."""
    with transaction.atomic():
        battle, side = _lock(user, battle_id)
        if battle.status == Status.WAITING:
            raise Conflict("waiting for an opponent: nobody has taken the other seat yet",
                           seq=battle.seq)
        if battle.status in (Status.CANCELLED, Status.DECLINED):
            raise Conflict(f"the battle never started: it was {battle.status}", seq=battle.seq)
        if battle.status != Status.ACTIVE:
            raise Conflict("the battle is over", seq=battle.seq)
        _refuse_if_paused(battle)
        late = _end_if_out_of_time(battle)
        if late is not None:
            return [], side, late  # leaving the block commits the end by time
        if seq != battle.seq:
            raise Conflict("the battle has moved on: reload", code="stale_seq", seq=battle.seq)
        who = priority(battle)
        if who != side:
            raise Conflict(f"it is not your move: waiting for {waiting_for(battle, side)}",
                           seq=battle.seq)
        if action.get("side", side) != side:
            raise BattleError(f"you play the {side} side: an action's side must be {side!r}")
        # The position is read and its legal actions listed once: both are the costly part.
        state = from_json(battle.state, cardcache.cards_of(battle))
        legal = legal_actions(state, side)
        try:  # not legal: the engine says why, and nothing changes
            check_action(state, action, legal)
        except IllegalAction as exc:
            raise BattleError(str(exc), code="illegal_action") from None
        action = legal[legal.index(action)]  # the engine's own dict (12, never 12.0 or True)
        events = apply(state, action, dice_for(battle.seed, battle.seq + 1), check=False)
        moves = [(side, action, events)]
        auto = autoplay.extend(battle, state, moves)  # forced moves and auto-passes after
        _record(battle, state, moves, auto=auto)
    return events, side, None


# --- Time: flag fall, resigning, absence, expiry (battles/clock.py, presence.py) ---------

def _refuse_if_paused(battle: Battle) -> None:
    """A battle its tournament's organiser paused takes no action (409 ``paused``,
    ``battles/pausing.py``)."""
    paused = pausing.refusal(battle)
    if paused is not None:
        raise paused


def _end_if_out_of_time(battle: Battle) -> Conflict | None:
    """If the side to move has run out of time (its ``deadline`` has passed), end the
    locked ``battle`` by time (that side loses) and return the refusal to give whoever
    tried to act; None while the clock still runs."""
    loser = clock.out_of_time(battle, timezone.now())
    if loser is None:
        return None
    outcome, fields = clock.flag_fell(battle, timezone.now())
    finish_battle(battle, outcome, fields)
    return Conflict(f"the {loser} side ran out of time: the battle is over",
                    code="out_of_time", seq=battle.seq)


def flag_fall(battle_id: int, seq: int | None = None) -> bool:
    """End the battle by time if the side to move is out of time; returns whether it did.
    Idempotent: with ``seq`` (the ``battles.flag_fall`` task) it does nothing unless the
    battle is still at that ``seq``, active, and past its deadline; a task that arrives
    early (clock skew) books itself again for the deadline."""
    with transaction.atomic():
        battle = Battle.objects.select_for_update().filter(pk=battle_id).first()
        if battle is None or battle.status != Status.ACTIVE or battle.paused_at is not None \
                or (seq is not None and battle.seq != seq):
            return False  # a paused battle's clocks stand still: its resume books it again
        if _end_if_out_of_time(battle) is not None:
            return True
        if seq is not None:
            _enqueue_flag_fall(battle)
        return False


def overdue_flags(now=None) -> list[tuple[int, int]]:
    """(battle id, seq) of the active battles past their deadline (``battles_deadline_idx``):
    the beat tick ends them (a lost or never-booked flag-fall task)."""
    now = now or timezone.now()
    return list(Battle.objects.filter(status=Status.ACTIVE, deadline__isnull=False,
                                      deadline__lte=now, paused_at__isnull=True)
                .order_by("deadline").values_list("pk", "seq")[:500])


def expire_waiting(now=None) -> list[int]:
    """Mark the waiting battles past ``expires_at`` expired (nobody took the seat in time);
    returns their ids. Each under its row lock: a join at the same moment wins or loses
    cleanly."""
    now = now or timezone.now()
    due = list(Battle.objects.filter(status=Status.WAITING, expires_at__lte=now)
               .values_list("pk", flat=True)[:500])
    done = []
    for pk in due:
        with transaction.atomic():
            battle = Battle.objects.select_for_update().filter(pk=pk).first()
            if battle is None or battle.status != Status.WAITING or \
                    battle.expires_at is None or battle.expires_at > now:
                continue
            battle.status = Status.EXPIRED
            battle.finished_at = now
            battle.save(update_fields=["status", "finished_at"])
            changed(battle)
            done.append(pk)
    return done


def _lock_active(user, battle_id, verb: str) -> tuple[Battle, str]:
    battle, side = _lock(user, battle_id)
    if battle.status == Status.WAITING:
        raise Conflict(f"the battle has not started: you cannot {verb} yet (cancel it "
                       "instead)", seq=battle.seq)
    if battle.status != Status.ACTIVE:
        raise Conflict("the battle is over", seq=battle.seq)
    _refuse_if_paused(battle)
    return battle, side


def _end_by(battle_id, user, verb: str, reason_of) -> Battle:
    """Resign or claim in one transaction; if the flag fell first, the battle ends by time
    instead and the 409 ``out_of_time`` is raised once that is committed."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed("log in to play")
    late = None
    with transaction.atomic():
        battle, side = _lock_active(user, battle_id, verb)
        late = _end_if_out_of_time(battle)
        if late is None:
            winner, reason = reason_of(battle, side)
            fields = []
            if battle.clock_started_at is not None and battle.time_control:
                fields = clock.on_position(battle, battle.to_move, battle.turn,
                                           timezone.now())
            finish_battle(battle, {"winner": winner, "reason": reason, "turn": battle.turn},
                          fields)
    if late is not None:
        raise late
    return battle


def resign(battle_id, user) -> Battle:
    """``user`` resigns their battle (at any moment while it is active, whoever has the
    move): the opponent wins, reason ``resigned``."""
    def outcome(battle, side):
        return SIDES[1 - SIDES.index(side)], "resigned"

    return _end_by(battle_id, user, "resign", outcome)


def claim_absence(battle_id, user) -> Battle:
    """``user`` claims a live battle whose opponent has the move and has been away for more
    than ``presence.ABSENCE_LIMIT`` seconds: ``user`` wins, reason ``absent``; otherwise 409
    ``not_claimable`` with the reason (``presence.claim_refusal``)."""
    def outcome(battle, side):
        why = presence.claim_refusal(battle, side, timezone.now())
        if why is not None:
            raise Conflict(f"you cannot claim this battle: {why}", code="not_claimable",
                           seq=battle.seq)
        return side, "absent"

    return _end_by(battle_id, user, "claim it", outcome)


def undo(battle_id, user, seq) -> int:
    """Take back ``user``'s last action still counting (``battles/undo.py`` says when one
    may) if ``seq`` is the battle's current sequence number: a new action
    ``{"type": "undo", "undoes": k}`` is appended and the position is rebuilt from the setup
    without action ``k``. Returns ``k``. 409 ``cannot_undo`` with the reason otherwise; 409
    ``out_of_time`` (and the battle ends by time) once the mover's flag has fallen."""
    if type(seq) is not int:
        raise BattleError("seq must be a whole number: the seq of the battle you last saw")
    with transaction.atomic():
        battle, side = _lock(user, battle_id)
        if battle.status != Status.ACTIVE:
            raise Conflict("the battle is not under way: there is nothing to take back",
                           code="cannot_undo", seq=battle.seq)
        _refuse_if_paused(battle)
        late = _end_if_out_of_time(battle)
        if late is None:
            target = _undo_locked(battle, side, seq)
    if late is not None:
        raise late  # the end by time is committed: no undo once the flag has fallen
    return target


def _undo_locked(battle: Battle, side: str, seq: int) -> int:
    if seq != battle.seq:
        raise Conflict("the battle has moved on: reload", code="stale_seq", seq=battle.seq)
    rows = list(battle.actions.order_by("seq"))
    target, why = undo_rules.undo_target(battle, side,
                                         [(r.seq, r.side, r.action) for r in rows])
    if target is None:
        raise Conflict(f"you cannot undo now: {why}", code="cannot_undo", seq=battle.seq,
                       reason=why)
    # Each action was checked when played and its events are compared: no legality
    # test again, so the battle's row is locked for as short a time as can be.
    state = undo_rules.rebuild(battle, setup.setup_state(battle),
                               [r for r in rows if r.seq != target], dice_for, check=False)
    _record(battle, state, [undo_rules.undo_record(side, target)])
    return target


def bot_move(battle_id: int, seq: int) -> int:
    """The computer plays from ``seq`` until a human has priority or the battle ends; returns
    the number of actions applied. Idempotent: does nothing (0) unless the battle is still at
    ``seq`` with the computer to move, so a repeated or late task changes nothing.

    The computer thinks outside any transaction (a search takes up to its CPU budget per
    decision, seconds per turn): on SQLite (BEGIN IMMEDIATE) a transaction would hold the
    whole database's write lock meanwhile, on PostgreSQL the battle's row, blocking the
    player's resignation and the clock. Its actions are then recorded in one short
    transaction, only if the battle has not moved on while it thought."""
    battle = Battle.objects.filter(pk=battle_id).first()
    if not _computer_to_move(battle, seq):
        return 0
    mark = Thinking("battle", battle_id, seq)
    if not mark.claim():
        return 0  # another worker is thinking this very turn (a re-sent task)
    try:
        me = computer_side(battle)
        state = from_json(battle.state, setup.engine_cards(battle))
        moves, stuck = _computer_turn(battle, state, me, mark.refresh)
        with transaction.atomic():
            battle = Battle.objects.select_for_update().filter(pk=battle_id).first()
            if not _computer_to_move(battle, seq):
                return 0  # resigned, paused or played meanwhile: what it chose is dropped
            auto = 0
            if moves and not stuck:
                # the human's auto-pass, forced moves
                auto = autoplay.extend(battle, state, moves)
            if moves:
                _record(battle, state, moves, ask_computer=not stuck, auto=auto)
            return len(moves)
    finally:
        mark.release()


def _computer_to_move(battle: Battle | None, seq: int) -> bool:
    """The battle is active, unpaused (the resume asks again), still at ``seq`` and the
    computer's side has priority."""
    if battle is None or battle.status != Status.ACTIVE or battle.seq != seq or \
            battle.paused_at is not None:
        return False
    me = computer_side(battle)
    return me is not None and priority(battle) == me


def _computer_turn(battle: Battle, state: State, me: str, alive: Callable[[], None]
                   ) -> tuple[list[tuple[str, dict, list]], bool]:
    """The computer's actions from ``state`` (applied to it) until the other side has
    priority or the battle ends, and whether it got stuck (BOT_MAX_ACTIONS). ``alive`` is
    called before each decision (the thinking mark's refresh)."""
    bot = get_bot(battle.bot, setup.bot_cards(battle))
    moves: list[tuple[str, dict, list]] = []
    while state.outcome is None and SIDES[state.priority] == me:
        if len(moves) >= BOT_MAX_ACTIONS:
            log.error("battle %s: the computer made %d actions without handing over",
                      battle.pk, len(moves))
            return moves, True  # not asked again: a loop of tasks would never end either
        alive()
        n = battle.seq + len(moves) + 1
        legal = legal_actions(state, me)
        ending = [a for a in legal if a["type"] in ENDING_ACTIONS]
        if len(moves) >= BOT_PATIENCE and ending:
            action = ending[0]
        else:
            # The bot sees what its side may see, nothing more (as in battles.simulate).
            seen = view(state, me) if bot.needs_view else None
            action = bot.choose(seen, legal, bot_rng(battle.seed, n))
        if action not in legal:
            raise RuntimeError(f"bot {battle.bot} chose an illegal action {action!r}")
        events = apply(state, action, dice_for(battle.seed, n), check=False)
        moves.append((me, action, events))
    return moves, False


def stalled_computer_turns(now=None, grace_seconds: float = 5.0) -> list[tuple[int, int]]:
    """(battle id, seq) of the active battles waiting for the computer since more than
    ``grace_seconds`` (its ``bot_move`` message was lost, or a worker died with it): the
    periodic tick sends ``bot_move`` again, which is idempotent."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=grace_seconds)
    # The computer's side is the one without a player; whose move it is, a column.
    candidates = (Battle.objects.filter(status=Status.ACTIVE, paused_at__isnull=True)
                  .exclude(bot="")
                  .filter(Q(to_move=SIDES[0], **{f"{SIDES[0]}_player__isnull": True})
                          | Q(to_move=SIDES[1], **{f"{SIDES[1]}_player__isnull": True}))
                  .annotate(last=Max("actions__created_at")).order_by("pk")
                  .values_list("pk", "seq", "last", "created_at"))
    waiting = [(pk, seq) for pk, seq, last, created_at in candidates
               if (last or created_at) <= cutoff]
    thought = busy("battle", waiting)  # a worker is thinking them: not lost
    return [turn for turn in waiting if turn not in thought]


def replay(battle: Battle) -> State:
    """The state rebuilt from the setup and the action list (the snapshot is only a cache).
    Raises ``RuntimeError`` if an action's events differ from those recorded, or if the
    seed does not re-deal the recorded decks (2.0 deal, battles/dealing.py)."""
    if battle.deck_choices and dealing.redeal(battle, setup.engine_cards(battle)) != battle.decks:
        raise RuntimeError(f"battle {battle.pk}: the seed does not deal the recorded decks")
    # Undone actions and the undos are skipped (battles/undo.py: effective_actions).
    return undo_rules.rebuild(battle, setup.setup_state(battle),
                              battle.actions.order_by("seq"), dice_for)


def _plain(value: Any) -> Any:
    """``value`` as it reads back from a JSON column."""
    return json.loads(json.dumps(value))
