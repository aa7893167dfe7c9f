"""The computer's move on a real broker with a real worker process, killed mid-move
(REQUIRED on PostgreSQL; SQLite's in-memory test database cannot be shared with another
process, so this skips there).

The worker is SIGKILLed inside ``bot_move``'s transaction (its actions chosen and written,
nothing committed): the battle stays where it was; once a worker is back and the killed
worker's thinking mark has lapsed (battles/thinking.py), the redelivered message
(``acks_late``) and the beat's ``battles.tick`` (a doubled ``bot_move``) make the computer
move exactly once, and the battle goes on.
"""

from __future__ import annotations

import signal
import time

import pytest
from celery import current_app

from battles import services
from battles.models import Battle, BattleAction

from .test_tournament_worker import _restore_unacked
from .tournament_helpers import wait_for, worker_session

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(tmp_path, monkeypatch):
    for w in worker_session(tmp_path, monkeypatch):
        w.env_extra["EAGLES_PLAY_QUEUE"] = w.queue
        # a killed worker's thinking mark (battles/thinking.py) lapses after this
        w.env_extra["EAGLES_THINKING_SECONDS"] = "3"
        monkeypatch.setenv("EAGLES_PLAY_QUEUE", w.queue)  # play.enqueue reads it at each send
        yield w


def test_worker_killed_mid_move_then_the_computer_moves_exactly_once(
        catalogue, user, worker, tmp_path):
    marker = tmp_path / "bot_move.started"
    first = worker.start(pause_bot=(60, marker))
    # Playing the French: the Allies (the computer) deploy first (4.1), so it is asked at once.
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy")
    assert b.seq == 0 and b.to_move == "allied"
    wait_for(marker.exists, 60, "the worker to be inside the computer's move", worker)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    assert Battle.objects.get(pk=b.pk).seq == 0  # its transaction rolled back
    assert not BattleAction.objects.filter(battle_id=b.pk).exists()
    worker.start()
    _restore_unacked()  # the redelivery (acks_late: the killed task was never acknowledged)
    # past the tick's grace period and the killed worker's thinking mark: the computer's
    # turn looks stalled (the redelivered task found the mark and did nothing)
    time.sleep(5.5)
    current_app.send_task("play.tick", queue=worker.queue).get(timeout=60)  # a doubled ask

    def handed_over():
        done = Battle.objects.get(pk=b.pk)
        return done.seq > 0 and done.to_move == "french"
    wait_for(handed_over, 60, "the computer's move after the restart", worker)
    time.sleep(2)  # let the doubled task run too: it must find the battle moved on
    done = Battle.objects.get(pk=b.pk)
    seqs = list(BattleAction.objects.filter(battle_id=b.pk).values_list("seq", flat=True))
    assert seqs == list(range(1, done.seq + 1))  # one run of the computer's actions, no gap
    assert {s for s in BattleAction.objects.filter(battle_id=b.pk)
            .values_list("side", flat=True)} <= {"allied", "french"}
    assert done.to_move == "french"  # the person's move now: the battle goes on
    assert services.replay(done).turn == done.turn  # and it replays exactly
