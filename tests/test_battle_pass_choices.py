"""The battle page offers the same standing choices to pass as the campaign page
(``play.passing`` through ``battles.services``; the frame's ``_passing.html``): which kinds
of response window to be asked in, kept per battle and side; a refusal outside a window."""

from __future__ import annotations

import pytest
from django.test import Client

from battles import modules, services
from battles.models import Battle

from .kinds import battle_tasks as tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(user, catalogue, monkeypatch) -> Client:
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    client = Client()
    client.force_login(user)
    return client


def test_the_battle_page_keeps_the_kinds_of_window_to_be_asked_in(alice, user):
    b = services.create_battle(user, "quatre-bras", "allied", bot="random")
    page = alice.get(f"/battles/{b.pk}/").content.decode()
    assert 'data-testid="passing"' in page and "When to ask you to answer" in page
    assert 'data-testid="pass-rest"' not in page  # no enemy action to let pass now
    r = alice.post(f"/battles/{b.pk}/passing/", {"ask": ["fire", "morale"]},
                   headers={"HX-Request": "true"})
    assert r.status_code == 200 and 'id="battle-play"' in r.content.decode()
    assert "(2 kinds passed for you)" in r.content.decode()
    b = Battle.objects.get(pk=b.pk)
    assert b.pass_choices == {"allied": {"skip": ["shock", "engage"]}}
    assert set(b.pass_choices["allied"]["skip"]) <= set(modules.RESPONSE_KINDS)
    r = alice.post(f"/battles/{b.pk}/pass-rest/", {"seq": b.seq})
    assert r.status_code == 409  # not in a response window: refused, nothing kept
    assert "turn" not in Battle.objects.get(pk=b.pk).pass_choices["allied"]
