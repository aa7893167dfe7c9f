"""Each side's message of a change built once (play/live/notify.py, messages.py) and the
per-process safety net (play/live/poller.py), issue 12 "Figures": what each socket receives
is unchanged, a message built for one side only ever travels to that side's group, and a
socket that missed a change builds its own message instead of forwarding one that does not
follow what it had."""

from __future__ import annotations

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.test.utils import CaptureQueriesContext

from battles import selectors, services
from play.live import consumers, messages, notify, watchers

from . import test_live
from .test_live import TIMEOUT, _receive, check_spectator, connect, hello, run, two_people_battle

live_setup, people = test_live.live_setup, test_live.people  # the same fixtures
FRESH = messages.message  # a viewer's message built on its own (before any patch)


def fresh(battle_id: int, user, side: str | None, since: int) -> dict:
    """What a socket of ``side`` would have built itself, as it travels (JSON)."""
    return json.loads(messages.encode(FRESH(messages.Viewer("battle", battle_id, user, side),
                                            since)))

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quiet_poll(monkeypatch):
    """The safety net out of the way: what arrives comes from the groups."""
    monkeypatch.setattr(consumers.GameConsumer, "poll_seconds", 60)
    monkeypatch.setattr(consumers.GameConsumer, "in_memory_poll_seconds", 60)


@pytest.fixture
def sent_to_groups(monkeypatch):
    """Every (group, message) the change listener sends."""
    sent = []
    real = notify._send_all

    async def recording(layer, sends):
        sent.extend(sends)
        await real(layer, sends)

    monkeypatch.setattr(notify, "_send_all", recording)
    return sent


@pytest.fixture
def builds(monkeypatch):
    """The viewers for whom a consumer built its own message (a hello, or a fallback)."""
    made = []
    real = messages.message

    def counting(viewer, since, *match):
        made.append((viewer.side, since))
        return real(viewer, since, *match)

    monkeypatch.setattr(messages, "message", counting)
    return made


async def play_forwarded(socks: dict, users: dict, rng: random.Random, steps: int, fresh,
                         hidden, builds: list) -> tuple[int, int]:
    """Hello on every socket (a side's player's, the spectators'), then up to ``steps``
    random actions over the movers' sockets: every socket gets each change's message in its
    own class, and it is exactly what that viewer's own build from the database gives
    (``fresh(user, side, since)``, a message built once from the action's own position and
    rows), forwarded as built (no consumer built one after the hellos, the mover's answer
    included). ``hidden(msg, raw)`` checks a message and returns how many cards it had to
    hide. Returns (actions played, cards hidden)."""
    latest = {key: await hello(c) for key, c in socks.items()}
    hellos = len(builds)
    hid = played = 0
    for _ in range(steps):
        played += 1
        mover = next(s for s in ("french", "allied") if latest[s]["waiting_for"] == "you")
        seq = latest[mover]["seq"]
        await socks[mover].send_json_to({"type": "act", "seq": seq,
                                         "action": rng.choice(latest[mover]["legal_actions"])})
        for key, c in socks.items():
            latest[key], raw = await _receive(c)
            assert latest[key]["my_side"] == key and latest[key]["since"] == seq
            hid += await database_sync_to_async(hidden)(latest[key], raw)
            assert latest[key]["seq"] > seq
            assert latest[key] == await database_sync_to_async(fresh)(users[key], key, seq)
        if latest["french"]["status"] != "active":
            break
    assert builds[hellos:] == []
    for c in socks.values():
        assert await c.receive_nothing(timeout=0.1)
        await c.disconnect()
    return played, hid


def sent_once_per_class(sent: list, played: int, kind: str, match_id: int) -> None:
    """What the change listener sent while ``played`` actions were played on one match: each
    action's three messages (both sides' and the spectators'), once each, as text, each only
    to its own class's group; no nudge after the create's and the join's (seq 0)."""
    texts = [(group, m) for group, m in sent if m["type"] == "match.message"]
    assert len(texts) == 3 * played  # both sides' and the spectators' messages, once each
    for group, m in texts:  # a class's message only ever goes to that class's group
        group_kind, pk, side = group.split(".")
        assert (group_kind, int(pk)) == (kind, match_id)
        mine = json.loads(m["text"])["my_side"]
        assert (mine, side) in (("french", "french"), ("allied", "allied"), (None, "watch"))
        if side == "watch":
            assert json.loads(m["text"])["legal_actions"] == []
    assert {group.rsplit(".", 1)[1] for group, _ in texts} == {"french", "allied", "watch"}
    assert not [m for _, m in sent if m["type"] != "match.message" and m["seq"]]


def test_each_side_gets_its_own_message_built_once_and_forwarded(people, quiet_poll,
                                                                  sent_to_groups, builds):
    b = two_people_battle(people, settings={"turn_cap": 2})
    users = {"french": people["alice"], "allied": people["bob"], None: None}

    def spectators_hidden(msg: dict, raw: str) -> int:
        """The forwarded spectators' text: no face-down card, no undrawn one."""
        return check_spectator(msg, raw) if msg["my_side"] is None else 0

    async def scenario():
        socks = {key: await connect(b.pk, user) for key, user in users.items()}
        return await play_forwarded(socks, users, random.Random(12), 12,
                                    lambda user, side, since: fresh(b.pk, user, side, since),
                                    spectators_hidden, builds)

    played, hidden = run(scenario)
    assert hidden > 50  # there were cards to leak, at many steps
    sent_once_per_class(sent_to_groups, played, "battle", b.pk)


def _one_action(b, people) -> None:
    view = services.battle_view(services.Battle.objects.get(pk=b.pk), people["bob"])
    mover = people["bob"] if view["waiting_for"] == "you" else people["alice"]
    legal = services.battle_view(services.Battle.objects.get(pk=b.pk), mover)["legal_actions"]
    services.act(b.pk, mover, 0, legal[0])


def test_the_spectators_message_is_anyones_and_never_built_for_a_private_battle(people):
    """The spectators' text of a change is exactly what any spectator (anonymous or a logged-in
    stranger) builds on their own; a private battle, which nobody may watch, has none."""
    public, private = two_people_battle(people), two_people_battle(people, public=False)
    for b in (public, private):
        _one_action(b, people)
    spectators_text_is_anyones("battle", public.pk, private.pk, fresh,
                               (None, people["alice"], people["bob"]))


def spectators_text_is_anyones(kind: str, public: int, private: int, fresh, anyone) -> None:
    """After one action of each: the public match's change has both sides' texts and the
    spectators', which is exactly what each of ``anyone`` (nobody, a stranger, a player: the
    viewer's user plays no part) builds as a spectator (``fresh(match id, user, side,
    since)``); the private one's has no spectators' text."""
    change = messages.change_messages(kind, public, 0)
    assert set(change.texts) == {"french", "allied", None}
    for who in anyone:
        assert json.loads(change.texts[None]) == fresh(public, who, None, 0)
    assert set(messages.change_messages(kind, private, 0).texts) == {"french", "allied"}


def test_the_spectators_message_of_an_action_reads_nothing(people, monkeypatch):
    """Built on an action of a public battle unless its spectators' group is known to be
    empty (``watchers``): from the action's own row and snapshot, with no query."""
    b = two_people_battle(people)
    watchers.forget()  # not known (the join's nudge may have found the group empty)
    seen = []
    real = selectors.spectator_view

    def measured(*args, **kwargs):
        with CaptureQueriesContext(connection) as ctx:
            data = real(*args, **kwargs)
        seen.append(len(ctx.captured_queries))
        return data

    monkeypatch.setattr(selectors, "spectator_view", measured)
    _one_action(b, people)
    assert seen == [0]  # built once, in the committing thread, with no query


def queries(monkeypatch) -> list[str]:
    """Every SQL statement run, in any thread (the consumers' database threads too)."""
    made: list[str] = []
    real = CursorWrapper._execute

    def recording(self, sql, *args):
        made.append(sql)
        return real(self, sql, *args)

    monkeypatch.setattr(CursorWrapper, "_execute", recording)
    return made


def _queries_of_one_action(people, monkeypatch, spectators: int) -> int:
    b = two_people_battle(people, seed=7_001_815, monkeypatch=monkeypatch)
    made = queries(monkeypatch)

    async def scenario():
        alice, bob = await connect(b.pk, people["alice"]), await connect(b.pk, people["bob"])
        watchers = [await connect(b.pk, None) for _ in range(spectators)]
        latest = {"french": await hello(alice), "allied": await hello(bob)}
        for c in watchers:
            await hello(c)
        mover = "french" if latest["french"]["waiting_for"] == "you" else "allied"
        sock = alice if mover == "french" else bob
        made.clear()
        await sock.send_json_to({"type": "act", "seq": 0,
                                 "action": latest[mover]["legal_actions"][0]})
        for c in (alice, bob, *watchers):
            assert (await c.receive_json_from(timeout=TIMEOUT))["seq"] >= 1
        count = len(made)
        for c in (alice, bob, *watchers):
            await c.disconnect()
        return count

    count = run(scenario)
    monkeypatch.undo()  # the recorder and the seed off, for the next count
    return count


@pytest.mark.parametrize("watched", [True, False], ids=["once", "per-socket"])
def test_an_actions_queries_do_not_grow_with_its_spectators(people, quiet_poll, monkeypatch,
                                                           watched):
    """One action's queries, in every thread, with 1 and with 5 spectator sockets: with the
    spectators' message built once they are the same; with it built per socket (as before,
    ``watched`` False: a nudge) each spectator socket adds its own reads."""
    counts = {}
    for n in (1, 5):
        with monkeypatch.context() as patch:
            patch.setattr(consumers.GameConsumer, "poll_seconds", 60)
            patch.setattr(consumers.GameConsumer, "in_memory_poll_seconds", 60)
            patch.setattr(messages, "watched", lambda kind, battle, real=messages.watched:
                          watched and real(kind, battle))
            counts[n] = _queries_of_one_action(people, patch, n)
    print(f"queries of one action (spectators' message {'once' if watched else 'per socket'}):"
          f" 1 spectator {counts[1]}, 5 spectators {counts[5]}")
    if watched:
        assert counts[5] == counts[1], counts
    else:
        assert counts[5] >= counts[1] + 4 * 2, counts  # its row and its log rows, per socket


def test_a_socket_that_missed_a_change_builds_its_own_message(people, quiet_poll,
                                                              monkeypatch, builds):
    """alice misses seq 1 (its messages were lost); the change to seq 2 was built after 1:
    it does not follow what alice had, so her consumer builds the events after 0 itself."""
    b = two_people_battle(people)

    async def scenario():
        alice = await connect(b.pk, people["alice"])
        m = await hello(alice)
        assert m["seq"] == 0
        view_of = services.battle_view
        monkeypatch.setattr(notify, "get_channel_layer", lambda: None)  # lost
        legal = (await database_sync_to_async(view_of)(b, people["bob"]))["legal_actions"]
        await database_sync_to_async(services.act)(b.pk, people["bob"], 0, legal[0])
        monkeypatch.setattr(notify, "get_channel_layer", get_channel_layer)
        fresh = await database_sync_to_async(services.Battle.objects.get)(pk=b.pk)
        view = await database_sync_to_async(view_of)(fresh, people["bob"])
        mover = people["bob"] if view["waiting_for"] == "you" else people["alice"]
        legal = (await database_sync_to_async(view_of)(fresh, mover))["legal_actions"]
        await database_sync_to_async(services.act)(b.pk, mover, 1, legal[0])
        got = await alice.receive_json_from(timeout=TIMEOUT)
        assert got["since"] == 0 and got["seq"] == 2
        assert {e["seq"] for e in got["events"]} == {1, 2}
        assert ("french", 0) in builds[1:]  # her own build, after the hello's
        await alice.disconnect()

    run(scenario)


def reads(monkeypatch, kind: str) -> list[list[int]]:
    """The ids of the matches of ``kind`` each call of ``messages.current`` (a poller's round:
    one query) read."""
    made = []
    real = messages.current

    def recording(of_kind, game_ids):
        if of_kind == kind:
            made.append(sorted(game_ids))
        return real(of_kind, game_ids)

    monkeypatch.setattr(messages, "current", recording)
    return made


def test_one_poll_query_for_every_battle_with_open_sockets(people, monkeypatch):
    """The safety net reads all of a process's battles in one query per round, not one per
    socket; a change it finds is sent (the lost-nudge test in test_live.py covers one)."""
    monkeypatch.setattr(consumers.GameConsumer, "poll_seconds", 0.1)
    monkeypatch.setattr(consumers.GameConsumer, "in_memory_poll_seconds", 0.1)
    first, second = two_people_battle(people), two_people_battle(people)
    made = reads(monkeypatch, "battle")
    rounds: list[list[int]] = []

    async def scenario():
        socks = [await connect(first.pk, people["alice"]), await connect(first.pk, people["bob"]),
                 await connect(first.pk, None), await connect(second.pk, people["alice"])]
        for c in socks:
            await hello(c)
        loop = asyncio.get_running_loop()
        made.clear()
        started = loop.time()
        # Wait for three rounds however slow a loaded machine makes them (no fixed sleep).
        while len(made) < 3 and loop.time() - started < TIMEOUT:
            await asyncio.sleep(0.02)
        elapsed.append(loop.time() - started)
        rounds.extend(made)  # before the sockets leave: a round during that reads fewer
        for c in socks:
            await c.disconnect()

    elapsed: list[float] = []
    run(scenario)
    assert len(rounds) >= 3, rounds
    # One poller: a round starts a period after the last one ended, so at most one per
    # 0.1 s (+1: one already asleep when counting began); one poll per socket would read
    # 4 times a period, each read one battle.
    assert len(rounds) <= elapsed[0] / 0.1 + 1, (rounds, elapsed)
    assert all(r == sorted([first.pk, second.pk]) for r in rounds)


def test_a_socket_s_own_act_is_sent_from_its_loop_in_order_others_from_the_thread(
        people, quiet_poll, sent_to_groups, monkeypatch):
    """A socket's own act: its change's group messages are sent by the consumer from its
    own event loop once the database thread returned (no hop from the thread to the loop,
    issue 31), every class's message of each action in seq order, the opponent's socket
    forwarded each in turn; an act elsewhere (the HTTP API, a worker) still sends from its
    thread before it returns."""
    b = two_people_battle(people, settings={"turn_cap": 2})
    users = {"french": people["alice"], "allied": people["bob"], None: None}
    hops = []
    real_hop = notify.async_to_sync

    def hop(fn):
        hops.append(fn)
        return real_hop(fn)

    real_run = notify._sender.run

    def run_on_sender(coroutine):  # a thread with no loop to borrow (Redis layer here)
        hops.append(coroutine)
        real_run(coroutine)

    monkeypatch.setattr(notify, "async_to_sync", hop)
    monkeypatch.setattr(notify._sender, "run", run_on_sender)

    async def scenario():
        socks = {key: await connect(b.pk, user) for key, user in users.items()}
        latest = {key: await hello(c) for key, c in socks.items()}
        seqs = []
        for _ in range(6):
            mover = next(s for s in ("french", "allied") if latest[s]["waiting_for"] == "you")
            await socks[mover].send_json_to({"type": "act", "seq": latest[mover]["seq"],
                                             "action": latest[mover]["legal_actions"][0]})
            for key, c in socks.items():
                latest[key], _ = await _receive(c)
            seqs.append(latest["allied"]["seq"])
        for c in socks.values():
            await c.disconnect()
        return seqs

    seqs = run(scenario)
    assert hops == []  # nothing hopped from a database thread to a loop
    texts = [(group, m["seq"]) for group, m in sent_to_groups if m["type"] == "match.message"]
    assert len(texts) == 3 * len(seqs)
    for side in ("french", "allied", "watch"):  # each group got its messages in seq order
        got = [seq for group, seq in texts if group.endswith("." + side)]
        assert got == sorted(got) == seqs
    b = services.Battle.objects.get(pk=b.pk)  # not a socket's: from the committing thread
    mover = people["alice"] if b.to_move == "french" else people["bob"]
    view = services.battle_view(b, mover)
    # On a thread of its own, as a request's or a worker's: this test's thread may have an
    # event loop set by an earlier test of the same worker (Playwright's sync API keeps one),
    # and the change would then be sent on it, not hopped.
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(services.act, b.pk, mover, view["seq"], view["legal_actions"][0]).result()
    assert len(hops) == 1
