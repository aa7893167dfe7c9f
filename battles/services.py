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
``n`` alone (the module's ``dice`` and ``bot_rng``), so the setup plus the action list
replays the battle exactly (``replay``), whoever played, whenever.

Two people: ``create_battle(..., opponent="open" | "<username>")`` seats the creator and
leaves the other seat empty (anyone's, or reserved for the invited user); the battle is
``waiting`` until ``join_battle`` takes the seat, or ``cancel_battle`` ends it. The engine
position is built when the battle starts (at join, once both sides' decks are known), so
nothing about the joiner's deck ever shows in what the creator saw before.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from game import other_side
from play import clock, enqueue, passing, presence, seats, turns
from play import undo as undo_rules
from play.seeds import new_seed, seed_hash
from play.turns import EXPIRY

from . import dealing, setup
from .bots import BOTS
from .engine import (
    DEFAULT_SETTINGS,
    SIDES,
    State,
)
from .engine.state import BATTLES
from .errors import BattleError, Conflict, NotAllowed, NotFound
from .kind import KIND, save_state
from .models import Battle, Status
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

log = logging.getLogger(__name__)

TURN_CAP_MAX = 100
COMPUTER, OPEN = "computer", "open"  # the opponents create_battle knows besides a username


# --- Helpers --------------------------------------------------------------------------------

def changed(battle: Battle) -> None:
    """Tell listeners once this transaction commits (``play.signals.match_changed``)."""
    turns.changed(KIND, battle)


def finish_battle(battle: Battle, outcome: dict, fields: list[str] | None = None) -> None:
    """End ``battle`` (locked by the caller, inside its transaction) with ``outcome``: the
    one way a battle ends (``play.turns.finish``)."""
    turns.finish(KIND, battle, outcome, fields)


# --- Creating a battle ----------------------------------------------------------------------

def clean_settings(settings) -> dict:
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
    settings = clean_settings(settings)
    time_control = clock.validate(time_control)
    if type(public) is not bool:
        raise BattleError("public must be true or false")
    invited = (None if opponent in (COMPUTER, OPEN)
               else seats.invitee(user, opponent, "battle"))
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
    save_state(b, state)
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
            catalogue_version=b.catalogue_version, card_set=b.card_set,
            deck_kinds=b.deck_kinds, scale=scale, deck_choices=choices, rated=rated,
            status=Status.ACTIVE if against_computer else Status.WAITING,
            french_player=user if side == "french" else None,
            allied_player=user if side == "allied" else None,
            time_control=time_control, public=public, clocks=b.clocks,
            clock_started_at=b.clock_started_at, deadline=b.deadline,
            expires_at=None if against_computer else now + EXPIRY,
            **({f"{version.army}_deck": version} if version is not None else {}))
        enqueue.flag_fall_on_commit(KIND.kind, b)
        if state is not None and SIDES[state.priority] != side:
            enqueue.bot_move_on_commit(KIND.kind, b.pk, 0)
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
                  "catalogue_version", "card_set", "deck_kinds"]
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
        fields += save_state(battle, setup.setup_state(battle))
        battle.status = Status.ACTIVE
        fields += clock.start(battle, timezone.now())
        battle.save(update_fields=fields)
        enqueue.flag_fall_on_commit(KIND.kind, battle)
        changed(battle)
    return battle


def cancel_battle(battle_id, user) -> Battle:
    """End a battle nobody has joined yet: its creator cancels it, the invited user declines
    it (``play.turns.cancel``)."""
    return turns.cancel(KIND, battle_id, user)


# --- Playing --------------------------------------------------------------------------------

def act(battle_id, user, seq, action) -> list[dict]:
    """Apply ``user``'s ``action`` if ``seq`` is the battle's current sequence number (the
    last one the player saw); returns the events of that action the user may see
    (``play.turns.act``)."""
    return turns.act(KIND, battle_id, user, seq, action)


def choose_pass_kinds(battle_id, user, kinds) -> dict:
    """The kinds of response window (``modules.RESPONSE_KINDS``) ``user`` does not want to
    be asked in, in this battle: each is passed for them, flagged as their choice
    (``play.passing.choose_kinds``)."""
    return passing.choose_kinds(KIND, battle_id, user, kinds)


def act_many(battle_id, user, seq, actions) -> list[dict]:
    """Several placements from one submit (a deployment, 4.1), each checked by the engine
    after the one before, in one transaction: one illegal, 400 naming its card, nothing
    played (``play.turns.act_many``)."""
    return turns.act_many(KIND, battle_id, user, seq, actions)


def end_for_me(battle_id, user, seq, on) -> list[dict]:
    """Switch the player's setting "end my phase or turn for me when that is all that is
    left" on (ending it now: ``seq`` must be current and ending the only thing left) or off
    (``play.passing.end_for_me``)."""
    return passing.end_for_me(KIND, battle_id, user, seq, on)


def fire_order(battle_id, user, seq, on) -> list[dict]:
    """Give the order "Fire with every ready card (each at its suggested target)" for the
    player's current Combat Phase, firing the first card now (``seq`` must be current), or
    cancel it (``play.passing.fire_order``)."""
    return passing.fire_order(KIND, battle_id, user, seq, on)


def pass_and_skip_kind(battle_id, user, seq) -> list[dict]:
    """Pass now, and from now on pass every response window of this kind for the player
    (``play.passing.pass_and_skip_kind``)."""
    return passing.pass_and_skip_kind(KIND, battle_id, user, seq)


def pass_rest_of_turn(battle_id, user, seq) -> list[dict]:
    """Pass now and in every further response window of this enemy turn
    (``play.passing.pass_rest_of_turn``); the next turn asks again."""
    return passing.pass_rest_of_turn(KIND, battle_id, user, seq)


# --- Time: flag fall, resigning, absence, expiry (play/clock.py, play/presence.py) ------

def _refuse_if_paused(battle: Battle) -> None:
    """A battle its tournament's organiser paused takes no action (409 ``paused``,
    ``play/pausing.py``)."""
    turns.refuse_if_paused(KIND, battle)


def _end_if_out_of_time(battle: Battle) -> Conflict | None:
    """End the locked ``battle`` by time if the side to move is out of time and return the
    refusal to give whoever tried to act; None while the clock runs."""
    return turns.end_if_out_of_time(KIND, battle)


def resign(battle_id, user) -> Battle:
    """``user`` resigns their battle (at any moment while it is active, whoever has the
    move): the opponent wins, reason ``resigned``."""
    def outcome(battle, side):
        return other_side(side), "resigned"

    return turns.end_by(KIND, battle_id, user, "resign", outcome)


def claim_absence(battle_id, user) -> Battle:
    """``user`` claims a live battle whose opponent has the move and has been away for more
    than ``presence.ABSENCE_LIMIT`` seconds: ``user`` wins, reason ``absent``; otherwise 409
    ``not_claimable`` with the reason (``play.presence.claim``)."""
    return presence.claim(KIND, battle_id, user)


def undo(battle_id, user, seq) -> int:
    """Take back ``user``'s last action still counting (``play.undo`` says when one may)."""
    return undo_rules.undo(KIND, battle_id, user, seq)


def replay(battle: Battle) -> State:
    """The state rebuilt from the setup and the action list (the snapshot is only a cache).
    Raises ``RuntimeError`` if an action's events differ from those recorded, or if the
    seed does not re-deal the recorded decks (2.0 deal, battles/dealing.py)."""
    if battle.deck_choices and dealing.redeal(battle, setup.engine_cards(battle)) != battle.decks:
        raise RuntimeError(f"battle {battle.pk}: the seed does not deal the recorded decks")
    # Undone actions and the undos are skipped (play/undo.py: effective_actions).
    return undo_rules.rebuild(KIND, battle, setup.setup_state(battle),
                              battle.actions.order_by("seq"))
