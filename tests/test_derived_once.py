"""Derived data once per action (issue 25): an action between two people lists the legal
actions of each position once (the position it was played in, the one it leaves: auto-play
lists the latter to find a forced action, and the change's messages reuse that list), and
builds each viewer class's message once."""

from __future__ import annotations

import pytest

from battles import selectors, services
from battles.modules import BATTLE
from campaigns import selectors as campaign_selectors
from campaigns import services as campaigns
from play.live import messages, notify

pytestmark = pytest.mark.django_db


def counting(monkeypatch, owner, name: str) -> list:
    calls: list = []
    real = getattr(owner, name)

    def count(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, count)
    return calls


def test_a_battle_action_lists_each_position_once(monkeypatch, user, other_user,
                                                  django_capture_on_commit_callbacks):
    b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, other_user)
    b.refresh_from_db()
    mover = user if b.to_move == "french" else other_user
    legal = selectors.battle_view(b, mover)["legal_actions"]
    module_calls = counting(monkeypatch, type(BATTLE), "legal_actions")
    page_calls = counting(monkeypatch, selectors, "legal_actions")
    built = counting(monkeypatch, messages, "change_messages")
    with django_capture_on_commit_callbacks(execute=True):
        services.act(b.pk, mover, b.seq, legal[0])
    b.refresh_from_db()
    assert len(built) == 1  # every class's message of the change, built once
    change = notify.take_answer("battle", b.pk)
    assert change is not None and set(change.texts) == {"french", "allied", None}
    # the position played in, then the new one (auto-play): the messages list none again
    assert len(module_calls) == 2 and page_calls == []
    # what was reused is what the position gives
    assert f'"seq":{b.seq},' in change.texts[b.to_move]
    mover_now = user if b.to_move == "french" else other_user
    assert selectors.battle_view(b, mover_now)["legal_actions"] == \
        BATTLE.legal_actions(BATTLE.from_json(b.state, selectors.cards_of(b)), b.to_move)


def test_a_campaign_action_lists_each_position_once(monkeypatch, user, other_user,
                                                    django_capture_on_commit_callbacks):
    from battles.modules import CAMPAIGN

    c = campaigns.create_campaign(user, "french", opponent="open")
    campaigns.join_campaign(c.pk, other_user)
    c.refresh_from_db()
    mover = user if c.to_move == "french" else other_user
    legal = campaign_selectors.campaign_view(c, mover)["legal_actions"]
    module_calls = counting(monkeypatch, type(CAMPAIGN), "legal_actions")
    page_calls = counting(monkeypatch, campaign_selectors, "legal_actions")
    with django_capture_on_commit_callbacks(execute=True):
        campaigns.act(c.pk, mover, c.seq, legal[0])
    assert len(module_calls) == 2 and page_calls == []
