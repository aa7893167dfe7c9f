"""Stratego: Waterloo between two people in two browsers, to a victory, with a third person
watching (issue 26, "A browser test"). The site runs in daphne in its own process
(PostgreSQL), so the pages follow each other over the live channel.

A Standard game (capturing the enemy commander-in-chief wins) made short by the players'
own "last set-up I used": bob's (the Allies) puts Wellington in his front row at f7, alice's
(the French) a light cavalry facing him at f4, with the two empty middle rows between. Both
set up by that button on the set-up screen, draft their manoeuvre cards from the card
choices, bob ends his first turn, and alice selects her cavalry on the board and clicks the
lit square of its attack: Wellington dies to any attack (001 §8), the French win. Every
position carol's page showed, and every websocket frame it received, is checked against the
true state: no identity of a piece unrevealed at that moment (its id, or a face drawn on its
square), ever."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from online.stratego import services
from online.stratego.kind import state_of
from online.stratego.models import LastSetUp, StrategoMatch
from stratego.engine.rules import random_placement
from stratego.module import GAME

from ..kinds import KindTasks
from ..stratego_online.helpers import assert_no_identity, hidden_from, hidden_squares
from .conftest import csp_violations
from .test_live_browser import PASSWORD, _log_in, daphne_url  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
tasks = KindTasks("stratego")
PLAY = "stratego-game-play"
WELLINGTON_AT, CAVALRY_AT = [5, 6], [5, 3]  # f7 and f4: f5 and f6 lie empty between


def _placement(st, side: str, want: dict[str, list[int]]) -> dict[str, list[int]]:
    """A legal set-up of ``side`` (the engine's random one, from fixed dice) with the
    ``want`` pieces moved to their squares (whatever stood there takes their place)."""
    dice = GAME.dice(1815, 0)  # the module's seeded stream
    placement = {pid: [s % 12, s // 12] for pid, s in random_placement(st, side, dice).items()}
    for pid, square in want.items():
        there = next((k for k, v in placement.items() if v == square), None)
        if there is not None and pid in placement:
            placement[there] = placement[pid]
        elif there is not None:
            del placement[there]
        placement[pid] = square
    return placement


def _spectator_check(html: str, frames: list[str], m: StrategoMatch) -> None:
    """What carol has seen so far shows no identity of a piece unrevealed now."""
    ids = hidden_from(m, None)
    assert_no_identity(html, ids, "the spectator's page")
    for frame in frames:
        assert_no_identity(frame, ids, "a websocket frame to the spectator")
    # a hidden piece is drawn by its back only: no face (class "pc known") on its square
    known = re.findall(r'<g class="pc known"[^>]*data-testid="piece-(\d+)-(\d+)"', html)
    assert not {(int(c), int(r)) for c, r in known} & hidden_squares(m, None)


def _frames_hide(frames: list[str], hidden: set[str], squares: set[tuple[int, int]]) -> None:
    """No frame's JSON names a hidden piece's type or strength on its square."""
    def walk(node) -> None:
        if isinstance(node, dict):
            sq = node.get("square")
            if isinstance(sq, list) and len(sq) == 2 and tuple(sq) in squares:
                assert not ({"type", "strength", "name", "id"} & set(node)), node
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for frame in frames:
        try:
            walk(json.loads(frame))
        except ValueError:
            assert_no_identity(frame, hidden, "a websocket frame")


def _wait_seq(pages, m: StrategoMatch) -> None:
    for page in pages:
        expect(page.get_by_test_id(PLAY)).to_have_attribute("data-seq", str(m.seq),
                                                            timeout=15_000)


def test_two_people_play_to_a_victory_and_a_spectator_never_sees_a_hidden_piece(
        browser, daphne_url, django_user_model, monkeypatch):  # noqa: F811
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    users = {name: django_user_model.objects.create_user(name, "", PASSWORD)
             for name in ("alice", "bob", "carol")}
    m = services.create_game(users["alice"], "french", opponent="bob", variant="standard")
    contexts, pages = [], {}
    frames: list[str] = []
    try:
        for name in ("alice", "bob", "carol"):
            context, page = _log_in(browser, daphne_url, name)
            contexts.append(context)
            pages[name] = page
        carol = pages["carol"]
        carol.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: frames.append(
                payload if isinstance(payload, str) else payload.decode())))
        # bob takes the seat he was invited to, from the game's page
        pages["bob"].goto(f"/stratego/{m.pk}/")
        pages["bob"].get_by_test_id("join").click()
        pages["bob"].wait_for_url(f"**/stratego/{m.pk}/")
        m = StrategoMatch.objects.get(pk=m.pk)
        assert m.status == "active" and m.to_move == "allied"
        # each has a set-up kept from before: the short line
        st = state_of(m)
        wellington = next(p.id for p in st.side_pieces("allied")
                          if p.type == "commander_in_chief")
        cavalry = next(p.id for p in st.side_pieces("french") if p.type == "light_cavalry")
        for name, side, want in (("bob", "allied", {wellington: WELLINGTON_AT}),
                                 ("alice", "french", {cavalry: CAVALRY_AT})):
            LastSetUp.objects.create(user=users[name], side=side, pieces=m.pieces,
                                     placement=_placement(st, side, want))
        for name in ("alice", "bob", "carol"):
            pages[name].goto(f"/stratego/{m.pk}/")
        for page in pages.values():
            expect(page.locator("html")).to_have_attribute("data-live", "on")
        # the Allies set up first, then the French: each by "The last set-up I used"
        for name in ("bob", "alice"):
            pages[name].get_by_test_id("last-setup").click()
            m = StrategoMatch.objects.get(pk=m.pk)
            _wait_seq(pages.values(), m)
            _spectator_check(carol.content(), frames, m)
        assert state_of(m).pieces[wellington].square == 6 * 12 + 5
        # the draft: four cards each, picked from the card choices, turn about
        for _ in range(8):
            m = StrategoMatch.objects.get(pk=m.pk)
            mover = pages["alice" if m.to_move == "french" else "bob"]
            picks = mover.get_by_test_id("draft-pick")
            if not picks.count():
                break
            picks.first.click()
            m = StrategoMatch.objects.get(pk=m.pk)
            _wait_seq(pages.values(), m)
        expect(pages["bob"].get_by_test_id("hand").get_by_test_id("card")).to_have_count(4)
        _spectator_check(carol.content(), frames, m)
        assert 'data-testid="card" data-card=' not in carol.content()  # no hand shown
        # bob ends his first turn; alice attacks Wellington from the board
        m = StrategoMatch.objects.get(pk=m.pk)
        assert m.to_move == "allied"
        pages["bob"].locator('[data-testid="action"][data-type="end_turn"]').click()
        m = StrategoMatch.objects.get(pk=m.pk)
        _wait_seq(pages.values(), m)
        assert m.to_move == "french"
        alice = pages["alice"]
        alice.get_by_test_id(f"pick-{CAVALRY_AT[0]}-{CAVALRY_AT[1]}").click()
        alice.wait_for_url("**?sel=*")
        target = alice.get_by_test_id(f"target-{WELLINGTON_AT[0]}-{WELLINGTON_AT[1]}")
        expect(target).to_be_visible()
        assert "attack" in target.locator("rect").get_attribute("class")
        target.click()
        for _ in range(3):  # the Allies may answer with Fighting spirit: bob declines
            m = StrategoMatch.objects.get(pk=m.pk)
            if m.status != "active":
                break
            _wait_seq([pages["bob"]], m)
            pages["bob"].locator('[data-testid="action"][data-type="decline"]').click()
            alice.wait_for_timeout(500)
        m = StrategoMatch.objects.get(pk=m.pk)
        assert m.status == "finished"
        assert m.outcome["winner"] == "french"
        assert m.outcome["reason"] == "commander_in_chief"
        _wait_seq(pages.values(), m)
        for page in pages.values():
            expect(page.get_by_test_id("outcome")).to_contain_text("The French win")
        html = carol.content()
        _spectator_check(html, frames, m)
        _frames_hide(frames, hidden_from(m, None), hidden_squares(m, None))
        assert frames, "the spectator's page received no websocket frame"
        assert len(hidden_from(m, None)) > 80  # most pieces never showed their face
        for page in pages.values():
            assert not csp_violations(page)
    finally:
        for context in contexts:
            context.close()
