"""An online tournament game's result off the ending action's path (issue 31): the end of
the game sends ``tournaments.record_online`` once it commits (the game's link read in the
ending statement on PostgreSQL); the task settles the match once, a second run changes
nothing; a broker down at the end still ends the game, and ``tournaments.tick`` records the
result later (``online_results.unreported``). These tests take ``results_later``
(tests/conftest.py): the tasks are sent, not run."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery import Celery
from django.utils import timezone

from battles.models import Battle
from tournaments import tasks
from tournaments.models import Match, Round
from tournaments.services import online_results

from .test_tournament_online import battles_of, end, online_field, online_log, the_match
from .tournament_helpers import organiser

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(catalogue):
    return organiser()



def test_the_end_sends_the_result_to_a_worker_which_records_it_once(
        org, sent_tasks, django_capture_on_commit_callbacks):
    t, _ = online_field(org, 2)
    m = the_match(t)
    [b] = battles_of(m)
    with django_capture_on_commit_callbacks(execute=True):
        end(b, "french")
    m.refresh_from_db()
    assert m.state != Match.State.SETTLED and not online_log(m)  # not in the ending
    assert (online_results.RECORD, [m.pk]) in sent_tasks
    assert tasks.record_online(m.pk) is True
    assert tasks.record_online(m.pk) is False  # a doubled message: nothing more
    m.refresh_from_db()
    assert m.state == Match.State.SETTLED and (m.french_games, m.allied_games) == (1, 0)
    assert len(online_log(m)) == 1
    assert Round.objects.get(tournament=t, number=1).state == Round.State.FINISHED


def test_a_broker_down_at_the_end_still_ends_the_game_and_the_tick_records_it(
        org, results_later, monkeypatch, django_capture_on_commit_callbacks):
    t, _ = online_field(org, 2)
    m = the_match(t)
    [b] = battles_of(m)

    def down(app, name, *args, **kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(Celery, "send_task", down)
    with django_capture_on_commit_callbacks(execute=True):
        end(b, "allied")
    assert Battle.objects.get(pk=b.pk).status == "finished"
    assert online_results.unreported() == []  # too young: the task may still come
    Battle.objects.filter(pk=b.pk).update(
        finished_at=timezone.now() - online_results.GRACE - timedelta(seconds=1))
    assert online_results.unreported() == [m.pk]
    monkeypatch.setattr(Celery, "send_task", lambda *args, **kwargs: None)  # tick's advance
    tasks.tick()
    m.refresh_from_db()
    assert m.state == Match.State.SETTLED and (m.french_games, m.allied_games) == (0, 1)
    assert len(online_log(m)) == 1 and online_results.unreported() == []


def test_a_half_played_two_game_match_is_not_swept(org, results_later,
                                                   django_capture_on_commit_callbacks):
    t, _ = online_field(org, 2, format="swiss_two_game")
    m = the_match(t)
    game1, _game2 = battles_of(m)
    end(game1, "french")
    Battle.objects.filter(pk=game1.pk).update(finished_at=timezone.now() - timedelta(hours=1))
    assert online_results.unreported() == []
