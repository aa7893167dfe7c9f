"""The button beside Pass, "Pass, and do not ask me about enemy fire again" (issue 28:
``play.passing.pass_and_skip_kind``): one click passes this window (the player's own row)
and adds its kind to the kinds they are not asked in ("When to ask you to answer" shows it
unticked); later windows of that kind are passed for them (reason "skip:<kind>"); refused
(409) outside a window, nothing kept."""

from __future__ import annotations

import pytest
from django.test import Client

from battles import modules, services
from battles.engine import from_json, legal_actions, view
from battles.models import Battle, Status
from battles.setup import engine_cards
from config.errors import Conflict

from .kinds import battle_tasks as tasks
from .newcomer_policy import choose

pytestmark = pytest.mark.django_db
GAME = modules.EaglesBattle()


def _window(b: Battle) -> str | None:
    return GAME.response_kind(from_json(b.state, engine_cards(b)), "french")


def _play_until_a_window(b: Battle, user, kind: str | None = None) -> None:
    for _ in range(1500):
        b.refresh_from_db()
        assert b.status == Status.ACTIVE
        if services.priority(b) != "french":
            assert tasks.bot_move(b.pk, b.seq) >= 1
            continue
        if _window(b) is not None and (kind is None or _window(b) == kind):
            return
        state = from_json(b.state, engine_cards(b))
        services.act(b.pk, user, b.seq, dict(choose(legal_actions(state, "french"),
                                                    view(state, "french"))))
    raise AssertionError("no window came")


@pytest.fixture
def battle(user, monkeypatch) -> Battle:
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(services, "new_seed", lambda: 4)
    return services.create_battle(user, "ligny", "french", bot="random")


def test_one_click_passes_and_stops_asking_about_that_kind(battle, user):
    b = battle
    with pytest.raises(Conflict):  # deployment: no window, nothing kept
        services.pass_and_skip_kind(b.pk, user, b.seq)
    assert "french" not in Battle.objects.get(pk=b.pk).pass_choices
    _play_until_a_window(b, user)
    kind, seq = _window(b), b.seq
    client = Client()
    client.force_login(user)
    page = client.get(f"/battles/{b.pk}/").content.decode()
    words = {"fire": "enemy fire", "shock": "enemy shock attacks",
             "engage": "enemy moves into contact", "morale": "enemy morale rolls"}[kind]
    assert f"Pass, and do not ask me about {words} again" in page
    r = client.post(f"/battles/{b.pk}/pass-kind/", {"seq": seq},
                    headers={"HX-Request": "true"})
    assert r.status_code == 200
    assert f'data-testid="ask-{kind}" checked' not in r.content.decode()  # unticked now
    assert f'data-testid="ask-{kind}"' in r.content.decode()
    b.refresh_from_db()
    assert b.pass_choices["french"]["skip"] == [kind]
    row = b.actions.get(seq=seq + 1)
    assert (row.side, row.action["type"], row.auto) == ("french", "pass", False)  # her click
    for _ in range(1500):  # later windows of that kind are passed for her
        if b.actions.filter(side="french", auto_reason=f"skip:{kind}").exists():
            break
        b.refresh_from_db()
        assert b.status == Status.ACTIVE
        assert _window(b) != kind or services.priority(b) != "french"
        if services.priority(b) != "french":
            assert tasks.bot_move(b.pk, b.seq) >= 1
            continue
        state = from_json(b.state, engine_cards(b))
        services.act(b.pk, user, b.seq, dict(choose(legal_actions(state, "french"),
                                                    view(state, "french"))))
    assert b.actions.filter(side="french", auto_reason=f"skip:{kind}").exists()
