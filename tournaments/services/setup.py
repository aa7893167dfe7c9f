"""Creating and editing a tournament (before it starts), webhooks, publishing deck lists."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from cards.models import Battle
from decks.inputs import DeckInputError, clean_scale
from decks.rules.chart import as_scale, scale_problem
from play import registry, seating

from ..models import (
    BATTLE,
    BEFORE_START,
    TIEBREAKERS,
    DealPool,
    DeckKind,
    Format,
    PairingMode,
    Status,
    Tournament,
    game_choices,
)
from .common import lock_tournament, require_organiser
from .errors import Conflict, TournamentError
from .lifecycle import unlock_decks
from .online import clean_time_control
from .wake import schedule_wake
from .webhooks import check_webhook_url

EDITABLE = ("name", "description", "game", "game_options", "battle", "deck_kind",
            "deal_pool", "deal_historical", "scale", "format", "rounds",
            "top_cut", "round_seconds", "break_seconds", "pairing_mode", "tiebreakers",
            "registration_closes_at", "check_in_opens_at", "starts_at", "max_players",
            "late_entry", "webhook_url", "online", "time_control")
MAX_ROUND_SECONDS = 24 * 3600
# The EAGLES fields: a battle tournament's own; another game's tournament takes none of them
# (400 naming them; left at their defaults, ``battle`` empty).
EAGLES_FIELDS = ("battle", "deck_kind", "scale", "deal_pool", "deal_historical")
EAGLES_DEFAULTS = {"battle": "", "deck_kind": DeckKind.CUSTOM, "scale": "1",
                   "deal_pool": DealPool.SET, "deal_historical": False}


def _choice(value, choices, what: str) -> str:
    if value not in choices.values:
        raise TournamentError(f"{what} must be one of {', '.join(choices.values)}")
    return value


def _int(value, what: str, low: int, high: int, *, optional: bool = False):
    if value in (None, "") and optional:
        return None
    if isinstance(value, bool):
        raise TournamentError(f"{what} must be a whole number")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise TournamentError(f"{what} must be a whole number") from None
    if str(number) != str(value).strip() and not isinstance(value, int):
        raise TournamentError(f"{what} must be a whole number")
    if not low <= number <= high:
        raise TournamentError(f"{what} must be between {low} and {high}")
    return number


def _time(value, what: str) -> datetime | None:
    if value in (None, ""):
        return None
    if isinstance(value, str):
        parsed = parse_datetime(value)
        if parsed is None:
            raise TournamentError(f"{what} is not a date and time (ISO 8601)")
        value = parsed
    if not isinstance(value, datetime):
        raise TournamentError(f"{what} is not a date and time")
    if timezone.is_naive(value):
        value = timezone.make_aware(value, timezone.get_current_timezone())
    return value


def _game(value) -> str:
    """A kind a tournament can seat (``play.seating.can_seat``), else a 400 naming them."""
    choices = [kind for kind, _ in game_choices()]
    if not isinstance(value, str) or not seating.can_seat(value):
        shown = repr(value)[:40]
        why = ("no such game" if not isinstance(value, str) or value not in
               [k.kind for k in registry.kinds()] else "a tournament cannot seat its matches")
        raise TournamentError(f"game must be one of {', '.join(choices)}: {shown} is not "
                              f"({why})")
    return value


def clean(fields: dict) -> dict:
    """Validate tournament settings; raises ``TournamentError`` naming the field."""
    out = dict(fields)
    if "name" in out:
        name = str(out["name"] or "").strip()
        if not name or len(name) > 120:
            raise TournamentError("name must be 1 to 120 characters")
        out["name"] = name
    if "description" in out:
        out["description"] = str(out["description"] or "")[:5000]
    if "game" in out:
        out["game"] = _game(out["game"])
    if "game_options" in out:
        options = out["game_options"]
        if options in (None, ""):
            options = {}
        if not isinstance(options, dict):
            raise TournamentError("game_options must be an object (the game's own options, "
                                  "e.g. {}), not " + type(options).__name__)
        out["game_options"] = options
    if "battle" in out:
        _choice(out["battle"], Battle, "battle")
    if "deck_kind" in out:
        _choice(out["deck_kind"], DeckKind, "deck_kind")
    if "deal_pool" in out:
        _choice(out["deal_pool"], DealPool, "deal_pool")
    if "deal_historical" in out and not isinstance(out["deal_historical"], bool):
        raise TournamentError("deal_historical must be true or false")
    if "format" in out:
        _choice(out["format"], Format, "format")
    if "pairing_mode" in out:
        _choice(out["pairing_mode"], PairingMode, "pairing_mode")
    if "scale" in out:
        try:
            out["scale"] = clean_scale(out["scale"])
        except DeckInputError as exc:
            raise TournamentError(exc.message) from None
    if "rounds" in out:
        out["rounds"] = _int(out["rounds"], "rounds", 1, 30, optional=True)
    if "top_cut" in out:
        out["top_cut"] = _int(out["top_cut"], "top_cut", 2, 256, optional=True)
        if out["top_cut"] is not None and out["top_cut"] & (out["top_cut"] - 1):
            raise TournamentError("top_cut must be a power of two (2, 4, 8, ...)")
    if "round_seconds" in out:
        out["round_seconds"] = _int(out["round_seconds"], "round_seconds", 1, MAX_ROUND_SECONDS)
    if "break_seconds" in out:
        out["break_seconds"] = _int(out["break_seconds"], "break_seconds", 0, MAX_ROUND_SECONDS)
    if "max_players" in out:
        out["max_players"] = _int(out["max_players"], "max_players", 2, 100_000, optional=True)
    if "late_entry" in out:
        if not isinstance(out["late_entry"], bool):
            raise TournamentError("late_entry must be true or false")
    if "tiebreakers" in out:
        order = out["tiebreakers"]
        if order in (None, ""):
            order = []
        if not isinstance(order, list) or any(t not in TIEBREAKERS for t in order):
            raise TournamentError(f"tiebreakers must be a list of {', '.join(TIEBREAKERS)}")
        if len(set(order)) != len(order):
            raise TournamentError("tiebreakers must not repeat")
        out["tiebreakers"] = order
    for key in ("registration_closes_at", "check_in_opens_at", "starts_at"):
        if key in out:
            out[key] = _time(out[key], key)
    if "online" in out and not isinstance(out["online"], bool):
        raise TournamentError("online must be true or false")
    if "time_control" in out:
        out["time_control"] = clean_time_control(out["time_control"])
    if "webhook_url" in out:
        url = str(out["webhook_url"] or "").strip()
        if len(url) > 200:
            raise TournamentError("webhook_url must be at most 200 characters")
        if url:
            check_webhook_url(url)  # http(s), public addresses only (SSRF)
        out["webhook_url"] = url
    return out


def _eagles_fields(t: Tournament, given: dict) -> None:
    """The game's rule (README, *Games*): a battle tournament needs its ``battle``; another
    game's refuses every EAGLES field given (400 naming them), and changing a tournament to
    another game resets them (``EAGLES_DEFAULTS``: ``battle`` empty); ``game_options`` are
    another game's only."""
    if t.game == BATTLE:
        if not t.battle:
            raise TournamentError("battle is required for a battle tournament "
                                  "(quatre-bras, ligny, wavre or waterloo)")
        if t.game_options:
            raise TournamentError("game_options are for another game than battle: a battle "
                                  "tournament takes battle, deck_kind, scale, deal_pool and "
                                  "deal_historical instead")
        return
    refused = [f for f in EAGLES_FIELDS if f in given]
    if refused:
        raise TournamentError(f"{', '.join(refused)}: only a battle tournament (game "
                              f"\"battle\") takes {'it' if len(refused) == 1 else 'them'}; a "
                              f"{t.game} tournament has no battle, decks or scale")
    for key, value in EAGLES_DEFAULTS.items():
        setattr(t, key, value)


def _check_consistency(t: Tournament) -> None:
    if t.game == BATTLE and t.deck_kind == DeckKind.DEALT:
        # 2.0: dealt decks are D x scale cards, whole for every army.
        problem = scale_problem(t.battle, as_scale(t.scale), fixed_size=True)
        if problem:
            raise TournamentError(problem)
    if t.format == Format.SWISS_TOP_CUT and not t.top_cut:
        raise TournamentError("a Swiss with a top cut needs top_cut (2, 4, 8, ...)")
    if t.starts_at:
        if t.registration_closes_at and t.registration_closes_at > t.starts_at:
            raise TournamentError("registration must close before the start")
        if t.check_in_opens_at and t.check_in_opens_at >= t.starts_at:
            raise TournamentError("check-in must open before the start")
    elif t.check_in_opens_at:
        raise TournamentError("a check-in window needs a start time (starts_at)")


def create_tournament(organiser, **fields) -> Tournament:
    """A new tournament open for registration. Fields: see ``EDITABLE`` (name and battle
    required). The clock task is scheduled for its first due time."""
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise TournamentError(f"unknown field(s): {', '.join(sorted(unknown))}")
    if "name" not in fields:
        raise TournamentError("name is required")
    if fields.get("game", BATTLE) == BATTLE and "battle" not in fields:
        raise TournamentError("battle is required")
    data = clean(fields)
    t = Tournament(organiser=organiser, **data)
    _eagles_fields(t, data)
    if t.webhook_url:
        t.webhook_secret = secrets.token_hex(32)
    _check_consistency(t)
    with transaction.atomic():
        t.save()
        schedule_wake(t)
    return t


def update_tournament(tournament_id, user, **fields) -> Tournament:
    """Change settings before the start (organiser only)."""
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise TournamentError(f"unknown field(s): {', '.join(sorted(unknown))}")
    data = clean(fields)
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        require_organiser(t, user)
        if t.status not in BEFORE_START:
            raise Conflict("the tournament has started; its settings can no longer change")
        if data.get("webhook_url") and not t.webhook_secret:
            t.webhook_secret = secrets.token_hex(32)
        for key, value in data.items():
            setattr(t, key, value)
        _eagles_fields(t, data)
        _check_consistency(t)
        t.save()
        schedule_wake(t)
    return t


def publish_lists(tournament_id, user, public: bool = True) -> Tournament:
    """Make every deck list public (allowed once the tournament is finished)."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        require_organiser(t, user)
        if public and t.status != Status.FINISHED:
            raise Conflict("deck lists can be published once the tournament is finished")
        t.lists_public = public
        t.save(update_fields=["lists_public"])
    return t


def cancel_tournament(tournament_id, user) -> Tournament:
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        require_organiser(t, user)
        if t.status in (Status.FINISHED, Status.CANCELLED):
            raise Conflict("the tournament is already over")
        t.status = Status.CANCELLED
        t.finished_at = timezone.now()
        t.save(update_fields=["status", "finished_at"])
        unlock_decks(t)
    return t
