"""A campaign's messages of a change built once per viewer class where the change commits
(play/live/notify.py, messages.py), as a battle's are (tests/test_live_messages_once.py):
what each socket receives is what it would have built itself, a message built for one side
only ever travels to that side's group, a private campaign has no spectators' message, and
the messages of an action read neither its position nor its log again. Also: an invitee who
watched before joining becomes their side's viewer on the same socket."""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async

from campaigns import selectors, services
from campaigns.models import Campaign
from play.live import messages, watchers

from . import test_campaign_live, test_live_messages_once
from .test_campaign_live import TIMEOUT, _receive, check, connect, hello, run, two_people
from .test_live_messages_once import (
    play_forwarded,
    sent_once_per_class,
    spectators_text_is_anyones,
)

live_setup, people = test_campaign_live.live_setup, test_campaign_live.people  # same fixtures
# The battles' (any kind's): the poll out of the way, the groups' sends, the own builds.
quiet_poll, sent_to_groups, builds = (test_live_messages_once.quiet_poll,
                                      test_live_messages_once.sent_to_groups,
                                      test_live_messages_once.builds)
pytestmark = [pytest.mark.django_db(transaction=True)]
FRESH = messages.message  # a viewer's message built on its own (before any patch)


def fresh(campaign_id: int, user, side: str | None, since: int) -> dict:
    """What a socket of ``side`` would have built itself, as it travels (JSON)."""
    viewer = messages.Viewer("campaign", campaign_id, user, side)
    return json.loads(messages.encode(FRESH(viewer, since)))


def test_each_class_gets_its_own_message_built_once_and_forwarded(people, quiet_poll,
                                                                  sent_to_groups, builds):
    c0 = two_people(people, turn_cap=2)
    users = {"french": people["alice"], "allied": people["bob"], None: people["carol"]}

    async def scenario():
        socks = {side: await connect(c0.pk, user) for side, user in users.items()}
        return await play_forwarded(socks, users, random.Random(5), 25,
                                    lambda user, side, since: fresh(c0.pk, user, side, since),
                                    check, builds)  # every viewer's: no card hidden from it

    played, hidden = run(scenario)
    assert played > 5 and hidden > 50  # there were cards to leak, at many steps
    sent_once_per_class(sent_to_groups, played, "campaign", c0.pk)


def _split(c: Campaign, people) -> None:
    legal = selectors.campaign_view(c, people["alice"])["legal_actions"]
    services.act(c.pk, people["alice"], 0, legal[0])


def test_the_spectators_message_is_anyones_and_never_built_for_a_private_campaign(people):
    public, private = two_people(people), two_people(people, public=False)
    for c in (public, private):
        _split(c, people)
    spectators_text_is_anyones("campaign", public.pk, private.pk, fresh,
                               (None, people["carol"], people["alice"]))
    # and each side's text is that player's own build
    change = messages.change_messages("campaign", public.pk, 0)
    for side, who in (("french", people["alice"]), ("allied", people["bob"])):
        assert json.loads(change.texts[side]) == fresh(public.pk, who, side, 0)


def test_an_actions_messages_read_neither_its_position_nor_its_log(people, monkeypatch):
    """Built in the committing thread from the action's own position and rows: the position
    is not parsed again (``core_of``) and the log is not read (``log_for``), whoever watches."""
    c0 = two_people(people)
    split = selectors.campaign_view(c0, people["alice"])["legal_actions"][0]
    calls = []
    for name in ("core_of", "log_for"):
        real = getattr(selectors, name)
        monkeypatch.setattr(selectors, name, lambda *a, real=real, name=name, **k: (
            calls.append(name), real(*a, **k))[1])
    built = []
    real_change = messages.change_messages

    def recording(*args, **kwargs):
        change = real_change(*args, **kwargs)
        built.append(change)
        return change

    monkeypatch.setattr(messages, "change_messages", recording)
    watchers.forget()  # spectators not known absent (the join's nudge may have found none)
    services.act(c0.pk, people["alice"], 0, split)
    assert len(built) == 1 and set(built[0].texts) == {"french", "allied", None}
    assert calls == []


def test_an_invitee_who_watched_before_joining_gets_their_sides_messages(people, quiet_poll):
    """bob opens the invitation's page (nobody's side) and joins: the same socket is the
    Allied player's from then on, and gets the Allied player's message of alice's split."""
    c0 = services.create_campaign(people["alice"], "french", opponent="bob",
                                  settings={"turn_cap": 2})

    async def scenario():
        bob = await connect(c0.pk, people["bob"])
        m = await hello(bob)
        assert m["my_side"] is None and m["status"] == "waiting"
        alice = await connect(c0.pk, people["alice"])
        await hello(alice)
        await database_sync_to_async(services.join_campaign)(c0.pk, people["bob"])
        m = await bob.receive_json_from(timeout=TIMEOUT)
        assert m["status"] == "active" and m["my_side"] == "allied"
        m = await alice.receive_json_from(timeout=TIMEOUT)
        await alice.send_json_to({"type": "act", "seq": 0, "action": m["legal_actions"][0]})
        assert (await alice.receive_json_from(timeout=TIMEOUT))["seq"] == 1
        msg, raw = await _receive(bob)
        assert msg["my_side"] == "allied" and msg["seq"] == 1 and msg["waiting_for"] == "you"
        assert msg["legal_actions"]
        await database_sync_to_async(check)(msg, raw)
        # and he may act over it now
        await bob.send_json_to({"type": "act", "seq": 1, "action": msg["legal_actions"][0]})
        assert (await bob.receive_json_from(timeout=TIMEOUT))["seq"] >= 2
        for s in (alice, bob):
            await s.disconnect()

    run(scenario)
