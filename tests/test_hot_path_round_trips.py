"""An action between two people in at most 4 database round trips on PostgreSQL, BEGIN and
COMMIT included, a move that hands the match over with its notice (issue 31: "one read of
the match row with its position, one insert, one update, one notify"): counted by libpq
(``play.roundtrips``) around the service's ``act``, its commit and its ``match_changed``
listeners (the notifications among them), for plain moves, moves that pass the move to the
other player (a "your move" notice, the other's stale one marked read) and moves after which
a lone pass is played for the other (their ``always_ask`` preference read)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.db import connection

from battles import services as battle_services
from campaigns import services as campaign_services
from notifications.models import Notification
from play import alongside, registry
from play.live import messages
from play.roundtrips import RoundTrips

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="round trips are counted on PostgreSQL (libpq's trace)")

GAMES = {
    "battle": (battle_services,
               lambda u: battle_services.create_battle(u, "quatre-bras", "french",
                                                       opponent="open"),
               battle_services.join_battle),
    "campaign": (campaign_services,
                 lambda u: campaign_services.create_campaign(u, "french", opponent="open"),
                 campaign_services.join_campaign),
}
# BEGIN, the locking read, the rows and the match's row in one statement (with the "your
# move" notice of a move that hands the match over: the stale one marked read, the setting
# read and the new one written), COMMIT
LIMIT = 4


def _played(kind: str, moves: int, seed: int) -> list[tuple[int, str, bool, list[str]]]:
    """(round trips, what happened, ..., the round trips' first words) of each action."""
    services, create, join = GAMES[kind]
    users = [User.objects.create_user(f"trips_{kind}_{i}", f"t{i}@example.org", "pw")
             for i in range(2)]
    pk = create(users[0]).pk
    join(pk, users[1])
    viewers = {"french": messages.Viewer(kind, pk, users[0], "french"),
               "allied": messages.Viewer(kind, pk, users[1], "allied")}
    model = registry.get(kind).model
    rng = random.Random(seed)
    out = []
    for _ in range(moves):
        match = model.objects.get(pk=pk)
        if match.status != "active" or not match.to_move:
            break
        msg = messages.message(viewers[match.to_move], match.seq)
        if not msg["legal_actions"]:
            break
        notes = Notification.objects.count()
        autos = match.actions.filter(auto=True).count()
        mover = viewers[match.to_move].user
        # a fresh user object, as a request or a socket has: nothing cached on it
        mover = User.objects.get(pk=mover.pk)
        with RoundTrips() as trips:
            services.act(pk, mover, msg["seq"], rng.choice(msg["legal_actions"]))
        after = model.objects.get(pk=pk)
        what = ("end" if after.status != "active"
                else "notice" if Notification.objects.count() > notes
                else "auto" if after.actions.filter(auto=True).count() > autos
                else "plain")
        out.append((trips.count, what, [m[:40] for m in trips.messages]))
    return out


@on_postgresql
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", sorted(GAMES))
def test_an_action_takes_at_most_four_round_trips(catalogue, sent, kind, monkeypatch):
    monkeypatch.setattr(GAMES[kind][0], "new_seed", lambda: 1815)  # the same dice every run
    played = _played(kind, 60, seed=31)
    seen = {what for _, what, _ in played}
    assert {"plain", "notice", "auto"} <= seen, seen  # every path was taken
    over = [(n, what, msgs) for n, what, msgs in played if what != "end" and n > LIMIT]
    assert not over, over


def test_a_failing_writer_is_left_out_and_nothing_is_joined_but_on_postgresql(monkeypatch,
                                                                            caplog):
    """``alongside.parts``: a writer that raises is logged and left out (its app's listener
    then writes after commit, as without it), the others' parts kept; none on SQLite."""
    part = alongside.Part("mine", (("mine", "SELECT 1"),), ())

    def failing(kind, match, by):
        raise RuntimeError("boom")

    monkeypatch.setattr(alongside, "_writers", [])
    alongside.register(failing)
    alongside.register(lambda kind, match, by: part)
    alongside.register(failing)  # once only
    kind, match = SimpleNamespace(kind="battle"), SimpleNamespace(pk=7)
    assert alongside.parts(kind, match, "french", "postgresql") == [part]
    assert "boom" in caplog.text
    assert alongside.parts(kind, match, "french", "sqlite") == []
