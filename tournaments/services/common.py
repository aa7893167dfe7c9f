"""Helpers shared by the tournament services: locking, permissions, enqueueing on commit."""

from __future__ import annotations

from django.db import transaction

from ..models import Tournament
from .errors import NotAllowed, NotFound


def lock_tournament(tournament_id) -> Tournament:
    """The tournament row, locked until the transaction ends: every change to a tournament
    (its entries, rounds, matches, results) runs under this lock, one at a time."""
    try:
        return Tournament.objects.select_for_update().get(pk=_pk(tournament_id))
    except Tournament.DoesNotExist:
        raise NotFound("no such tournament") from None


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
    change; a task never sees data that is not there yet)."""
    def send():
        from .. import tasks

        tasks.send(task_name, *args, eta=eta)

    transaction.on_commit(send)
