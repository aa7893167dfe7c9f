"""Ratings listen to the game service: ``play.signals.match_finished`` is sent *inside* the
transaction that ends a match. The rating itself is a worker's (issue 31: an ending action
in 4 round trips and a plain action's CPU): the end writes a ``PendingRating`` row (the
outbox) in its own statement (``pending_at_end``, a ``play.alongside`` part; elsewhere than
PostgreSQL the listener writes it), so the match's end and "to be rated" commit together or
not at all; after commit ``ratings.rate`` is sent (``tasks``), which rates the match and
deletes the row in one transaction (``rate_now``); ``ratings.sweep`` (beat) rates what a
lost broker or a dead worker left. Rating twice is impossible: the match row is locked and
the rated record is unique per match (``RatedBattle``, ``RatedCampaign``, ``RatedMatch``).

A kind is rated if its ``MatchKind.rating_pool`` names one ("" = not rated). The two EAGLES
kinds have raters of their own (``RATERS``: ``RatedBattle`` / ``RatedCampaign`` and the
per-battle records, in the "eagles" pool); every other rated kind goes through the generic
``matches.rate_finished_match`` (``RatedMatch``, in its pool)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from play import enqueue, registry
from play.alongside import Part

from .campaigns import rate_finished_campaign
from .matches import rate_finished_match
from .matches import rateable as finished_and_rated
from .models import PendingRating
from .services import rate_finished_battle

RATERS = {"battle": rate_finished_battle, "campaign": rate_finished_campaign}
RATE = "ratings.rate"  # the task (``tasks.rate``), sent by name
PENDING = "rating_pending"  # the name of ``pending_at_end``'s part (``written``)
# The sweep leaves a pending row this young to the task sent at its commit.
GRACE = timedelta(seconds=30)


def pool_of(kind: str | None) -> str:
    """The rating pool of ``kind`` ("" for a kind not rated or not offered)."""
    try:
        return registry.get(kind or "").rating_pool
    except LookupError:
        return ""


def to_rate(kind: str, match: Any) -> bool:
    """``match`` of ``kind`` is to be rated: a rated kind, finished, rated, two people."""
    return (kind in RATERS or bool(pool_of(kind))) and finished_and_rated(match)


def pending_at_end(kind: Any, match: Any, by: str) -> Part | None:
    """``play.alongside`` writer: the ``PendingRating`` row of a finished match to be rated,
    in the statement that ends it (no round trip of its own)."""
    if not to_rate(kind.kind, match):
        return None
    table = connection.ops.quote_name(PendingRating._meta.db_table)
    return Part(PENDING, ((PENDING, f"INSERT INTO {table} (kind, played_id, created_at) "
                                    "VALUES (%s, %s, %s) ON CONFLICT DO NOTHING "
                                    "RETURNING id"),),
                (kind.kind, match.pk, timezone.now()))


def on_match_finished(sender=None, kind: str | None = None, match=None,
                      written: dict | None = None, **kwargs) -> None:
    """Inside the ending transaction: the pending row (unless the ending statement wrote
    it), and ``ratings.rate`` sent once it commits."""
    if match is None or kind is None or not to_rate(kind, match):
        return
    if written is None or PENDING not in written:
        PendingRating.objects.bulk_create(
            [PendingRating(kind=kind, played_id=match.pk, created_at=timezone.now())],
            ignore_conflicts=True)
    enqueue.after_commit(RATE, [kind, match.pk])


def rate_now(kind: str, match_id: int) -> bool:
    """Rate the finished match ``kind`` ``match_id`` if it is still to be rated, and delete
    its pending row, in one transaction (the match row locked first: a doubled task, the
    sweep and the task at once rate it once). True if it was rated now."""
    model = registry.get(kind).model
    with transaction.atomic():
        match = model.objects.select_for_update().filter(pk=match_id).first()
        PendingRating.objects.filter(kind=kind, played_id=match_id).delete()
        if match is None or not to_rate(kind, match):
            return False
        rate = RATERS.get(kind)
        done = rate(None, match) if rate is not None else rate_finished_match(
            kind, pool_of(kind), match)
        return done is not None


def overdue(now=None, limit: int = 500) -> list[tuple[str, int]]:
    """The pending ratings older than ``GRACE`` (oldest first, at most ``limit``)."""
    before = (now or timezone.now()) - GRACE
    return list(PendingRating.objects.filter(created_at__lte=before)
                .order_by("created_at").values_list("kind", "played_id")[:limit])


def pending(kind: str, match_id: int) -> bool:
    """The match's rating is still to come (its pages may say "rating pending")."""
    return PendingRating.objects.filter(kind=kind, played_id=match_id).exists()
