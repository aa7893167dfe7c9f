"""What the match pages show of an online tournament (issue 12): the round's deadline as a
countdown, and the match's battles with the side the viewer plays in each. Pure helpers and a
read; the battles are made and settled by ``tournaments.services`` (online, online_results)."""

from __future__ import annotations

from datetime import datetime

from tournaments.models import Match


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


def match_battles(m: Match, user) -> list[dict]:
    """The match's battles (game order) with the side ``user`` plays in each (None: a viewer
    who does not play) and whether it is over."""
    rows = []
    for link in m.battles.select_related("battle").order_by("game"):
        b = link.battle
        side = ("French" if b.french_player_id == getattr(user, "pk", None) else
                "Allied" if b.allied_player_id == getattr(user, "pk", None) else None)
        rows.append({"game": link.game, "battle_id": b.pk, "side": side,
                     "status": b.get_status_display(), "over": b.status != "active"})
    return rows
