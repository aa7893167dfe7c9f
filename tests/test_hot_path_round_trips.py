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


def _played(kind: str, moves: int, seed: int) -> list[tuple[int, str, list[str], int]]:
    """(round trips that ran statements, what happened, the round trips' first words, the
    round trips that prepared one) of each action."""
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
        out.append((trips.running, what, [m[:40] for m in trips.messages], trips.preparing))
    return out


@on_postgresql
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", sorted(GAMES))
def test_an_action_takes_at_most_four_round_trips(catalogue, sent, kind, monkeypatch):
    monkeypatch.setattr(GAMES[kind][0], "new_seed", lambda: 1815)  # the same dice every run
    played = _played(kind, 60, seed=31)
    seen = {what for _, what, _, _ in played}
    assert {"plain", "notice", "auto"} <= seen, seen  # every path was taken
    over = [(n, what, msgs) for n, what, msgs, _ in played if what != "end" and n > LIMIT]
    assert not over, over
    # The hot path's statements are prepared (``play.sql.planned_cursor``): each once on the
    # connection, on its fifth run, not again (a prepare per action would be a fifth trip)
    preparing = [(k, what, msgs) for k, (_, what, msgs, p) in enumerate(played) if p]
    assert 1 <= len(preparing) <= 8, preparing
    assert all(k >= 4 for k, _, _ in preparing), preparing


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


# --- The match's ending action (issue 31: 15 round trips, 28 rated, more in a tournament) ----
# The last rows, the finished match's row, the end's notices, the "to be rated" row and the
# tournament link read are one statement (``play.turns.end_written``); the rating and the
# tournament result are a worker's, after commit (tests/test_ratings_deferred.py,
# tests/test_tournament_deferred_results.py).

def _ending_trips(kind: str, rated: bool, seed: int) -> tuple[int, list[str]]:
    """The round trips of the action that ends a short (2-turn) match between two people."""
    services, _create, join = GAMES[kind]
    users = [User.objects.create_user(f"end_{kind}_{rated}_{i}", f"e{i}@example.org", "pw")
             for i in range(2)]
    if kind == "battle":
        pk = services.create_battle(users[0], "quatre-bras", "french", opponent="open",
                                    settings={"turn_cap": 2}, rated=rated).pk
    else:
        pk = services.create_campaign(users[0], "french", opponent="open",
                                      settings={"turn_cap": 2}, rated=rated).pk
    join(pk, users[1])
    viewers = {"french": messages.Viewer(kind, pk, users[0], "french"),
               "allied": messages.Viewer(kind, pk, users[1], "allied")}
    model = registry.get(kind).model
    rng = random.Random(seed)
    for _ in range(600):
        match = model.objects.get(pk=pk)
        assert match.status == "active" and match.to_move
        msg = messages.message(viewers[match.to_move], match.seq)
        mover = User.objects.get(pk=viewers[match.to_move].user.pk)
        with RoundTrips() as trips:
            services.act(pk, mover, msg["seq"], rng.choice(msg["legal_actions"]))
        if model.objects.get(pk=pk).status != "active":
            return trips.running, [m[:60] for m in trips.messages]
    raise AssertionError("the match did not end")


@on_postgresql
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("rated", [False, True], ids=["unrated", "rated"])
def test_the_ending_action_takes_at_most_four_round_trips(catalogue, sent, results_later,
                                                          rated, monkeypatch):
    from ratings.models import PendingRating

    monkeypatch.setattr(battle_services, "new_seed", lambda: 1815)
    count, msgs = _ending_trips("battle", rated, seed=31)
    assert count <= LIMIT, msgs
    assert PendingRating.objects.exists() == rated  # the rating left to a worker
    assert Notification.objects.filter(kind="battle_over").count() == 2  # the end's notices


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_tournament_game_ends_by_resignation_in_at_most_four_round_trips(
        catalogue, sent, results_later):
    from tournaments import services as tournament_services
    from tournaments.models import Match, MatchGame

    from .tournament_helpers import field, organiser

    t, _users = field(organiser(), 2, online=True,
                      time_control={"kind": "live", "base": 600, "increment": 5})
    tournament_services.start_tournament(t.pk)
    m = Match.objects.get(round__tournament=t, allied__isnull=False)
    link = MatchGame.objects.get(match=m)
    battle = registry.get("battle").model.objects.get(pk=link.played_id)
    loser = User.objects.get(pk=battle.french_player_id)
    with RoundTrips() as trips:
        battle_services.resign(battle.pk, loser)
    assert trips.running <= LIMIT, "\n".join(m[:200] for m in trips.messages)
    assert registry.get("battle").model.objects.get(pk=battle.pk).status == "finished"
