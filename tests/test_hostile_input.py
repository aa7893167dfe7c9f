"""Issue 30, hostile input: JSON nested at any depth is a 400 (API) or an error frame
(websocket) with a clear message, never a 500 or a closed socket; a socket that floods is
told, then closed, and nothing it sent is applied twice."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.layers import channel_layers
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from battles import services
from battles.models import Battle
from config import safe_json
from config.clean_input import check_body, find_forbidden
from play.live.protocol import CLOSE_FLOODING, FLOOD_STRIKES, FrameBudget

from .kinds import battle_tasks as tasks
from .test_live import TIMEOUT, connect, hello, run

DEPTHS = [70, 600, 10_000, 100_000]  # past the limit, the clean-input walk's, the decoder's


def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


@pytest.mark.django_db
@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("url, field", [("/api/auth/signup/", "username"),
                                        ("/api/auth/login/", "username"),
                                        ("/api/decks/validate/", "cards")])
def test_nested_json_is_a_400_at_any_depth_anonymous(url, field, depth):
    body = f'{{"{field}": {nested(depth)}, "password": "x"}}'
    r = APIClient().post(url, body, content_type="application/json")
    assert r.status_code == 400, (r.status_code, r.content[:200])
    assert r.json()["detail"] == "JSON nested deeper than 64 levels is not accepted."


@pytest.mark.django_db
def test_json_within_the_depth_still_reaches_the_view():
    body = f'{{"username": {nested(safe_json.MAX_DEPTH - 1)}, "password": "x"}}'
    r = APIClient().post("/api/auth/signup/", body, content_type="application/json")
    assert r.status_code == 400 and "nested" not in r.content.decode()  # the form's own error


def test_depth_is_measured_outside_strings_and_without_recursion():
    assert safe_json.nesting_depth('{"a": "[[[[{{", "b": [[1]], "c": "\\"[["}') == 3
    assert safe_json.nesting_depth(nested(1_000_000)) == 1_000_000
    assert safe_json.loads('{"a": "%s"}' % ("[" * 10_000)) == {"a": "[" * 10_000}
    with pytest.raises(safe_json.TooDeep):
        safe_json.loads(nested(65))


def test_the_clean_input_walk_has_no_recursion_limit():
    deep: list = ["a\x00"]
    for _ in range(5_000):
        deep = [deep]
    assert find_forbidden({"x": deep}) == ("x" + ".0" * 5_001, "\x00")
    with pytest.raises(Exception, match="NUL"):
        check_body({"x": deep})
    # the first of several, in document order, a key before its value
    assert find_forbidden({"a": ["ok", {"b\x01": "c\x02"}], "d": "\x03"}) == ("a.1.b\x01",
                                                                            "\x01")


# --- websockets ---------------------------------------------------------------------------------

@pytest.fixture
def live(catalogue, monkeypatch):
    channel_layers.backends.clear()
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    yield
    channel_layers.backends.clear()


def _battle() -> tuple[Battle, User]:
    alice = User.objects.create_user("alice", "", "pw")
    bob = User.objects.create_user("bob", "", "pw")
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, bob)
    return b, bob


@pytest.mark.django_db(transaction=True)
def test_a_frame_nested_too_deep_is_an_error_and_the_socket_stays_usable(live):
    b, bob = _battle()

    async def scenario():
        c = await connect(b.pk, bob)
        for depth in (100, 1_000, 7_000):  # 7,000 levels: under the 16,000 bytes of a frame
            frame = f'{{"type": "act", "seq": 0, "action": {nested(depth, "{}")}}}'
            await c.send_to(text_data=frame)
            m = await c.receive_json_from(timeout=TIMEOUT)
            assert m == {"type": "error", "code": "bad_input", "seq": None,
                         "detail": "JSON nested deeper than 64 levels is not accepted."}
        assert (await hello(c))["seq"] == 0  # still open, still answering
        await c.disconnect()

    run(scenario)


def test_the_frame_budget_figures():
    budget = FrameBudget(rate=20, burst=40, now=0.0)
    assert sum(budget.take(0.0) for _ in range(100)) == 40  # a burst of 40 at once
    assert sum(budget.take(1.0) for _ in range(100)) == 20  # then 20 a second
    assert [budget.take(t) for t in (1.02, 1.05, 1.06)] == [False, True, False]


@pytest.mark.django_db(transaction=True)
def test_a_flooding_socket_is_told_then_closed_and_applies_nothing_twice(live, settings):
    settings.EAGLES_WS_FRAMES_PER_SECOND = 1  # a slow refill: the test does not race the clock
    settings.EAGLES_WS_FRAME_BURST = 5
    b, bob = _battle()

    async def scenario():
        c = await connect(b.pk, bob)
        m = await hello(c)  # one frame of the five
        act = {"type": "act", "seq": 0, "action": m["legal_actions"][0]}
        for _ in range(200):  # the same move 200 times, at once
            await c.send_json_to(act)
        answers = []
        while True:
            out = await c.receive_output(timeout=TIMEOUT)
            if out["type"] == "websocket.close":
                return answers, out["code"]
            answers.append(json.loads(out["text"]))

    answers, code = run(scenario)
    assert code == CLOSE_FLOODING
    moved = [a for a in answers if a["type"] == "battle"]
    stale = [a for a in answers if a.get("code") == "stale_seq"]
    limited = [a for a in answers if a.get("code") == "rate_limited"]
    assert len(moved) == 1 and moved[0]["seq"] == 1  # applied once
    assert len(stale) == 3  # the rest of the budget: read, refused as a second click
    assert len(limited) == FLOOD_STRIKES  # told each time, then closed
    assert "at most 1 frames a second (bursts of 5)" in limited[0]["detail"]
    assert "not applied" in limited[0]["detail"] and "closing" in limited[-1]["detail"]
    assert len(answers) == 1 + 3 + FLOOD_STRIKES  # nothing answered after the close
    assert Battle.objects.get(pk=b.pk).seq == 1


@pytest.mark.django_db(transaction=True)
def test_the_documented_figures_under_a_flood_of_1000_frames(live, settings):
    """The defaults of config/settings.py (20 frames a second, bursts of 40): a socket that
    sends 1,000 hellos at once gets the burst (and what refills while it is answered), then
    10 refusals in a row, then is closed. Prints the figures."""
    settings.EAGLES_WS_FRAMES_PER_SECOND, settings.EAGLES_WS_FRAME_BURST = 20, 40
    b, bob = _battle()

    async def scenario():
        c = await connect(b.pk, bob)
        start = asyncio.get_running_loop().time()
        for _ in range(1000):
            await c.send_to(text_data='{"type": "hello", "since": 0}')
        answered = refused = 0
        while True:
            out = await c.receive_output(timeout=TIMEOUT)
            if out["type"] == "websocket.close":
                return answered, refused, out["code"], asyncio.get_running_loop().time() - start
            msg = json.loads(out["text"])
            answered += msg["type"] == "battle"
            refused += msg.get("code") == "rate_limited"

    answered, refused, code, seconds = run(scenario)
    print(f"\n1000 frames at once: {answered} answered, {refused} refused, closed ({code}) "
          f"after {seconds:.2f} s")
    # At least FLOOD_STRIKES refusals: on a loaded machine a frame may refill between two
    # refused ones (taken, the count of refusals in a row starts again).
    assert code == CLOSE_FLOODING and refused >= FLOOD_STRIKES
    assert 40 <= answered <= 40 + 20 * seconds + 1
