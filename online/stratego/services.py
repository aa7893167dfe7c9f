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

from config.errors import BadInput, Conflict, NotFound
from play import opening, presence, turns
from play import undo as undo_rules
from play.opening import require_user
from play.seats import COMPUTER, side_of
from stratego.engine import State
from stratego.engine.battlefield import parse as parse_battlefield
from stratego.engine.rules import MODES, IllegalAction, check_placement
from stratego.loader import CURRENT, load_pieces

from .kind import KIND, game_pk, state_of
from .models import BotName, LastSetUp, Status, StrategoMatch

BOTS = tuple(BotName.values)


def _clean_variant(variant: Any) -> str:
    if variant not in MODES:
        raise BadInput(f"variant must be one of {', '.join(MODES)} (the rules built so far), "
                       f"not {variant!r}")
    return str(variant)


SCENARIOS = ("early_start", "grouchy")  # the Expert game's scenarios (001 §13; yes or no)


def _clean_options(variant: str, options: Any) -> dict[str, Any]:
    """The Expert game's options (``kind.options_of`` hands them to the engine): the
    scenarios "Start the battle early" (``early_start``) and "Where are the Prussians?"
    (``grouchy``), true or false, and a battlefield of one's own (``battlefield``:
    where the printed tiles lie, the mud tiles and the armies fielded, R43:
    ``stratego.engine.battlefield``)."""
    if options is None or options == {}:
        return {}
    if not isinstance(options, dict):
        raise BadInput("options must be an object")
    unknown = sorted(set(options) - {*SCENARIOS, "battlefield"})
    if unknown:
        raise BadInput(f"unknown option {unknown[0]!r}; known: "
                       f"{', '.join((*SCENARIOS, 'battlefield'))}")
    if variant != "expert":
        raise BadInput("the scenarios and a battlefield of one's own are the Expert game's: "
                       'choose the variant "expert"')
    out: dict[str, Any] = {}
    for key in SCENARIOS:
        if key in options:
            if type(options[key]) is not bool:
                raise BadInput(f"{key} must be true or false")
            if options[key]:
                out[key] = True
    if options.get("battlefield") is not None:
        try:
            parse_battlefield(variant, options["battlefield"], load_pieces(CURRENT))
        except (ValueError, TypeError, KeyError) as exc:
            raise BadInput(str(exc) or 'battlefield: {"tiles": {...}, "mud": [...], '
                           '"armies": {...}} (R43)') from None
        out["battlefield"] = options["battlefield"]
    return out


def create_game(user: Any, side: Any, opponent: Any = COMPUTER, bot: Any = "greedy",
                variant: Any = "basic", public: Any = True, time_control: Any = None,
                rated: Any = False, options: Any = None) -> StrategoMatch:
    """A new game of ``user`` playing ``side``. ``opponent``: ``computer`` (``bot`` plays
    the other side; the game starts at once), ``open`` or a username (``waiting`` until
    they ``join_game``, or it expires after ``EXPIRY``). ``time_control``: ``play.clock``'s
    (default untimed). ``rated``: a game between two people that updates both players'
    "stratego" ratings when it ends (``ratings.matches``); refused against the computer.
    ``options``: the Expert game's scenarios and battlefield (``_clean_options``)."""
    require_user(user)
    variant = _clean_variant(variant)
    settings = _clean_options(variant, options)
    new = opening.new_match(user, side, opponent, bot, BOTS, public, rated, time_control,
                            KIND.noun)
    match: StrategoMatch = opening.create(KIND, new, user, settings=settings,
                                          variant=variant, pieces=CURRENT)
    return match


def join_game(match_id: Any, user: Any) -> StrategoMatch:
    """Take the empty seat of an open game, or one ``user`` is invited to; it starts."""
    match: StrategoMatch = opening.join(KIND, match_id, user)
    return match


SEAT_OPTIONS = ("public", "rated", "time_control", "variant")


def seat_game(french_user: Any, allied_user: Any, options: dict[str, Any]) -> StrategoMatch:
    """A tournament's game (the kind's ``seat`` hook, through ``play.seating``): both
    players seated from the start, active at once, the Allies to set up first, the clock of
    the side to move running. The options are the ones a tournament passes
    (``time_control``, ``rated``, ``public``) and its ``game_options`` (``variant``); any
    other is refused."""
    fields = opening.seat_check(options, SEAT_OPTIONS, french_user, allied_user, "Stratego",
                                KIND.noun)
    match: StrategoMatch = opening.seat(
        KIND, fields, settings={}, variant=_clean_variant(options.get("variant", "basic")),
        pieces=CURRENT)
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
    with transaction.atomic():  # the game's change and the set-up remembered: one commit
        events = turns.act(KIND, match_id, user, seq, action)
        if isinstance(action, dict) and action.get("type") == "deploy":
            _remember_setup(match_id, user, events)
    return events


def _remember_setup(match_id: Any, user: Any, events: list[dict[str, Any]]) -> None:
    """Keep the placement ``user`` just deployed (from their own ``deployed`` event: its
    secret part is theirs) as their last set-up for that side."""
    for e in events:
        placement = (e.get("secret") or {}).get("placement")
        if e.get("type") == "deployed" and isinstance(placement, dict):
            pieces = StrategoMatch.objects.values_list("pieces", flat=True).get(
                pk=game_pk(match_id))
            LastSetUp.objects.update_or_create(
                user=user, side=e["side"],
                defaults={"pieces": pieces, "placement": placement})


def last_setup(match: StrategoMatch, user: Any) -> dict[str, Any] | None:
    """The deploy action of ``user``'s last set-up for their side in ``match``, when it is
    theirs to set up now and the set-up fits this game (``rules.check_placement``: the same
    piece table, the pieces still theirs to place, the scenario's rules); else None."""
    try:
        return _last_setup_action(match, user)
    except (BadInput, Conflict):
        return None


def _last_setup_action(match: StrategoMatch, user: Any) -> dict[str, Any]:
    side = side_of(match, user)
    if side is None:
        raise NotFound("no such game")
    st = state_of(match)
    if st is None or match.status != Status.ACTIVE or st.phase != "setup" \
            or match.to_move != side:
        raise Conflict("it is not your set-up now", seq=match.seq)
    row = LastSetUp.objects.filter(user=user, side=side).first()
    if row is None:
        raise BadInput(f"you have no {side} set-up saved yet: set up once, and it is kept")
    if row.pieces != match.pieces:
        raise BadInput("your last set-up was made with another piece table: set up anew")
    try:
        check_placement(st, side, row.placement)
    except IllegalAction as exc:
        raise BadInput(f"your last {side} set-up does not fit this game: {exc}",
                       code="illegal_action") from None
    return {"type": "deploy", "side": side, "placement": dict(row.placement)}


def use_last_setup(match_id: Any, user: Any, seq: Any) -> list[dict[str, Any]]:
    """Deploy ``user``'s last set-up for their side (``last_setup``); a clear 400 when
    there is none or it no longer fits, 409 when it is not their set-up now."""
    require_user(user)
    match = StrategoMatch.objects.filter(pk=game_pk(match_id)).first()
    if match is None:
        raise NotFound("no such game")
    return act(match.pk, user, seq, _last_setup_action(match, user))


def undo(match_id: Any, user: Any, seq: Any) -> int:
    """Take back ``user``'s last action in their turn until a die is rolled, a piece is
    revealed or the turn ends (``GAME.undo_refusal``); returns the seq taken back."""
    return undo_rules.undo(KIND, match_id, user, seq)


def resign(match_id: Any, user: Any) -> Any:
    """``user`` resigns (at any moment while it is active): the other side wins."""
    return turns.resign(KIND, match_id, user)


def claim_absence(match_id: Any, user: Any) -> Any:
    """A live game whose opponent has the move and has been away too long: ``user`` wins
    (``play.presence.claim``)."""
    return presence.claim(KIND, match_id, user)


def replay(match: StrategoMatch) -> State:
    """The state rebuilt from the setup and the actions still counting (``undo.rebuild``);
    ``RuntimeError`` if an action's events differ from those recorded."""
    state: State = undo_rules.replay(KIND, match)
    return state
