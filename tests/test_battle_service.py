# Over 500 lines on purpose: one idea, the battle service's use cases tested through whole battles.
"""The battle service: a whole battle against the computer, optimistic concurrency, refusals
that change nothing, the computer's idempotent task, dice from the seed, replay, decks."""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from battles import modules, services
from battles.bots import Bot
from battles.engine import events_for, from_json, legal_actions, new_battle, to_json
from battles.models import Battle, BattleAction, Status
from battles.modules import BATTLE
from battles.services import BattleError, Conflict, NotFound
from cards.catalogue.file import catalogue_records
from play import autoplay, thinking, turns

from .kinds import battle_tasks as tasks
from .tournament_helpers import player, valid_entries

RECORDS = catalogue_records()  # the card records the engine is given

pytestmark = pytest.mark.django_db


def snapshot(b: Battle) -> tuple:
    b.refresh_from_db()
    return (b.seq, b.status, json.dumps(b.state, sort_keys=True), b.outcome,
            list(b.actions.values_list("seq", "action", "events")))


def human_choice(rng: random.Random, legal: list[dict]) -> dict:
    """A seeded random player (gives long battles for these seeds)."""
    return rng.choice(legal)


def play_out(b: Battle, user, rng: random.Random, capture, sent: list) -> dict:
    """Play ``b`` to the end: the human through ``act``, the computer through the task
    function (called directly when the service enqueued it on commit). Returns counters."""
    side = services.side_of(b, user)
    counts = {"human": 0, "computer": 0, "tasks": 0}
    guard = 0
    while b.status == Status.ACTIVE:
        guard += 1
        assert guard < 2000, "the battle does not end"
        if services.priority(b) == side:
            before = b.seq
            state = from_json(b.state, cards=RECORDS)
            action = human_choice(rng, legal_actions(state, side))
            with capture(execute=True):
                events = services.act(b.pk, user, b.seq, action)
            b.refresh_from_db()
            assert b.seq >= before + 1  # then the actions auto-played for the human, if any
            row = b.actions.get(seq=before + 1)
            assert row.action == action and row.side == side
            assert all(r.side == side for r in b.actions.filter(seq__gt=before + 1))
            assert events == events_for(row.events, side)
            if services.priority(b) not in (side, None):  # the computer is asked to move
                assert sent[-1] == (b.pk, b.seq)
            counts["human"] += b.seq - before  # with the actions auto-played for the human
        else:
            before = b.seq
            with capture(execute=True):
                applied = tasks.bot_move(b.pk, b.seq)
            counts["tasks"] += 1
            b.refresh_from_db()
            assert applied >= 1 and b.seq == before + applied
            # hands over, or the battle is over, or the human's auto-pass handed back (asked)
            assert services.priority(b) in (side, None) or sent[-1] == (b.pk, b.seq)
            counts["computer"] += applied
        view = services.battle_view(b, user)
        if b.status == Status.ACTIVE:
            assert view["seed"] is None and view["outcome"] is None
    return counts


# --- A whole battle ---------------------------------------------------------------------------

# Fixed seeds: a five-turn battle (65 actions: fire, shock, morale, responses, reinforcements)
# and a short one, with every action a click.
@pytest.mark.parametrize("side,bot,seed", [("french", "greedy", 1815061818150618171),
                                           ("allied", "random", 1815061818150618160)])
def test_whole_quatre_bras_battle_against_the_computer(user, side, bot, seed, sent, monkeypatch,
                                                      django_capture_on_commit_callbacks):
    monkeypatch.setattr(services, "new_seed", lambda: seed)
    # Auto-play would change the battles played (play/autoplay.py; its own whole battles
    # are in tests/test_autoplay.py).
    monkeypatch.setattr(autoplay, "extend", lambda *args, **kwargs: 0)
    with django_capture_on_commit_callbacks(execute=True):
        b = services.create_battle(user, "quatre-bras", side, bot=bot)
    # 4.1 the Allies deploy first: the computer is asked to move at once when it plays them.
    assert sent == ([(b.pk, 0)] if side == "french" else [])
    assert b.seq == 0 and b.status == Status.ACTIVE and b.outcome is None
    assert services.battle_view(b, user)["seed"] is None
    sent.clear()

    counts = play_out(b, user, random.Random(f"human:{side}"),
                      django_capture_on_commit_callbacks, sent)

    b.refresh_from_db()
    assert b.status == Status.FINISHED and b.finished_at is not None
    assert b.outcome and b.outcome["winner"] in ("french", "allied", None)
    assert b.seq == counts["human"] + counts["computer"] == b.actions.count()
    assert list(b.actions.values_list("seq", flat=True)) == list(range(1, b.seq + 1))
    # Every time the computer had to move, a worker was asked (the first time at creation).
    assert len(sent) == counts["tasks"] - (1 if side == "french" else 0)
    view = services.battle_view(b, user)
    assert view["status"] == "finished" and view["waiting_for"] is None
    assert view["outcome"] == b.outcome and view["legal_actions"] == []
    assert view["seed"] == str(b.seed)
    assert hashlib.sha256(view["seed"].encode()).hexdigest() == view["seed_hash"] == b.seed_hash
    # The action list replays the battle to the snapshot, event for event.
    assert json.loads(json.dumps(to_json(services.replay(b)))) == b.state
    with pytest.raises(Conflict, match="over"):
        services.act(b.pk, user, b.seq, {"type": "end_turn", "side": side})


def test_replay_detects_a_tampered_log(user, sent):
    b = services.create_battle(user, "quatre-bras", "allied", bot="random")
    state = from_json(b.state, cards=RECORDS)
    services.act(b.pk, user, 0, legal_actions(state, "allied")[0])
    row = b.actions.get(seq=1)
    row.events = [*row.events, {"type": "forged", "visibility": "all"}]
    row.save()
    with pytest.raises(RuntimeError, match="action 1 replays differently"):
        services.replay(b)


# --- Refusals change nothing ----------------------------------------------------------------

@pytest.fixture
def my_move(user, sent):
    """A battle where it is alice's (Allied) move, after one action."""
    b = services.create_battle(user, "quatre-bras", "allied", bot="greedy")
    services.act(b.pk, user, 0, legal_actions(from_json(b.state, cards=RECORDS), "allied")[0])
    b.refresh_from_db()
    assert services.priority(b) == "allied" and b.seq == 1
    return b


@pytest.mark.parametrize("seq", [0, 2, 99])
def test_stale_seq_is_a_conflict_and_changes_nothing(user, my_move, seq):
    before = snapshot(my_move)
    action = legal_actions(from_json(my_move.state, cards=RECORDS), "allied")[0]
    with pytest.raises(Conflict, match="the battle has moved on: reload") as err:
        services.act(my_move.pk, user, seq, action)
    assert err.value.status == 409 and err.value.extra == {"seq": 1}
    assert snapshot(my_move) == before


@pytest.mark.parametrize("action,message", [
    ({"type": "deploy", "side": "allied", "card": 1, "to": "allied_left"},
     "illegal action for allied"),
    ({"type": "end_turn", "side": "allied"}, "illegal action for allied"),
    ({"type": "fly", "side": "allied"}, "illegal action for allied"),
    ({"side": "allied"}, "illegal action"),
    ({"type": "end_turn"}, "not an action"),
    ({"type": "end_turn", "side": "french"}, "you play the allied side"),
])
def test_illegal_action_is_refused_with_the_engines_message(user, my_move, action, message):
    before = snapshot(my_move)
    with pytest.raises(BattleError, match=message) as err:
        services.act(my_move.pk, user, 1, action)
    assert err.value.status == 400
    assert snapshot(my_move) == before


@pytest.mark.parametrize("seq,action", [("1", {}), (1.0, {}), (True, {}), (None, {}),
                                        (1, []), (1, "end_turn"), (1, None)])
def test_malformed_seq_or_action_is_bad_input(user, my_move, seq, action):
    before = snapshot(my_move)
    with pytest.raises(BattleError) as err:
        services.act(my_move.pk, user, seq, action)
    assert err.value.status == 400
    assert snapshot(my_move) == before


def test_a_near_miss_action_is_stored_as_the_engines_own(user, my_move):
    legal = legal_actions(from_json(my_move.state, cards=RECORDS), "allied")
    deploy = next(a for a in legal if a["type"] == "deploy")
    sloppy = {**deploy, "card": float(deploy["card"])}  # 12.0 == 12 in Python
    services.act(my_move.pk, user, 1, sloppy)
    stored = my_move.actions.get(seq=2).action
    assert stored == deploy and type(stored["card"]) is int


def test_not_your_move_is_a_conflict(user, sent):
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy")
    before = snapshot(b)
    with pytest.raises(Conflict, match="not your move: waiting for computer"):
        services.act(b.pk, user, 0, {"type": "deployment_done", "side": "french"})
    assert snapshot(b) == before


def test_another_users_battle_is_not_found(user, other_user, my_move):
    before = snapshot(my_move)
    action = legal_actions(from_json(my_move.state, cards=RECORDS), "allied")[0]
    for who in (other_user, None):
        with pytest.raises(NotFound):
            services.act(my_move.pk, who, 1, action)
        with pytest.raises(NotFound):
            services.battle_view(my_move, who)
        with pytest.raises(NotFound):
            services.battle_of(who, my_move.pk)
    with pytest.raises(NotFound):
        services.act(my_move.pk + 1000, user, 1, action)
    assert snapshot(my_move) == before


# --- The computer's task --------------------------------------------------------------------

def test_bot_task_is_idempotent(user, sent):
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy")
    assert tasks.bot_move(b.pk, 0) >= 1
    after = snapshot(b)
    assert b.seq >= 1 and services.priority(b) == "french"
    assert tasks.bot_move(b.pk, 0) == 0  # the same message again: nothing
    assert tasks.bot_move(b.pk, b.seq) == 0  # the human's move: nothing
    assert tasks.bot_move(b.pk + 1000, 0) == 0  # no such battle: nothing
    assert snapshot(b) == after


def test_the_computer_sees_only_its_view_and_legal_actions(user, sent, monkeypatch):
    seen = []

    class Spy(Bot):
        def choose(self, view, legal, rng):
            seen.append((view, legal))
            return legal[0]

    monkeypatch.setattr(modules, "get_bot", lambda name, cards=None: Spy())
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy")
    tasks.bot_move(b.pk, 0)
    assert seen
    for view, legal in seen:
        assert view["viewer"] == "allied"
        assert all(a["side"] == "allied" for a in legal)
        assert set(view["reserves"]["french"]) == {"count"}  # the French Reserve: a count
        for p in view["pieces"]:
            assert p["side"] == "allied" or p["face_up"] or "card" not in p


@pytest.mark.django_db(transaction=True)
def test_the_computer_thinks_outside_any_transaction(user, sent, monkeypatch):
    """A search thinks for up to its CPU budget per decision: inside a transaction it would
    hold SQLite's write lock (BEGIN IMMEDIATE) or PostgreSQL's battle row all that time."""
    inside: list[bool] = []

    class Spy(Bot):
        def choose(self, view, legal, rng):
            inside.append(connection.in_atomic_block)
            return legal[0]

    monkeypatch.setattr(modules, "get_bot", lambda name, cards=None: Spy())
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy")
    assert tasks.bot_move(b.pk, 0) >= 1
    assert inside and not any(inside)
    b.refresh_from_db()
    assert b.seq >= 1 and services.priority(b) == "french"


def test_a_resignation_while_the_computer_thinks_drops_its_move(user, sent, monkeypatch):
    """The player resigns while the computer thinks (its choices are made outside the
    transaction): the resignation stands and the computer's actions are not recorded."""

    class Resigner(Bot):
        def choose(self, view, legal, rng):
            if Battle.objects.get(pk=b.pk).status == Status.ACTIVE:
                services.resign(b.pk, user)
            return legal[0]

    monkeypatch.setattr(modules, "get_bot", lambda name, cards=None: Resigner())
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy")
    assert tasks.bot_move(b.pk, 0) == 0
    b.refresh_from_db()
    assert b.status != Status.ACTIVE and b.outcome["reason"] == "resigned"
    assert not BattleAction.objects.filter(battle=b, side="allied").exists()


def test_a_move_sent_again_while_the_computer_thinks_does_nothing(user, sent, monkeypatch):
    """The tick finds the battle waiting with no new action and would send the move again; a
    second worker would think the same turn. While a worker thinks (its mark in the cache,
    battles/thinking.py) the tick leaves the battle alone and a second task returns at once."""
    later = timezone.now() + timedelta(minutes=5)
    during: list = []

    class Spy(Bot):
        def choose(self, view, legal, rng):
            if not during:
                during.append((tasks.bot_move(b.pk, 0), tasks.stalled_computer_turns(later)))
            return legal[0]

    monkeypatch.setattr(modules, "get_bot", lambda name, cards=None: Spy())
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy")
    assert tasks.stalled_computer_turns(later) == [(b.pk, 0)]
    assert tasks.bot_move(b.pk, 0) >= 1
    assert during == [(0, [])]  # the second task did nothing; the tick saw no lost move
    assert thinking.busy("battle", [(b.pk, 0)]) == set()  # the mark is gone


def test_a_worker_that_dies_thinking_frees_the_turn_when_its_mark_lapses(user, sent,
                                                                        settings):
    settings.EAGLES_THINKING_SECONDS = 1
    later = timezone.now() + timedelta(minutes=5)
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy")
    assert thinking.Thinking("battle", b.pk, 0).claim()  # as a worker killed mid-thought
    assert tasks.bot_move(b.pk, 0) == 0
    assert tasks.stalled_computer_turns(later) == []
    time.sleep(1.3)
    assert tasks.stalled_computer_turns(later) == [(b.pk, 0)]
    assert tasks.bot_move(b.pk, 0) >= 1


def test_a_computer_that_would_shuttle_for_ever_still_hands_over(user, sent, monkeypatch):
    """Always the first legal action loops (Reserve <-> Position); past BOT_PATIENCE actions
    in one go the computer only ends phases, so the battle goes on."""

    class First(Bot):
        def choose(self, view, legal, rng):
            return legal[0]

    monkeypatch.setattr(modules, "get_bot", lambda name, cards=None: First())
    monkeypatch.setattr(turns, "BOT_PATIENCE", 30)
    b = services.create_battle(user, "quatre-bras", "allied", bot="greedy")
    rng = random.Random(3)
    while b.status == Status.ACTIVE:
        if services.priority(b) == "allied":
            action = human_choice(rng, legal_actions(from_json(b.state, cards=RECORDS), "allied"))
            services.act(b.pk, user, b.seq, action)
        else:
            assert tasks.bot_move(b.pk, b.seq) <= 30 + 5
        b.refresh_from_db()
    assert b.outcome


def test_a_computer_stuck_past_the_hard_cap_stops_and_is_not_asked_again(
        user, sent, monkeypatch, caplog, django_capture_on_commit_callbacks):
    monkeypatch.setattr(turns, "BOT_MAX_ACTIONS", 2)
    monkeypatch.setattr(modules.BATTLE, "ending_actions", frozenset())
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy")
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.bot_move(b.pk, 0) == 2
    b.refresh_from_db()
    assert b.seq == 2 and services.priority(b) == "allied"
    assert sent == []  # a task chain that never ends is worse than a battle left waiting
    assert "without handing over" in caplog.text


# --- Dice, seed, decks, settings ------------------------------------------------------------

def test_dice_come_from_the_seed_and_the_action_number():
    a, b = BATTLE.dice(7, 3), BATTLE.dice(7, 3)
    assert [next(a) for _ in range(20)] == [next(b) for _ in range(20)]
    c = BATTLE.dice(7, 4)
    assert [next(c) for _ in range(20)] != [next(BATTLE.dice(7, 3)) for _ in range(20)]


def test_seed_is_secret_and_hashed(user, sent):
    b = services.create_battle(user, "quatre-bras", "allied")
    assert 0 <= b.seed < 2**63
    assert b.seed_hash == hashlib.sha256(str(b.seed).encode()).hexdigest()
    view = services.battle_view(b, user)
    assert view["seed"] is None and str(b.seed) not in json.dumps(view)
    # The setup is kept: the decks as dealt rebuild the snapshot.
    assert to_json(new_battle("quatre-bras", b.seed, b.decks, b.settings, cards=RECORDS)) == b.state
    assert set(b.decks) == {"french", "british"}


@pytest.mark.parametrize("kwargs,message", [
    ({"battle": "austerlitz"}, "unknown battle"),
    ({"side": "prussian"}, "side must be french or allied"),
    ({"bot": "clever"}, "unknown bot"),
    ({"settings": [1]}, "settings must be an object"),
    ({"settings": {"speed": 3}}, "unknown setting"),
    ({"settings": {"turn_cap": 0}}, "turn_cap"),
    ({"settings": {"turn_cap": "40"}}, "turn_cap"),
    ({"settings": {"decoys": 1}}, "decoys"),
    ({"deck_version_id": "12"}, "deck_version must be"),
])
def test_create_refuses_bad_input(user, kwargs, message):
    args = {"battle": "quatre-bras", "side": "french", **kwargs}
    with pytest.raises(BattleError, match=message) as err:
        services.create_battle(user, **args)
    assert err.value.status == 400
    assert not Battle.objects.exists()


def test_create_needs_a_user():
    with pytest.raises(services.NotAllowed):
        services.create_battle(None, "quatre-bras", "french")


def test_settings_reach_the_engine(user, sent):
    b = services.create_battle(user, "ligny", "allied", settings={"turn_cap": 5})
    assert b.settings == {"turn_cap": 5, "decoys": False}
    assert services.battle_view(b, user)["view"]["settings"]["turn_cap"] == 5


def test_5_0_c_battles_with_a_person_have_no_turn_cap_by_default(user, sent):
    """RULINGS 5.0-c: no clause caps turns; a person may still ask for one."""
    b = services.create_battle(user, "wavre", "french")
    assert b.settings == {"turn_cap": None, "decoys": False}
    assert services.battle_view(b, user)["view"]["settings"]["turn_cap"] is None
    b = services.create_battle(user, "wavre", "french", settings={"turn_cap": None})
    assert b.settings["turn_cap"] is None
    b = services.create_battle(user, "wavre", "french", opponent="open")
    assert b.settings["turn_cap"] is None


def test_own_deck_plays(catalogue, sent):
    alice, versions = player("dora")
    version = versions["british"]
    b = services.create_battle(alice, "quatre-bras", "allied", deck_version_id=version.pk)
    assert b.british_deck == version and b.french_deck is None
    assert b.decks["british"] == sorted(n for n, _, _ in valid_entries("british", "quatre-bras"))
    mine = services.battle_view(b, alice)["view"]["reserves"]["allied"]["cards"]
    assert set(mine) <= set(b.decks["british"])


def test_deck_must_be_yours_valid_and_for_that_battle_and_army(catalogue, other_user):
    alice, versions = player("erin")
    with pytest.raises(NotFound):  # another player's deck does not exist for you
        services.create_battle(other_user, "quatre-bras", "allied",
                               deck_version_id=versions["british"].pk)
    with pytest.raises(BattleError, match="british deck: it cannot play the french side"):
        services.create_battle(alice, "quatre-bras", "french",
                               deck_version_id=versions["british"].pk)
    with pytest.raises(BattleError, match="is for quatre-bras, not waterloo"):
        services.create_battle(alice, "waterloo", "french",
                               deck_version_id=versions["french"].pk)
    from decks import services as deck_services

    draft = deck_services.create_deck(alice, name="draft", battle="quatre-bras", army="french",
                                      entries=[(1, 2, None)])  # 15.0: a General twice
    with pytest.raises(BattleError, match="breaks the deck rules"):
        services.create_battle(alice, "quatre-bras", "french", deck_version_id=draft.latest.pk)
    assert not Battle.objects.exists()


# --- Two clicks at once (PostgreSQL) --------------------------------------------------------

@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_double_act_applies_once(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises all writers")
    from django.contrib.auth.models import User

    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    alice = User.objects.create_user("alice-pg", "", "pw")
    b = services.create_battle(alice, "quatre-bras", "allied", bot="random")
    action = legal_actions(from_json(b.state, cards=RECORDS), "allied")[0]
    barrier = threading.Barrier(2)
    results: list = [None, None]

    def click(i):
        try:
            barrier.wait(timeout=30)
            results[i] = services.act(b.pk, alice, 0, action)
        except Exception as exc:  # noqa: BLE001 - inspected below
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=click, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    ok = [r for r in results if isinstance(r, list)]
    refused = [r for r in results if isinstance(r, Conflict)]
    assert len(ok) == 1 and len(refused) == 1, results
    assert "moved on" in refused[0].message
    b.refresh_from_db()
    assert b.seq == 1 and BattleAction.objects.filter(battle=b).count() == 1


def test_first_legal_action_player_finishes_a_battle(sent, django_capture_on_commit_callbacks):
    """A card moved to its Reserve stays there for the turn (RULINGS 8.2-b): a player who
    always takes the first legal action (it used to shuttle a card for ever) ends a battle."""
    user, _ = player("first")
    b = services.create_battle(user, "quatre-bras", "allied", bot="random")
    guard = 0
    while b.status == Status.ACTIVE:
        guard += 1
        assert guard < 3000, "the battle does not end"
        if services.priority(b) == "allied":
            action = legal_actions(from_json(b.state, cards=RECORDS), "allied")[0]
            services.act(b.pk, user, b.seq, action)
        else:
            tasks.bot_move(b.pk, b.seq)
        b.refresh_from_db()
    assert b.outcome


def test_tick_resends_a_lost_computer_move(sent):
    """The computer (Allied) deploys first; its bot_move message is lost. The periodic tick
    finds the battle after the grace time and sends it again; recent battles, battles where
    a human is to move and finished battles are left alone."""
    from datetime import timedelta

    from django.utils import timezone

    user, _ = player("lost")
    b = services.create_battle(user, "quatre-bras", "french", bot="random")
    assert services.priority(b) == "allied"  # the computer's move; no worker ran it
    assert tasks.stalled_computer_turns() == []  # within the grace time
    later = timezone.now() + timedelta(seconds=30)
    assert tasks.stalled_computer_turns(now=later) == [(b.pk, 0)]
    sent.clear()
    Battle.objects.filter(pk=b.pk).update(created_at=timezone.now() - timedelta(seconds=60))
    assert tasks.tick() == [(b.pk, 0)] and sent == [(b.pk, 0)]
    assert tasks.bot_move(b.pk, 0) >= 1  # what the re-sent message does
    b.refresh_from_db()
    assert services.priority(b) == "french"
    assert tasks.stalled_computer_turns(now=timezone.now() + timedelta(hours=1)) == []
    Battle.objects.filter(pk=b.pk).update(status=Status.FINISHED)
    assert tasks.stalled_computer_turns(now=timezone.now() + timedelta(hours=1)) == []


# --- One read of the position per action; columns, not the JSON ----------------------------

def test_act_reads_the_position_once_and_lists_legal_actions_once(user, my_move, monkeypatch):
    """Both are the costly part of an action: ``act`` does each once, legal or not (the
    engine's own check reuses the list)."""
    from battles.engine import engine as engine_module

    calls = {"from_json": 0, "legal_actions": 0}

    def counted(name, real):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)
        return wrapper

    game = modules.BATTLE  # what the service asks (play.turns.act)
    # The acting position's reads only: auto-play lists the NEXT position's (not counted
    # before the one service either: it had its own import).
    monkeypatch.setattr(autoplay, "extend", lambda *args, **kwargs: 0)
    monkeypatch.setattr(game, "from_json", counted("from_json", game.from_json))
    monkeypatch.setattr(game, "legal_actions", counted("legal_actions", game.legal_actions))
    monkeypatch.setattr(engine_module, "legal_actions", counted("legal_actions", legal_actions))
    with pytest.raises(BattleError, match=r"^illegal action for allied: \{"):
        services.act(my_move.pk, user, 1, {"type": "end_turn", "side": "allied"})
    assert calls == {"from_json": 1, "legal_actions": 1}
    calls.update(from_json=0, legal_actions=0)
    legal = legal_actions(from_json(my_move.state, cards=RECORDS), "allied")
    services.act(my_move.pk, user, 1, legal[0])
    assert calls == {"from_json": 1, "legal_actions": 1}


def columns(b: Battle) -> tuple:
    return b.to_move, b.turn, b.phase


def from_state(b: Battle) -> tuple:
    st = b.state
    return ("" if st.get("outcome") else st["priority"]), st["turn"], st["phase"]


def test_position_columns_follow_every_saved_state(user, sent):
    """Whose move, turn and phase are columns kept in step with the snapshot: at creation,
    after each action (the person's and the computer's) and at the end."""
    b = services.create_battle(user, "quatre-bras", "allied", bot="random")
    assert columns(b) == from_state(b) and b.to_move == "allied" and b.turn == 0
    seen = 0
    rng = random.Random(3)
    while b.status == Status.ACTIVE and seen < 40:
        if services.priority(b) == "allied":
            services.act(b.pk, user, b.seq,
                         human_choice(rng, legal_actions(from_json(b.state, cards=RECORDS),
                                                         "allied")))
        else:
            tasks.bot_move(b.pk, b.seq)
        b.refresh_from_db()
        assert columns(b) == from_state(b)
        seen += 1
    assert seen == 40 or b.status == Status.FINISHED


def test_selectors_read_the_column_not_the_json(user, my_move):
    """Whose move it is comes from ``to_move``: the snapshot's JSON is not looked at."""
    Battle.objects.filter(pk=my_move.pk).update(state={"priority": "french"})
    b = Battle.objects.get(pk=my_move.pk)
    assert services.priority(b) == "allied"
    assert services.waiting_for(b, "allied") == "you"


def test_the_migration_fills_the_columns_from_saved_states(user, my_move, sent):
    import importlib

    from django.apps import apps

    waiting = services.create_battle(user, "quatre-bras", "allied", opponent="open")
    expected = columns(my_move)
    Battle.objects.update(to_move="", turn=None, phase="")
    importlib.import_module("battles.migrations.0005_battle_position_columns") \
        .fill_from_state(apps, None)
    my_move.refresh_from_db()
    waiting.refresh_from_db()
    assert columns(my_move) == expected == from_state(my_move) and expected[0] == "allied"
    assert columns(waiting) == ("", None, "")
