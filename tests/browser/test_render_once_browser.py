"""Each update renders once, never under the pointer (issue 28): an answer showing the seq
already shown is not swapped in (the play area is not rebuilt by every poll or socket echo),
and while a pointer is pressed on the page an update waits for its release."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import selectors, services
from play import autoplay

from ..kinds import battle_tasks as tasks

SAME = "document.getElementById('battle-play').dataset.mark === 'kept'"


def test_one_render_per_seq_and_none_under_the_pointer(logged_in_page, monkeypatch):
    asked: list = []
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: asked.append(args))
    monkeypatch.setattr(autoplay, "extend", lambda *args, **kwargs: 0)
    monkeypatch.setattr(services, "new_seed", lambda: 1815061818150618176)
    alice = User.objects.get(username="alice")
    b = services.create_battle(alice, "quatre-bras", "allied", bot="random")
    while True:  # alice deploys everything and hands over: the computer is to move
        b.refresh_from_db()
        legal = selectors.battle_view(b, alice)["legal_actions"]
        services.act(b.pk, alice, b.seq, legal[0])
        if legal[0]["type"] == "deployment_done":
            break
    b.refresh_from_db()
    page = logged_in_page
    page.goto(f"/battles/{b.pk}/")
    play = page.get_by_test_id("battle-play")
    expect(play).to_have_attribute("data-waiting", "computer")
    page.evaluate("document.getElementById('battle-play').dataset.mark = 'kept'")
    polls = []
    page.on("request", lambda r: r.method == "GET" and r.url.endswith(f"/battles/{b.pk}/")
            and polls.append(1))
    page.wait_for_timeout(3000)  # the page polls every second: nothing new, nothing redrawn
    assert polls and page.evaluate(SAME)

    # a pointer pressed on the page: the computer's move waits for its release
    box = page.get_by_test_id("status-line").bounding_box()
    page.mouse.move(box["x"] + 5, box["y"] + 5)
    page.mouse.down()
    seq = b.seq
    assert tasks.bot_move(b.pk, seq) >= 1
    page.wait_for_timeout(2500)
    assert play.get_attribute("data-seq") == str(seq) and page.evaluate(SAME)
    page.mouse.up()
    b.refresh_from_db()
    expect(play).to_have_attribute("data-seq", str(b.seq))
