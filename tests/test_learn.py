"""Learning the game (issue 28): the how-to-play page (the rules in the site's words, the
diagrams drawn by the battle board's renderer, an anchor for every rule it links) and the
first battle step by step (``battles.tutorial``: the real engine, scripted dice, a win by
occupation; kept in the session; leave at any step; a stale or missing step refused with a
message, never a 500). The battle page links each group of actions to its rule."""

from __future__ import annotations

import re

import pytest

from battles import tutorial
from battles.engine import legal_actions, load_cards
from cards.catalogue.file import catalogue_records
from frontend.battle.views import action_sections
from frontend.learn.rules import ACTION_RULES, SECTIONS

CARDS = load_cards(catalogue_records())


def _at(response) -> int:
    return int(re.search(rb'name="at" value="(\d+)"', response.content).group(1))


def test_the_tutorial_wins_on_the_real_engine_with_its_scripted_dice():
    doc = tutorial.start(CARDS)
    seen: list[str] = []
    while (step := tutorial.current(doc)) is not None:
        st = tutorial.state_of(doc, CARDS)
        # each of the newcomer's steps is one of the engine's legal actions for the French
        assert tutorial.resolve(st, step) in legal_actions(st, tutorial.PLAYER)
        doc, events = tutorial.play(doc, doc["at"], CARDS)
        seen += [e["type"] for e in events]
    st = tutorial.state_of(doc, CARDS)
    assert st.outcome == {"winner": "french", "reason": "occupation", "turn": 4,
                          "position": "allied_right"}
    # deployment, a move that engages, a fire, a morale roll, a rout and the win
    for kind in ("deploy", "deployment_done", "move", "fire", "morale", "eliminated",
                 "battle_over"):
        assert kind in seen, kind


def test_a_step_played_twice_is_refused():
    doc = tutorial.start(CARDS)
    doc2, _ = tutorial.play(doc, doc["at"], CARDS)
    with pytest.raises(tutorial.TutorialError):
        tutorial.play(doc2, doc["at"], CARDS)


def test_how_to_play_draws_its_diagrams_with_the_board_renderer(client, db):
    page = client.get("/learn/").content.decode()
    for key in ("positions", "engaging", "morale", "victory"):
        figure = page.split(f'data-testid="diagram-{key}"')[1].split("</figure>")[0]
        assert "<svg" in figure and 'class="piece' in figure, key  # the board's own cards
    assert page.count("<svg") >= 4
    # every rule the site links to has its section on the page
    for anchor in set(SECTIONS.values()):
        assert f'<section id="{anchor}">' in page, anchor
    assert set(ACTION_RULES.values()) <= set(SECTIONS)


def test_the_menu_of_every_page_offers_how_to_play(client, db):
    assert 'href="/learn/"' in client.get("/").content.decode()


def test_a_newcomer_plays_the_tutorial_through_to_the_win(client, db):
    r = client.get("/learn/tutorial/")
    assert r.status_code == 200 and b'data-testid="tutorial-step"' in r.content
    assert b'data-testid="rule-link"' in r.content and b"/learn/#deployment" in r.content
    steps = 0
    while b'data-testid="tutorial-action"' in r.content:
        r = client.post("/learn/tutorial/", {"at": _at(r)})
        assert r.status_code == 200
        steps += 1
    assert steps == len(list(tutorial.player_steps())) == 12
    assert b"You won!" in r.content and b"routs" in r.content
    # the board is drawn as the French see it
    assert b'id="tutorial' in r.content


def test_the_tutorial_refuses_a_stale_or_missing_step_with_a_message(client, db):
    r = client.get("/learn/tutorial/")
    first = _at(r)
    client.post("/learn/tutorial/", {"at": first})
    again = client.post("/learn/tutorial/", {"at": first})
    assert again.status_code == 409 and b"already been played" in again.content
    bad = client.post("/learn/tutorial/", {"at": "x"})
    assert bad.status_code == 400 and b"no step number" in bad.content


def test_leaving_the_tutorial_at_any_step_forgets_it(client, db):
    r = client.get("/learn/tutorial/")
    client.post("/learn/tutorial/", {"at": _at(r)})
    left = client.post("/learn/tutorial/leave/")
    assert left.status_code == 302 and left["Location"] == "/learn/"
    assert "eagles_tutorial" not in client.session
    # coming back starts from the first step
    assert _at(client.get("/learn/tutorial/")) == next(tutorial.player_steps())


def test_each_group_of_battle_actions_links_its_rule():
    doc = tutorial.start(CARDS)
    st = tutorial.state_of(doc, CARDS)
    from battles.engine import view

    sections = action_sections(legal_actions(st, "french"), view(st, "french"), CARDS)
    links = [r for s in sections for r in s["rules"]]
    assert {"number": "4.1", "url": "/learn/#deployment"} in links
