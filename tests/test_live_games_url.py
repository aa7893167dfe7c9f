"""The one live channel's URL, ``ws/games/<kind>/<id>/`` (play/live/routing.py), for both
kinds of match, next to the older ``ws/battles/<id>/`` and ``ws/campaigns/<id>/`` that the
pages use: the same consumer and the same groups, so a move made over one URL reaches the
sockets of the other; a kind the site does not offer is refused like a match that is not
there; and ``config.asgi``'s router serves all three."""

from __future__ import annotations

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from play.live.routing import websocket_urlpatterns

from . import test_campaign_live, test_live
from .test_live import TIMEOUT, hello, run

# The same fixtures: a fresh in-memory layer per test, no broker, short campaigns.
live_setup, people = test_campaign_live.live_setup, test_campaign_live.people
pytestmark = [pytest.mark.django_db(transaction=True)]


async def at(path: str, user) -> WebsocketCommunicator:
    c = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    c.scope["user"] = user if user is not None else AnonymousUser()
    connected, _ = await c.connect(timeout=TIMEOUT)
    assert connected
    return c


# Each kind: how a two-people match is made, and the URL its pages have always used.
KINDS = {"battle": (test_live.two_people_battle, "battles"),
         "campaign": (test_campaign_live.two_people, "campaigns")}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_ws_games_and_the_old_url_are_one_channel(people, kind):
    make, old = KINDS[kind]
    match = make(people)

    async def scenario():
        socks = {"french": await at(f"/ws/games/{kind}/{match.pk}/", people["alice"]),
                 "allied": await at(f"/ws/{old}/{match.pk}/", people["bob"]),
                 None: await at(f"/ws/games/{kind}/{match.pk}/", None)}
        first = {side: await hello(s) for side, s in socks.items()}
        for side, m in first.items():
            assert m["type"] == kind and m["my_side"] == side and m["seq"] == 0
        # The protocol's robustness holds at the new URL: an error frame, the socket open.
        for frame in ("nonsense", '{"type": "dance"}'):
            await socks["french"].send_to(text_data=frame)
            err = await socks["french"].receive_json_from(timeout=TIMEOUT)
            assert err["type"] == "error" and err["code"] == "bad_input"
        # The mover acts over its URL: the sockets at the other URL hear it, each its own.
        mover = next(side for side in ("french", "allied") if first[side]["waiting_for"] == "you")
        await socks[mover].send_json_to({"type": "act", "seq": 0,
                                         "action": first[mover]["legal_actions"][0]})
        for side, s in socks.items():
            m = await s.receive_json_from(timeout=TIMEOUT)
            assert m["type"] == kind and m["seq"] >= 1 and m["since"] == 0, (side, m)
            assert m["my_side"] == side and m["events"]
            if side != mover:  # the other side and the spectators: no hidden card of it
                assert not any("decks" in e for e in m["events"])
        for s in socks.values():
            await s.disconnect()

    run(scenario)


def test_a_kind_the_site_does_not_offer_is_refused_like_a_missing_match(people):
    b = test_live.two_people_battle(people)

    async def scenario():
        for path in ("/ws/games/chess/1/", f"/ws/games/battles/{b.pk}/",
                     "/ws/games/campaign/x1/", "/ws/games/battle/999999/"):
            c = await at(path, people["alice"])
            assert await c.receive_output(timeout=TIMEOUT) == {"type": "websocket.close",
                                                               "code": 4403}, path

    run(scenario)


def test_the_sites_router_serves_every_url(people):
    """``config.asgi``: the origin check, the session's user (here nobody: a spectator of
    public matches), then the one router."""
    from config.asgi import application

    b = test_live.two_people_battle(people)
    c0 = test_campaign_live.two_people(people)

    async def scenario():
        for path, kind in ((f"/ws/games/battle/{b.pk}/", "battle"),
                           (f"/ws/battles/{b.pk}/", "battle"),
                           (f"/ws/games/campaign/{c0.pk}/", "campaign"),
                           (f"/ws/campaigns/{c0.pk}/", "campaign")):
            c = WebsocketCommunicator(application, path,
                                      headers=[(b"origin", b"http://testserver"),
                                               (b"host", b"testserver")])
            connected, _ = await c.connect(timeout=TIMEOUT)
            assert connected, path
            m = await hello(c)
            assert m["type"] == kind and m["my_side"] is None and m["seq"] == 0, path
            await c.disconnect()
        other = WebsocketCommunicator(application, f"/ws/games/battle/{b.pk}/",
                                      headers=[(b"origin", b"http://elsewhere.example")])
        connected, _ = await other.connect(timeout=TIMEOUT)
        assert not connected  # another site's page: refused by the origin check

    run(scenario)
