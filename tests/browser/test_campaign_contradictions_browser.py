"""The campaign page never contradicts itself (issue 28, "Contradictions on the page"):

- after a Retreat the boards and the actions panel agree on whose move it is (a board that
  waits for the other battle names nobody to move; only the board to move may say "Your
  move", and only when the panel does);
- the status line names the kind of decision (answering the enemy's fire is not "move at
  Ligny");
- the pools read right while both battles run (no "French: 0 cards kept");
- at the end the boards stay, in their final positions, and the "Replay it" link is
  readable (contrast at least 4.5:1 on its background).

The campaigns are played through the service up to the moment looked at (as in
test_campaign_browser.py the test stands in for the worker); the page only shows them, and
the Retreat is clicked (and confirmed) on the page.
"""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from campaigns import selectors, services
from campaigns.models import Campaign

from ..campaign.helpers import small_pools
from ..kinds import campaign_tasks as tasks

ANSWERS = [184, 292, 294]  # Allied Specials that may answer enemy fire


@pytest.fixture
def pools(monkeypatch):
    pools = small_pools()
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    return pools


def drive(c: Campaign, user, side: str, until, rng: random.Random, retreat=False) -> None:
    """Play on (the computer through its task, alice at random, retreating when told) until
    ``until(c, legal)`` holds on alice's move."""
    for _ in range(3000):
        c.refresh_from_db()
        assert c.status == "active", "the moment never came"
        if c.to_move != side:
            assert tasks.bot_move(c.pk, c.seq) >= 1
            continue
        legal = selectors.campaign_view(c, user)["legal_actions"]
        if until(c, legal):
            return
        kinds = [a for a in legal if a["type"] == "retreat"] if retreat else []
        services.act(c.pk, user, c.seq, kinds[0] if kinds else
                     rng.choice([a for a in legal if a["type"] != "retreat"]))
    raise AssertionError("the moment never came")


def board_lines(page) -> dict[str, str]:
    """Each board's status line, as its SVG writes it."""
    out = {}
    for key in ("quatre-bras", "ligny", "wavre", "waterloo"):
        line = page.locator(f"[data-testid=board-{key}] svg .status-line")
        if line.count():
            out[key] = line.first.text_content()
    return out


def agree(page) -> None:
    """The boards, the header and the actions panel say the same about whose move it is."""
    title = page.locator("#actions-title").inner_text()
    mine = title == "Your move"
    saying = [b for b, line in board_lines(page).items() if line.startswith("Your move")]
    if not mine:
        assert saying == [], (title, board_lines(page))
        expect(page.get_by_test_id("your-move")).to_have_count(0)
    else:
        assert len(saying) <= 1, board_lines(page)


def both_running(c: Campaign, legal) -> bool:
    return len((c.state or {}).get("boards") or {}) == 2


def test_after_a_retreat_the_boards_and_the_panel_agree_and_the_pools_read_right(
        logged_in_page, pools):
    page = logged_in_page
    alice = User.objects.get(username="alice")
    c = services.create_campaign(alice, "french", bot="random", settings={"turn_cap": 4})
    page.route(f"**/campaigns/{c.pk}/", lambda route: route.fulfill(response=route.fetch()))
    drive(c, alice, "french", lambda c, legal: both_running(c, legal) and any(
        a["type"] == "retreat" for a in legal), random.Random(2))
    page.goto(f"/campaigns/{c.pk}/")
    expect(page.get_by_test_id("campaign-play")).to_have_attribute("data-seq", str(c.seq))
    pools_text = page.get_by_test_id("pools").inner_text()
    assert not re.search(r"\b0 cards kept\b", pools_text), pools_text
    assert "kept back" in pools_text, pools_text
    agree(page)
    retreat = page.get_by_test_id("actions").locator("[data-testid=action][data-type=retreat]")
    retreat.first.click()
    page.get_by_test_id("confirm-button").click()
    expect(page.get_by_test_id("campaign-play")).not_to_have_attribute("data-seq", str(c.seq))
    c.refresh_from_db()
    assert any(e.get("reason") == "retreat" for e in (c.state.get("results") or {}).values())
    agree(page)
    # and once the computer has played on, still
    if c.to_move == "allied" and c.status == "active":
        assert tasks.bot_move(c.pk, c.seq) >= 1
        c.refresh_from_db()
        page.reload()
        agree(page)


def test_the_status_line_names_a_response_window(logged_in_page, pools):
    pools["allied"] = sorted(set(pools["allied"] + ANSWERS))
    page = logged_in_page
    alice = User.objects.get(username="alice")
    c = services.create_campaign(alice, "allied", bot="greedy", settings={"turn_cap": 4})
    page.route(f"**/campaigns/{c.pk}/", lambda route: route.fulfill(response=route.fetch()))

    def window(c, legal):
        return len(legal) > 1 and any(a["type"] == "pass" for a in legal)

    drive(c, alice, "allied", window, random.Random(1))
    c.refresh_from_db()
    board = c.state["boards"][c.board]
    kind = "morale" if board["phase"] == "morale" else \
        {"move": "engage"}.get(board["pending"]["type"], board["pending"]["type"])
    page.goto(f"/campaigns/{c.pk}/")
    status = page.get_by_test_id("status-line")
    expect(status).to_contain_text("Your move at ")
    words = {"fire": "answer the enemy's fire or let it go ahead",
             "shock": "answer the enemy's shock attack or let it go ahead",
             "engage": "answer the enemy's move into contact or let it go ahead",
             "morale": "answer the enemy's morale roll or let it go ahead"}[kind]
    expect(status).to_contain_text(words)
    assert ": move" not in status.inner_text()
    agree(page)


def relative_luminance(rgb: tuple[float, float, float]) -> float:
    def channel(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def colours(page, selector: str) -> tuple[tuple, tuple]:
    """The text colour of ``selector`` and the first opaque background behind it."""
    found = page.evaluate("""(sel) => {
        const el = document.querySelector(sel);
        const rgb = s => s.match(/[\\d.]+/g).map(Number);
        let bg = null;
        for (let n = el; n; n = n.parentElement) {
            const c = rgb(getComputedStyle(n).backgroundColor);
            if (c.length < 4 || c[3] > 0) { bg = c.slice(0, 3); break; }
        }
        return [rgb(getComputedStyle(el).color).slice(0, 3), bg || [255, 255, 255]];
    }""", selector)
    return tuple(found[0]), tuple(found[1])


def test_at_the_end_the_boards_stay_and_the_replay_link_is_readable(logged_in_page, pools):
    page = logged_in_page
    alice = User.objects.get(username="alice")
    c = services.create_campaign(alice, "french", bot="random", settings={"turn_cap": 4})
    page.route(f"**/campaigns/{c.pk}/", lambda route: route.fulfill(response=route.fetch()))
    with pytest.raises(AssertionError, match="the moment never came"):
        drive(c, alice, "french", lambda c, legal: False, random.Random(3), retreat=True)
    c.refresh_from_db()
    assert c.status == "finished" and c.outcome["reason"] == "campaign"
    page.goto(f"/campaigns/{c.pk}/")
    expect(page.get_by_test_id("outcome")).to_contain_text("win the campaign")
    expect(page.get_by_test_id("no-boards")).to_have_count(0)
    for key in c.outcome["results"]:
        board = page.get_by_test_id(f"board-{key}")
        expect(board).to_be_visible()
        expect(board.locator("svg")).to_be_visible()
    link = page.get_by_test_id("replay-link")
    expect(link).to_be_visible()
    fg, bg = colours(page, "[data-testid=replay-link]")
    hi, lo = sorted((relative_luminance(fg), relative_luminance(bg)), reverse=True)
    ratio = (hi + 0.05) / (lo + 0.05)
    assert ratio >= 4.5, (fg, bg, ratio)
