"""Live campaigns over websockets (play/live/, issue 13 "live updates").

Channels' ``WebsocketCommunicator`` against the campaign socket's router with the in-memory
layer; the consumers read the database from other threads, so the tests are transactional.
Every message of whole small campaigns (both players and a spectator) is checked for the
other side's hidden cards (face-down pieces on both boards, Reserves, decks, pools, set-aside
cards) as the service's own leak test does (``tests/test_campaign_service.hidden_from``).
"""

from __future__ import annotations

import json
import random
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User

from battles.campaign import from_json
from battles.campaign import view as core_view
from battles.engine import SIDES, events_for
from campaigns import selectors, services
from campaigns.kind import cards_of
from campaigns.models import Campaign, Status
from play.live import consumers
from play.live.routing import websocket_urlpatterns

from .campaign.helpers import small_pools
from .kinds import campaign_tasks
from .kinds import campaign_tasks as tasks
from .test_campaign_service import hidden_from

pytestmark = [pytest.mark.django_db(transaction=True)]
TIMEOUT = 10


@pytest.fixture(autouse=True)
def live_setup(catalogue, monkeypatch):
    """A fresh in-memory layer per test (its queues belong to one event loop); no broker;
    small pools on both sides and a fixed seed (short campaigns)."""
    channel_layers.backends.clear()
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815061818150618276)
    yield
    channel_layers.backends.clear()


@pytest.fixture
def people(db):
    return {name: User.objects.create_user(name, "", "pw") for name in ("alice", "bob", "carol")}


def two_people(people, public=True, turn_cap=2) -> Campaign:
    """alice (French) and bob (Allied); the French split first."""
    c = services.create_campaign(people["alice"], "french", opponent="open",
                                 settings={"turn_cap": turn_cap}, public=public)
    services.join_campaign(c.pk, people["bob"])
    return Campaign.objects.get(pk=c.pk)


async def connect(campaign_id, user) -> WebsocketCommunicator:
    c = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/campaigns/{campaign_id}/")
    c.scope["user"] = user if user is not None else AnonymousUser()
    connected, _ = await c.connect(timeout=TIMEOUT)
    assert connected
    return c


async def hello(c: WebsocketCommunicator, since=0) -> dict:
    await c.send_json_to({"type": "hello", "since": since})
    return await c.receive_json_from(timeout=TIMEOUT)


def run(coro_fn):
    """Run a scenario on an event loop of its own thread (as tests/test_live.py): when the
    browser tests ran first, Playwright's loop is running in this thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(async_to_sync(coro_fn)).result()


# --- Who may connect --------------------------------------------------------------------------

def test_player_spectator_and_stranger(people):
    public = two_people(people)
    private = two_people(people, public=False)
    invitation = services.create_campaign(people["alice"], "french", opponent="bob")

    async def scenario():
        alice = await connect(public.pk, people["alice"])
        m = await hello(alice)
        assert m["type"] == "campaign" and m["my_side"] == "french" and m["seq"] == 0
        assert m["status"] == "active" and m["waiting_for"] == "you"  # the French split first
        assert m["legal_actions"] and m["legal_actions"][0]["type"] == "split"
        assert set(m["view"]["boards"]) == set() and "cards" in m["view"]["pools"]["french"]
        assert "cards" not in m["view"]["pools"]["allied"]
        bob = await connect(public.pk, people["bob"])
        m = await hello(bob)
        assert m["my_side"] == "allied" and m["waiting_for"] == "opponent"
        assert m["legal_actions"] == [] and "cards" not in m["view"]["pools"]["french"]
        for watcher in (None, people["carol"]):  # anyone, logged in or not
            c = await connect(public.pk, watcher)
            m = await hello(c)
            assert m["my_side"] is None and m["legal_actions"] == []
            assert m["view"]["viewer"] is None and m["players"] == {"french": "alice",
                                                                    "allied": "bob"}
            assert all("cards" not in p for p in m["view"]["pools"].values())
            await c.send_json_to({"type": "act", "seq": 0, "action": {"type": "split"}})
            err = await c.receive_json_from(timeout=TIMEOUT)
            assert err == {"type": "error", "code": "not_allowed",
                           "detail": "spectators cannot act", "seq": 0}
            await c.disconnect()
        # A private campaign: its players only; a stranger, a visitor and a missing or
        # malformed id alike get 4403.
        for user, pk in ((people["carol"], private.pk), (None, private.pk),
                         (people["carol"], 999999), (people["carol"], "x1")):
            c = await connect(pk, user)
            assert await c.receive_output(timeout=TIMEOUT) == {"type": "websocket.close",
                                                               "code": 4403}
        # An invitation is for its creator and the invitee, not for watching.
        c = await connect(invitation.pk, people["carol"])
        assert (await c.receive_output(timeout=TIMEOUT))["code"] == 4403
        for user in (people["alice"], people["bob"]):
            c = await connect(invitation.pk, user)
            m = await hello(c)
            assert m["status"] == "waiting" and m["view"] is None and m["events"] == []
            await c.disconnect()
        mine = await connect(private.pk, people["bob"])
        assert (await hello(mine))["my_side"] == "allied"
        for c in (alice, bob, mine):
            await c.disconnect()

    run(scenario)


def test_bad_frames_get_a_precise_error(people):
    c0 = two_people(people)

    async def scenario():
        c = await connect(c0.pk, people["alice"])
        for frame, code in (("nonsense", "bad_input"), ("[1]", "bad_input"),
                            ('{"type": "dance"}', "bad_input"),
                            ('{"type": "hello", "since": -1}', "bad_input"),
                            ('{"type": "hello", "since": "3"}', "bad_input"),
                            ('{"type": "act", "seq": "x", "action": {}}', "bad_input"),
                            ('{"type": "act", "seq": 0, "action": []}', "bad_input"),
                            ('{"type": "act", "seq": 0, "action": {"type": "split", '
                             '"decks": {}}}', "illegal_action"),
                            (" " * 20_000, "bad_input")):
            await c.send_to(text_data=frame)
            m = await c.receive_json_from(timeout=TIMEOUT)
            assert m["type"] == "error" and m["code"] == code and m["detail"], (frame, m)
        bob = await connect(c0.pk, people["bob"])  # not his move: the service's refusal
        await bob.send_json_to({"type": "act", "seq": 0, "action": {"type": "split"}})
        m = await bob.receive_json_from(timeout=TIMEOUT)
        assert m["code"] == "conflict" and "not your move" in m["detail"] and m["seq"] == 0
        for s in (c, bob):
            await s.disconnect()

    run(scenario)
    assert Campaign.objects.get(pk=c0.pk).seq == 0


# --- Moves, seq and gaps ----------------------------------------------------------------------

def test_a_move_reaches_everyone_with_the_next_seq_and_gaps_are_recovered(people):
    c0 = two_people(people)

    async def scenario():
        alice = await connect(c0.pk, people["alice"])
        bob = await connect(c0.pk, people["bob"])
        carol = await connect(c0.pk, people["carol"])
        m = await hello(alice)
        await hello(bob)
        await hello(carol)
        # alice splits over the socket: her answer, bob's and carol's nudges carry seq 1.
        await alice.send_json_to({"type": "act", "seq": 0, "action": m["legal_actions"][0]})
        got = {k: await s.receive_json_from(timeout=TIMEOUT)
               for k, s in (("alice", alice), ("bob", bob), ("carol", carol))}
        assert {g["seq"] for g in got.values()} == {1}
        assert all(g["since"] == 0 and g["events"] and {e["seq"] for e in g["events"]} == {1}
                   for g in got.values())
        # What the French put where is theirs: bob and carol see the split's counts only.
        assert any("decks" in e for e in got["alice"]["events"])
        assert not any("decks" in e for e in got["bob"]["events"] + got["carol"]["events"])
        assert got["bob"]["waiting_for"] == "you" and got["alice"]["waiting_for"] == "opponent"
        # A move through the service (the POST API's path) reaches all three too.
        legal = got["bob"]["legal_actions"]
        await database_sync_to_async(services.act)(c0.pk, people["bob"], 1, legal[0])
        for s in (alice, bob, carol):
            m2 = await s.receive_json_from(timeout=TIMEOUT)
            assert m2["seq"] >= 2 and m2["since"] == 1
            assert {e["seq"] for e in m2["events"]} <= set(range(2, m2["seq"] + 1))
        assert await alice.receive_nothing(timeout=0.3)  # one message per change
        now = m2["seq"]
        # Gap recovery: hello since 0 gives every event again, since 1 only the later ones.
        again = await hello(alice, since=0)
        assert again["seq"] == now and {e["seq"] for e in again["events"]} >= {1, 2}
        assert 1 not in {e["seq"] for e in (await hello(alice, since=1))["events"]}
        assert (await hello(alice, since=now))["events"] == []
        for s in (alice, bob, carol):
            await s.disconnect()

    run(scenario)


def test_a_stale_seq_over_the_socket_is_refused(people):
    c0 = two_people(people)

    async def scenario():
        alice = await connect(c0.pk, people["alice"])
        m = await hello(alice)
        action = m["legal_actions"][0]
        await alice.send_json_to({"type": "act", "seq": 0, "action": action})
        assert (await alice.receive_json_from(timeout=TIMEOUT))["seq"] == 1
        await alice.send_json_to({"type": "act", "seq": 0, "action": action})  # a 2nd click
        err = await alice.receive_json_from(timeout=TIMEOUT)
        assert err == {"type": "error", "code": "stale_seq",
                       "detail": "the campaign has moved on: reload", "seq": 1}
        await alice.disconnect()

    run(scenario)
    assert Campaign.objects.get(pk=c0.pk).seq == 1


def test_the_safety_net_sends_a_lost_change(people, monkeypatch):
    """A nudge lost (or sent by another process to an in-memory layer): the consumer's own
    check of the campaign's seq sends the change within its poll period."""
    c0 = two_people(people)
    monkeypatch.setattr(consumers.GameConsumer, "poll_seconds", 0.2)
    monkeypatch.setattr("play.live.notify.get_channel_layer", lambda: None)

    async def scenario():
        bob = await connect(c0.pk, people["bob"])
        await hello(bob)
        legal = (await database_sync_to_async(selectors.campaign_view)(
            c0, people["alice"]))["legal_actions"]
        await database_sync_to_async(services.act)(c0.pk, people["alice"], 0, legal[0])
        m = await bob.receive_json_from(timeout=TIMEOUT)
        assert m["seq"] == 1 and m["events"]
        await bob.disconnect()

    run(scenario)


def test_the_computers_moves_reach_the_player(people):
    """A worker plays the computer's decisions (a thread without an event loop, as in a
    Celery worker: ``notify`` uses ``async_to_sync``); the player's socket gets them."""
    c0 = services.create_campaign(people["alice"], "allied", bot="random",
                                  settings={"turn_cap": 2})

    async def scenario():
        alice = await connect(c0.pk, people["alice"])
        m = await hello(alice)
        assert m["waiting_for"] == "computer" and m["opponent"] == "computer (random)"
        played = await database_sync_to_async(campaign_tasks.bot_move, thread_sensitive=False)(
            c0.pk, m["seq"])
        assert played >= 1  # the French split (and more, until alice must act)
        m2 = await alice.receive_json_from(timeout=TIMEOUT)
        now = await database_sync_to_async(
            lambda: Campaign.objects.values_list("seq", flat=True).get(pk=c0.pk))()
        assert m2["seq"] == now >= played and m2["waiting_for"] == "you"
        assert m2["legal_actions"] and m2["events"]
        assert {e["seq"] for e in m2["events"]} <= set(range(1, now + 1))
        assert not any("decks" in e for e in m2["events"])  # the computer's split: counts
        await alice.disconnect()

    run(scenario)


# --- No hidden card in any message of whole campaigns -----------------------------------------

# Int lists that are not cards: counts per side (the history's start), piece ids, dice.
NOT_CARD_LISTS = ("pools", "set_aside", "hit_this_turn", "rolls", "dice")


def card_numbers(raw: str) -> set[int]:
    """Every number ``raw`` (compact JSON) gives as a card: under "card" or "num", or in a
    list of whole numbers under any key but the few that hold counts, piece ids or dice."""
    found = {int(n) for n in re.findall(r'"(?:card|num)":(\d+)', raw)}
    for key, items in re.findall(r'"([\w-]+)":\[([\d,]+)\]', raw):
        if key not in NOT_CARD_LISTS:
            found |= {int(n) for n in items.split(",")}
    return found


def check(msg: dict, raw: str) -> int:
    """``msg`` (sent as ``raw``) is the core's own view for its viewer and names none of the
    cards hidden from that viewer (a spectator: from both sides) that no event the viewer
    saw ever named. Returns how many such secret cards there were."""
    c = Campaign.objects.get(pk=msg["id"])
    core = from_json(c.state, cards_of(c))
    side = msg["my_side"]
    assert msg["view"] == json.loads(json.dumps(core_view(core, side)))
    all_events = [e for events in c.actions.order_by("seq").values_list("events", flat=True)
                  for e in events]
    # A card named once in public (or to this side) is known from then on.
    known = card_numbers(json.dumps(events_for(all_events, side), separators=(",", ":")))
    others = [SIDES[1 - SIDES.index(side)]] if side else list(SIDES)
    secret = set().union(*(hidden_from(c, SIDES[1 - SIDES.index(o)]) for o in others)) - known
    leaked = card_numbers(raw) & secret
    assert not leaked, (side, sorted(leaked))
    assert all(e["visibility"] in ("all", side) and "seq" in e for e in msg["events"])
    if side is None:
        assert msg["legal_actions"] == []
    if c.status == Status.ACTIVE:
        assert msg["seed"] is None and str(c.seed) not in raw
    return len(secret)


async def _receive(c: WebsocketCommunicator) -> tuple[dict, str]:
    out = await c.receive_output(timeout=TIMEOUT)
    assert out["type"] == "websocket.send", out
    return json.loads(out["text"]), out["text"]


@pytest.mark.parametrize("seed", [7, 1815])
def test_whole_campaigns_over_sockets_never_show_a_hidden_card(people, seed):
    c0 = two_people(people, turn_cap=2)
    rng = random.Random(seed)
    checked = {"french": 0, "allied": 0, None: 0}

    async def scenario():
        socks = {"french": await connect(c0.pk, people["alice"]),
                 "allied": await connect(c0.pk, people["bob"]),
                 None: await connect(c0.pk, people["carol"])}
        latest = {}
        for key, s in socks.items():
            await s.send_json_to({"type": "hello", "since": 0})
            msg, raw = await _receive(s)
            checked[key] += await database_sync_to_async(check)(msg, raw)
            latest[key] = msg
        steps = 0
        while latest["french"]["status"] == "active":
            steps += 1
            assert steps < 1000, "the campaign does not end"
            mover = next(s for s in SIDES if latest[s]["waiting_for"] == "you")
            seq = latest[mover]["seq"]
            legal = latest[mover]["legal_actions"]
            # A person is never asked for a lone pass: it was played for them.
            assert not (len(legal) == 1 and legal[0]["type"] == "pass"), legal
            await socks[mover].send_json_to({"type": "act", "seq": seq,
                                             "action": rng.choice(legal)})
            for key, s in socks.items():  # every viewer gets the new seq (past auto-passes)
                msg, raw = await _receive(s)
                assert msg["type"] == "campaign" and msg["seq"] >= seq + 1
                assert msg["since"] == seq
                checked[key] += await database_sync_to_async(check)(msg, raw)
                latest[key] = msg
        for s in socks.values():
            assert await s.receive_nothing(timeout=0.1)
            await s.disconnect()
        return steps

    steps = run(scenario)
    c0.refresh_from_db()
    assert c0.status == Status.FINISHED and c0.outcome["winner"] in SIDES
    assert c0.seq >= steps > 10
    # Hidden cards were there to leak, for each viewer, at many steps.
    assert min(checked.values()) > 100, checked


# --- The page -----------------------------------------------------------------------------------

def test_the_page_names_its_socket_and_keeps_polling_as_the_fallback(people, client):
    c0 = two_people(people)
    client.force_login(people["bob"])  # waiting for the French split
    html = client.get(f"/campaigns/{c0.pk}/").content.decode()
    assert f'data-live-url="/ws/campaigns/{c0.pk}/" data-live-type="campaign"' in html
    assert 'data-live-select="1"' in html and "frontend/live" in html
    # Without the socket (or without JavaScript's socket), the page still polls: live.js
    # cancels these GETs only while its socket is open.
    assert 'hx-trigger="every 2s" hx-select="#campaign-play"' in html
    client.force_login(people["carol"])  # a spectator's page listens too
    assert f'data-live-url="/ws/campaigns/{c0.pk}/"' in client.get(
        f"/campaigns/{c0.pk}/").content.decode()
