"""A timed La Belle Alliance game (``play.clock``: one clock per side, running while that
side must act; the increment after each player phase, ``GAME.turns_ended``): the clocks in
the view, the clock passing to the Allies after the French phase, and the flag fall (the
booked task) ending the game by time for the side out of it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from online.belle_alliance import selectors, services
from online.belle_alliance.models import BelleAllianceMatch

from ..kinds import KindTasks
from .helpers import BASE, client_for

pytestmark = pytest.mark.django_db
tasks = KindTasks("belle_alliance")
LIVE = {"kind": "live", "base": 300, "increment": 5}


@pytest.fixture
def booked(monkeypatch):
    calls: list[tuple] = []
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: calls.append(args))
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    return calls


def test_a_live_game_runs_one_clock_per_side_and_a_flag_fall_ends_it(
        user, other_user, booked, django_capture_on_commit_callbacks):
    alice, bob = client_for(user), client_for(other_user)
    r = alice.post(BASE, {"side": "french", "opponent": "open", "time_control": LIVE},
                   format="json")
    assert r.status_code == 201 and r.json()["time_control"] == LIVE
    pk = r.json()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        assert bob.post(f"{BASE}{pk}/join/", {}, format="json").status_code == 200
    v = alice.get(f"{BASE}{pk}/").json()
    assert v["clocks"]["allied"] == 300 and 290 <= v["clocks"]["french"] <= 300
    assert v["deadline"]
    assert booked and booked[-1][0] == pk  # the French clock's flag fall booked
    with django_capture_on_commit_callbacks(execute=True):
        r = alice.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": v["legal_actions"][0]},
                       format="json")
    assert r.status_code == 200
    m = BelleAllianceMatch.objects.get(pk=pk)
    # the French clock stopped, with the increment (+5 s); the Allied one runs
    assert m.to_move == "allied" and 295 <= m.clocks["french"] <= 305
    assert selectors.game_view(m, other_user)["clocks"]["allied"] <= 300
    # the Allied clock runs out: the booked task ends the game by time
    BelleAllianceMatch.objects.filter(pk=pk).update(
        clock_started_at=m.clock_started_at - timedelta(seconds=400),
        deadline=m.deadline - timedelta(seconds=400))
    assert tasks.flag_fall(pk, m.seq) is True
    m.refresh_from_db()
    assert m.status == "finished" and m.outcome["winner"] == "french"
    assert m.outcome["reason"] == "time" and m.outcome["turn"] == 1
    assert selectors.game_view(m, user)["seed"] == str(m.seed)
    assert tasks.flag_fall(pk, m.seq) is False  # a repeated task changes nothing


def test_a_bad_time_control_is_refused_with_its_reason(user, booked):
    r = client_for(user).post(BASE, {"side": "french", "time_control": {"kind": "blitz"}},
                              format="json")
    assert r.status_code == 400 and "time_control kind" in r.json()["detail"]
    with pytest.raises(services.BadInput):
        services.create_game(user, "french", time_control={"kind": "live"})
