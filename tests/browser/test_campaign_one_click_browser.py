"""Answering or passing in a campaign is one click without a reload (issue 28, "Pass after
Pass"): the campaign page's action forms post through htmx and the answer is the new play
area (the header swapped out of band), as on a battle's page. Two people play in two
browsers over the live channel: each click is ONE POST whose answer updates the mover's
page, with no page load and no second fetch of the play area for the mover's own action
(live.js waits for the POST's answer instead of fetching what the socket announced); the
other page follows by the socket (one fetch, marked ``X-Eagles-Live``), without a reload.

As in test_campaign_live_browser.py the site runs in daphne in its own process (PostgreSQL).
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


def test_each_campaign_click_is_one_post_and_one_update_without_a_reload(
        browser, daphne_url, django_user_model, monkeypatch):  # noqa: F811
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    alice = django_user_model.objects.create_user("alice", "", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "", PASSWORD)
    c = services.create_campaign(alice, "french", opponent="open", settings={"turn_cap": 2})
    services.join_campaign(c.pk, bob)
    pages, contexts = {}, []
    seen: dict[str, list[tuple[str, str]]] = {"alice": [], "bob": []}
    try:
        for name in ("alice", "bob"):
            context, page = _log_in(browser, daphne_url, name)
            contexts.append(context)

            def note(r, name=name):
                if f"/campaigns/{c.pk}/" not in r.url:
                    return
                if r.is_navigation_request():
                    seen[name].append(("load", r.url))
                elif r.method == "POST":
                    seen[name].append(("post", r.url))
                elif r.method == "GET" and "hx-request" in r.headers:
                    seen[name].append(("get", r.headers.get("x-eagles-live") or ""))
            page.on("request", note)
            page.goto(f"/campaigns/{c.pk}/")
            expect(page.locator("html")).to_have_attribute("data-live", "on")
            pages[name] = page
        clicks = 0
        for _ in range(10):
            c.refresh_from_db()
            if c.status != "active":
                break
            mover = "alice" if c.to_move == "french" else "bob"
            other = "bob" if mover == "alice" else "alice"
            for page in pages.values():
                page.evaluate("window.eaglesMarker = 'still here'")
            expect(pages[mover].get_by_test_id("campaign-play")).to_have_attribute(
                "data-seq", str(c.seq))
            expect(pages[mover].get_by_test_id("your-move")).to_be_visible()
            seen["alice"].clear()
            seen["bob"].clear()
            buttons = pages[mover].get_by_test_id("actions").get_by_test_id("action")
            kinds = [buttons.nth(i).get_attribute("data-type") for i in range(buttons.count())]
            pick = next((i for i, k in enumerate(kinds) if k in HANDOVER), 0)
            buttons.nth(pick).click()
            confirm = pages[mover].get_by_test_id("confirm-button")
            for _ in range(100):
                if Campaign.objects.get(pk=c.pk).seq > c.seq:
                    break
                if confirm.count():
                    confirm.click()
                pages[mover].wait_for_timeout(100)
            now = Campaign.objects.get(pk=c.pk).seq
            assert now > c.seq, "the click changed nothing"
            clicks += 1
            for page in pages.values():  # both follow, neither reloads
                expect(page.get_by_test_id("campaign-play")).to_have_attribute(
                    "data-seq", str(now))
                assert page.evaluate("window.eaglesMarker") == "still here"
            pages[mover].wait_for_timeout(600)  # a late second fetch would show by now
            posts = [s for s in seen[mover] if s[0] == "post"]
            assert 1 <= len(posts) <= 2, seen[mover]  # the action (and its confirmation)
            assert not [s for s in seen[mover] if s[0] in ("load", "get")], seen[mover]
            assert [s for s in seen[other] if s[0] != "get"] == [], seen[other]
            assert seen[other] and all(live == "1" for _k, live in seen[other]), seen[other]
        assert clicks >= 6
        for page in pages.values():
            assert not csp_violations(page)
    finally:
        for context in contexts:
            context.close()
