"""Who sits where, for every game: the invited player found by name, and the seat methods
every match model shares (``SeatsMixin``: a side's player, the empty seat, the computer's
side). Two sides, each a user or not: a side without a player is the computer's when
``bot`` is set, else a seat still to take (the match is ``waiting``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model

from config.errors import BadInput, NotAllowed, NotFound
from game import SIDES, other_side

from .sql import Prepared


def invitee(user: Any, opponent: str, noun: str) -> Any:
    """The active user invited by name (as they log in: case does not matter); 404 for no
    such player, 400 for oneself."""
    users = get_user_model().objects.filter(is_active=True)
    found = users.filter(username=opponent).first() or \
        (list(users.filter(username__iexact=opponent)[:1]) or [None])[0]
    if found is None:
        raise NotFound(f"no player named {opponent!r}: invite someone by their username, or "
                       f'create an open {noun} (opponent "open")')
    if found.pk == user.pk:
        raise BadInput("you cannot invite yourself: invite another player by their "
                       f'username, or create an open {noun} (opponent "open")')
    return found


COMPUTER, OPEN = "computer", "open"  # a new match's opponent, or a username


def opponent_terms(user: Any, side: Any, opponent: Any, bot: Any, bots: tuple[str, ...], *,
                   public: Any, rated: Any, noun: str) -> tuple[str, Any]:
    """A new match's seats checked, as every game's create service takes them: ``side`` one
    of the two, ``opponent`` ``computer`` (then ``bot`` one of ``bots``), ``open`` or a
    username (found: ``invitee``), ``public`` and ``rated`` true or false, never rated
    against the computer. Returns (the bot, "" against a person; the invited user or None)."""
    if side not in SIDES:
        raise BadInput(f"side must be one of {', '.join(SIDES)}, not {side!r}")
    if not isinstance(opponent, str) or not opponent:
        raise BadInput('opponent must be "computer", "open" or a username')
    if type(public) is not bool:
        raise BadInput("public must be true or false")
    if type(rated) is not bool:
        raise BadInput("rated must be true or false")
    if rated and opponent == COMPUTER:
        raise BadInput("games against the computer are never rated")
    if opponent == COMPUTER:
        if bot not in bots:
            raise BadInput(f"bot must be one of {', '.join(bots)}, not {bot!r}")
        return str(bot), None
    return "", None if opponent == OPEN else invitee(user, opponent, noun)


def side_of(match: Any, user: Any) -> str | None:
    """The side ``user`` plays in ``match`` (None: not a player, or nobody logged in)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for side in SIDES:
        if match.player_id(side) == user.pk:
            return side
    return None


def match_pk(value: Any, noun: str) -> int:
    """A match id from a URL or a request (a positive whole number); 404 otherwise."""
    value = getattr(value, "pk", value)
    if type(value) is int and value > 0:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 12:
        return int(value)
    raise NotFound(f"no such {noun}")


def locker(model: Any, noun: str, defer: tuple[str, ...] = ()
           ) -> Callable[[Any, Any], tuple[Any, str]]:
    """A kind's ``lock``: (the match, ``user``'s side) under the row lock, without the
    ``defer`` columns; 401 for nobody logged in, 404 unless ``user`` plays it."""
    # the players read with the row: the messages and notices of the change name them; and
    # their settings (auto-play reads them: ``accounts.models.preference``)
    locked = Prepared(lambda pk: model.objects.select_for_update(of=("self",)).filter(pk=pk)
                      .select_related(*(f"{side}_player__preferences" for side in SIDES))
                      .defer(*defer),
                      locking=True)

    def lock(user: Any, match_id: Any) -> tuple[Any, str]:
        if user is None or not getattr(user, "is_authenticated", False):
            raise NotAllowed("log in to play")
        match = locked.first(match_pk(match_id, noun))
        side = side_of(match, user) if match is not None else None
        if side is None:
            raise NotFound(f"no such {noun}")
        return match, side

    return lock


class SeatsMixin:
    """The seat methods of a match model with ``french_player`` / ``allied_player`` and
    ``bot`` fields."""

    french_player: Any
    allied_player: Any
    french_player_id: int | None
    allied_player_id: int | None
    bot: str

    def player(self, side: str) -> Any:
        return self.french_player if side == SIDES[0] else self.allied_player

    def player_id(self, side: str) -> int | None:
        return self.french_player_id if side == SIDES[0] else self.allied_player_id

    def empty_side(self) -> str | None:
        """The side without a player (the computer's, or a seat not taken yet)."""
        for side in SIDES:
            if self.player_id(side) is None:
                return side
        return None

    def computer_side(self) -> str | None:
        """The side the computer plays (None: two people play)."""
        return self.empty_side() if self.bot else None

    def opponent_name(self, side: str | None) -> str | None:
        """The player facing ``side``: a username, ``computer (<bot>)``, or, while its seat
        is empty, the invited user's name (None: open to anyone, or no side)."""
        if side is None:
            return None
        other = other_side(side)
        if other == self.computer_side():
            return f"computer ({self.bot})"
        player = self.player(other)
        if player is not None:
            return player.username
        invited = getattr(self, "invited", None)
        return invited.username if invited is not None else None

    def free_seat(self) -> str | None:
        """The human seat still to take (None once both are taken, or against the
        computer)."""
        return self.empty_side() if not self.bot else None
