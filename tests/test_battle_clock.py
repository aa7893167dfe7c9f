"""Time (issue 12): time controls, clock arithmetic (pure, with a fake now), flag fall,
resigning, absence claims and the expiry of battles nobody joins (battles/clock.py,
battles/presence.py, battles/services.py). The real-worker flag fall is in
tests/test_battle_time_worker.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from battles import services, setup
from battles.engine import from_json, legal_actions
from battles.models import Battle, Status
from battles.modules import BATTLE
from config.errors import CODES, BadInput
from play import clock, presence
from play.signals import match_finished

from .kinds import battle_tasks as tasks

T0 = datetime(2026, 6, 18, 11, 0, tzinfo=UTC)
LIVE = {"kind": "live", "base": 900, "increment": 10}
CORR = {"kind": "correspondence", "days": 3}



def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


# --- validation ---------------------------------------------------------------------------

@pytest.mark.parametrize("raw, clean", [
    (None, {}), ({}, {}),
    ({"kind": "live", "base": 60}, {"kind": "live", "base": 60, "increment": 0}),
    ({"kind": "live", "base": 7200, "increment": 300},
     {"kind": "live", "base": 7200, "increment": 300}),
    ({"kind": "correspondence", "days": 14}, {"kind": "correspondence", "days": 14}),
])
def test_valid_time_controls(raw, clean):
    assert clock.validate(raw) == clean


@pytest.mark.parametrize("raw, words", [
    ("live", "must be an object"),
    ({"kind": "blitz"}, 'kind must be "live" or "correspondence"'),
    ({"kind": "live"}, "needs base"),
    ({"kind": "live", "base": 59}, "base must be a whole number of seconds from 60 to 7200"),
    ({"kind": "live", "base": 7201}, "from 60 to 7200, not 7201"),
    ({"kind": "live", "base": True}, "base must be a whole number"),
    ({"kind": "live", "base": 600.0}, "base must be a whole number"),
    ({"kind": "live", "base": 600, "increment": 301}, "increment must be a whole number"),
    ({"kind": "live", "base": 600, "days": 3}, "does not take 'days'"),
    ({"kind": "correspondence"}, "needs days"),
    ({"kind": "correspondence", "days": 0}, "days must be a whole number of days from 1 to 14"),
    ({"kind": "correspondence", "days": 15}, "from 1 to 14"),
])
def test_time_control_errors_say_what_is_wrong(raw, words):
    with pytest.raises(BadInput) as exc:
        clock.validate(raw)
    assert words in exc.value.message and exc.value.status == 400


def test_new_codes_are_registered():
    assert {"out_of_time", "expired", "not_claimable"} <= set(CODES)


# --- the arithmetic (pure: an unsaved Battle, a fake now) -----------------------------------

def battle(tc, to_move="french", turn=1, active="french", bot="") -> Battle:
    b = Battle(time_control=tc, status=Status.ACTIVE, to_move=to_move, turn=turn,
               state={"active": active, "turn": turn, "outcome": None}, bot=bot,
               french_player_id=1,
               allied_player_id=None if bot else 2)
    clock.start(b, T0)
    return b


def move(b: Battle, now: datetime, to_move: str, turn: int | None = None,
         active: str | None = None) -> None:
    """A new position is saved: priority to ``to_move`` (turn/active changed if given)."""
    before_side, before = b.to_move, b.state
    b.to_move = to_move
    if turn is not None:
        b.turn = turn
    b.state = {"active": active or before["active"], "turn": b.turn, "outcome": None}
    clock.on_position(b, before_side, BATTLE.turns_ended(before, b.state), now)


def test_live_clock_charges_the_side_with_priority_and_adds_the_increment_at_turn_end():
    b = battle(LIVE)
    assert b.clocks == {"french": 900, "allied": 900}
    assert b.deadline == at(900) and clock.running_side(b) == "french"
    assert clock.clocks_now(b, at(30)) == {"french": 870, "allied": 900}
    move(b, at(100), "allied")  # a response window: priority moves, no increment
    assert b.clocks == {"french": 800, "allied": 900} and b.deadline == at(100 + 900)
    move(b, at(120), "french")  # back to the active side, allied charged 20 s
    assert b.clocks == {"french": 800, "allied": 880}
    move(b, at(170), "french")  # the same side keeps priority: still charged
    assert b.clocks["french"] == 750 and b.deadline == at(170 + 750)
    move(b, at(200), "allied", turn=2, active="allied")  # the French turn ends: +10
    assert b.clocks == {"french": 730, "allied": 880}
    assert b.deadline == at(200 + 880) and clock.running_side(b) == "allied"
    assert clock.out_of_time(b, at(200 + 879)) is None
    assert clock.out_of_time(b, at(200 + 880)) == "allied"
    assert clock.clocks_now(b, at(2000)) == {"french": 730, "allied": 0}


def test_deployment_gives_no_increment():
    b = battle(LIVE, turn=0)
    move(b, at(50), "allied", turn=1, active="french")
    assert b.clocks == {"french": 850, "allied": 900}


def test_correspondence_gives_a_fresh_allowance_each_time_the_move_passes():
    b = battle(CORR)
    day = 86400
    assert b.deadline == T0 + timedelta(days=3)
    move(b, at(day), "french")  # the same side keeps the move: its allowance keeps running
    assert b.deadline == T0 + timedelta(days=3)
    assert clock.clocks_now(b, at(day)) == {"french": 2 * day, "allied": 3 * day}
    move(b, at(2 * day), "allied")  # the move passes: 3 fresh days
    assert b.deadline == at(2 * day) + timedelta(days=3)
    assert b.clocks == {"french": 3 * day, "allied": 3 * day}


def test_the_computer_clock_never_runs():
    b = battle(LIVE, to_move="allied", bot="greedy")  # the computer plays the Allies
    assert b.deadline is None and b.clock_started_at == T0 and clock.running_side(b) is None
    move(b, at(500), "french")  # the computer thought 500 s: charged to nobody
    assert b.clocks == {"french": 900, "allied": 900} and b.deadline == at(500 + 900)
    move(b, at(560), "allied")
    assert b.clocks["french"] == 840 and b.deadline is None


def test_untimed_and_over_battles_have_no_clock():
    b = battle({})
    assert b.clocks == {} and b.deadline is None and clock.clocks_now(b, at(5)) == {}
    assert clock.on_position(b, "french", [], at(5)) == []
    b = battle(LIVE)
    move(b, at(10), "")  # the battle is over: nobody's clock runs
    assert b.deadline is None and clock.running_side(b) is None


def test_describe():
    assert clock.describe({}) == "Untimed"
    assert clock.describe(LIVE) == "Live: 15 min each, +10 s a turn"
    assert clock.describe(CORR) == "Correspondence: 3 days a move"


# --- with the database: two people ------------------------------------------------------------

@pytest.fixture
def booked(monkeypatch) -> list[tuple]:
    """Flag-fall tasks the service books, recorded instead of sent (no broker here)."""
    calls: list[tuple] = []
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: calls.append(args))
    return calls


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def people(catalogue, user, other_user):
    return user, other_user


def start(people, tc=LIVE, **kwargs) -> Battle:
    alice, bob = people
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open",
                               time_control=tc, **kwargs)
    services.join_battle(b.pk, bob)
    return Battle.objects.get(pk=b.pk)


def mover(b: Battle, people):
    alice, bob = people
    return alice if b.to_move == "french" else bob


def play_one(b: Battle, people) -> None:
    state = from_json(b.state, setup.engine_cards(b))
    services.act(b.pk, mover(b, people), b.seq, legal_actions(state, b.to_move)[0])


def overdue(b: Battle, seconds: float = 1) -> None:
    """Time passes: the side to move's deadline is ``seconds`` ago."""
    Battle.objects.filter(pk=b.pk).update(
        deadline=timezone.now() - timedelta(seconds=seconds),
        clock_started_at=timezone.now() - timedelta(seconds=900 + seconds))


@pytest.mark.django_db
def test_clocks_start_at_join_and_a_flag_fall_is_booked(people, booked,
                                                       django_capture_on_commit_callbacks):
    alice, bob = people
    data = client(alice).post("/api/battles/", {"battle": "quatre-bras", "side": "french",
                                                "opponent": "open", "time_control": LIVE,
                                                "public": False}, format="json")
    assert data.status_code == 201, data.content
    view = data.json()
    assert view["time_control"] == LIVE and view["clocks"] == {"french": 900, "allied": 900}
    assert view["deadline"] is None and booked == []  # waiting: no clock runs
    b = Battle.objects.get(pk=view["id"])
    assert b.public is False and b.expires_at is not None
    assert client(bob).get("/api/battles/open/").json()["results"][0]["time_control"] == LIVE
    with django_capture_on_commit_callbacks(execute=True):
        r = client(bob).post(f"/api/battles/{b.pk}/join/", {}, format="json")
    assert r.status_code == 200
    b.refresh_from_db()
    assert b.deadline is not None and booked == [(b.pk, 0, b.deadline)]
    view = r.json()
    assert view["deadline"] == b.deadline.isoformat()
    assert 895 <= view["clocks"][b.to_move] <= 900
    row = client(bob).get("/api/battles/").json()["results"][0]
    assert row["time_control"] == LIVE and row["deadline"] == view["deadline"]
    with django_capture_on_commit_callbacks(execute=True):
        play_one(b, people)
    b.refresh_from_db()
    assert booked[-1] == (b.pk, 1, b.deadline)
    # a correspondence deadline days away is left to the beat tick (no far ETA on a broker)
    with django_capture_on_commit_callbacks(execute=True):
        far = start(people, tc=CORR)
    assert far.deadline is not None and all(call[0] != far.pk for call in booked)


@pytest.mark.django_db
def test_bad_time_control_is_a_400(people):
    r = client(people[0]).post("/api/battles/", {"battle": "quatre-bras", "side": "french",
                                                 "time_control": {"kind": "live", "base": 5}},
                               format="json")
    assert r.status_code == 400 and "base must be" in r.json()["detail"]
    assert not Battle.objects.exists()
    r = client(people[0]).post("/api/battles/", {"battle": "quatre-bras", "side": "french",
                                                 "public": "yes"}, format="json")
    assert r.status_code == 400 and r.json()["detail"] == "public must be true or false"


@pytest.mark.django_db
def test_against_the_computer_untimed_by_default(catalogue, user, sent):
    b = services.create_battle(user, "quatre-bras", "french")
    assert b.time_control == {} and b.deadline is None and b.expires_at is None


@pytest.mark.django_db
def test_act_after_the_deadline_is_refused_and_ends_the_battle(people, booked):
    b = start(people)
    loser = b.to_move
    overdue(b)
    finished = []
    match_finished.connect(lambda **kw: finished.append(kw["match"].pk), weak=False,
                            dispatch_uid="clock-test")
    try:
        state = from_json(b.state, setup.engine_cards(b))
        r = client(mover(b, people)).post(
            f"/api/battles/{b.pk}/act/",
            {"seq": b.seq, "action": legal_actions(state, loser)[0]}, format="json")
    finally:
        match_finished.disconnect(dispatch_uid="clock-test")
    assert r.status_code == 409 and r.json()["code"] == "out_of_time"
    assert r.json()["detail"] == f"the {loser} side ran out of time: the battle is over"
    b.refresh_from_db()
    other = "allied" if loser == "french" else "french"
    assert b.status == Status.FINISHED and b.seq == 0 and finished == [b.pk]
    assert b.outcome == {"winner": other, "reason": "time", "loser": loser, "turn": b.turn}
    assert b.clocks[loser] == 0 and b.deadline is None
    # the opponent acting late is refused the same way, once the battle is over: 409 over
    r = client(people[0]).post(f"/api/battles/{b.pk}/act/", {"seq": 0, "action": {}},
                               format="json")
    assert r.status_code == 409 and r.json()["detail"] == "the battle is over"


@pytest.mark.django_db
def test_flag_fall_is_idempotent_by_seq(people, booked, django_capture_on_commit_callbacks):
    b = start(people)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.flag_fall(b.pk, 0) is False  # not yet out of time: nothing
    b.refresh_from_db()
    assert b.status == Status.ACTIVE and booked[-1][:2] == (b.pk, 0)  # booked again
    play_one(b, people)
    overdue(b)
    assert tasks.flag_fall(b.pk, 0) is False  # a task for an old seq does nothing
    assert Battle.objects.get(pk=b.pk).status == Status.ACTIVE
    finished = []
    match_finished.connect(lambda **kw: finished.append(kw["match"].pk), weak=False,
                            dispatch_uid="clock-test-2")
    try:
        assert tasks.flag_fall(b.pk, 1) is True
        assert tasks.flag_fall(b.pk, 1) is False  # the same task twice: ends it once
    finally:
        match_finished.disconnect(dispatch_uid="clock-test-2")
    b.refresh_from_db()
    assert finished == [b.pk] and b.outcome["reason"] == "time"


@pytest.mark.django_db
def test_tick_ends_overdue_battles_and_expires_waiting_ones(people, booked, sent):
    alice, bob = people
    b = start(people)
    untimed = start(people, tc={})
    waiting = services.create_battle(alice, "quatre-bras", "allied", opponent="open")
    invite = services.create_battle(alice, "quatre-bras", "allied", opponent="bob")
    fresh = services.create_battle(alice, "quatre-bras", "allied", opponent="open")
    assert waiting.expires_at - waiting.created_at == pytest.approx(timedelta(days=7),
                                                                    abs=timedelta(seconds=5))
    overdue(b)
    past = timezone.now() - timedelta(seconds=1)
    Battle.objects.filter(pk__in=[waiting.pk, invite.pk]).update(expires_at=past)
    # Before the tick: an expired battle is not offered, and cannot be joined.
    assert [r["id"] for r in client(bob).get("/api/battles/open/").json()["results"]] == \
        [fresh.pk]
    r = client(bob).post(f"/api/battles/{invite.pk}/join/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "expired"
    tasks.tick()
    assert Battle.objects.get(pk=b.pk).outcome["reason"] == "time"
    assert Battle.objects.get(pk=untimed.pk).status == Status.ACTIVE
    for pk in (waiting.pk, invite.pk):
        gone = Battle.objects.get(pk=pk)
        assert gone.status == Status.EXPIRED and gone.finished_at is not None
    assert Battle.objects.get(pk=fresh.pk).status == Status.WAITING
    r = client(User.objects.create_user("carol")).post(f"/api/battles/{waiting.pk}/join/",
                                                       {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "expired"
    r = client(alice).post(f"/api/battles/{waiting.pk}/cancel/", format="json")
    assert r.status_code == 409 and r.json()["code"] == "expired"
    assert tasks.tick() == []  # nothing left to do


@pytest.mark.django_db
def test_resign_by_api_at_any_moment(people, booked):
    alice, bob = people
    b = start(people, tc={})
    waiter = bob if b.to_move == "french" else alice  # not their move: may still resign
    side = "allied" if waiter == bob else "french"
    r = client(User.objects.create_user("mallory")).post(f"/api/battles/{b.pk}/resign/")
    assert r.status_code == 404
    r = client(waiter).post(f"/api/battles/{b.pk}/resign/")
    assert r.status_code == 200, r.content
    other = "french" if side == "allied" else "allied"
    assert r.json()["outcome"] == {"winner": other, "reason": "resigned", "loser": side,
                                   "turn": b.turn}
    assert r.json()["status"] == "finished" and r.json()["seed"] is not None
    r = client(waiter).post(f"/api/battles/{b.pk}/resign/")
    assert r.status_code == 409 and r.json()["detail"] == "the battle is over"
    waiting = services.create_battle(alice, "quatre-bras", "allied", opponent="open")
    r = client(alice).post(f"/api/battles/{waiting.pk}/resign/")
    assert r.status_code == 409 and "not started" in r.json()["detail"]


@pytest.mark.django_db
def test_resign_after_the_flag_fell_ends_by_time(people, booked):
    b = start(people)
    overdue(b)
    loser = b.to_move
    r = client(people[0] if loser == "allied" else people[1]).post(
        f"/api/battles/{b.pk}/resign/")  # the opponent of the side out of time resigns late
    assert r.status_code == 409 and r.json()["code"] == "out_of_time"
    assert Battle.objects.get(pk=b.pk).outcome["winner"] != loser


@pytest.mark.django_db
def test_resign_on_the_page_with_a_confirmation(people, booked):
    alice, _ = people
    b = start(people)
    c = client(alice)
    c.force_login(alice)
    page = c.get(f"/battles/{b.pk}/").content.decode()
    assert 'data-testid="resign"' in page and "Yes, resign" in page
    assert 'data-testid="clocks"' in page and 'data-clock-running="1"' in page
    assert "frontend/clock.js" in page and "Live: 15 min each, +10 s a turn" in page
    r = c.post(f"/battles/{b.pk}/resign/")
    assert r.status_code == 302
    b.refresh_from_db()
    assert b.outcome == {"winner": "allied", "reason": "resigned", "loser": "french",
                         "turn": b.turn}
    page = c.get(f"/battles/{b.pk}/").content.decode()
    assert 'data-testid="resign"' not in page and 'data-clock-running' not in page
    assert "The battle is over: you lose: you resigned" in page
    r = c.post(f"/battles/{b.pk}/resign/")
    assert r.status_code == 409 and "The battle is over" in r.content.decode()


def _away(b: Battle, side: str, seconds: float) -> None:
    """``side`` got the move and was last seen ``seconds`` ago."""
    when = timezone.now() - timedelta(seconds=seconds)
    Battle.objects.filter(pk=b.pk).update(clock_started_at=when, seen={side: when.isoformat()})


@pytest.mark.django_db
def test_absence_claim_rules(people, booked):
    alice, bob = people
    b = start(people)
    absent = b.to_move
    claimer = alice if absent == "allied" else bob
    victim = bob if claimer == alice else alice
    url = f"/api/battles/{b.pk}/claim/"
    limit = presence.ABSENCE_LIMIT

    def claim(who):
        return client(who).post(url)

    _away(b, absent, limit - 5)
    r = claim(claimer)
    assert r.status_code == 409 and r.json()["code"] == "not_claimable"
    assert f"a claim needs more than {limit} s" in r.json()["detail"]
    assert client(claimer).get(f"/api/battles/{b.pk}/").json()["can_claim"] is False
    _away(b, absent, limit + 5)
    r = claim(victim)  # the player to move cannot claim their opponent
    assert r.status_code == 409 and "your opponent is not to move" in r.json()["detail"]
    # seen recently, but got the move long ago: still here
    Battle.objects.filter(pk=b.pk).update(seen={absent: timezone.now().isoformat()})
    assert claim(claimer).status_code == 409
    _away(b, absent, limit + 5)
    view = client(claimer).get(f"/api/battles/{b.pk}/").json()
    assert view["can_claim"] is True
    page = APIClient()
    page.force_login(claimer)
    assert 'data-testid="claim"' in page.get(f"/battles/{b.pk}/").content.decode()
    r = claim(claimer)
    assert r.status_code == 200, r.content
    winner = "allied" if absent == "french" else "french"
    assert r.json()["outcome"] == {"winner": winner, "reason": "absent", "loser": absent,
                                   "turn": b.turn}
    assert "you win: the " in page.get(f"/battles/{b.pk}/").content.decode()


@pytest.mark.django_db
def test_only_live_battles_between_people_can_be_claimed(people, booked, sent):
    alice, _ = people
    for tc in ({}, CORR):
        b = start(people, tc=tc)
        _away(b, b.to_move, 10_000)
        claimer = alice if b.to_move == "allied" else people[1]
        r = client(claimer).post(f"/api/battles/{b.pk}/claim/")
        assert r.status_code == 409 and "only a live battle" in r.json()["detail"]
    computer = services.create_battle(alice, "quatre-bras", "french", time_control=LIVE)
    assert computer.deadline is None  # the computer (Allied) deploys first: no clock runs
    _away(computer, "allied", 10_000)
    r = client(alice).post(f"/api/battles/{computer.pk}/claim/")
    assert r.status_code == 409 and "the computer is never absent" in r.json()["detail"]


@pytest.mark.django_db
def test_touch_writes_at_most_every_ten_seconds(people, booked):
    b = start(people)
    now = timezone.now()
    assert presence.touch(b, "french", now) is True
    assert presence.touch(b, "french", now + timedelta(seconds=5)) is False
    assert presence.touch(b, "allied", now + timedelta(seconds=5)) is True  # both kept
    assert presence.touch(b, "french", now + timedelta(seconds=11)) is True
    b.refresh_from_db()
    assert presence.last_seen(b, "french") == now + timedelta(seconds=11)
    assert presence.last_seen(b, "allied") == now + timedelta(seconds=5)
    assert presence.touch(b, None) is False
    long_ago = (now - timedelta(seconds=60)).isoformat()
    Battle.objects.filter(pk=b.pk).update(seen={"french": long_ago, "allied": long_ago})
    client(people[1]).get(f"/api/battles/{b.pk}/")  # the API's GET touches (allied: bob)
    page = APIClient()
    page.force_login(people[0])
    page.get(f"/battles/{b.pk}/")  # and the page's (french: alice)
    b.refresh_from_db()
    assert presence.last_seen(b, "allied") >= now and presence.last_seen(b, "french") >= now


@pytest.mark.django_db
def test_new_battle_form_time_control_and_public(people):
    alice, _ = people
    c = APIClient()
    c.force_login(alice)
    page = c.get("/battles/").content.decode()
    assert "Correspondence: 3 days a move" in page and 'name="public"' in page
    r = c.post("/battles/", {"battle": "quatre-bras", "side": "french", "opponent": "open",
                             "bot": "random", "time_control": "live-30-15", "scale": "1"})
    assert r.status_code == 302, r.content.decode()[-2000:]
    b = Battle.objects.latest("pk")
    assert b.time_control == {"kind": "live", "base": 1800, "increment": 15}
    assert b.public is False  # the box was not ticked
    r = c.post("/battles/", {"battle": "quatre-bras", "side": "french", "opponent": "open",
                             "time_control": "blitz", "scale": "1", "public": "1"})
    assert r.status_code == 400 and "Choose a time control from the list" in r.content.decode()


@pytest.mark.django_db
def test_undo_after_the_deadline_is_refused_and_ends_the_battle(people, booked):
    b = start(people)
    loser = b.to_move
    overdue(b)
    r = client(mover(b, people)).post(f"/api/battles/{b.pk}/undo/", {"seq": b.seq},
                                      format="json")
    assert r.status_code == 409 and r.json()["code"] == "out_of_time"
    b.refresh_from_db()
    assert b.status == Status.FINISHED and b.outcome["reason"] == "time"
    assert b.outcome["winner"] != loser
