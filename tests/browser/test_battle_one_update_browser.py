"""Each action renders once on a battle's page (issue 28, "Each action renders twice": the
POST returned the fragment and the socket then made the page GET the same fragment 50-130 ms
later, so buttons vanished under the pointer). Two people play in two browsers over the live
channel: each click is ONE POST (two with a confirmation) whose answer updates the mover's
page, with no page load and no later fetch of the play area for the mover's own action; the
other page follows by the socket (fetches marked ``X-Eagles-Live``), without a reload. The
campaign page has the same test (test_campaign_one_click_browser.py).

As in test_live_browser.py the site runs in daphne in its own process (PostgreSQL)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from battles import services
from battles.models import Battle

from ..kinds import battle_tasks as tasks
from .conftest import csp_violations
from .test_live_browser import _log_in, _played, daphne_url  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
PASSWORD = "s3cret-pass-1815"
HANDOVER = ("deployment_done", "end_phase", "pass", "end_turn")


def test_each_battle_click_is_one_post_and_one_update(browser, daphne_url,  # noqa: F811
                                                      django_user_model, monkeypatch):
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    alice = django_user_model.objects.create_user("alice", "", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "", PASSWORD)
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, bob)
    pages, contexts = {}, []
    seen: dict[str, list[tuple[str, str]]] = {"alice": [], "bob": []}
    try:
        for name in ("alice", "bob"):
            context, page = _log_in(browser, daphne_url, name)
            contexts.append(context)

            def note(r, name=name):
                if f"/battles/{b.pk}/" not in r.url:
                    return
                if r.is_navigation_request():
                    seen[name].append(("load", r.url))
                elif r.method == "POST":
                    seen[name].append(("post", r.url))
                elif r.method == "GET" and "hx-request" in r.headers:
                    seen[name].append(("get", r.headers.get("x-eagles-live") or ""))
            page.on("request", note)
            page.goto(f"/battles/{b.pk}/")
            expect(page.locator("html")).to_have_attribute("data-live", "on")
            pages[name] = page
        clicks = 0
        for step in range(10):
            mover = next(n for n, p in pages.items()
                         if p.get_by_test_id("battle-play").get_attribute("data-waiting") == "you")
            other = "bob" if mover == "alice" else "alice"
            for page in pages.values():
                page.evaluate("window.eaglesMarker = 'still here'")
            seq = int(pages[mover].get_by_test_id("battle-play").get_attribute("data-seq"))
            seen["alice"].clear()
            seen["bob"].clear()
            buttons = pages[mover].get_by_test_id("actions").get_by_test_id("action")
            kinds = [buttons.nth(i).get_attribute("data-type") for i in range(buttons.count())]
            # alternate: a routine action, then a hand-over (both sides get to move)
            wanted = HANDOVER if step % 2 else tuple(k for k in kinds if k not in HANDOVER)
            pick = next((i for i, k in enumerate(kinds) if k in wanted), 0)
            buttons.nth(pick).click()
            now = _played(pages[mover], b.pk, seq)
            clicks += 1
            for page in pages.values():  # both follow, neither reloads
                expect(page.get_by_test_id("battle-play")).to_have_attribute(
                    "data-seq", str(now))
                assert page.evaluate("window.eaglesMarker") == "still here"
            pages[mover].wait_for_timeout(600)  # a late second fetch would show by now
            posts = [s for s in seen[mover] if s[0] == "post"]
            assert 1 <= len(posts) <= 2, seen[mover]  # the action (and its confirmation)
            assert not [s for s in seen[mover] if s[0] in ("load", "get")], seen[mover]
            assert [s for s in seen[other] if s[0] != "get"] == [], seen[other]
            assert seen[other] and all(live == "1" for _k, live in seen[other]), seen[other]
            if Battle.objects.get(pk=b.pk).status != "active":
                break
        assert clicks >= 6
        for page in pages.values():
            assert not csp_violations(page)
    finally:
        for context in contexts:
            context.close()
