"""Helpers shared by the tournament services: locking, permissions, enqueueing on commit."""

from __future__ import annotations

from django.db import transaction

from play import sql

from .. import enqueue as by_name  # this module's enqueue() sends through it
from ..models import Match, Tournament
from .errors import NotAllowed, NotFound


def lock_tournament(tournament_id) -> Tournament:
    """The tournament row, locked until the transaction ends: every change to a tournament
    (its entries, rounds, matches, results) runs under this lock, one at a time."""
    try:
        return Tournament.objects.select_for_update().get(pk=_pk(tournament_id))
    except Tournament.DoesNotExist:
        raise NotFound("no such tournament") from None


# record_result's reads, compiled by the ORM once per connection (``play.sql``; issue 31:
# compiling these two wide locking selects was most of a result's CPU). The tournament is
# found from the match in a subquery (a match never changes tournament) and locked in the
# same query; the match (and its round, as ``select_related`` locks it) is locked after it.
_LOCK_TOURNAMENT_OF = sql.Prepared(
    lambda pk: Tournament.objects.select_for_update().filter(
        pk__in=Match.objects.filter(pk=pk).values("tournament_id")), locking=True)
_LOCK_MATCH = sql.Prepared(
    lambda pk: Match.objects.select_for_update().select_related("round").filter(pk=pk),
    locking=True)


def lock_match(match_id) -> tuple[Tournament, Match]:
    """A match and its tournament, the tournament row locked first (the order every service
    takes), then the match row."""
    pk = getattr(match_id, "pk", match_id)
    # a bigint (a larger number is no match, as the ORM's lookup would say)
    t = _LOCK_TOURNAMENT_OF.first(int(pk)) if str(pk).isdigit() and int(pk) < 2 ** 63 \
        else None
    match = _LOCK_MATCH.first(int(pk)) if t is not None else None
    if t is None or match is None:
        raise NotFound("no such match")
    return t, match


def _pk(value) -> int:
    value = getattr(value, "pk", value)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise NotFound("no such tournament") from None


def is_organiser(tournament: Tournament, user) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False)
                and (user.pk == tournament.organiser_id or user.is_staff))


def require_organiser(tournament: Tournament, user) -> None:
    if not is_organiser(tournament, user):
        raise NotAllowed("only the tournament's organiser may do this")


def enqueue(task_name: str, *args, eta=None) -> None:
    """Send a Celery task once the current transaction commits (never for a rolled-back
    change; a task never sees data that is not there yet). By name (``tournaments.enqueue``):
    the services never import ``tasks.py``, which imports them."""
    transaction.on_commit(lambda: by_name.send(task_name, *args, eta=eta))
