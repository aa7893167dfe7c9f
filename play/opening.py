"""Opening a two-seat match, for every game's app (issue 27: one home, not a copy per game):
the checks of a new match's common options (``new_match``), taking the empty seat
(``join``), starting one (``start``: the kind's setup stored, the clock started), the checks
of a tournament's seated match (``seat_check``) and the row of either, saved and announced
(``create``, ``seat``). A kind's services bind them to its model."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.errors import BadInput, Conflict, NotAllowed, NotFound

from . import clock, enqueue, seats, turns
from .models import MatchStatus as Status
from .registry import MatchKind
from .seats import side_of
from .seeds import new_seed, seed_hash

COMPUTER, OPEN = seats.COMPUTER, seats.OPEN  # a new match's opponent, or a username


def require_user(user: Any) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed("log in to play")


@dataclass(frozen=True)
class NewMatch:
    """A new match's checked seats and options (``new_match``)."""

    side: str
    bot: str  # "" unless the computer plays the other side
    invited: Any  # the user invited by name, or None
    public: bool
    rated: bool
    time_control: dict[str, Any]

    def seats(self, user: Any) -> dict[str, Any]:
        """The model's seat fields (the creator's side; the other empty or the computer's),
        its status and expiry: a match against the computer starts at once."""
        return {"french_player": user if self.side == "french" else None,
                "allied_player": user if self.side == "allied" else None,
                "bot": self.bot, "invited": self.invited, "public": self.public,
                "rated": self.rated, "time_control": self.time_control,
                "expires_at": None if self.bot else timezone.now() + turns.EXPIRY,
                "status": Status.ACTIVE if self.bot else Status.WAITING}


def new_match(user: Any, side: Any, opponent: Any, bot: Any, bots: Iterable[str],
              public: Any, rated: Any, time_control: Any, noun: str) -> NewMatch:
    """``user`` plays ``side``; the seats checked by ``seats.opponent_terms`` (the one home of
    those checks), ``time_control`` by ``play.clock``. 400 (401 for nobody logged in) naming
    the first thing wrong."""
    require_user(user)
    bot, invited = seats.opponent_terms(user, side, opponent, bot, tuple(bots), public=public,
                                        rated=rated, noun=noun)
    return NewMatch(str(side), bot, invited, public, rated, clock.validate(time_control))


def opened(kind: MatchKind, match: Any) -> None:
    """After a new match is saved (inside its transaction): its flag fall booked, the change
    announced, the computer asked if it moves first."""
    enqueue.flag_fall_on_commit(kind.kind, match)
    turns.changed(kind, match)
    if match.bot and match.to_move and match.to_move == match.computer_side():
        enqueue.bot_move_on_commit(kind.kind, match.pk, match.seq)


def start(kind: MatchKind, match: Any) -> None:
    """The match set up (``kind.setup``, stored by ``kind.save_state``), active, its clock
    started (not saved: the caller saves)."""
    kind.save_state(match, kind.setup(match))
    match.status = Status.ACTIVE
    clock.start(match, timezone.now())


def join(kind: MatchKind, match_id: Any, user: Any) -> Any:
    """``user`` takes the empty seat of an open match, or one they are invited to; it starts
    (``start``; the match is saved here)."""
    require_user(user)
    noun = kind.noun
    with transaction.atomic():
        match = (kind.model.objects.select_for_update(of=("self",))
                 .filter(pk=seats.match_pk(match_id, noun)).first())
        if match is None or (side_of(match, user) is None and match.invited_id
                             not in (None, user.pk)) or (
                match.status != Status.WAITING and side_of(match, user) is None
                and not match.public):
            raise NotFound(f"no such {noun}")
        if side_of(match, user) is not None:
            raise Conflict(f"this is your own {noun}: wait for another player to join")
        if match.status == Status.EXPIRED or (
                match.status == Status.WAITING and match.expires_at is not None
                and match.expires_at <= timezone.now()):
            raise Conflict(f"this {noun} expired: nobody took the seat in time",
                           code="expired")
        if match.status != Status.WAITING or match.bot:
            raise Conflict(f"the seat is taken: the {noun} is no longer waiting",
                           seq=match.seq)
        setattr(match, f"{match.empty_side()}_player", user)
        start(kind, match)
        match.save()
        opened(kind, match)
    return match


def create(kind: MatchKind, new: NewMatch, user: Any, **setup: Any) -> Any:
    """The row of ``user``'s new match (``new``: ``new_match``'s checks; ``setup``: the
    kind's own setup columns), with a fresh secret seed, saved in one transaction: against the
    computer it starts at once (``start``), else it waits for the other player."""
    seed = new_seed()
    with transaction.atomic():
        match = kind.model(seed=seed, seed_hash=seed_hash(seed), **setup, **new.seats(user))
        if match.bot:
            start(kind, match)
        match.save()
        opened(kind, match)
    return match


def seat(kind: MatchKind, fields: dict[str, Any], **setup: Any) -> Any:
    """A tournament's match (``fields``: ``seat_check``'s; ``setup``: the kind's own setup
    columns), both players seated, started at once and saved in one transaction."""
    seed = new_seed()
    match = kind.model(seed=seed, seed_hash=seed_hash(seed), **setup, **fields)
    start(kind, match)
    with transaction.atomic():
        match.save()
        opened(kind, match)
    return match


def seat_check(options: dict[str, Any], known: Iterable[str], french_user: Any,
               allied_user: Any, title: str, noun: str) -> dict[str, Any]:
    """A tournament's seated match (``play.seating``): 400 for an option the kind does not
    take or the same player twice; the common options (``public``, ``rated``,
    ``time_control``) as the model's fields."""
    known = tuple(known)
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise BadInput(f"unknown {title} option {unknown[0]!r}; known: {', '.join(known)}")
    if french_user is None or allied_user is None or french_user.pk == allied_user.pk:
        raise BadInput(f"a seated {noun} needs two different players")
    return {"french_player": french_user, "allied_player": allied_user,
            "rated": bool(options.get("rated", False)),
            "public": bool(options.get("public", True)),
            "time_control": clock.validate(options.get("time_control") or {})}

