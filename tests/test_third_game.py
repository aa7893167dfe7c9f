"""A third game runs on the one game service with no change to it (issue: "a third game must
need a module, its pages and its bots, and no change to the service").

``tests/toygame`` is such a game: a pure module (``game.py``, Race to ten), its two tables
(``models.py``, extending ``play.models``) and its match kind (``kind.py``), found by
``play.registry.autodiscover`` like the EAGLES kinds. Everything below is the service's own
code: acting with optimistic ``seq``, seeded dice, the computer's turn through the worker's
task, undo and its window, clocks and the flag fall, resigning, replaying the log, its replay
book and its export (``play.replays``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from config.errors import BadInput, Conflict, NotFound
from play import enqueue, registry, replays, tasks, turns, undo
from play.log import count_dice, effective_actions
from play.protocol import GameModule
from play.seeds import new_seed, seed_hash
from play.signals import match_finished
from tests.toygame.game import GAME
from tests.toygame.models import Race

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    calls: list[tuple] = []
    monkeypatch.setattr(enqueue, "send_bot_move", lambda *args: calls.append(args))
    monkeypatch.setattr(enqueue, "send_flag_fall", lambda *args: None)
    return calls


@pytest.fixture
def carol(db):
    from django.contrib.auth.models import User

    return User.objects.create_user("carol", "carol@example.com", "s3cret-pass-1815")


def race(french, allied=None, bot="", **fields) -> Race:
    seed = new_seed()
    state = GAME.setup(seed, {}, None)
    return Race.objects.create(french_player=french, allied_player=allied, bot=bot, seed=seed,
                               seed_hash=seed_hash(seed), state=GAME.to_json(state),
                               to_move=GAME.to_move(state), **fields)


def test_the_kind_is_found_and_its_module_keeps_the_protocol():
    kind = registry.get("race")
    assert kind.model is Race and isinstance(kind.game, GameModule)
    assert {k.kind for k in registry.kinds()} >= {"battle", "campaign", "race"}


def test_two_people_play_with_seq_dice_undo_and_replay(user, other_user, sent):
    kind = registry.get("race")
    r = race(user, other_user)
    with pytest.raises(Conflict) as err:
        turns.act(kind, r.pk, other_user, 0, {"type": "roll"})
    assert "not your move" in err.value.message
    events = turns.act(kind, r.pk, user, 0, {"type": "taunt"})
    assert events == [{"type": "taunt", "side": "french", "visibility": "all"}]
    with pytest.raises(Conflict) as err:  # the same seq again: refused, nothing twice
        turns.act(kind, r.pk, user, 0, {"type": "taunt"})
    assert err.value.code == "stale_seq"
    r.refresh_from_db()
    assert r.seq == 1 and r.state["taunts"] == 1
    assert undo.undo(kind, r.pk, user, 1) == 1  # a taunt rolled no die: taken back
    r.refresh_from_db()
    assert r.seq == 2 and r.state["taunts"] == 0
    with pytest.raises(BadInput, match="illegal action"):
        turns.act(kind, r.pk, user, 2, {"type": "fly"})
    turns.act(kind, r.pk, user, 2, {"type": "roll"})
    with pytest.raises(Conflict) as err:  # a die was rolled: the window is closed
        undo.undo(kind, r.pk, user, 3)
    assert err.value.code == "cannot_undo"
    for _ in range(200):  # both roll and hold until someone wins
        r.refresh_from_db()
        if r.status != "active":
            break
        mover = user if r.to_move == "french" else other_user
        action = {"type": "roll" if r.state["pending"] < 5 else "hold"}
        turns.act(kind, r.pk, mover, r.seq, action)
    r.refresh_from_db()
    assert r.status == "finished" and r.outcome["reason"] == "race"
    # The log replays from the setup with each action's own seeded dice.
    rebuilt = undo.rebuild(kind, r, kind.setup(r), r.actions.order_by("seq"))
    assert GAME.to_json(rebuilt) == r.state


def test_the_computer_plays_its_turn_through_the_workers_task(user, sent,
                                                               django_capture_on_commit_callbacks):
    r = race(user, bot="cautious")
    with django_capture_on_commit_callbacks(execute=True):
        turns.act(registry.get("race"), r.pk, user, 0, {"type": "hold"})
    assert sent == [("race", r.pk, 1)]  # asked after commit, by task name
    assert tasks.bot_move("race", r.pk, 1) >= 1
    assert tasks.bot_move("race", r.pk, 1) == 0  # the same task again: nothing
    r.refresh_from_db()
    assert r.status == "finished" or r.to_move == "french"
    assert all(a.side == "allied" for a in r.actions.filter(seq__gt=1))


def test_time_and_resigning_end_it_through_the_service(user, other_user, sent):
    kind = registry.get("race")
    finished = []
    match_finished.connect(lambda **kw: finished.append((kw["kind"], kw["match"].pk)),
                           weak=False, dispatch_uid="third-game")
    try:
        now = timezone.now()
        timed = race(user, other_user, time_control={"kind": "live", "base": 60,
                                                      "increment": 0},
                     clocks={"french": 60, "allied": 60}, clock_started_at=now,
                     deadline=now - timedelta(seconds=1))
        assert turns.overdue_flags(kind) == [(timed.pk, 0)]
        assert tasks.flag_fall("race", timed.pk, 0) is True
        timed.refresh_from_db()
        assert timed.outcome == {"winner": "allied", "reason": "time", "loser": "french"}
        other = race(user, other_user)
        turns.end_by(kind, other.pk, other_user, "resign", lambda m, side: ("french",
                                                                           "resigned"))
        other.refresh_from_db()
        assert other.outcome["winner"] == "french" and other.outcome["loser"] == "allied"
    finally:
        match_finished.disconnect(dispatch_uid="third-game")
    assert finished == [("race", timed.pk), ("race", other.pk)]


def test_its_replay_book_and_export_are_the_services(user, other_user, carol, sent):
    kind = registry.get("race")
    r = race(user, other_user, public=False)
    turns.act(kind, r.pk, user, 0, {"type": "taunt"})
    undo.undo(kind, r.pk, user, 1)
    r.refresh_from_db()
    # Not over: the seed stays secret (409 to its players, 404 to anyone else).
    with pytest.raises(Conflict) as err:
        replays.replayable(kind, user, r.pk)
    assert err.value.code == "race_not_over"
    assert err.value.message == "the race is not over: the seed stays secret until the race ends"
    with pytest.raises(Conflict):
        replays.export(kind, r)
    with pytest.raises(NotFound, match="no such race"):
        replays.replayable(kind, carol, r.pk)
    for _ in range(200):
        r.refresh_from_db()
        if r.status != "active":
            break
        mover = user if r.to_move == "french" else other_user
        turns.act(kind, r.pk, mover, r.seq,
                  {"type": "roll" if r.state["pending"] < 5 else "hold"})
    assert r.status == "finished"
    assert replays.replayable(kind, other_user, r.pk) == r
    with pytest.raises(NotFound):  # private: still nobody else's
        replays.replayable(kind, carol, r.pk)
    # The book: rebuilt with the module's own dice, every die checked, the undo skipped.
    book = replays.replay_book(kind, r)
    rows = list(r.actions.order_by("seq"))
    kept = effective_actions(rows)
    assert book.check.ok and book.undone == 1 and book.check.actions == len(kept)
    assert book.check.dice == sum(count_dice(row.events) for row in kept) > 0
    assert [s.seq for s in book.steps[1:]] == [row.seq for row in kept]
    assert GAME.to_json(book.steps[-1].state) == r.state
    # a side's view is the module's; "all": no revealed_view, so a spectator's
    assert book.view(1, "allied") == GAME.view(book.steps[1].state, "allied")
    assert book.view(1, "all") == GAME.view(book.steps[1].state, None)
    assert book.turns()[0] == (None, 0)  # no turn_of: one "turn"
    # With ``log``: every row of the log, the undo's step the position before the taunt.
    steps = replays.replay_book(kind, r, log=True).steps
    assert [s.seq for s in steps[1:]] == [row.seq for row in rows]
    assert steps[1].state["taunts"] == 1 and steps[2].state["taunts"] == 0
    assert steps[2].undoes == 1
    # A changed die is named.
    row = next(row for row in kept if count_dice(row.events))
    row.events[0]["dice"] = [7 - row.events[0]["dice"][0]]
    row.save()
    assert replays.replay_book(kind, r).check.mismatch == row.seq
    # The export: the kind's format (none given: "<kind>/1"), no setup columns of its own.
    doc = replays.export(kind, r)
    assert doc["format"] == "race/1" and doc["id"] == r.pk and doc["seed"] == str(r.seed)
    assert list(doc) == ["format", "id", "seed", "seed_hash", "actions", "outcome"]
    assert [a["seq"] for a in doc["actions"]] == [row.seq for row in rows]
    assert doc["outcome"] == r.outcome and doc["outcome"]["reason"] == "race"


def test_absence_pause_and_seating_come_with_the_service(user, other_user, sent, monkeypatch,
                                                         django_capture_on_commit_callbacks):
    """The service's presence, absence claim and pause serve the toy game as they do the
    EAGLES ones (``play.presence``, ``play.pausing``); its ``seat`` lets a tournament seat it
    (``play.seating``), a kind without one (the campaign) is refused."""
    from play import pausing, presence, seating

    kind = registry.get("race")
    booked: list[tuple] = []
    monkeypatch.setattr(enqueue, "send_flag_fall", lambda *args: booked.append(args))
    now = timezone.now()
    live = {"kind": "live", "base": 600, "increment": 0}
    r = race(user, other_user, time_control=live, clocks={"french": 600, "allied": 600},
             clock_started_at=now, deadline=now + timedelta(seconds=600))
    assert presence.touch(r, "french", now) is True and presence.last_seen(r, "french") == now
    assert presence.claim_refusal(r, "allied", now + timedelta(seconds=60)) == (
        f"your opponent has been away 60 s; a claim needs more than {presence.ABSENCE_LIMIT} s")
    with pytest.raises(Conflict) as err:
        presence.claim(kind, r.pk, other_user)
    assert err.value.code == "not_claimable" and "you cannot claim this race: " in str(err.value)
    untimed = race(user, other_user)
    assert presence.claim_refusal(untimed, "allied", now) == (
        "only a live race can be claimed for absence (this one is untimed)")

    # paused: the clocks stand still, every action is refused, no claim
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        assert pausing.pause("race", [r.pk, untimed.pk], now) == [r.pk, untimed.pk]
    r.refresh_from_db()
    assert r.deadline is None and r.clock_started_at is None and r.paused_at == now
    with pytest.raises(Conflict) as err:
        turns.act(kind, r.pk, user, 0, {"type": "roll"})
    assert err.value.code == "paused" and "paused this race" in err.value.message
    assert presence.claim_refusal(r, "allied", now) == (
        "the race is paused by its tournament's organiser")
    later = now + timedelta(minutes=5)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        assert pausing.resume(kind, [r.pk], later) == [r.pk]
    r.refresh_from_db()
    assert r.paused_at is None and r.clock_started_at == later and booked == [
        ("race", r.pk, 0, r.deadline)]

    # away past the limit since the resume: the claim wins, through turns.end_by
    Race.objects.filter(pk=r.pk).update(
        seen={"french": (later - timedelta(hours=1)).isoformat()},
        clock_started_at=timezone.now() - timedelta(seconds=presence.ABSENCE_LIMIT + 1))
    presence.claim(kind, r.pk, other_user)
    r.refresh_from_db()
    assert r.status == "finished"
    assert r.outcome == {"winner": "allied", "reason": "absent", "loser": "french"}

    # the toy game seats (``tests/toygame/seated.py``: a tournament of races); a campaign
    # does not (no ``seat``): refused by name
    assert kind.seat is not None and seating.can_seat("race") and seating.can_seat("battle")
    assert registry.get("campaign").seat is None and not seating.can_seat("campaign")
    with pytest.raises(BadInput, match="a campaign cannot be seated by a tournament"):
        seating.seat("campaign", user, other_user)
    seated = seating.seat("race", user, other_user, time_control=live, rated=False)
    assert (seated.status, seated.french_player, seated.allied_player) == (
        "active", user, other_user)
    assert seated.clocks == {"french": 600, "allied": 600} and seated.deadline is not None
    with pytest.raises(BadInput, match="unknown race option 'colour'"):
        seating.seat("race", user, other_user, colour="red")
    with pytest.raises(BadInput, match="no such game: 'chess'"):
        seating.seat("chess", user, other_user)
