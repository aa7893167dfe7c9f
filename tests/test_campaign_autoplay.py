"""Auto-pass inside campaigns (play/autoplay.py): a person's lone Pass in a response
window is played for them (unless they always want to be asked), as their own action with
its own seq's dice, so the replay is exact; campaign decisions are never played for them."""

from __future__ import annotations

import json
import random

import pytest

from accounts.models import preferences_of
from battles import modules
from battles.campaign import to_json
from campaigns import selectors, services
from campaigns.models import Campaign, Status

from .campaign.helpers import small_pools
from .kinds import campaign_tasks as tasks

pytestmark = pytest.mark.django_db
PASS = {"type": "pass", "side": "allied", "board": "ligny"}


@pytest.fixture(autouse=True)
def small(monkeypatch):
    """Small pools on both sides, a fixed seed; the computer's moves are run by the test."""
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)


def test_forced_board_actions_are_played_as_in_battles_decisions_never():
    assert modules.forced_action([PASS], always_ask=False) == PASS
    assert modules.forced_action([PASS], always_ask=True) is None
    assert modules.forced_action([PASS, {**PASS, "type": "special", "card": 5}], False) is None
    # As in battles: a lone morale roll or end of deployment is played (the preference is
    # about response windows only); ending one's own phase or turn stays a click.
    for kind in ("roll_morale", "deployment_done"):
        lone = {**PASS, "type": kind}
        assert modules.forced_action([lone], always_ask=True) == lone
    for kind in ("end_turn", "end_phase", "retreat", "split", "reinforce", "keep"):
        assert modules.forced_action([{**PASS, "type": kind}], always_ask=False) is None


def same_as_replay(c: Campaign) -> bool:
    replayed = json.loads(json.dumps(to_json(services.replay(c))))
    return json.dumps(replayed, sort_keys=True) == json.dumps(c.state, sort_keys=True)


def play(c: Campaign, users: dict, rng: random.Random) -> dict:
    """Play ``c`` to its end with random choices (the computer through its task). Returns
    what happened: the actions played for a person beyond the one they (or the computer)
    chose, and the lone passes a person was asked to click."""
    auto: list[dict] = []
    clicked: list[str] = []
    for _ in range(2000):
        c.refresh_from_db()
        if c.status != Status.ACTIVE:
            break
        side = c.to_move
        before = c.seq
        if users.get(side) is None:
            assert tasks.bot_move(c.pk, c.seq) >= 1
        else:
            legal = selectors.campaign_view(c, users[side])["legal_actions"]
            if len(legal) == 1 and legal[0]["type"] == "pass":
                clicked.append(side)
            # Any other forced board action is played for them: never offered alone.
            assert not (len(legal) == 1 and legal[0]["type"] in ("roll_morale",
                                                                 "deployment_done")), legal
            services.act(c.pk, users[side], c.seq, rng.choice(legal))
        c.refresh_from_db()
        rows = list(c.actions.filter(seq__gt=before).order_by("seq"))
        chooser = rows[0].side
        # After the chooser's own run: only passes, only a person's, never a decision.
        extra = rows[next((i for i, r in enumerate(rows) if r.side != chooser), len(rows)):]
        for r in extra:
            if users.get(r.side) is not None:
                assert r.action["type"] not in (*modules.DECISIONS, "end_phase", "end_turn")
                assert r.action["board"], r.action
                auto.append({"side": r.side, **r.action})
    else:
        raise AssertionError("the campaign does not end")
    return {"auto": auto, "clicked": clicked}


def test_two_people_never_click_a_lone_pass_and_the_replay_is_exact(user, other_user):
    c = services.create_campaign(user, "french", opponent="open", settings={"turn_cap": 2})
    services.join_campaign(c.pk, other_user)
    users = {"french": user, "allied": other_user}
    got = play(c, users, random.Random(3))
    assert got["auto"], "no response window with a lone pass came up"
    assert got["clicked"] == []
    assert {a["side"] for a in got["auto"]} <= {"french", "allied"}
    assert {a["type"] for a in got["auto"]} - {"pass"}, "no forced roll or deployment end"
    c.refresh_from_db()
    assert c.status == Status.FINISHED and same_as_replay(c)


def test_always_ask_makes_the_lone_pass_a_click(user, other_user):
    prefs = preferences_of(user)
    prefs.always_ask = True
    prefs.save()
    c = services.create_campaign(user, "french", opponent="open", settings={"turn_cap": 2})
    services.join_campaign(c.pk, other_user)
    # The same game as above up to alice's first lone pass: now she is asked.
    got = play(c, {"french": user, "allied": other_user}, random.Random(3))
    assert "french" in got["clicked"]
    assert "allied" not in got["clicked"]  # bob's would still be played for him
    # alice's lone passes are hers to click; her forced rolls are still played (as battles)
    assert all(a["side"] == "allied" or a["type"] != "pass" for a in got["auto"])
    c.refresh_from_db()
    assert c.status == Status.FINISHED and same_as_replay(c)


def test_against_the_computer_the_persons_lone_pass_follows_its_move(user):
    c = services.create_campaign(user, "french", bot="random", settings={"turn_cap": 2})
    got = play(c, {"french": user}, random.Random(5))
    assert got["auto"] and {a["side"] for a in got["auto"]} == {"french"}
    assert got["clicked"] == []
    c.refresh_from_db()
    assert c.status == Status.FINISHED and same_as_replay(c)
