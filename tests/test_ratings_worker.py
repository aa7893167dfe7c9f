"""The end of a rated battle rated by a real worker process through the real broker (issue
31: the rating left the ending action's path): a resignation commits with a PendingRating
row, ``ratings.rate`` is sent after commit to the play queue, a separate Celery worker
process rates the battle once and removes the row. REQUIRED on PostgreSQL (SQLite's
in-memory test database cannot be shared with another process, so this skips there)."""

from __future__ import annotations

import pytest

from battles import services
from ratings.models import PendingRating, RatedBattle, Rating

from .test_ratings import started
from .tournament_helpers import play_worker_session, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(tmp_path, monkeypatch):
    yield from play_worker_session(tmp_path, monkeypatch)


def test_a_resignation_is_rated_once_by_the_worker(catalogue, user, other_user, worker,
                                                   results_later):
    worker.start()
    b = started(user, other_user)
    done = services.resign(b.pk, other_user)  # the Allies resign: commits, sends ratings.rate
    assert done.status == "finished"
    wait_for(lambda: RatedBattle.objects.filter(battle_id=b.pk).exists(), 60,
             "the worker to rate the battle", worker)
    wait_for(lambda: not PendingRating.objects.filter(played_id=b.pk).exists(), 10,
             "the pending row to go", worker)
    assert RatedBattle.objects.filter(battle_id=b.pk).count() == 1
    winner, loser = Rating.objects.get(user=user), Rating.objects.get(user=other_user)
    assert winner.games == loser.games == 1 and winner.rating > loser.rating
