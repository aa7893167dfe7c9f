"""The lobby: open challenges with filters, and "play now".

A challenge is an open battle (``battles.selectors.open_battles``: waiting for anyone, not
mine) described by what a joiner chooses on: the battle, the side free, the time control's
kind (``untimed``, ``live``, ``correspondence``), the creator's deck kind (``dealt`` or
``custom``), whether it is rated, and the creator's rating.

``play_now(user, battle, side)`` joins the compatible challenge (same battle, my side free,
same rated flag and scale, the time control kind asked if any) whose creator's rating is
closest to mine, within ``WINDOWS[0]`` = 200 points, widening to 400 then 800; ties go to
whoever has waited longest. If none is that close it creates an open battle with the same
settings and waits there for someone (a player of any rating may still join it by hand).
Of two people who press "play now" at the same instant with nobody waiting, both wait in
their own battle: the next one to come pairs with one of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from battles import services
from battles.dealing import armies
from battles.errors import BattleError, Conflict, NotFound
from battles.models import Battle
from battles.selectors import open_battles, open_summary
from game import BATTLES, SIDES
from play import clock

from .selectors import ratings_of

TIME_KINDS = ("untimed", "live", "correspondence")
# The time control of a battle "play now" opens when nobody is waiting: the kind asked for,
# at the new-battle form's first preset of that kind (play/clock.py).
NEW_TIME_CONTROL = {"untimed": {}, "live": clock.PRESET_CONTROLS["live-15-10"],
                    "correspondence": clock.PRESET_CONTROLS["corr-3"]}
DECK_KINDS = ("dealt", "custom")
WINDOWS = (200, 400, 800)  # rating gaps "play now" accepts, tried in this order
SCAN = 500  # open battles looked at, newest first


def time_kind(battle: Battle) -> str:
    return (battle.time_control or {}).get("kind") or "untimed"


def deck_kind(battle: Battle) -> str:
    """The creator's deck kind: custom if they brought a custom deck for an army of their
    side, else dealt (a pool, or the default historical deal)."""
    free = battle.free_seat()
    theirs = armies(battle.battle, free) if free is not None else []
    mine = [a for a in armies(battle.battle) if a not in theirs]
    kinds = battle.deck_kinds or {}
    return "custom" if any((kinds.get(a) or {}).get("kind") == "custom" for a in mine) \
        else "dealt"


def _choice(name: str, value, allowed) -> str | None:
    if value in (None, ""):
        return None
    if value not in allowed:
        raise BattleError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def _flag(name: str, value) -> bool | None:
    if value in (None, ""):
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("yes", "true", "1"):
        return True
    if isinstance(value, str) and value.lower() in ("no", "false", "0"):
        return False
    raise BattleError(f"{name} must be yes or no, not {value!r}")


@dataclass(frozen=True)
class Filters:
    battle: str | None = None
    time: str | None = None
    deck: str | None = None
    rated: bool | None = None

    @classmethod
    def clean(cls, battle=None, time=None, deck=None, rated=None) -> Filters:
        """The filters from a query string or a body (400 for a value that is not one)."""
        return cls(_choice("battle", battle, BATTLES), _choice("time", time, TIME_KINDS),
                   _choice("deck", deck, DECK_KINDS), _flag("rated", rated))


def _filtered(user, f: Filters):
    qs = open_battles(user)
    if f.battle:
        qs = qs.filter(battle=f.battle)
    if f.rated is not None:
        qs = qs.filter(rated=f.rated)
    if f.time == "untimed":
        qs = qs.filter(~Q(time_control__has_key="kind"))
    elif f.time:
        qs = qs.filter(time_control__kind=f.time)
    return [b for b in qs[:SCAN] if f.deck is None or deck_kind(b) == f.deck]


def _creator_id(battle: Battle) -> int | None:
    free = battle.free_seat()
    return next((battle.player_id(s) for s in SIDES if s != free), None)


def challenges(user, filters: Filters | None = None) -> list[dict]:
    """The open battles ``user`` may join that match ``filters``, newest first, each with
    its creator's rating (figures as on the leaderboard)."""
    found = _filtered(user, filters or Filters())
    ratings = ratings_of(_creator_id(b) for b in found)
    return [{**open_summary(b), "rated": b.rated, "time_control": b.time_control or {},
             "time_kind": time_kind(b), "deck_kind": deck_kind(b),
             "creator_rating": ratings[_creator_id(b)]} for b in found]


@dataclass
class PlayNow:
    battle: Battle
    joined: bool  # True: paired with a waiting player; False: a new open battle, waiting
    gap: float | None = None  # |my rating - the creator's| when joined
    window: int | None = None  # the window it was found in


def candidates(user, battle: str, side: str, *, rated: bool = False, scale: str = "1",
               time: str | None = None) -> list[tuple[float, Battle]]:
    """Compatible challenges for ``user`` (their rating gap, the battle), closest first,
    then longest waiting."""
    f = Filters.clean(battle=battle, time=time, rated=rated)
    if side not in SIDES:
        raise BattleError(f"side must be french or allied, not {side!r}")
    found = [b for b in _filtered(user, f) if b.free_seat() == side and b.scale == scale]
    ratings = ratings_of([user.pk, *(_creator_id(b) for b in found)])
    mine = ratings[user.pk]["rating"]
    return sorted(((abs(ratings[_creator_id(b)]["rating"] - mine), b) for b in found),
                  key=lambda gb: (gb[0], gb[1].created_at, gb[1].pk))


def play_now(user, battle: str, side: str, *, rated: bool = False, scale: str = "1",
             time: str | None = None, deal: dict | None = None,
             deck_version_id=None) -> PlayNow:
    """Join the compatible open battle of the closest rating (within the windows), or
    create an open one and wait. The deck is chosen as for a join (default: dealt from the
    whole set, historical only)."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise services.NotAllowed("log in to play")
    if battle not in BATTLES:
        raise BattleError(f"unknown battle {battle!r}; choose from {', '.join(BATTLES)}")
    # Closest first, so the first that joins is in the narrowest window that has one.
    for gap, b in candidates(user, battle, side, rated=rated, scale=scale, time=time):
        if gap > WINDOWS[-1]:
            break
        try:
            services.join_battle(b.pk, user, deck_version_id, deal=deal)
        except (Conflict, NotFound):
            continue  # someone took the seat (or it was cancelled) meanwhile: the next
        window = next(w for w in WINDOWS if gap <= w)
        return PlayNow(Battle.objects.get(pk=b.pk), True, gap, window)
    created = services.create_battle(user, battle, side, opponent=services.OPEN,
                                     rated=rated, scale=scale, deal=deal,
                                     deck_version_id=deck_version_id,
                                     time_control=NEW_TIME_CONTROL.get(time or "untimed", {}))
    return PlayNow(created, False)
