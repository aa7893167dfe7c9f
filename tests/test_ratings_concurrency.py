"""Rated battles between the same two people ending at once, in both seats, plus the same
battle ended twice at once (PostgreSQL only: SQLite serialises every writer, so it cannot
show a lock-order deadlock)."""

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from battles import services
from battles.models import Battle, Status
from ratings.models import RatedBattle, Rating, SideRecord

from .test_trades_concurrency import run_all

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def needs_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises all writers")


def end(battle_id: int, winner: str) -> bool:
    """Resign-like: end the battle if it is still under way (under its row lock)."""
    with transaction.atomic():
        b = Battle.objects.select_for_update().get(pk=battle_id)
        if b.status != Status.ACTIVE:
            return False
        services.finish_battle(b, {"winner": winner, "reason": "resigned", "turn": 1})
        return True


def test_concurrent_ends_rate_each_battle_once_without_deadlock(catalogue, sent):
    alice = User.objects.create_user("alice", "", "pw")
    bob = User.objects.create_user("bob", "", "pw")
    ids = []
    for i in range(6):  # alternating seats: opposite lock orders if rows were locked by seat
        french, allied = (alice, bob) if i % 2 else (bob, alice)
        b = services.create_battle(french, "quatre-bras", "french", opponent="open",
                                   rated=True)
        services.join_battle(b.pk, allied)
        ids.append(b.pk)
    jobs = [(end, (pk, "french")) for pk in ids] + [(end, (ids[0], "allied"))] * 3
    results = run_all(jobs)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(r is True for r in results) == 6
    assert RatedBattle.objects.count() == 6
    assert Rating.objects.get(user=alice).games == Rating.objects.get(user=bob).games == 6
    played = sum(r.played for r in SideRecord.objects.all())
    won = sum(r.won for r in SideRecord.objects.all())
    assert played == 12 and won == 6
