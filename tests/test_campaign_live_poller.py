"""The campaign sockets' safety net, one per process (``play/live/poller.py``, the campaigns'
``Poller``): one query a round reads every campaign with an open socket on
the event loop, not one per socket; a change whose nudge was lost still reaches every socket
of its campaign (and no other), without a hidden card; a campaign that is over, a closed
socket and a refused one are not polled; battle and campaign sockets on one loop each have
their own poller."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from campaigns import selectors, services
from play.live import consumers
from play.live.poller import poller_for

from . import test_campaign_live, test_live
from .test_campaign_live import TIMEOUT, _receive, check, connect, hello, run, two_people
from .test_live_messages_once import reads

live_setup, people = test_campaign_live.live_setup, test_campaign_live.people  # same fixtures
pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def rounds(monkeypatch):
    """The campaign ids each round of the safety net read (one list per query)."""
    # 0.1 s whichever layer is in force (in memory, or Redis with REDIS_URL)
    monkeypatch.setattr(consumers.GameConsumer, "in_memory_poll_seconds", 0.1)
    monkeypatch.setattr(consumers.GameConsumer, "poll_seconds", 0.1)
    return reads(monkeypatch, "campaign")


@pytest.fixture
def lost_nudges(monkeypatch):
    """No change reaches the group: only the poller can carry it."""
    monkeypatch.setattr("play.live.notify.get_channel_layer", lambda: None)


def first_split(campaign, user) -> dict:
    return selectors.campaign_view(campaign, user)["legal_actions"][0]


def test_one_poll_query_for_every_campaign_with_open_sockets(people, rounds):
    first, second = two_people(people), two_people(people)
    private = two_people(people, public=False)

    async def scenario():
        socks = [await connect(first.pk, people["alice"]), await connect(first.pk, people["bob"]),
                 await connect(first.pk, people["carol"]), await connect(first.pk, None),
                 await connect(second.pk, people["alice"])]
        refused = await connect(private.pk, people["carol"])  # 4403: never polled
        assert (await refused.receive_output(timeout=TIMEOUT))["code"] == 4403
        for c in socks:
            await hello(c)
        rounds.clear()
        await asyncio.sleep(0.55)
        polled = list(rounds)  # (a round during the disconnects reads fewer campaigns)
        for c in socks:
            assert await c.receive_nothing(timeout=0.01)  # nothing moved: nothing sent
            await c.disconnect()
        return polled

    polled = run(scenario)
    assert 2 <= len(polled) <= 7, polled  # ~5 rounds of 0.1 s, not 5 sockets x 5
    assert all(r == sorted([first.pk, second.pk]) for r in polled)


def test_a_change_without_a_nudge_reaches_its_sockets_through_the_poller(people, rounds,
                                                                         lost_nudges):
    c0, other = two_people(people), two_people(people)

    async def scenario():
        socks = {"french": await connect(c0.pk, people["alice"]),
                 "allied": await connect(c0.pk, people["bob"]),
                 None: await connect(c0.pk, people["carol"])}
        elsewhere = await connect(other.pk, people["bob"])
        for c in (*socks.values(), elsewhere):
            assert (await hello(c))["seq"] == 0
        split = await database_sync_to_async(first_split)(c0, people["alice"])
        await database_sync_to_async(services.act)(c0.pk, people["alice"], 0, split)
        for side, c in socks.items():
            msg, raw = await _receive(c)
            assert msg["my_side"] == side and msg["since"] == 0 and msg["seq"] == 1
            assert msg["events"] and {e["seq"] for e in msg["events"]} == {1}
            await database_sync_to_async(check)(msg, raw)  # no hidden card
            assert await c.receive_nothing(timeout=0.3)  # once, not every round
        assert await elsewhere.receive_nothing(timeout=0.1)
        polled = list(rounds)
        for c in (*socks.values(), elsewhere):
            await c.disconnect()
        return polled

    polled = run(scenario)
    assert polled and all(r == sorted([c0.pk, other.pk]) for r in polled)


def test_over_closed_and_gone_campaigns_leave_the_poller(people, rounds, lost_nudges):
    over, other = two_people(people), two_people(people)

    async def scenario():
        alice = await connect(over.pk, people["alice"])
        bob = await connect(other.pk, people["bob"])
        for c in (alice, bob):
            await hello(c)
        poller = poller_for(1.0, "campaign")  # this loop's, made at connect
        assert poller.period == 0.1 and set(poller.sockets) == {over.pk, other.pk}
        await database_sync_to_async(services.resign)(over.pk, people["bob"])
        m = await alice.receive_json_from(timeout=TIMEOUT)
        assert m["status"] == "finished" and m["seq"] == 0  # resigning adds no action
        assert set(poller.sockets) == {other.pk}  # over: nothing more will change
        rounds.clear()
        await asyncio.sleep(0.25)
        assert rounds and all(r == [other.pk] for r in rounds)
        await bob.disconnect()
        assert poller.sockets == {}
        await asyncio.sleep(0.25)  # the poller's loop ends with its last socket
        assert poller.task.done()
        await alice.disconnect()

    run(scenario)


def test_battle_and_campaign_sockets_have_a_poller_each(people, rounds, monkeypatch):
    monkeypatch.setattr(test_live.consumers.GameConsumer, "in_memory_poll_seconds", 0.1)
    monkeypatch.setattr(test_live.consumers.GameConsumer, "poll_seconds", 0.1)
    battle, campaign = test_live.two_people_battle(people), two_people(people)
    battle_rounds = reads(monkeypatch, "battle")

    async def scenario():
        b = await test_live.connect(battle.pk, people["alice"])
        c = await connect(campaign.pk, people["alice"])
        await test_live.hello(b)
        await hello(c)
        battles, campaigns = poller_for(1.0, "battle"), poller_for(1.0, "campaign")
        assert (battles.kind, campaigns.kind) == ("battle", "campaign") and battles is not campaigns
        assert set(battles.sockets) == {battle.pk} and set(campaigns.sockets) == {campaign.pk}
        # Each poller writes its players' presence from its rows (play/presence.py).
        assert battles.presence is not None and campaigns.presence is not None
        await asyncio.sleep(0.35)
        await b.disconnect()
        await c.disconnect()

    run(scenario)
    assert rounds and all(r == [campaign.pk] for r in rounds)
    assert battle_rounds and all(r == [battle.pk] for r in battle_rounds)
