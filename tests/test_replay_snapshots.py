"""Any replay step at about the same cost (issue 31, "a replay page replays the whole battle at
every step"): a finished match's first replay leaves its dice check, turns and a snapshot
every ``SNAPSHOT_EVERY`` steps in the cache; a later replay of one step starts from the
snapshot before it and shows exactly what the whole pass shows."""

import random

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from battles import services
from battles.kind import KIND
from battles.models import Battle
from play import replays
from play.live import messages

pytestmark = pytest.mark.django_db

EVERY = 8
SEED = 1815


@pytest.fixture
def finished_battle(catalogue, sent, monkeypatch):
    monkeypatch.setattr(replays, "SNAPSHOT_EVERY", EVERY)
    # a fixed battle, long enough for several snapshots (a new seed each run could end it early)
    monkeypatch.setattr(services, "new_seed", lambda: SEED)
    alice = User.objects.create_user("alice", "", "pw")
    bob = User.objects.create_user("bob", "", "pw")
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, bob)
    viewers = {"french": messages.Viewer("battle", b.pk, alice, "french"),
               "allied": messages.Viewer("battle", b.pk, bob, "allied")}
    rng = random.Random(31)
    for _ in range(40):
        match = Battle.objects.get(pk=b.pk)
        if match.status != "active":
            break
        msg = messages.message(viewers[match.to_move], match.seq)
        services.act(b.pk, viewers[match.to_move].user, msg["seq"],
                     rng.choice(msg["legal_actions"]))
    if Battle.objects.get(pk=b.pk).status == "active":
        services.resign(b.pk, alice)
    cache.clear()
    return Battle.objects.get(pk=b.pk)


@pytest.mark.parametrize("log", [False, True])
def test_each_step_from_a_snapshot_is_the_whole_pass_step(finished_battle, monkeypatch, log):
    whole = replays.replay_book(KIND, finished_battle, log=log)  # no cache yet: one pass
    last = len(whole.steps) - 1
    assert last > 2 * EVERY and whole.check.ok
    applied = []
    apply = KIND.game.apply
    monkeypatch.setattr(KIND.game, "apply", lambda *a, **k: applied.append(1) or apply(*a, **k))
    for n in range(last + 1):
        applied.clear()
        book = replays.replay_book(KIND, finished_battle,
                                   keep=lambda i, _last, n=n: n - i in (0, 1), log=log)
        assert len(applied) <= EVERY  # from the snapshot before the step, never the whole
        assert book.check == whole.check and book.undone == whole.undone
        assert [s.turn for s in book.steps] == [s.turn for s in whole.steps]
        assert [s.seq for s in book.steps] == [s.seq for s in whole.steps]
        for i in (n - 1, n):
            if i >= 0:
                assert book.view(i, "all") == whole.view(i, "all")


def test_a_lost_cache_is_a_whole_pass_again(finished_battle):
    first = replays.replay_book(KIND, finished_battle, keep=lambda i, last: i == last)
    cache.clear()
    again = replays.replay_book(KIND, finished_battle, keep=lambda i, last: i == last)
    last = len(first.steps) - 1
    assert again.view(last, "all") == first.view(last, "all") and again.check.ok
