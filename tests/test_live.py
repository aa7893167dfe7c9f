"""Live battles over websockets (play/live/, issue 12 "Live updates", "Spectators").

Channels' ``WebsocketCommunicator`` against the websocket router with the in-memory layer;
the consumers read the database from other threads, so the tests are transactional. Every
message of whole battles (both players and a spectator) is checked for hidden cards as the
API's answers are (``tests/test_battle_api.check_hidden``).
"""

from __future__ import annotations

import json
import random
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection, connections
from rest_framework.test import APIClient

from battles import selectors, services
from battles.engine import events_for, from_json, view
from battles.engine.board import SIDE_INDEX
from battles.errors import Conflict
from battles.models import Battle, Status
from play.live import consumers
from play.live.routing import websocket_urlpatterns

from .kinds import battle_tasks
from .kinds import battle_tasks as tasks
from .test_battle_api import RECORDS, card_numbers, check_hidden

pytestmark = [pytest.mark.django_db(transaction=True)]
TIMEOUT = 10


@pytest.fixture(autouse=True)
def live_setup(catalogue, monkeypatch):
    """A fresh in-memory layer per test (its queues belong to one event loop); no broker."""
    channel_layers.backends.clear()
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    yield
    channel_layers.backends.clear()


@pytest.fixture
def people(db):
    return {name: User.objects.create_user(name, "", "pw") for name in ("alice", "bob", "carol")}


def two_people_battle(people, public=True, settings=None, seed=None, monkeypatch=None) -> Battle:
    if seed is not None:
        monkeypatch.setattr(services, "new_seed", lambda: seed)
    b = services.create_battle(people["alice"], "quatre-bras", "french", opponent="open",
                               settings=settings)
    services.join_battle(b.pk, people["bob"])
    if not public:
        Battle.objects.filter(pk=b.pk).update(public=False)
    return Battle.objects.get(pk=b.pk)


async def connect(battle_id, user) -> WebsocketCommunicator:
    c = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/battles/{battle_id}/")
    c.scope["user"] = user if user is not None else AnonymousUser()
    connected, _ = await c.connect(timeout=TIMEOUT)
    assert connected
    return c


async def hello(c: WebsocketCommunicator, since=0) -> dict:
    await c.send_json_to({"type": "hello", "since": since})
    return await c.receive_json_from(timeout=TIMEOUT)


def run(coro_fn):
    """Run a scenario on an event loop of its own thread: when the browser tests ran first in
    this session, Playwright's (session-scoped) loop is running in this thread, and
    ``async_to_sync`` refuses to run here."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(async_to_sync(coro_fn)).result()


# --- Who may connect --------------------------------------------------------------------------

def test_player_spectator_and_stranger(people):
    public = two_people_battle(people)
    private = two_people_battle(people, public=False)
    invitation = services.create_battle(people["alice"], "quatre-bras", "french",
                                        opponent="bob")

    async def scenario():
        alice = await connect(public.pk, people["alice"])
        m = await hello(alice)
        assert m["type"] == "battle" and m["my_side"] == "french" and m["seq"] == 0
        assert m["status"] == "active" and m["waiting_for"] == "opponent"  # 4.1 Allies first
        bob = await connect(public.pk, people["bob"])
        m = await hello(bob)
        assert m["my_side"] == "allied" and m["waiting_for"] == "you" and m["legal_actions"]
        for watcher in (None, people["carol"]):  # anyone, logged in or not
            c = await connect(public.pk, watcher)
            m = await hello(c)
            assert m["my_side"] is None and m["legal_actions"] == [] and m["view"]["viewer"] is None
            assert m["players"] == {"french": "alice", "allied": "bob"}
            await c.send_json_to({"type": "act", "seq": 0, "action": {"type": "end_turn"}})
            assert (await c.receive_json_from(timeout=TIMEOUT))["code"] == "not_allowed"
            await c.disconnect()
        # A private battle: its players only; a stranger and a missing battle alike 4403.
        for user, battle_id in ((people["carol"], private.pk), (None, private.pk),
                                (people["carol"], 999999), (people["carol"], "x1")):
            c = await connect(battle_id, user)
            out = await c.receive_output(timeout=TIMEOUT)
            assert out == {"type": "websocket.close", "code": 4403}
        # Nor a battle nobody has joined: an invitation (or an open seat) is not for watching.
        c = await connect(invitation.pk, people["carol"])
        assert (await c.receive_output(timeout=TIMEOUT))["code"] == 4403
        c = await connect(invitation.pk, people["alice"])  # its creator: no position yet
        m = await hello(c)
        assert m["status"] == "waiting" and m["view"] is None and m["events"] == []
        await c.disconnect()
        mine = await connect(private.pk, people["alice"])
        assert (await hello(mine))["my_side"] == "french"
        for c in (alice, bob, mine):
            await c.disconnect()

    run(scenario)


def test_bad_frames_get_a_precise_error(people):
    b = two_people_battle(people)

    async def scenario():
        c = await connect(b.pk, people["bob"])
        for frame, code in (("nonsense", "bad_input"), ("[1]", "bad_input"),
                            ('{"type": "dance"}', "bad_input"),
                            ('{"type": "hello", "since": -1}', "bad_input"),
                            ('{"type": "act", "seq": "x", "action": {}}', "bad_input"),
                            ('{"type": "act", "seq": 0, "action": {"type": "fly"}}',
                             "illegal_action")):
            await c.send_to(text_data=frame)
            m = await c.receive_json_from(timeout=TIMEOUT)
            assert m["type"] == "error" and m["code"] == code and m["detail"], (frame, m)
        await c.disconnect()

    run(scenario)
    assert Battle.objects.get(pk=b.pk).seq == 0


# --- Moves, seq and gaps ----------------------------------------------------------------------

def _first_action(msg: dict) -> dict:
    return msg["legal_actions"][0]


def test_a_move_reaches_the_opponent_with_the_next_seq_and_gaps_are_recovered(people):
    b = two_people_battle(people)

    async def scenario():
        alice = await connect(b.pk, people["alice"])
        bob = await connect(b.pk, people["bob"])
        await hello(alice)
        m = await hello(bob)
        # bob moves over the socket: his answer and alice's nudge both carry seq 1.
        await bob.send_json_to({"type": "act", "seq": 0, "action": _first_action(m)})
        mine = await bob.receive_json_from(timeout=TIMEOUT)
        theirs = await alice.receive_json_from(timeout=TIMEOUT)
        assert mine["seq"] == theirs["seq"] == 1
        assert theirs["since"] == 0 and theirs["events"] and \
            all(e["seq"] == 1 for e in theirs["events"])
        # A move through the service (the POST API's path) reaches both too.
        mover = people["bob"] if mine["waiting_for"] == "you" else people["alice"]
        legal = mine["legal_actions"] if mover == people["bob"] else theirs["legal_actions"]
        await database_sync_to_async(services.act)(b.pk, mover, 1, legal[0])
        for c in (alice, bob):
            m2 = await c.receive_json_from(timeout=TIMEOUT)
            assert m2["seq"] == 2 and all(e["seq"] == 2 for e in m2["events"])
        assert await alice.receive_nothing(timeout=0.3)  # one message per change
        # Gap recovery: hello since 0 gives every event again, since 1 only the second's.
        again = await hello(alice, since=0)
        assert again["seq"] == 2 and {e["seq"] for e in again["events"]} == {1, 2}
        assert {e["seq"] for e in (await hello(alice, since=1))["events"]} == {2}
        assert (await hello(alice, since=2))["events"] == []
        for c in (alice, bob):
            await c.disconnect()

    run(scenario)


def test_the_safety_net_sends_a_lost_change(people, monkeypatch):
    """A nudge lost (or sent by another process to an in-memory layer): the consumer's own
    check of the battle's seq sends the change within its poll period."""
    b = two_people_battle(people)
    monkeypatch.setattr(consumers.GameConsumer, "poll_seconds", 0.2)
    monkeypatch.setattr("play.live.notify.get_channel_layer", lambda: None)  # nudges lost

    async def scenario():
        alice = await connect(b.pk, people["alice"])
        await hello(alice)
        legal = (await database_sync_to_async(services.battle_view)(
            b, people["bob"]))["legal_actions"]
        await database_sync_to_async(services.act)(b.pk, people["bob"], 0, legal[0])
        m = await alice.receive_json_from(timeout=TIMEOUT)
        assert m["seq"] == 1 and m["events"]
        await alice.disconnect()

    run(scenario)


def test_the_computers_moves_reach_the_player(people):
    """A worker plays the computer's move (a thread without an event loop, as in a Celery
    worker: ``notify`` uses ``async_to_sync``); the player's socket gets it."""
    b = services.create_battle(people["alice"], "quatre-bras", "french", bot="random")

    async def scenario():
        alice = await connect(b.pk, people["alice"])
        m = await hello(alice)
        assert m["waiting_for"] == "computer" and m["opponent"] == "computer (random)"
        played = await database_sync_to_async(battle_tasks.bot_move, thread_sensitive=False)(
            b.pk, m["seq"])
        assert played >= 1
        m2 = await alice.receive_json_from(timeout=TIMEOUT)
        assert m2["seq"] == m["seq"] + played and m2["waiting_for"] == "you"
        assert {e["seq"] for e in m2["events"]} <= set(range(1, m2["seq"] + 1))
        await alice.disconnect()

    run(scenario)


def test_a_stale_seq_over_the_socket_is_refused(people):
    b = two_people_battle(people)

    async def scenario():
        bob = await connect(b.pk, people["bob"])
        m = await hello(bob)
        action = _first_action(m)
        await bob.send_json_to({"type": "act", "seq": 0, "action": action})
        m = await bob.receive_json_from(timeout=TIMEOUT)
        assert m["seq"] == 1
        await bob.send_json_to({"type": "act", "seq": 0, "action": action})  # a second click
        err = await bob.receive_json_from(timeout=TIMEOUT)
        assert err == {"type": "error", "code": "stale_seq",
                       "detail": "the battle has moved on: reload", "seq": 1}
        await bob.disconnect()

    run(scenario)
    assert Battle.objects.get(pk=b.pk).seq == 1


# --- Hidden cards in every message of whole battles -------------------------------------------

def check_spectator(msg: dict, raw: str) -> int:
    """No face-down card of either side, no undrawn reinforcement, in a spectator's message."""
    b = Battle.objects.get(pk=msg["id"])
    st = from_json(b.state, cards=RECORDS)
    engine_view = json.loads(json.dumps(view(st, None)))
    assert msg["view"] == engine_view and msg["legal_actions"] == []
    all_events = [e for events in b.actions.order_by("seq").values_list("events", flat=True)
                  for e in events]
    known = card_numbers(engine_view) | card_numbers(events_for(all_events, None))
    sent_cards = card_numbers(msg)
    assert sent_cards <= known, sorted(sent_cards - known)
    secret = {p.num for p in st.pieces.values() if not p.up} - known
    undrawn = {n for deck in st.decks.values() for n in deck} - known
    assert not named(raw, secret | undrawn)
    assert all(e["visibility"] == "all" for e in msg["events"])
    if b.status == Status.ACTIVE:
        assert msg["seed"] is None and str(b.seed) not in raw
    return len(secret) + len(undrawn)


def named(raw: str, numbers: set[int]) -> set[int]:
    """The numbers among ``numbers`` that ``raw`` names as a card under any key."""
    return {n for n in numbers if re.search(rf'"cards?":\s*\[?[\d,\s\[]*\b{n}\b', raw)}


def _check(msg: dict, raw: str) -> int:
    if msg["my_side"] is None:
        return check_spectator(msg, raw)
    # check_hidden's own text search reads '"card":6' in '"card":60': ours is by whole number,
    # under "card" or "cards" (below), so its search is given the text with the key spaced out.
    count = check_hidden({**msg, "log": msg["events"]}, raw.replace('"card":', '"card" :').encode())
    b = Battle.objects.get(pk=msg["id"])
    st = from_json(b.state, cards=RECORDS)
    enemy = 1 - SIDE_INDEX[msg["my_side"]]
    all_events = [e for events in b.actions.values_list("events", flat=True) for e in events]
    known = card_numbers(msg["view"]) | card_numbers(events_for(all_events, msg["my_side"]))
    secret = {p.num for p in st.pieces.values() if p.side == enemy and not p.up} - known
    assert not named(raw, secret)
    return count


async def _receive(c: WebsocketCommunicator) -> tuple[dict, str]:
    out = await c.receive_output(timeout=TIMEOUT)
    assert out["type"] == "websocket.send", out
    return json.loads(out["text"]), out["text"]


@pytest.mark.parametrize("seed", [1815061818150618276, 7_001_815])
def test_whole_battles_over_sockets_never_show_a_hidden_card(people, seed, monkeypatch):
    b = two_people_battle(people, settings={"turn_cap": 2}, seed=seed, monkeypatch=monkeypatch)
    rng = random.Random(seed)
    checked = {"french": 0, "allied": 0, None: 0}

    async def scenario():
        socks = {"french": await connect(b.pk, people["alice"]),
                 "allied": await connect(b.pk, people["bob"]),
                 None: await connect(b.pk, None)}
        latest = {}
        for key, c in socks.items():
            await c.send_json_to({"type": "hello", "since": 0})
            msg, raw = await _receive(c)
            checked[key] += await database_sync_to_async(_check)(msg, raw)
            latest[key] = msg
        steps = 0
        while latest["french"]["status"] == "active":
            steps += 1
            assert steps < 2000, "the battle does not end"
            mover = next(s for s in ("french", "allied") if latest[s]["waiting_for"] == "you")
            seq = latest[mover]["seq"]
            await socks[mover].send_json_to({"type": "act", "seq": seq,
                                             "action": rng.choice(latest[mover]["legal_actions"])})
            for key, c in socks.items():  # every viewer gets the new seq (past any auto-play)
                msg, raw = await _receive(c)
                assert msg["type"] == "battle" and msg["seq"] >= seq + 1 and msg["since"] == seq
                checked[key] += await database_sync_to_async(_check)(msg, raw)
                latest[key] = msg
        for c in socks.values():
            assert await c.receive_nothing(timeout=0.1)
            await c.disconnect()
        return steps

    steps = run(scenario)
    b.refresh_from_db()
    assert b.status == Status.FINISHED and b.seq >= steps > 10  # (auto-played actions too)
    assert b.outcome is not None
    # Face-down cards were there to leak, for each viewer, at many steps.
    assert min(checked.values()) > 50, checked


# --- The watch API ------------------------------------------------------------------------------

def test_watch_api_public_for_anyone_private_404(people):
    public = two_people_battle(people)
    private = two_people_battle(people, public=False)
    invitation = services.create_battle(people["alice"], "quatre-bras", "french",
                                        opponent="carol")
    services.act(public.pk, people["bob"], 0,
                 services.battle_view(public, people["bob"])["legal_actions"][0])
    for client in (APIClient(), _logged(people["carol"])):
        r = client.get(f"/api/battles/{public.pk}/watch/")
        assert r.status_code == 200, r.content
        data = r.json()
        assert data["my_side"] is None and data["seq"] == 1 and data["legal_actions"] == []
        check_spectator({**data, "events": data["log"]}, r.content.decode())
        assert client.get(f"/api/battles/{public.pk}/watch/?since=1").json()["log"] == []
        assert client.get(f"/api/battles/{public.pk}/watch/?since=x").status_code == 400
        for pk in (private.pk, invitation.pk, 999999):
            r = client.get(f"/api/battles/{pk}/watch/")
            assert r.status_code == 404 and r.json()["code"] == "not_found"


def _logged(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


# --- 50 submits of one seq (PostgreSQL) ---------------------------------------------------------

@pytest.mark.postgres
def test_fifty_concurrent_submits_of_one_seq_apply_once(people):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises all writers")
    b = two_people_battle(people)
    action = services.battle_view(b, people["bob"])["legal_actions"][0]
    barrier = threading.Barrier(50)
    results: list = [None] * 50

    def submit(i):
        try:
            barrier.wait(timeout=30)
            results[i] = services.act(b.pk, people["bob"], 0, action)
        except Exception as exc:  # noqa: BLE001 - inspected below
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    applied = [r for r in results if isinstance(r, list)]
    refused = [r for r in results if isinstance(r, Conflict)]
    assert len(applied) == 1 and len(refused) == 49, results
    assert {r.code for r in refused} == {"stale_seq"}
    b.refresh_from_db()
    assert b.seq == 1 and b.actions.count() == 1


# --- The pages ----------------------------------------------------------------------------------

def test_watch_page_and_the_live_list(people, client):
    public = two_people_battle(people)
    private = two_people_battle(people, public=False)
    services.act(public.pk, people["bob"], 0,
                 services.battle_view(public, people["bob"])["legal_actions"][0])
    r = client.get(f"/battles/{public.pk}/watch/")  # anyone, not logged in
    assert r.status_code == 200
    html = r.content.decode()
    assert 'data-testid="board"' in html and 'data-live-url="/ws/battles/' in html
    assert "frontend/live" in html and "alice" in html and "bob" in html
    now = Battle.objects.get(pk=public.pk)
    check_spectator({**selectors.spectator_view(now), "events": []}, html)
    fragment = client.get(f"/battles/{public.pk}/watch/", headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and b"<html" not in fragment.content
    assert b'data-seq="1"' in fragment.content
    # the game frame's log (grouped per turn, as the players' page) and fair-dice panel
    assert 'data-testid="log-turn"' in html and "Deployment" in html
    assert f'<code class="b-hash" data-testid="seed-hash">{now.seed_hash}</code>' in html
    assert 'data-testid="seed-value"' not in html  # the seed is shown once it is over
    assert client.get(f"/battles/{private.pk}/watch/").status_code == 404
    client.force_login(people["carol"])
    assert client.get(f"/battles/{private.pk}/watch/").status_code == 404
    listing = client.get("/battles/").content.decode()
    assert f'href="/battles/{public.pk}/watch/"' in listing
    assert f"/battles/{private.pk}/watch/" not in listing
    client.force_login(people["alice"])  # a player watches her private battle too
    assert client.get(f"/battles/{private.pk}/watch/").status_code == 200
    page = client.get(f"/battles/{public.pk}/").content.decode()
    assert f'data-live-url="/ws/battles/{public.pk}/"' in page and "frontend/live" in page


def test_a_players_open_socket_is_presence_a_spectators_is_not(people):
    """battles/presence.py: a player with the battle open over the socket is at the battle (an
    absence claim against them must fail while they think); watching marks nobody."""
    b = two_people_battle(people)

    async def scenario():
        watcher = await connect(b.pk, people["carol"])
        await hello(watcher)
        seen = (await database_sync_to_async(Battle.objects.get)(pk=b.pk)).seen or {}
        assert seen == {}
        bob = await connect(b.pk, people["bob"])
        await hello(bob)
        seen = (await database_sync_to_async(Battle.objects.get)(pk=b.pk)).seen
        assert set(seen) == {"allied"}
        for c in (watcher, bob):
            await c.disconnect()

    run(scenario)
