"""A match's rating off the ending action's path (issue 31): the end writes a
``PendingRating`` row with itself (on PostgreSQL in the ending statement) and sends
``ratings.rate`` once it commits; the task rates the match once (a second run changes
nothing); a broker down at the end still ends the match, and ``ratings.sweep`` rates it
later. These tests take ``results_later`` (tests/conftest.py): the tasks are sent, not run."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery import Celery
from django.utils import timezone

from battles.models import Battle
from ratings import listeners, tasks
from ratings.models import PendingRating, RatedBattle, Rating

from .test_ratings import finish, started

pytestmark = pytest.mark.django_db



def test_the_end_leaves_the_rating_to_a_worker_which_rates_once(
        user, other_user, sent, sent_tasks, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        b = finish(started(user, other_user), "allied", "resigned")
    assert b.status == "finished"
    assert PendingRating.objects.filter(kind="battle", played_id=b.pk).exists()
    assert not RatedBattle.objects.filter(battle=b).exists()  # not in the ending transaction
    assert listeners.pending("battle", b.pk)
    assert ("ratings.rate", ["battle", b.pk]) in sent_tasks
    assert tasks.rate("battle", b.pk) is True
    assert tasks.rate("battle", b.pk) is False  # the task again (a doubled message): nothing
    assert RatedBattle.objects.filter(battle=b).count() == 1
    assert Rating.objects.get(user=user).games == Rating.objects.get(user=other_user).games == 1
    assert not PendingRating.objects.exists()
    assert tasks.sweep() == []  # nothing left


def test_an_unrated_or_computer_end_leaves_no_pending_row(user, other_user, sent, sent_tasks,
                                                          django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        finish(started(user, other_user, rated=False), "french")
    assert not PendingRating.objects.exists()
    assert not [name for name, _ in sent_tasks if name == "ratings.rate"]


def test_a_broker_down_at_the_end_still_ends_it_and_the_sweep_rates_it(
        user, other_user, sent, results_later, monkeypatch,
        django_capture_on_commit_callbacks):
    def down(app, name, *args, **kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(Celery, "send_task", down)
    with django_capture_on_commit_callbacks(execute=True):
        b = finish(started(user, other_user), "french", "resigned")
    assert Battle.objects.get(pk=b.pk).status == "finished"
    assert not RatedBattle.objects.exists()
    assert tasks.sweep() == []  # too young: the task sent at the end may still come
    PendingRating.objects.update(created_at=timezone.now() - listeners.GRACE
                                 - timedelta(seconds=1))
    assert tasks.sweep() == [("battle", b.pk)]
    assert RatedBattle.objects.filter(battle=b).count() == 1
    assert tasks.sweep() == [] and not PendingRating.objects.exists()


def test_a_pending_row_of_a_deleted_match_is_dropped(db):
    PendingRating.objects.create(kind="battle", played_id=987654, created_at=timezone.now())
    assert tasks.rate("battle", 987654) is False
    assert not PendingRating.objects.exists()


def test_the_sweep_is_on_the_beat():
    from celery import current_app

    assert current_app.conf.beat_schedule["ratings-sweep"]["task"] == "ratings.sweep"


def test_the_player_page_says_rating_pending_until_the_worker_rated(
        user, other_user, sent, sent_tasks, django_capture_on_commit_callbacks):
    from django.test import Client
    from rest_framework.test import APIClient

    with django_capture_on_commit_callbacks(execute=True):
        b = finish(started(user, other_user), "allied", "resigned")
    page = Client().get(f"/players/{user.username}/")
    assert page.status_code == 200
    assert b"Rating pending" in page.content
    api = APIClient().get(f"/api/players/{user.username}/")
    assert api.status_code == 200 and api.json()["rating_pending"] == 1
    tasks.rate("battle", b.pk)
    assert b"Rating pending" not in Client().get(f"/players/{user.username}/").content
    assert APIClient().get(f"/api/players/{user.username}/").json()["rating_pending"] == 0
