"""Two people play a campaign in two browsers over its websocket (issue 13, live updates):
each click of one appears on the other's campaign page without a reload, brought by the
socket (play/live/), and neither page polls while the socket is open (every GET of the
page's play area is one live.js asked for after a message, marked ``X-Eagles-Live``).

As in test_live_browser.py the site runs in daphne in its own process (PostgreSQL only). The
campaign is created here (small pools); the pages only show it and post the clicks.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Campaign

from ..campaign.helpers import small_pools
from ..kinds import campaign_tasks as tasks
from .conftest import csp_violations
from .test_live_browser import PASSWORD, _log_in, daphne_url  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
HANDOVER = ("split", "deployment_done", "end_phase", "pass", "end_turn", "keep")


def _seq(page) -> int:
    return int(page.get_by_test_id("campaign-play").get_attribute("data-seq"))


def test_each_sees_the_others_campaign_move_without_reload_or_polling(
        browser, daphne_url, django_user_model, monkeypatch):  # noqa: F811
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    alice = django_user_model.objects.create_user("alice", "", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "", PASSWORD)
    c = services.create_campaign(alice, "french", opponent="open", settings={"turn_cap": 2})
    services.join_campaign(c.pk, bob)
    pages, contexts = {}, []
    gets = {"alice": [], "bob": []}
    try:
        for name in ("alice", "bob"):
            context, page = _log_in(browser, daphne_url, name)
            contexts.append(context)
            page.on("request", lambda r, name=name: r.method == "GET" and
                    r.url.endswith(f"/campaigns/{c.pk}/") and "hx-request" in r.headers and
                    gets[name].append(r.headers.get("x-eagles-live")))
            page.goto(f"/campaigns/{c.pk}/")
            expect(page.locator("html")).to_have_attribute("data-live", "on")
            pages[name] = page
        followed = set()
        for _ in range(12):
            c.refresh_from_db()
            mover = "alice" if c.to_move == "french" else "bob"
            other = "bob" if mover == "alice" else "alice"
            pages[other].evaluate("window.eaglesMarker = 'still here'")
            expect(pages[mover].get_by_test_id("campaign-play")).to_have_attribute(
                "data-seq", str(c.seq))
            buttons = pages[mover].get_by_test_id("actions").get_by_test_id("action")
            kinds = [buttons.nth(i).get_attribute("data-type") for i in range(buttons.count())]
            pick = next((i for i, k in enumerate(kinds) if k in HANDOVER), 0)
            buttons.nth(pick).click()  # a plain form post: the mover's page reloads
            for _ in range(100):
                if Campaign.objects.get(pk=c.pk).seq > c.seq:
                    break
                pages[mover].wait_for_timeout(100)
            now = Campaign.objects.get(pk=c.pk).seq
            assert now > c.seq, "the click changed nothing"
            # The other page follows by itself, without a reload.
            expect(pages[other].get_by_test_id("campaign-play")).to_have_attribute(
                "data-seq", str(now))
            assert pages[other].evaluate("window.eaglesMarker") == "still here"
            followed.add(other)
            if followed == {"alice", "bob"}:
                break
        assert followed == {"alice", "bob"}
        waiting = next(n for n, p in pages.items()
                       if "updates by itself" in p.get_by_test_id("status-line").inner_text())
        count = len(gets[waiting])
        pages[waiting].wait_for_timeout(3000)  # idle: the polling page would GET every 2 s
        assert len(gets[waiting]) == count, gets[waiting]
        for name in pages:  # every play-area GET was live.js's, after a message
            assert all(h == "1" for h in gets[name]), gets[name]
        assert gets["alice"] or gets["bob"]
        for page in pages.values():
            assert not csp_violations(page)
    finally:
        for context in contexts:
            context.close()
