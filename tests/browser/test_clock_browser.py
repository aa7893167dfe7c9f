"""The battle clocks in the browser (issue 12, Time): alice plays a live battle against bob;
on her page the running clock counts down each second (static/frontend/clock.js, no inline
script: the page fixture fails on any CSP violation), and she resigns through the <details>
confirmation."""

import re

from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import services
from battles.models import Battle

from ..kinds import battle_tasks as tasks


def seconds(text: str) -> int:
    minutes, secs = re.fullmatch(r"(\d+):(\d\d)", text.strip()).groups()
    return int(minutes) * 60 + int(secs)


def test_running_clock_counts_down_and_resign_asks_first(logged_in_page, monkeypatch):
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: None)  # no broker here
    page = logged_in_page
    alice = User.objects.get(username="alice")
    bob = User.objects.create_user("bob", "bob@example.com", "s3cret-pass-1815")
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open",
                               time_control={"kind": "live", "base": 600, "increment": 5})
    services.join_battle(b.pk, bob)
    page.route(f"**/battles/{b.pk}/", lambda route: route.fulfill(response=route.fetch()))
    page.goto(f"/battles/{b.pk}/")
    running = page.locator("[data-clock-running] .b-clock-left")
    expect(running).to_have_count(1)
    first = seconds(running.text_content())
    page.wait_for_timeout(2300)
    assert first - 4 <= seconds(running.text_content()) <= first - 2
    expect(page.get_by_test_id("resign-confirm")).to_be_hidden()  # asked first
    page.get_by_text("Resign…").click()
    page.get_by_test_id("resign-confirm").click()
    expect(page.get_by_test_id("outcome")).to_contain_text("you lose: you resigned")
    assert Battle.objects.get(pk=b.pk).outcome["reason"] == "resigned"
