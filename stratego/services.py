"""The Stratego: Waterloo service: creating, joining and cancelling a game, and playing it
through the game service (``play.turns``, ``play.undo``, ``play.presence``), as the
campaigns' service does.

Each write runs in one transaction under the game's row lock and raises a ``config.errors``
refusal on bad input, changing nothing. The engine decides what is legal and what happens;
the battle die of action number ``n`` comes from the secret seed and ``n`` alone
(``GAME.dice``), so the setup plus the action list replays the game exactly (``replay``).
The computer plays in the Celery worker (``play.bot_move``, sent once the position commits
with the computer to move). What a person sees: ``selectors.side_view`` only.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from config.errors import BadInput, Conflict, NotFound
from game import SIDES, other_side
from play import clock, enqueue, presence, seats, turns
from play import undo as undo_rules
from play.seats import side_of
from play.seeds import new_seed, seed_hash
from play.turns import EXPIRY

from .engine import State
from .engine.rules import MODES
from .kind import KIND, game_pk, require_user, save_state, setup_game
from .loader import CURRENT
from .models import BotName, Status, StrategoMatch

COMPUTER, OPEN = "computer", "open"
BOTS = tuple(BotName.values)


def _clean_variant(variant: Any) -> str:
    if variant not in MODES:
        raise BadInput(f"variant must be one of {', '.join(MODES)} (the rules built so far), "
                       f"not {variant!r}")
    return str(variant)


def create_game(user: Any, side: Any, opponent: Any = COMPUTER, bot: Any = "greedy",
                variant: Any = "basic", public: Any = True, time_control: Any = None,
                rated: Any = False) -> StrategoMatch:
    """A new game of ``user`` playing ``side``. ``opponent``: ``computer`` (``bot`` plays
    the other side; the game starts at once), ``open`` or a username (``waiting`` until
    they ``join_game``, or it expires after ``EXPIRY``). ``time_control``: ``play.clock``'s
    (default untimed). ``rated``: a game between two people that updates both players'
    "stratego" ratings when it ends (``ratings.matches``); refused against the computer."""
    require_user(user)
    if side not in SIDES:
        raise BadInput(f"side must be one of {', '.join(SIDES)}, not {side!r}")
    if not isinstance(opponent, str) or not opponent:
        raise BadInput('opponent must be "computer", "open" or a username')
    variant = _clean_variant(variant)
    if type(public) is not bool:
        raise BadInput("public must be true or false")
    if type(rated) is not bool:
        raise BadInput("rated must be true or false")
    if rated and opponent == COMPUTER:
        raise BadInput("games against the computer are never rated")
    time_control = clock.validate(time_control)
    invited = None
    if opponent == COMPUTER:
        if bot not in BOTS:
            raise BadInput(f"bot must be one of {', '.join(BOTS)}, not {bot!r}")
    else:
        bot = ""
        if opponent != OPEN:
            invited = seats.invitee(user, opponent, "game")
    seed = new_seed()
    with transaction.atomic():
        match = StrategoMatch(
            french_player=user if side == "french" else None,
            allied_player=user if side == "allied" else None,
            bot=bot, invited=invited, seed=seed, seed_hash=seed_hash(seed), settings={},
            variant=variant, pieces=CURRENT, public=public, time_control=time_control,
            rated=rated, expires_at=None if bot else timezone.now() + EXPIRY,
            status=Status.ACTIVE if bot else Status.WAITING)
        if bot:
            _start(match)
        match.save()
        enqueue.flag_fall_on_commit(KIND.kind, match)
        turns.changed(KIND, match)
        if bot and match.to_move == other_side(side):
            enqueue.bot_move_on_commit(KIND.kind, match.pk, match.seq)
    return match


def _start(match: StrategoMatch) -> None:
    """The game before set-up, its clock started (not saved: the caller saves)."""
    save_state(match, setup_game(match))
    match.status = Status.ACTIVE
    clock.start(match, timezone.now())


def join_game(match_id: Any, user: Any) -> StrategoMatch:
    """Take the empty seat of an open game, or one ``user`` is invited to; it starts."""
    require_user(user)
    with transaction.atomic():
        match = (StrategoMatch.objects.select_for_update(of=("self",))
                 .filter(pk=game_pk(match_id)).first())
        if match is None or (side_of(match, user) is None and match.invited_id
                             not in (None, user.pk)) or (
                match.status != Status.WAITING and side_of(match, user) is None
                and not match.public):
            raise NotFound("no such game")
        if side_of(match, user) is not None:
            raise Conflict("this is your own game: wait for another player to join")
        if match.status == Status.EXPIRED or (
                match.status == Status.WAITING and match.expires_at is not None
                and match.expires_at <= timezone.now()):
            raise Conflict("this game expired: nobody took the seat in time", code="expired")
        if match.status != Status.WAITING or match.bot:
            raise Conflict("the seat is taken: the game is no longer waiting", seq=match.seq)
        setattr(match, f"{match.empty_side()}_player", user)
        _start(match)
        match.save()
        enqueue.flag_fall_on_commit(KIND.kind, match)
        turns.changed(KIND, match)
    return match


SEAT_OPTIONS = ("public", "rated", "time_control", "variant")


def seat_game(french_user: Any, allied_user: Any, options: dict[str, Any]) -> StrategoMatch:
    """A tournament's game (the kind's ``seat`` hook, through ``play.seating``): both
    players seated from the start, active at once, the Allies to set up first, the clock of
    the side to move running. The options are the ones a tournament passes
    (``time_control``, ``rated``, ``public``) and its ``game_options`` (``variant``); any
    other is refused."""
    unknown = sorted(set(options) - set(SEAT_OPTIONS))
    if unknown:
        raise BadInput(f"unknown Stratego option {unknown[0]!r}; known: {', '.join(SEAT_OPTIONS)}")
    if french_user is None or allied_user is None or french_user.pk == allied_user.pk:
        raise BadInput("a seated game needs two different players")
    seed = new_seed()
    match = StrategoMatch(
        french_player=french_user, allied_player=allied_user, seed=seed,
        seed_hash=seed_hash(seed), settings={},
        variant=_clean_variant(options.get("variant", "basic")), pieces=CURRENT,
        rated=bool(options.get("rated", False)), public=bool(options.get("public", True)),
        time_control=clock.validate(options.get("time_control") or {}))
    _start(match)
    with transaction.atomic():
        match.save()
        enqueue.flag_fall_on_commit(KIND.kind, match)
        turns.changed(KIND, match)
    return match


def cancel_game(match_id: Any, user: Any) -> Any:
    """End a game nobody has joined yet: its creator cancels it, the invited user declines
    it (``play.turns.cancel``)."""
    return turns.cancel(KIND, match_id, user)


def act(match_id: Any, user: Any, seq: Any, action: Any) -> list[dict[str, Any]]:
    """Apply ``user``'s ``action`` if ``seq`` is the game's current sequence number; returns
    the events of that action the user may see (``play.turns.act``). In the set-up, any
    valid ``{"type": "deploy", "placement": {piece id: [col, row]}}`` is legal, and the
    listed ``{"type": "deploy", "random": true}`` sets up at random."""
    return turns.act(KIND, match_id, user, seq, action)


def undo(match_id: Any, user: Any, seq: Any) -> int:
    """Take back ``user``'s last action in their turn until a die is rolled, a piece is
    revealed or the turn ends (``GAME.undo_refusal``); returns the seq taken back."""
    return undo_rules.undo(KIND, match_id, user, seq)


def resign(match_id: Any, user: Any) -> Any:
    """``user`` resigns (at any moment while it is active): the other side wins."""
    return turns.end_by(KIND, match_id, user, "resign",
                        lambda match, side: (other_side(side), "resigned"))


def claim_absence(match_id: Any, user: Any) -> Any:
    """A live game whose opponent has the move and has been away too long: ``user`` wins
    (``play.presence.claim``)."""
    return presence.claim(KIND, match_id, user)


def replay(match: StrategoMatch) -> State:
    """The state rebuilt from the setup and the actions still counting (``undo.rebuild``);
    ``RuntimeError`` if an action's events differ from those recorded."""
    return undo_rules.rebuild(KIND, match, setup_game(match), match.actions.order_by("seq"))
