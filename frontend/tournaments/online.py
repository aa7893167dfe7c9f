"""What the match pages show of an online tournament (issue 12): the round's deadline as a
countdown, and the match's games (any kind) with the side the viewer plays in each. Pure
helpers and a read; the games are made and settled by ``tournaments.services`` (online,
online_results)."""

from __future__ import annotations

from datetime import datetime

from play import registry
from tournaments.models import BATTLE, Match, MatchGame, attach_played


def countdown_text(ends_at: datetime | None, now: datetime) -> str:
    """The time left until ``ends_at`` as a person reads it: "in 2 h 14 min", "in 3 d 4 h",
    "in 5 min", "in less than a minute"; "passed" once it is over; "" without a deadline."""
    if ends_at is None:
        return ""
    seconds = int((ends_at - now).total_seconds())
    if seconds <= 0:
        return "passed"
    minutes = seconds // 60
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"in {days} d {hours} h" if hours else f"in {days} d"
    if hours:
        return f"in {hours} h {minutes} min" if minutes else f"in {hours} h"
    return f"in {minutes} min" if minutes else "in less than a minute"


def match_games(m: Match, user) -> list[dict]:
    """The match's played games (game order), any kind: the kind, the id and page of each
    (``url``: None for a kind with no page), the side ``user`` plays in it (None: a viewer
    who does not play) and whether it is over."""
    rows = []
    links = attach_played(list(MatchGame.objects.filter(match=m).order_by("game")))
    for link in links:
        played = link.played
        kind = registry.get(link.kind)
        side = ("French" if played.french_player_id == getattr(user, "pk", None) else
                "Allied" if played.allied_player_id == getattr(user, "pk", None) else None)
        rows.append({"game": link.game, "kind": link.kind, "noun": kind.noun,
                     "id": played.pk, "url": registry.page_url(kind, played.pk),
                     "battle_id": played.pk if link.kind == BATTLE else None, "side": side,
                     "status": played.get_status_display(), "over": played.status != "active"})
    return rows


match_battles = match_games  # its name when every tournament game was a battle
