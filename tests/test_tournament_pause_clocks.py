"""Pausing an online tournament pauses its battles (issue 12): the running clock keeps the
time it had, no flag falls while paused (the booked task and the beat's tick find nothing),
every action is refused 409 ``paused``, nobody can be claimed against as absent and the round's
no-show deadline does not run; the pages say "Paused by the organiser"; the resume restarts
the clocks with the time they had and books the flag fall again."""

from __future__ import annotations

import json
from datetime import timedelta
from functools import partial
from types import SimpleNamespace

import pytest
from django.test import Client
from django.utils import timezone

from battles import services as battle_services
from battles.engine import from_json, legal_actions
from battles.errors import Conflict
from battles.models import Battle
from battles.models import Status as BattleStatus
from play import clock, presence
from tournaments import enqueue as tournament_enqueue
from tournaments import services
from tournaments.models import Match, MatchGame, Round, Status
from tournaments.services.errors import NotAllowed
from tournaments.services.results import time_limit

from .kinds import battle_tasks as tasks
from .tournament_helpers import field, organiser

LIVE = {"kind": "live", "base": 600, "increment": 5}


@pytest.fixture
def org(catalogue):
    return organiser()


@pytest.fixture
def booked(monkeypatch):
    """The flag falls the battle service books (and the tournament's wakes), not sent."""
    calls: list[tuple] = []
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: calls.append(args))
    monkeypatch.setattr(tournament_enqueue, "send", lambda *args, **kw: None)
    return calls


def online(org, **fields):
    t, users = field(org, 2, online=True, time_control=LIVE, **fields)
    services.start_tournament(t.pk)
    t.refresh_from_db()
    m = Match.objects.get(round__tournament=t, round__number=1, allied__isnull=False)
    battles = [link.battle for link in MatchGame.objects.filter(match=m).order_by("game")]
    return t, users, battles


def mover(b: Battle):
    return b.player(b.to_move)


def fresh(b: Battle) -> Battle:
    return Battle.objects.select_related("french_player", "allied_player").get(pk=b.pk)


# --- the pure clock ---------------------------------------------------------------------------

def test_stop_keeps_the_time_left_and_restart_runs_it_again():
    t0 = timezone.now()
    b = SimpleNamespace(time_control=LIVE, clocks={"french": 600, "allied": 600},
                        clock_started_at=t0, deadline=t0 + timedelta(seconds=600),
                        to_move="french", turn=1, status="active", bot="", state={})
    assert clock.stop(b, t0 + timedelta(seconds=100)) == clock.FIELDS
    assert b.clocks == {"french": 500, "allied": 600}
    assert b.deadline is None and b.clock_started_at is None
    assert clock.running_side(b) is None and clock.out_of_time(b, t0 + timedelta(days=9)) is None
    later = t0 + timedelta(hours=5)
    assert clock.restart(b, later) == clock.FIELDS
    assert b.deadline == later + timedelta(seconds=500) and b.clock_started_at == later
    untimed = SimpleNamespace(time_control={}, clocks={}, deadline=None)
    assert clock.stop(untimed, t0) == [] and clock.restart(untimed, t0) == []


# --- the service and the tasks ----------------------------------------------------------------

def test_pause_stops_every_battle_and_resume_restarts_them(org, booked,
                                                           django_capture_on_commit_callbacks):
    t, _, (b,) = online(org)
    start_deadline = b.deadline
    side = b.to_move
    paused_at = timezone.now() + timedelta(seconds=100)
    with django_capture_on_commit_callbacks(execute=True):
        services.pause(t.pk, org, now=paused_at)
    b = fresh(b)
    assert b.paused_at == paused_at and b.deadline is None and b.clock_started_at is None
    left = b.clocks[side]
    assert 495 <= left <= 500  # what it had at the pause (600 less the ~100 s played)
    assert b.clocks[[s for s in ("french", "allied") if s != side][0]] == 600

    # later, past the old deadline (the new one within the hour a flag fall is booked for)
    resumed = paused_at + timedelta(minutes=20)  # past the deadline it had before
    assert resumed > start_deadline
    with django_capture_on_commit_callbacks(execute=True):
        services.resume(t.pk, org, now=resumed)
    b = fresh(b)
    assert b.paused_at is None and b.status == BattleStatus.ACTIVE
    assert b.clock_started_at == resumed
    assert b.deadline == resumed + timedelta(seconds=left)
    assert booked and booked[-1] == (b.pk, b.seq, b.deadline)  # the flag fall booked again
    t.refresh_from_db()
    assert t.status == Status.RUNNING


def test_no_flag_falls_while_paused(org, booked, monkeypatch):
    t, _, (b,) = online(org)
    services.pause(t.pk, org)
    late = b.deadline + timedelta(hours=1)  # the booked ETA (and more) has passed
    monkeypatch.setattr(timezone, "now", lambda: late)
    assert tasks.flag_fall(b.pk, b.seq) is False  # the booked task: nothing to do
    assert tasks.overdue_flags(late) == []
    tasks.tick()  # the beat's safety net
    b = fresh(b)
    assert b.status == BattleStatus.ACTIVE and b.outcome is None
    # a battle paused with its deadline still set (an old row) is skipped by the tick too
    Battle.objects.filter(pk=b.pk).update(deadline=late - timedelta(minutes=1))
    assert tasks.overdue_flags(late) == []
    assert tasks.flag_fall(b.pk, b.seq) is False


def test_every_action_is_refused_while_paused(org, booked):
    t, users, (b,) = online(org)
    services.pause(t.pk, org)
    b = fresh(b)
    legal = legal_actions(from_json(b.state, battle_services.setup.engine_cards(b)), b.to_move)
    player = mover(b)
    other = b.player("allied" if b.to_move == "french" else "french")
    for attempt in (lambda: battle_services.act(b.pk, player, b.seq, legal[0]),
                    lambda: battle_services.undo(b.pk, player, b.seq),
                    lambda: battle_services.resign(b.pk, player),
                    lambda: battle_services.resign(b.pk, other),
                    lambda: battle_services.claim_absence(b.pk, other)):
        with pytest.raises(Conflict) as exc:
            attempt()
        assert exc.value.code == "paused" and "paused" in exc.value.message
    assert fresh(b).seq == b.seq and fresh(b).status == BattleStatus.ACTIVE

    c = Client()
    c.force_login(player)
    r = c.post(f"/api/battles/{b.pk}/act/", {"seq": b.seq, "action": legal[0]},
               content_type="application/json")
    assert r.status_code == 409 and r.json()["code"] == "paused"
    assert "organiser has paused" in r.json()["detail"]
    view = c.get(f"/api/battles/{b.pk}/").json()
    assert view["paused"] is True and view["legal_actions"] == [] and not view["can_undo"]
    assert view["deadline"] is None and view["can_claim"] is False
    page = c.get(f"/battles/{b.pk}/").content.decode()
    assert "Paused by the organiser" in page and 'data-testid="resign"' not in page
    assert 'data-clock-running="1"' not in page  # no clock counts down
    assert "Paused by the organiser" in Client().get(f"/battles/{b.pk}/watch/").content.decode()
    r = c.post(f"/battles/{b.pk}/act/", {"seq": str(b.seq), "action": json.dumps(legal[0]),
                                         "confirm": "1"})  # the page's button: refused too
    assert r.status_code == 409 and "organiser has paused this battle" in r.content.decode()
    assert fresh(b).seq == b.seq

    services.resume(t.pk, org)
    assert c.get(f"/api/battles/{b.pk}/").json()["paused"] is False
    assert "Paused by the organiser" not in c.get(f"/battles/{b.pk}/").content.decode()
    battle_services.act(b.pk, player, b.seq, legal[0])  # play goes on
    assert fresh(b).seq == b.seq + 1


def test_no_absence_claim_while_paused_nor_at_once_after_the_resume(org, booked):
    t, users, (b,) = online(org)
    absent = b.to_move
    claimer = "allied" if absent == "french" else "french"
    long_ago = (timezone.now() - timedelta(hours=1)).isoformat()
    Battle.objects.filter(pk=b.pk).update(seen={absent: long_ago},
                                          clock_started_at=timezone.now() - timedelta(hours=1))
    assert presence.claim_refusal(fresh(b), claimer, timezone.now()) is None  # claimable now
    services.pause(t.pk, org)
    assert "paused" in presence.claim_refusal(fresh(b), claimer, timezone.now())
    services.resume(t.pk, org)
    b = fresh(b)
    why = presence.claim_refusal(b, claimer, timezone.now())
    assert why is not None and "away 0 s" in why  # the whole limit again, from the resume
    assert presence.claim_refusal(
        b, claimer, timezone.now() + timedelta(seconds=presence.ABSENCE_LIMIT + 1)) is None


def test_the_rounds_no_show_deadline_does_not_run_while_paused(org, booked):
    t, _, (b,) = online(org)
    rnd = Round.objects.get(tournament=t, number=1)
    services.pause(t.pk, org)
    assert time_limit(rnd.pk, now=timezone.now() + timedelta(days=30)) == 0
    b = fresh(b)
    assert b.status == BattleStatus.ACTIVE and b.paused_at is not None
    assert Match.objects.get(round=rnd, allied__isnull=False).state == Match.State.PENDING


def test_only_the_organiser_pauses_and_two_game_matches_pause_both(org, booked):
    t, users, battles = online(org, format="swiss_two_game")
    assert len(battles) == 2
    with pytest.raises(NotAllowed):
        services.pause(t.pk, users[0])
    assert not Battle.objects.filter(paused_at__isnull=False).exists()
    finished = battles[1]
    battle_services.resign(finished.pk, finished.french_player)  # game 2 over: left alone
    services.pause(t.pk, org)
    assert fresh(battles[0]).paused_at is not None
    assert fresh(finished).paused_at is None and fresh(finished).status == BattleStatus.FINISHED
    services.resume(t.pk, org)
    assert not Battle.objects.filter(paused_at__isnull=False).exists()
    r = Client()
    r.force_login(org)
    assert r.post(f"/api/tournaments/{t.pk}/pause/").status_code == 200
    assert fresh(battles[0]).paused_at is not None


def test_an_untimed_online_tournament_pauses_too(org, booked):
    t, users = field(org, 2, online=True, time_control={})
    services.start_tournament(t.pk)
    b = Battle.objects.get(pk__in=MatchGame.objects.filter(
        kind="battle", match__round__tournament=t).values("played_id"))
    services.pause(t.pk, org)
    b = fresh(b)
    assert b.paused_at is not None and b.clocks == {} and b.deadline is None
    with pytest.raises(Conflict) as exc:
        battle_services.resign(b.pk, b.french_player)
    assert exc.value.code == "paused"
    services.resume(t.pk, org)
    battle_services.resign(b.pk, b.french_player)
    assert fresh(b).status == BattleStatus.FINISHED


# --- at once (PostgreSQL) ----------------------------------------------------------------------

@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_pause_and_a_battle_ending_at_once_never_deadlock(catalogue, monkeypatch):
    """The battle's row is held while it ends (then the tournament's, by the result); the
    pause takes the battles first too, so it waits, then finds the battle over."""
    import threading
    import time

    from django.db import connection, connections, transaction

    from battles.services import finish_battle

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises all writers")
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: None)
    monkeypatch.setattr(tournament_enqueue, "send", lambda *args, **kw: None)
    org = organiser()
    t, users, (b, game2) = online(org, format="swiss_two_game")
    holding = threading.Event()
    errors: list = []

    def end_slowly():
        try:
            with transaction.atomic():
                row = Battle.objects.select_for_update().get(pk=b.pk)
                holding.set()
                time.sleep(0.5)  # the pause starts meanwhile and waits for this row
                finish_battle(row, {"winner": "french", "reason": "resigned", "turn": 1})
        except Exception as exc:  # noqa: BLE001 - inspected below
            errors.append(exc)
        finally:
            connections.close_all()

    def pause():
        try:
            holding.wait(10)
            services.pause(t.pk, org)
        except Exception as exc:  # noqa: BLE001 - inspected below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=end_slowly), threading.Thread(target=pause)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "deadlocked"
    assert errors == []
    b = fresh(b)
    assert b.status == BattleStatus.FINISHED and b.paused_at is None  # over: left alone
    assert fresh(game2).paused_at is not None  # the other game stops
    t.refresh_from_db()
    assert t.status == Status.PAUSED
    assert Match.objects.get(round__tournament=t, allied__isnull=False).state == \
        Match.State.PENDING  # game 2 still to play


# --- the socket -----------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_a_pause_and_a_resume_reach_the_open_sockets(catalogue, monkeypatch):
    """A pause moves neither seq nor status: the nudge says ``paused`` and each socket sends
    its viewer the battle again (the page redraws: "Paused by the organiser")."""
    from channels.db import database_sync_to_async
    from channels.layers import channel_layers
    from django.contrib.auth.models import User
    from django.db import transaction

    from play import pausing

    from .test_live import connect, hello, run

    channel_layers.backends.clear()
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: None)
    alice, bob = (User.objects.create_user(n, "", "pw") for n in ("alice", "bob"))
    b = battle_services.create_battle(alice, "quatre-bras", "french", opponent="open",
                                      time_control=LIVE)
    battle_services.join_battle(b.pk, bob)

    def pause_or_resume(step):
        with transaction.atomic():
            step([b.pk], timezone.now())

    async def scenario():
        players = [await connect(b.pk, alice), await connect(b.pk, bob)]
        watcher = await connect(b.pk, None)
        for c in (*players, watcher):
            assert (await hello(c))["paused"] is False
        await database_sync_to_async(pause_or_resume)(partial(pausing.pause, "battle"))
        for c in (*players, watcher):
            m = await c.receive_json_from(timeout=10)
            assert m["paused"] is True and m["seq"] == 0 and m["events"] == []
            assert m["legal_actions"] == [] and m.get("deadline") is None
            assert await c.receive_nothing(timeout=0.2)  # once
        await database_sync_to_async(pause_or_resume)(partial(pausing.resume, "battle"))
        for c in (*players, watcher):
            assert (await c.receive_json_from(timeout=10))["paused"] is False
        for c in (*players, watcher):
            await c.disconnect()

    try:
        run(scenario)
    finally:
        channel_layers.backends.clear()
