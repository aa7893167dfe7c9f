"""Deadline warnings (``deadline_near``), run by the beat task ``notifications.deadline_near``.

* A battle's ``deadline`` (the side to move runs out of time): warned when less than
  ``LIVE_WARNING`` (live) or ``CORRESPONDENCE_WARNING`` (correspondence) is left, once per
  battle and ``seq`` (the key), to the player to move (never the computer).
* A campaign's ``deadline`` (one clock per side, RULINGS 16-o): the same limits, once per
  campaign and ``seq``.
* A tournament round's ``ends_at``: warned when less than ``ROUND_WARNING`` is left (or a
  quarter of the round, if shorter), once per round, to both players of each match not yet
  settled.
The beat runs every ``EAGLES_TICK_SECONDS`` (30 s by default), so a live battle's warning
comes with 30 to 60 s left.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle, Status
from campaigns.models import Campaign
from tournaments.models import Match, Round

from . import words
from .models import Kind
from .services import notify

LIVE_WARNING = timedelta(seconds=60)
CORRESPONDENCE_WARNING = timedelta(hours=12)
ROUND_WARNING = timedelta(minutes=10)


def warn_battles(now: datetime) -> int:
    sent = 0
    # The partial index on (deadline) of active battles serves this range.
    near = (Battle.objects.filter(status=Status.ACTIVE, deadline__gt=now,
                                  deadline__lte=now + CORRESPONDENCE_WARNING)
            .select_related("french_player", "allied_player"))
    for b in near:
        live = (b.time_control or {}).get("kind") == "live"
        if live and b.deadline > now + LIVE_WARNING:
            continue
        user = b.player(b.to_move) if b.to_move else None
        if user is None:
            continue  # the computer's clock, or nobody's move
        if notify(user, Kind.DEADLINE_NEAR, words.battle_deadline(b.battle, b.pk, b.deadline),
                  reverse("battle", args=[b.pk]), battle_id=b.pk,
                  key=f"deadline:battle:{b.pk}:{b.seq}"):
            sent += 1
    return sent


def warn_campaigns(now: datetime) -> int:
    sent = 0
    near = (Campaign.objects.filter(status="active", deadline__gt=now,
                                    deadline__lte=now + CORRESPONDENCE_WARNING)
            .select_related("french_player", "allied_player")
            .only("id", "seq", "to_move", "deadline", "time_control", "french_player",
                  "allied_player"))
    for c in near:
        live = (c.time_control or {}).get("kind") == "live"
        if live and c.deadline > now + LIVE_WARNING:
            continue
        user = c.player(c.to_move) if c.to_move else None
        if user is None:
            continue  # the computer's clock never runs; nobody's move
        if notify(user, Kind.DEADLINE_NEAR, words.campaign_deadline(c.pk, c.deadline),
                  reverse("campaign", args=[c.pk]), campaign_id=c.pk,
                  key=f"deadline:campaign:{c.pk}:{c.seq}"):
            sent += 1
    return sent


def warn_rounds(now: datetime) -> int:
    sent = 0
    rounds = (Round.objects.filter(state=Round.State.PLAYING, ends_at__gt=now,
                                   ends_at__lte=now + ROUND_WARNING)
              .select_related("tournament"))
    for rnd in rounds:
        t = rnd.tournament
        window = min(ROUND_WARNING, timedelta(seconds=t.round_seconds / 4))
        if rnd.ends_at > now + window:
            continue
        matches = (Match.objects.filter(round=rnd, allied__isnull=False)
                   .filter(~Q(state=Match.State.SETTLED))
                   .select_related("french__user", "allied__user"))
        url = reverse("tournament-my-match", args=[t.pk])
        for m in matches:
            for entry in (m.french, m.allied):
                if notify(entry.user, Kind.DEADLINE_NEAR,
                          words.round_deadline(t.name, rnd.number, rnd.ends_at), url,
                          tournament_id=t.pk, key=f"deadline:round:{rnd.pk}"):
                    sent += 1
    return sent


def warn(now: datetime | None = None) -> int:
    """Send every deadline warning due at ``now``; returns how many were sent."""
    now = now or timezone.now()
    return warn_battles(now) + warn_campaigns(now) + warn_rounds(now)
