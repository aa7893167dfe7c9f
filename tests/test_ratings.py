"""Ratings (ratings/): a rated battle between two people updates both players once, in the
transaction that ends it; the computer's games never count; the player page, leaderboard and
lobby (filters, play now by closest rating)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from rest_framework.test import APIClient

from battles import services
from battles.errors import BattleError
from battles.models import Battle
from ratings import lobby
from ratings.models import RatedBattle, Rating, SideRecord
from ratings.services import rate_battle

pytestmark = pytest.mark.django_db


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def carol(db) -> User:
    return User.objects.create_user("carol", "carol@example.com", "s3cret-pass-1815")


def started(french, allied, *, rated=True, battle="quatre-bras") -> Battle:
    b = services.create_battle(french, battle, "french", opponent="open", rated=rated)
    services.join_battle(b.pk, allied)
    return Battle.objects.get(pk=b.pk)


def finish(battle: Battle, winner: str | None, reason: str = "resigned") -> Battle:
    """End the battle as the services do (a resignation, a flag fall, the engine)."""
    with transaction.atomic():
        locked = Battle.objects.select_for_update().get(pk=battle.pk)
        services.finish_battle(locked, {"winner": winner, "reason": reason, "turn": 2})
    return Battle.objects.get(pk=battle.pk)


def figures(user) -> tuple[float, float, int]:
    r = Rating.objects.get(user=user)
    return r.rating, r.rd, r.games


def record(user, battle="quatre-bras", side="french") -> tuple[int, int, int, int]:
    r = SideRecord.objects.get(user=user, battle=battle, side=side)
    return r.played, r.won, r.lost, r.drawn


def test_a_rated_resignation_updates_both_players_once(user, other_user, sent):
    b = finish(started(user, other_user), "allied", "resigned")
    (ra, rda, ga), (rb, rdb, gb) = figures(user), figures(other_user)
    assert ga == gb == 1
    assert ra < 1500 < rb and ra + rb == pytest.approx(3000)  # equals: mirror images
    assert rda == pytest.approx(rdb) and rda < 350
    assert record(user) == (1, 0, 1, 0) and record(other_user, side="allied") == (1, 1, 0, 0)
    rb_row = RatedBattle.objects.get(battle=b)
    assert (rb_row.french_before, rb_row.allied_before) == (1500, 1500)
    assert rb_row.french_after == pytest.approx(ra) and rb_row.french_score == 0
    # Once: rating it again (a repeated signal, a replayed task) changes nothing.
    assert rate_battle(b) is None
    assert figures(user) == (ra, rda, ga) and RatedBattle.objects.count() == 1
    assert record(user) == (1, 0, 1, 0)


def test_a_flag_fall_rates_and_a_draw_scores_half(user, other_user, carol, sent):
    finish(started(user, other_user), "french", "time")
    assert figures(user)[0] > 1500 > figures(other_user)[0]
    before = figures(user)[0]
    # A draw against a lower-rated player costs the higher one a little.
    finish(started(other_user, user), None, "turn_cap")
    assert figures(user)[0] < before
    assert record(user, side="allied") == (1, 0, 0, 1)
    assert record(other_user, side="french") == (1, 0, 0, 1)
    assert figures(user)[2] == 2 and not Rating.objects.filter(user=carol).exists()


def test_unrated_and_computer_games_are_never_rated(user, other_user, sent):
    finish(started(user, other_user, rated=False), "french")
    vs_computer = services.create_battle(user, "quatre-bras", "french", bot="random")
    finish(vs_computer, "french")
    # Even if the flag were set by hand, a battle with the computer is not rated.
    Battle.objects.filter(pk=vs_computer.pk).update(rated=True)
    assert rate_battle(Battle.objects.get(pk=vs_computer.pk)) is None
    assert not Rating.objects.exists() and not RatedBattle.objects.exists()


def test_rated_against_the_computer_is_refused(user, sent):
    with pytest.raises(BattleError, match="games against the computer are never rated"):
        services.create_battle(user, "quatre-bras", "french", rated=True)
    r = client(user).post("/api/battles/", {"battle": "quatre-bras", "side": "french",
                                            "rated": True}, format="json")
    assert r.status_code == 400, r.content
    assert r.json()["detail"] == "games against the computer are never rated"
    r = client(user).post("/api/battles/", {"battle": "quatre-bras", "side": "french",
                                            "opponent": "open", "rated": "yes"}, format="json")
    assert r.status_code == 400 and r.json()["detail"] == "rated must be true or false"
    r = client(user).post("/api/battles/", {"battle": "quatre-bras", "side": "french",
                                            "opponent": "open", "rated": True}, format="json")
    assert r.status_code == 201 and r.json()["rated"] is True
    assert Battle.objects.get(pk=r.json()["id"]).rated is True
    assert not Battle.objects.filter(bot="random").exists()


def test_a_failing_rating_rolls_the_end_back(user, other_user, sent, monkeypatch):
    """The listener runs inside the finishing transaction: both are saved, or neither."""
    b = started(user, other_user)

    def boom(*args, **kwargs):
        raise RuntimeError("rating store down")

    monkeypatch.setattr("ratings.services.glicko2.rate_game", boom)
    with pytest.raises(RuntimeError):
        finish(b, "french")
    assert Battle.objects.get(pk=b.pk).status == "active"
    assert not Rating.objects.exists() and not SideRecord.objects.exists()
