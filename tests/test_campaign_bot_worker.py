"""The computer's campaign moves through a real Celery worker process (REQUIRED on
PostgreSQL; SQLite's in-memory test database cannot be shared with another process, so this
skips there): the person plays through the service, the computer's decisions (its split, its
moves on both boards) arrive from the worker, and a repeated ``campaigns.bot_move`` message (an
old seq, or the seq it already moved from) changes nothing: idempotent by seq."""

from __future__ import annotations

import pytest
from celery import current_app

from campaigns import selectors, services
from campaigns.models import Campaign, CampaignAction, Status

from .campaign.helpers import passive, small_pools
from .tournament_helpers import play_worker_session, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(tmp_path, monkeypatch):
    yield from play_worker_session(tmp_path, monkeypatch)


@pytest.fixture
def small(monkeypatch):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)


def test_the_computers_campaign_moves_arrive_from_a_worker_once(catalogue, user, worker,
                                                                 small):
    worker.start()
    # Alice plays the Allies: the computer (the French) splits first, so it is asked at once.
    c = services.create_campaign(user, "allied", bot="greedy", settings={"turn_cap": 2})
    assert c.seq == 0 and c.to_move == "french"
    asked_at: list[int] = [0]

    def alices_move():
        c.refresh_from_db()
        return c.status != Status.ACTIVE or c.to_move == "allied"

    wait_for(alices_move, 60, "the computer's split from the worker", worker)
    assert c.seq >= 1 and c.actions.get(seq=1).action["type"] == "split"
    assert c.actions.get(seq=1).side == "french"
    computer_rows = 1
    for _ in range(40):  # Alice plays passively; each hand-over brings the worker's answer
        c.refresh_from_db()
        if c.status != Status.ACTIVE or computer_rows >= 6:
            break
        legal = selectors.campaign_view(c, user)["legal_actions"]
        services.act(c.pk, user, c.seq, passive(legal))
        c.refresh_from_db()
        if c.to_move == "french":
            asked_at.append(c.seq)
            wait_for(alices_move, 60, "the computer's move from the worker", worker)
            computer_rows = CampaignAction.objects.filter(campaign_id=c.pk,
                                                          side="french").count()
    assert computer_rows >= 2 and len(asked_at) >= 2
    c.refresh_from_db()
    before = (c.seq, c.status, c.to_move, c.state)
    rows = list(CampaignAction.objects.filter(campaign_id=c.pk).order_by("seq")
                .values_list("seq", "side", "action"))
    # repeated and late messages, straight to the worker: each finds the campaign moved on
    for seq in (*asked_at, c.seq, c.seq + 5):
        result = current_app.send_task("campaigns.bot_move", args=[c.pk, seq],
                                       queue=worker.queue)
        assert result.get(timeout=60) == 0
    c = Campaign.objects.get(pk=c.pk)
    assert (c.seq, c.status, c.to_move, c.state) == before
    assert list(CampaignAction.objects.filter(campaign_id=c.pk).order_by("seq")
                .values_list("seq", "side", "action")) == rows
    assert [r[0] for r in rows] == list(range(1, c.seq + 1))  # one run each time, no gap
    assert services.replay(c).sequence == len(rows)  # and it replays exactly
