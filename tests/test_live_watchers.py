"""The spectators' message of a change is built only when someone may be watching (issue 31,
``play/live/watchers.py``): the pub/sub layer's PUBLISH tells the sender how many got each
group's message; a spectators' group found empty gets the cheap nudge at the next change,
and a spectator who arrives unseen still gets every change (built from the nudge), after
which the text is built again. Without a spectator, an action builds two messages, not
three."""

from __future__ import annotations

import uuid

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from config.channel_layer import DegradingPubSubChannelLayer
from play.live import consumers, messages, watchers

from . import test_live
from .test_live import _receive, check_spectator, connect, hello, run, two_people_battle

live_setup, people = test_live.live_setup, test_live.people  # the same fixtures


def test_an_empty_spectators_group_is_remembered_until_someone_gets_a_message():
    watchers.forget()
    group, side = "battle.7.watch", "battle.7.french"
    assert not watchers.nobody_watching(group)  # not known: build
    watchers.heard({side: 0, group: 0})
    assert watchers.nobody_watching(group) and not watchers.nobody_watching(side)
    watchers.heard({group: None})  # not known (Redis gone): as it was
    assert watchers.nobody_watching(group)
    watchers.heard({group: 1})  # someone got the nudge: build the text again
    assert not watchers.nobody_watching(group)
    watchers.forget()


def test_the_memory_is_bounded(monkeypatch):
    watchers.forget()
    monkeypatch.setattr(watchers, "KEPT", 3)
    watchers.heard({f"battle.{n}.watch": 0 for n in range(5)})
    assert [watchers.nobody_watching(f"battle.{n}.watch") for n in range(5)] == [
        False, False, True, True, True]
    watchers.forget()


@pytest.mark.backend
def test_the_layer_says_how_many_got_each_groups_message():
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (set REDIS_URL)")
    layer = DegradingPubSubChannelLayer(hosts=[{"address": settings.REDIS_URL}],
                                        prefix=f"test-{uuid.uuid4().hex[:8]}")

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add("battle.1.french", channel)
        counts = await layer.group_send_many([("battle.1.french", {"type": "x"}),
                                              ("battle.1.watch", {"type": "x"})])
        await layer.receive(channel)
        await layer.flush()
        return counts

    assert run(scenario) == {"battle.1.french": 1, "battle.1.watch": 0}


@pytest.mark.backend
@pytest.mark.django_db(transaction=True)
def test_nobody_watching_no_spectators_text_and_a_newcomer_still_gets_every_change(
        people, monkeypatch):
    if not isinstance(get_channel_layer(), DegradingPubSubChannelLayer):
        pytest.skip("the pub/sub layer's answers (set REDIS_URL)")
    monkeypatch.setattr(consumers.GameConsumer, "poll_seconds", 60)  # the groups only
    watchers.forget()
    built: list = []
    real = messages.change_messages

    def recording(*args, **kwargs):
        change = real(*args, **kwargs)
        built.append(None in change.texts)
        return change

    monkeypatch.setattr(messages, "change_messages", recording)
    b = two_people_battle(people)  # public: anyone may watch

    async def act(socks, latest):
        mover = next(s for s in ("french", "allied") if latest[s]["waiting_for"] == "you")
        await socks[mover].send_json_to({"type": "act", "seq": latest[mover]["seq"],
                                         "action": latest[mover]["legal_actions"][0]})
        for key, c in socks.items():
            latest[key], raw = await _receive(c)
            if key is None:
                assert await database_sync_to_async(check_spectator)(latest[key], raw) >= 0

    async def scenario():
        socks = {"french": await connect(b.pk, people["alice"]),
                 "allied": await connect(b.pk, people["bob"])}
        latest = {key: await hello(c) for key, c in socks.items()}
        # as a process whose last message to the spectators' group reached nobody (the
        # join's nudge may have, depending on which thread sent it: not relied on here)
        watchers.heard({messages.class_group("battle", b.pk, None): 0})
        await act(socks, latest)  # known empty: a nudge instead of a text
        await act(socks, latest)
        assert built == [False, False]
        socks[None] = await connect(b.pk, people["carol"])  # a spectator arrives
        latest[None] = await hello(socks[None])
        # ... on another process than the next mover's, which still knows the group empty
        # (joining this process forgot it: ``watchers.joined``)
        assert not watchers.nobody_watching(messages.class_group("battle", b.pk, None))
        watchers.heard({messages.class_group("battle", b.pk, None): 0})
        seq = latest[None]["seq"]
        await act(socks, latest)  # the nudge: carol builds her own message
        assert latest[None]["since"] == seq and latest[None]["seq"] > seq
        assert latest[None]["events"] and latest[None]["my_side"] is None
        await act(socks, latest)  # someone got the nudge: the text is built again
        assert built == [False, False, False, True]
        for c in socks.values():
            await c.disconnect()

    run(scenario)
    watchers.forget()
