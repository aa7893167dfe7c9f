"""Deploy several cards from one submit (issue 28; rule 4.1): ``play.turns.act_many`` through
the battle and campaign services and the pages' form (``frontend/battle/deploy_form.py``):
each placement is checked by the engine in the position the one before left, each is its
own log row (undo and replays read single actions), one illegal placement is a 400 naming
its card and nothing is placed, only deployment actions go together, and the enemy sees
face-down backs only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from battles import modules, services
from battles.engine import from_json, legal_actions, to_json, view
from battles.models import Battle, Status
from battles.setup import engine_cards
from config.errors import BadInput
from frontend.battle.deploy_form import posted_actions, suggested

from .kinds import battle_tasks as tasks

pytestmark = pytest.mark.django_db


def _french_deploying(user, monkeypatch) -> Battle:
    """Quatre Bras as the French against the random computer, the Allies deployed (4.1-a:
    the Allies first): the French to deploy."""
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    b = services.create_battle(user, "quatre-bras", "french", bot="random")
    for _ in range(60):
        b.refresh_from_db()
        if services.priority(b) == "french":
            return b
        assert tasks.bot_move(b.pk, b.seq) >= 1
    raise AssertionError("the Allies never finished deploying")


def _suggestion(b: Battle) -> list[dict]:
    state = from_json(b.state, engine_cards(b))
    pick = suggested(legal_actions(state, "french"), view(state, "french"), "french",
                     engine_cards(b))
    return [{"type": "deploy", "side": "french", "card": n, "to": to} for n, to in pick.items()]


def test_several_cards_and_the_end_of_deployment_in_one_submit(user, monkeypatch):
    b = _french_deploying(user, monkeypatch)
    batch = _suggestion(b)
    assert {a["to"] for a in batch} == {"french_left", "french_center", "french_right"}
    seq = b.seq
    services.act_many(b.pk, user, seq, [*batch, {"type": "deployment_done", "side": "french"}])
    b.refresh_from_db()
    rows = list(b.actions.filter(seq__gt=seq).order_by("seq"))
    mine = [r for r in rows if r.side == "french" and not r.auto]
    assert [r.action for r in mine] == [*batch, {"type": "deployment_done", "side": "french"}]
    assert [r.seq for r in mine] == list(range(seq + 1, seq + 5))  # a row each, in order
    state = from_json(b.state, engine_cards(b))
    assert state.phase != "deploy" and b.turn == 1  # 5.0: the French have the first turn
    assert to_json(services.replay(b)) == b.state  # replays read them as single actions


def test_one_illegal_placement_is_a_400_naming_its_card_and_nothing_is_placed(user, monkeypatch):
    b = _french_deploying(user, monkeypatch)
    first = _suggestion(b)[0]
    twice = {**first, "to": "french_right" if first["to"] != "french_right" else "french_left"}
    seq, rows = b.seq, b.actions.count()
    with pytest.raises(BadInput) as exc:
        services.act_many(b.pk, user, seq, [first, twice])
    name = engine_cards(b)[first["card"]].name
    assert "action 2 of 2" in exc.value.message and name in exc.value.message
    assert exc.value.code == "illegal_action"
    b.refresh_from_db()
    assert (b.seq, b.actions.count()) == (seq, rows)  # nothing placed, not even the first


def test_only_deployment_goes_in_one_submit(user, monkeypatch):
    b = _french_deploying(user, monkeypatch)
    fire = {"type": "fire", "side": "french", "piece": 1, "target": 2}
    with pytest.raises(BadInput) as exc:
        services.act_many(b.pk, user, b.seq, [*_suggestion(b)[:1], fire])
    assert exc.value.code == "not_batchable" and "'fire'" in exc.value.message
    with pytest.raises(BadInput):
        services.act_many(b.pk, user, b.seq, [])


def test_the_enemy_sees_face_down_backs_only(user, monkeypatch):
    b = _french_deploying(user, monkeypatch)
    batch = _suggestion(b)
    seq = b.seq
    services.act_many(b.pk, user, seq, batch)
    game = modules.EaglesBattle()
    for r in b.actions.filter(seq__gt=seq):
        for e in game.events_for(r.events, "allied"):
            if e["type"] == "deploy":
                assert "card" not in e, e  # a face-down troop card: its back only


def test_the_form_posts_the_placements_in_its_order_then_the_end(user, monkeypatch, client):
    b = _french_deploying(user, monkeypatch)
    client.force_login(user)
    page = client.get(reverse("battle", args=[b.pk])).content.decode()
    assert 'data-testid="deploy-many"' in page and 'data-testid="deploy-many-done"' in page
    batch = _suggestion(b)
    form = {"seq": b.seq, "side": "french", "done": "1",
            **{f"place-{a['card']}": a["to"] for a in batch}}
    assert posted_actions(form, list(form)) == [
        *batch, {"type": "deployment_done", "side": "french"}]
    r = client.post(reverse("battle-deploy", args=[b.pk]), form)
    assert r.status_code == 302
    b.refresh_from_db()
    assert b.status == Status.ACTIVE and b.turn == 1
    # an illegal one: the page with the 400 naming the card, nothing placed
    b2 = _french_deploying(user, monkeypatch)
    num = _suggestion(b2)[0]["card"]
    r = client.post(reverse("battle-deploy", args=[b2.pk]),
                    {"seq": b2.seq, "side": "french", f"place-{num}": "allied_left"})
    assert r.status_code == 400
    assert engine_cards(b2)[num].name in r.content.decode()
