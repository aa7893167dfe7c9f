"""The campaign service (campaigns/): against the computer through the worker path, two
people, stale seq, illegal actions, resign, replay, and no hidden card in any view or log
over whole small campaigns (small collections, a turn cap)."""

from __future__ import annotations

import hashlib
import json
import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from battles import modules
from battles.campaign import from_json, legal_actions, to_json
from battles.engine import SIDES
from battles.engine.board import ARMY_SIDE
from campaigns import selectors, services
from campaigns.kind import KIND
from campaigns.models import Campaign, CampaignAction, Status
from config.errors import BadInput, Conflict, NotFound
from play.thinking import busy

from .campaign.helpers import TABLE, passive, small_pools
from .kinds import campaign_tasks as tasks
from .tournament_helpers import give_cards

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch) -> list[tuple[int, int]]:
    """The computer's moves the service asks a worker for, recorded instead of sent."""
    calls: list[tuple[int, int]] = []
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: calls.append(args))
    return calls


@pytest.fixture
def small(monkeypatch):
    """Both sides play small collections (whatever pool is chosen), fixed seed."""
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    return pools


def hidden_from(c: Campaign, side: str) -> set[int]:
    """Cards ``side`` may not know now: the other side's pool, set-aside cards, Reserve,
    decks and face-down pieces (from the full, secret state)."""
    core = from_json(c.state, KIND.cards(c))
    o = 1 - SIDES.index(side)
    out = set(core.pools[o]) | set(core.set_aside[o])
    for st in core.boards.values():
        out |= set(st.reserve[o])
        out |= {n for army, deck in st.decks.items() for n in deck if ARMY_SIDE[army] == o}
        out |= {p.num for p in st.pieces.values() if p.side == o and not p.up}
    return out


def card_values(doc) -> set[int]:
    """Every int under a key that names cards, anywhere in ``doc``."""
    found: set[int] = set()

    def walk(x, key=None):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif type(x) is int and key in ("card", "cards", "num", "decks", "quatre-bras",
                                        "ligny", "waterloo", "wavre", "charleroi"):
            found.add(x)

    walk(doc)
    return found


def assert_no_leak(c: Campaign, users: dict) -> None:
    for side, user in users.items():
        if user is None:
            continue
        v = selectors.campaign_view(c, user)
        leaked = card_values({k: v[k] for k in ("view", "legal_actions")}) & hidden_from(c, side)
        assert not leaked, f"{side} sees hidden cards {sorted(leaked)}"
        other = SIDES[1 - SIDES.index(side)]
        assert all(e["visibility"] in ("all", side) for e in v["log"])
        assert "cards" not in v["view"]["pools"][other]
    if c.public:  # a spectator sees neither side's hidden cards
        v = selectors.campaign_view(c, None)
        hidden = hidden_from(c, "french") | hidden_from(c, "allied")
        assert v["legal_actions"] == [] and not card_values(v["view"]) & hidden
        assert all(e["visibility"] == "all" for e in v["log"])


def drive(c: Campaign, users: dict, capture, *, limit=3000, check=None) -> int:
    """Play ``c`` to its end: people passively through ``act``, the computer through the
    task function. Returns the number of steps."""
    steps = 0
    while c.status == Status.ACTIVE:
        steps += 1
        assert steps < limit, "the campaign does not end"
        side = c.to_move
        user = users.get(side)
        if user is None:
            with capture(execute=True):
                assert tasks.bot_move(c.pk, c.seq) >= 1
        else:
            legal = selectors.campaign_view(c, user)["legal_actions"]
            with capture(execute=True):
                services.act(c.pk, user, c.seq, passive(legal))
        c.refresh_from_db()
        if check is not None:
            check(c)
    return steps


@pytest.mark.django_db(transaction=True)
def test_the_computer_thinks_outside_any_transaction(user, small, sent, monkeypatch):
    """Its battle decisions are searched (up to a CPU budget each): inside a transaction they
    would hold SQLite's write lock or the campaign's row all that time."""
    inside: list[bool] = []

    class Spy(modules.CampaignBot):
        def choose(self, view, legal, rng):
            inside.append(connection.in_atomic_block)
            return super().choose(view, legal, rng)

    monkeypatch.setattr(modules, "CampaignBot", Spy)
    c = services.create_campaign(user, "allied", bot="random", settings={"turn_cap": 2})
    assert c.to_move == "french"
    assert tasks.bot_move(c.pk, 0) >= 1
    assert inside and not any(inside)
    c.refresh_from_db()
    assert c.seq >= 1 and c.to_move == "allied"


def test_a_move_sent_again_while_the_computer_thinks_does_nothing(user, small, sent,
                                                                  monkeypatch):
    """While a worker thinks the computer's turn (its mark, battles/thinking.py) the tick
    leaves the campaign alone and a second task returns at once."""
    later = timezone.now() + timedelta(minutes=5)
    during: list = []

    class Spy(modules.CampaignBot):
        def choose(self, view, legal, rng):
            if not during:
                during.append((tasks.bot_move(c.pk, 0), tasks.stalled_computer_turns(later)))
            return super().choose(view, legal, rng)

    monkeypatch.setattr(modules, "CampaignBot", Spy)
    c = services.create_campaign(user, "allied", bot="random", settings={"turn_cap": 2})
    assert tasks.stalled_computer_turns(later) == [(c.pk, 0)]
    assert tasks.bot_move(c.pk, 0) >= 1
    assert during == [(0, [])]
    assert busy("campaign", [(c.pk, 0)]) == set()


def test_against_the_computer_through_the_worker_path(user, small, sent,
                                                      django_capture_on_commit_callbacks):
    # The French split first: the computer plays them, so it is asked at once.
    with django_capture_on_commit_callbacks(execute=True):
        c = services.create_campaign(user, "allied", bot="random",
                                     settings={"turn_cap": 2})
    assert c.status == Status.ACTIVE and c.to_move == "french" and sent == [(c.pk, 0)]
    assert tasks.bot_move(c.pk, 1) == 0  # not at that seq: nothing happens (idempotent)
    view = selectors.campaign_view(c, user)
    assert view["seed"] is None and view["legal_actions"] == []
    assert view["waiting_for"] == "computer"
    drive(c, {"allied": user, "french": None}, django_capture_on_commit_callbacks,
          check=lambda c: assert_no_leak(c, {"allied": user}))
    assert c.status == Status.FINISHED and c.outcome["winner"] in SIDES
    assert c.seq > 10 and len(c.outcome["results"]) >= 2
    assert list(c.actions.values_list("seq", flat=True)) == list(range(1, c.seq + 1))
    sides = set(c.actions.values_list("side", flat=True))
    assert sides == {"french", "allied"}
    assert tasks.bot_move(c.pk, c.seq) == 0
    view = selectors.campaign_view(c, user)
    assert hashlib.sha256(view["seed"].encode()).hexdigest() == c.seed_hash
    # The log replays the campaign to the snapshot, byte for byte.
    assert json.dumps(json.loads(json.dumps(to_json(services.replay(c)))),
                      sort_keys=True) == json.dumps(c.state, sort_keys=True)
    with pytest.raises(Conflict, match="over"):
        services.act(c.pk, user, c.seq, {"type": "keep"})


def test_two_people_hide_everything_from_each_other(user, other_user, small, sent,
                                                    django_capture_on_commit_callbacks):
    c = services.create_campaign(user, "french", opponent="bob", settings={"turn_cap": 2})
    assert c.status == Status.WAITING and c.state is None
    with pytest.raises(Conflict, match="waiting for an opponent"):
        services.act(c.pk, user, 0, {"type": "split"})
    services.join_campaign(c.pk, other_user)
    c.refresh_from_db()
    assert c.status == Status.ACTIVE and c.allied_player == other_user
    users = {"french": user, "allied": other_user}
    assert_no_leak(c, users)
    drive(c, users, django_capture_on_commit_callbacks, check=lambda c: assert_no_leak(c, users))
    assert c.status == Status.FINISHED and sent == []
    assert c.seq > 10
    assert services.replay(c).winner == c.outcome["winner"]


def test_stale_seq_and_not_your_move_change_nothing(user, small, sent):
    c = services.create_campaign(user, "french", bot="greedy")
    legal = selectors.campaign_view(c, user)["legal_actions"]
    assert legal and legal[0]["type"] == "split"
    with pytest.raises(Conflict) as err:
        services.act(c.pk, user, 5, legal[0])
    assert err.value.code == "stale_seq" and err.value.extra == {"seq": 0}
    services.act(c.pk, user, 0, legal[0])
    c.refresh_from_db()
    assert c.seq == 1 and c.to_move == "allied"
    with pytest.raises(Conflict, match="not your move"):
        services.act(c.pk, user, 1, legal[0])
    assert c.actions.count() == 1


def test_an_illegal_action_is_refused_with_the_cores_message(user, small, sent):
    c = services.create_campaign(user, "french", bot="greedy")
    with pytest.raises(BadInput, match="a split names a deck for each of") as err:
        services.act(c.pk, user, 0, {"type": "split", "decks": {}})
    assert err.value.code == "illegal_action" and err.value.status == 400
    with pytest.raises(BadInput, match="you play the french side"):
        services.act(c.pk, user, 0, {"type": "split", "side": "allied"})
    with pytest.raises(BadInput, match="seq must be a whole number"):
        services.act(c.pk, user, "0", {"type": "split"})
    c.refresh_from_db()
    assert c.seq == 0 and not c.actions.exists()


def test_any_partition_of_the_free_cards_is_a_legal_split(user, small, sent):
    c = services.create_campaign(user, "french", bot="greedy")
    decks = selectors.campaign_view(c, user)["legal_actions"][0]["decks"]
    qb, ligny = decks["quatre-bras"], decks["ligny"]
    moved = {"quatre-bras": qb[1:], "ligny": sorted(ligny + qb[:1])}
    services.act(c.pk, user, 0, {"type": "split", "decks": moved})
    c.refresh_from_db()
    assert c.actions.get(seq=1).action["decks"] == moved


def test_resign_ends_the_campaign_for_the_other_side(user, small, sent):
    c = services.create_campaign(user, "french", bot="greedy")
    services.resign(c.pk, user)
    c.refresh_from_db()
    assert c.status == Status.FINISHED and c.outcome["winner"] == "allied"
    assert c.outcome["reason"] == "resigned"
    assert selectors.campaign_view(c, user)["legal_actions"] == []
    with pytest.raises(Conflict, match="over"):
        services.resign(c.pk, user)


def test_others_cannot_see_a_private_campaign_or_act(user, other_user, small, sent):
    c = services.create_campaign(user, "french", bot="greedy", public=False)
    with pytest.raises(NotFound):
        selectors.campaign_of(other_user, c.pk)
    with pytest.raises(NotFound):
        services.act(c.pk, other_user, 0, {"type": "split"})
    pub = services.create_campaign(user, "french", bot="greedy")
    seen = selectors.campaign_view(selectors.campaign_of(other_user, pub.pk), other_user)
    assert seen["my_side"] is None and seen["legal_actions"] == []
    assert "cards" not in seen["view"]["pools"]["french"]


def test_join_cancel_and_collection_pools(user, other_user, sent):
    with pytest.raises(BadInput, match="your collection has no french card"):
        services.create_campaign(user, "french", bot="greedy", pool="collection")
    give_cards(user, small_pools()["french"])
    c = services.create_campaign(user, "french", pool="collection", opponent="open")
    assert c.pools["french"] == small_pools()["french"]
    with pytest.raises(Conflict, match="your own campaign"):
        services.join_campaign(c.pk, user)
    assert [o.pk for o in selectors.open_campaigns(other_user)] == [c.pk]
    services.join_campaign(c.pk, other_user)  # the whole set
    c.refresh_from_db()
    assert c.status == Status.ACTIVE and len(c.pools["allied"]) > 100
    with pytest.raises(Conflict, match="can no longer be cancelled"):
        services.cancel_campaign(c.pk, user)
    d = services.create_campaign(user, "allied", opponent="open")
    services.cancel_campaign(d.pk, user)
    d.refresh_from_db()
    assert d.status == Status.CANCELLED
    with pytest.raises(Conflict, match="seat is taken"):
        services.join_campaign(d.pk, other_user)


def test_replay_detects_a_tampered_log(user, small, sent):
    c = services.create_campaign(user, "french", bot="greedy")
    services.act(c.pk, user, 0, legal_actions(from_json(c.state, TABLE), "french")[0])
    row = CampaignAction.objects.get(campaign=c, seq=1)
    row.events = [*row.events, {"type": "forged", "visibility": "all"}]
    row.save()
    with pytest.raises(RuntimeError, match="action 1 replays differently"):
        services.replay(c)


def test_a_lost_computer_move_is_found_after_a_grace_period(user, small, sent):
    from datetime import timedelta

    from django.utils import timezone

    c = services.create_campaign(user, "allied", bot="greedy")
    assert tasks.stalled_computer_turns() == []
    later = timezone.now() + timedelta(seconds=30)
    assert tasks.stalled_computer_turns(now=later) == [(c.pk, 0)]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_submits_of_one_seq_apply_once(user, small, sent):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    c = services.create_campaign(user, "french", bot="greedy")
    action = selectors.campaign_view(c, user)["legal_actions"][0]
    results: list[str] = []
    barrier = threading.Barrier(50)

    def submit():
        try:
            barrier.wait()
            services.act(c.pk, user, 0, action)
            results.append("ok")
        except Conflict as exc:
            results.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("ok") == 1
    assert set(results) == {"ok", "stale_seq"} or results == ["ok"]
    assert CampaignAction.objects.filter(campaign=c).count() == 1


def test_campaign_changed_is_sent_after_commit(user, small, sent,
                                               django_capture_on_commit_callbacks):
    from play.signals import match_changed

    got = []

    def listener(sender, **kw):
        got.append((kw["match_id"], kw["seq"], kw["status"]))

    match_changed.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            c = services.create_campaign(user, "french", bot="greedy")
        assert got == []  # nothing before the commit
        for cb in callbacks:
            cb()
        assert got == [(c.pk, 0, "active")]
        legal = selectors.campaign_view(c, user)["legal_actions"]
        with django_capture_on_commit_callbacks(execute=True):
            services.act(c.pk, user, 0, legal[0])
        assert got[-1] == (c.pk, 1, "active") and sent[-1] == (c.pk, 1)
        with django_capture_on_commit_callbacks(execute=True):
            services.resign(c.pk, user)
        assert got[-1] == (c.pk, 1, "finished")
    finally:
        match_changed.disconnect(listener)


def test_the_tick_resends_stalled_computer_moves(user, small, sent, monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    c = services.create_campaign(user, "allied", bot="greedy")
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(seconds=60))
    sent.clear()
    assert tasks.tick() == [(c.pk, 0)] and sent == [(c.pk, 0)]
    assert tasks.bot_move(c.pk, 0) >= 1 and tasks.bot_move(c.pk, 0) == 0


def test_the_worker_knows_the_campaign_tasks_and_beat_ticks_them():
    from config.celery import app

    app.loader.import_default_modules()
    assert {"play.bot_move", "play.tick", "campaigns.bot_move"} <= set(app.tasks)
    assert app.conf.beat_schedule["play-tick"]["task"] == "play.tick"
