"""Two people play over websockets in two browsers (issue 12, Live updates), one battle to
its end while a third watches, then its replay page checks the dice.

The site runs in daphne (``config.asgi``: http and websocket) in its own process, as in
production, which needs a database that process can open: PostgreSQL (the in-memory SQLite
test database is this process's only; ``channels.testing.ChannelsLiveServerTestCase`` refuses
it too). alice and bob each open their battle page; each move one of them clicks appears on
the other's page without a reload, brought by the socket; and neither page polls the play
fragment while the socket is open (every GET of the fragment is one live.js asked for after a
message, marked ``X-Eagles-Live``). A third browser, not logged in, watches the public battle
from nobody's side and follows every move too. No Content-Security-Policy violation.
"""

from __future__ import annotations

from functools import partial

import pytest
from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connection
from playwright.sync_api import expect

from battles import services
from battles.models import Battle, Status

from ..kinds import battle_tasks as tasks
from .conftest import CSP_WATCH, csp_violations

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
PASSWORD = "s3cret-pass-1815"


_inherited: list = []  # the parent's pools and connections, kept alive in the child (below)


def _child_database() -> None:
    """In the forked daphne process: a database connection of its own. The settings it
    inherits already name the test database (Django's test set-up renamed it in this
    process; channels' ``set_database_connection`` would prefix "test_" once more, to a
    database that does not exist). What it must not use is the parent's PostgreSQL pool
    (``settings``: ``pool``), inherited with the fork: its connections are the parent's
    sessions, and its worker threads are not in the child; once no connection was idle
    (an earlier test's request thread still held one) the child asked for a new one under
    the doubled name and waited for ever. The inherited pools and connections are kept
    referenced, not closed: closing them would end the parent's sessions on the sockets
    they share."""
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        pools = getattr(type(conn), "_connection_pools", None)
        if pools:
            _inherited.append(dict(pools))
            pools.clear()
        if conn.connection is not None:
            _inherited.append(conn.connection)
            conn.connection = None


@pytest.fixture
def daphne_url(catalogue):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): daphne runs in its own process")
    server = DaphneProcess("localhost", partial(make_application,
                                                static_wrapper=ASGIStaticFilesHandler),
                           setup=_child_database)
    server.start()
    assert server.ready.wait(timeout=30), "daphne did not start"
    yield f"http://localhost:{server.port.value}"
    server.terminate()
    server.join(timeout=10)


def _context(browser, url):
    context = browser.new_context(base_url=url)
    context.set_default_timeout(10_000)
    context.add_init_script(CSP_WATCH)
    return context


def _log_in(browser, url, name):
    context = _context(browser, url)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(url + "/")
    return context, page


def _played(page, battle_id: int, seq: int) -> int:
    """After a click at ``seq``: wait until the battle has moved on (its new seq, past any
    auto-played actions); a move that would leave a Position without a troop card asks first
    (4.3): play it."""
    for _ in range(150):
        now = Battle.objects.get(pk=battle_id).seq
        if now > seq:
            return now
        confirm = page.get_by_test_id("confirm-button")
        if confirm.count():
            confirm.click()
        page.wait_for_timeout(100)
    raise AssertionError(f"the click at seq {seq} changed nothing")


def test_each_sees_the_others_move_without_reload_or_polling(browser, daphne_url,
                                                              django_user_model, monkeypatch):
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    alice = django_user_model.objects.create_user("alice", "", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "", PASSWORD)
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, bob)
    pages, contexts, fragment_gets = {}, [], {"alice": [], "bob": []}
    try:
        for name in ("alice", "bob"):
            context, page = _log_in(browser, daphne_url, name)
            contexts.append(context)
            page.on("request", lambda r, name=name: r.method == "GET" and
                    r.url.endswith(f"/battles/{b.pk}/") and "hx-request" in r.headers and
                    fragment_gets[name].append(r.headers.get("x-eagles-live")))
            page.goto(f"/battles/{b.pk}/")
            expect(page.locator("html")).to_have_attribute("data-live", "on")
            page.evaluate("window.eaglesMarker = 'still here'")
            pages[name] = page
        # A third browser, not logged in, watches from nobody's side.
        context = _context(browser, daphne_url)
        contexts.append(context)
        watcher = context.new_page()
        watcher.goto(f"/battles/{b.pk}/watch/")
        expect(watcher.locator("html")).to_have_attribute("data-live", "on")
        watcher.evaluate("window.eaglesMarker = 'still here'")
        followed = set()  # who saw the other's move appear
        for step in range(12):  # whoever is to move clicks; the other's page follows
            mover = next(n for n, p in pages.items()
                         if p.get_by_test_id("battle-play").get_attribute("data-waiting") == "you")
            other = "alice" if mover == "bob" else "bob"
            before = len(pages[other].get_by_test_id("log-line").all())
            buttons = pages[mover].get_by_test_id("actions").get_by_test_id("action")
            ending = buttons.and_(pages[mover].locator("[data-type=deployment_done],"
                                                       "[data-type=end_phase],[data-type=pass],"
                                                       "[data-type=end_turn]"))
            seq = int(pages[mover].get_by_test_id("battle-play").get_attribute("data-seq"))
            (ending if ending.count() else buttons).first.click()  # hand over soon
            now = _played(pages[mover], b.pk, seq)
            for p in (*pages.values(), watcher):
                expect(p.get_by_test_id("battle-play")).to_have_attribute("data-seq", str(now))
            assert len(pages[other].get_by_test_id("log-line").all()) > before
            followed.add(other)
            if followed == {"alice", "bob"} and step >= 3:
                break
        assert followed == {"alice", "bob"}
        pages["alice"].wait_for_timeout(3000)  # idle: a polling page would GET every 2 s
        for name, page in pages.items():
            assert page.evaluate("window.eaglesMarker") == "still here"  # never reloaded
            # Every fragment GET was asked for by live.js after a message: no periodic poll.
            assert all(h == "1" for h in fragment_gets[name]), fragment_gets[name]
        assert fragment_gets["alice"] and fragment_gets["bob"]
        assert watcher.evaluate("window.eaglesMarker") == "still here"
        assert watcher.get_by_test_id("log-line").count() > 0
        for page in (*pages.values(), watcher):
            assert not csp_violations(page)
    finally:
        for context in contexts:
            context.close()


def test_two_play_to_the_end_a_third_watches_then_the_replay_checks_the_dice(
        browser, daphne_url, django_user_model, monkeypatch):
    """The issue's whole scene: two browsers play a battle to its end over the socket while a
    third (not logged in) watches it live; then the replay page re-derives every die from the
    revealed seed. A one-turn battle (turn_cap 1: the engine ends it at the cap, 5.0-c)."""
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    alice = django_user_model.objects.create_user("alice", "", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "", PASSWORD)
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open",
                               settings={"turn_cap": 1})
    services.join_battle(b.pk, bob)
    pages, contexts = {}, []
    try:
        for name in ("alice", "bob"):
            context, page = _log_in(browser, daphne_url, name)
            contexts.append(context)
            page.goto(f"/battles/{b.pk}/")
            expect(page.locator("html")).to_have_attribute("data-live", "on")
            pages[name] = page
        context = _context(browser, daphne_url)
        contexts.append(context)
        watcher = context.new_page()
        watcher.goto(f"/battles/{b.pk}/watch/")
        expect(watcher.locator("html")).to_have_attribute("data-live", "on")
        clicks = 0
        while Battle.objects.get(pk=b.pk).status == Status.ACTIVE:
            clicks += 1
            assert clicks < 150, "the battle does not end"
            seq = Battle.objects.get(pk=b.pk).seq
            for p in pages.values():  # both pages show the battle as it is now
                expect(p.get_by_test_id("battle-play")).to_have_attribute("data-seq", str(seq))
            mover = next(n for n, p in pages.items()
                         if p.get_by_test_id("battle-play").get_attribute("data-waiting") == "you")
            page = pages[mover]
            buttons = page.get_by_test_id("actions").get_by_test_id("action")
            ending = buttons.and_(page.locator("[data-type=deployment_done],[data-type=end_phase],"
                                               "[data-type=pass],[data-type=end_turn],"
                                               "[data-type=roll_morale]"))
            (ending if ending.count() else buttons).first.click()
            _played(page, b.pk, seq)
        done = Battle.objects.get(pk=b.pk)
        assert done.status == Status.FINISHED and done.outcome["reason"]
        for p in (*pages.values(), watcher):  # everyone sees the end, live
            play = p.get_by_test_id("battle-play")
            expect(play).to_have_attribute("data-seq", str(done.seq))
            expect(play).to_have_attribute("data-status", "finished")
        # The replay page re-derives every die from the seed now revealed.
        replay = pages["alice"]
        replay.goto(f"/battles/{b.pk}/replay/")
        sentence = replay.get_by_test_id("dice-sentence")
        # with no die rolled (ending actions first, one turn) the check says so (issue 28)
        rolled = sum(len(e.get("dice") or ()) for a in done.actions.all() for e in a.events)
        said = "they match" if rolled else "No dice were rolled"
        expect(sentence).to_contain_text("re-derive")
        expect(sentence).to_contain_text(said)
        expect(replay.get_by_test_id("seed-value")).to_have_text(str(done.seed))
        watcher.goto(f"/battles/{b.pk}/replay/?as=all")  # a public battle: anyone
        expect(watcher.get_by_test_id("dice-sentence")).to_contain_text(said)
        for p in (*pages.values(), watcher):
            assert not csp_violations(p)
    finally:
        for context in contexts:
            context.close()
