"""A small matchup runs through Celery chunks on a real worker process to done (REQUIRED on
PostgreSQL; SQLite's in-memory test database cannot be shared with another process)."""

import pytest
from rest_framework.test import APIClient

from decks import services as deck_services
from matchups import enqueue, lab, services
from matchups.models import Matchup, MatchupChunk, Status

from .tournament_helpers import Worker, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(tmp_path, monkeypatch):
    w = Worker(tmp_path, env_extra=None)
    monkeypatch.setattr(enqueue, "QUEUE", w.queue)
    try:
        yield w
    finally:
        w.stop()


def test_small_matchup_runs_through_celery_chunks_to_done(user, catalogue, worker):
    a = deck_services.create_deck(user, name="Grande Armée", battle="ligny", army="french",
                                  kind="dealt", pool="set").latest
    b = deck_services.create_deck(user, name="Blücher", battle="ligny", army="prussian",
                                  kind="dealt", pool="set").latest
    api = APIClient()
    api.force_authenticate(user)
    worker.start({"EAGLES_MATCHUP_QUEUE": worker.queue})
    r = api.post("/api/matchups/", {"deck_a": a.pk, "deck_b": b.pk, "bots": "greedy,random",
                                    "games": 25, "seed": 9}, format="json")
    assert r.status_code == 201, r.json()
    mid = r.json()["id"]
    wait_for(lambda: Matchup.objects.get(pk=mid).status == Status.DONE, 90, "the matchup done",
             worker)
    m = Matchup.objects.get(pk=mid)
    assert m.progress == 25 and MatchupChunk.objects.filter(matchup=m).count() == 3
    body = api.get(f"/api/matchups/{mid}/").json()
    assert body["status"] == "done" and body["results"]["games"] == 25
    # Doubled chunk tasks change nothing.
    for c in range(lab.chunk_count(25)):
        enqueue.send_chunk(mid, c)
    # The same games in this process give the same answer (deterministic per seed).
    games = [g for c in range(3) for g in lab.play(m.plan, m.seed, lab.chunk_games(c, 25))]
    from matchups import stats

    assert stats.summarize(games, services.card_names())["digest"] == m.results["digest"]
    wait_for(lambda: "matchups.run_chunk" in worker.log_text()
             and worker.log_text().count("succeeded") >= 6, 30, "the doubled tasks", worker)
    m.refresh_from_db()
    assert m.progress == 25 and MatchupChunk.objects.filter(matchup=m).count() == 3
