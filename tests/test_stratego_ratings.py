"""Rated Stratego: Waterloo (a rating per game: ``MatchKind.rating_pool``): a rated game
between two people updates both players' "stratego" ratings and their side records once,
through the generic rater (``ratings.matches``, a ``RatedMatch``), and leaves their "eagles"
ratings alone; an unrated game and a game against the computer change nothing. Also the
migration to a rating per pool keeps the existing ratings (as "eagles")."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from online.stratego import services
from online.stratego.kind import GAME, KIND, state_of
from online.stratego.models import StrategoMatch
from play import registry, turns
from play.signals import match_finished
from ratings import matches
from ratings.models import EAGLES, RatedBattle, RatedMatch, Rating, SideRecord

from .kinds import KindTasks
from .stratego_online.helpers import choose, client_for

BASE = "/api/games/stratego/"
tasks = KindTasks("stratego")


@pytest.fixture
def asked(monkeypatch):
    calls: list[tuple] = []
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: calls.append(args))
    return calls


def _two_people(user, other_user, rated: bool) -> StrategoMatch:
    """A game of alice (Allies) and bob (French) through the API, both set up at random."""
    alice, bob = client_for(user), client_for(other_user)
    r = alice.post(BASE, {"side": "allied", "opponent": "open", "rated": rated},
                   format="json")
    assert r.status_code == 201, r.json()
    pk = r.json()["id"]
    assert r.json()["rated"] is rated
    [row] = bob.get(f"{BASE}open/").json()["results"]
    assert row["id"] == pk and row["rated"] is rated
    assert bob.post(f"{BASE}{pk}/join/", {}, format="json").status_code == 200
    for client in (alice, bob):
        v = client.get(f"{BASE}{pk}/").json()
        r = client.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": v["legal_actions"][0]},
                        format="json")
        assert r.status_code == 200, r.json()
    return StrategoMatch.objects.get(pk=pk)


def _figures(user, pool: str) -> tuple:
    r = Rating.objects.get(user=user, pool=pool)
    return r.rating, r.rd, r.volatility, r.games


def test_the_pools_of_the_kinds():
    assert registry.get("battle").rating_pool == registry.get("campaign").rating_pool == EAGLES
    assert KIND.rating_pool == "stratego"
    assert registry.get("race").rating_pool == ""  # the toy game: not rated


def test_a_rated_game_between_two_people_updates_both_stratego_ratings_once(
        user, other_user, asked):
    Rating.objects.create(user=user, pool=EAGLES, rating=1700, rd=80, games=12)
    eagles_before = _figures(user, EAGLES)
    m = _two_people(user, other_user, rated=True)
    assert not RatedMatch.objects.exists()
    bob = client_for(other_user)
    assert bob.post(f"{BASE}{m.pk}/resign/", {}, format="json").status_code == 200
    m.refresh_from_db()
    assert m.status == "finished" and m.outcome["winner"] == "allied"
    [rm] = RatedMatch.objects.all()
    assert (rm.kind, rm.played_id, rm.pool, rm.reason) == ("stratego", m.pk, "stratego",
                                                           "resigned")
    assert (rm.french_player_id, rm.allied_player_id, rm.french_score) == \
        (other_user.pk, user.pk, 0.0)
    assert rm.allied_before == rm.french_before == 1500
    alice, bob_r = _figures(user, "stratego"), _figures(other_user, "stratego")
    assert alice[0] == pytest.approx(rm.allied_after) and alice[0] > 1500 and alice[3] == 1
    assert bob_r[0] == pytest.approx(rm.french_after) and bob_r[0] < 1500 and bob_r[3] == 1
    # the EAGLES ratings: alice's untouched, bob has none
    assert _figures(user, EAGLES) == eagles_before
    assert not Rating.objects.filter(user=other_user, pool=EAGLES).exists()
    assert not RatedBattle.objects.exists()
    records = {(r.user_id, r.pool, r.battle, r.side): (r.played, r.won, r.lost, r.drawn)
               for r in SideRecord.objects.all()}
    assert records == {(user.pk, "stratego", "stratego", "allied"): (1, 1, 0, 0),
                       (other_user.pk, "stratego", "stratego", "french"): (1, 0, 1, 0)}
    # rated once: the rater again, or the signal again, changes nothing
    assert matches.rate_match("stratego", "stratego", m) is None
    match_finished.send(sender=StrategoMatch, kind="stratego", match=m)
    assert RatedMatch.objects.count() == 1 and _figures(user, "stratego") == alice
    # the player's API and page, the leaderboard of the game
    data = client_for(None).get(f"/api/players/{user.username}/").json()
    assert data["rating"] == 1700 and data["games"] == 12  # the EAGLES one, as before
    game, other = data["other_games"]  # every other pool, in the registry's order
    assert other["pool"] == "belle_alliance" and other["games"] == 0
    assert game["pool"] == "stratego" and game["title"] == GAME.title and game["games"] == 1
    assert {(r["kind"], r["side"]): r["won"] for r in game["records"]} == \
        {("stratego", "french"): 0, ("stratego", "allied"): 1}
    [recent] = game["recent"]
    assert (recent["match_id"], recent["opponent"], recent["result"], recent["reason"]) == \
        (m.pk, "bob", "won", "resigned")
    html = Client().get(f"/players/{user.username}/").content.decode()
    assert 'data-testid="rating-stratego"' in html and f'recent-stratego-{m.pk}' in html
    board = client_for(None).get("/api/leaderboard/?game=stratego").json()
    assert board["pool"] == "stratego" and \
        [r["username"] for r in board["results"]] == ["alice", "bob"]
    eagles = client_for(None).get("/api/leaderboard/").json()
    assert eagles["pool"] == EAGLES and [r["username"] for r in eagles["results"]] == ["alice"]
    assert client_for(None).get("/api/leaderboard/?game=chess").status_code == 400
    html = Client().get("/leaderboard/?game=stratego").content.decode()
    assert 'data-testid="rank-2"' in html and "bob" in html
    assert Client().get("/leaderboard/?game=chess").status_code == 404


def test_a_rated_game_played_to_the_end_on_the_board(user, other_user, asked):
    """Random legal actions of both people until the game decides the end itself."""
    m = _two_people(user, other_user, rated=True)
    rng = random.Random(7)
    people = {"french": other_user, "allied": user}
    for _ in range(4000):
        m.refresh_from_db()
        if m.status != "active":
            break
        st = state_of(m)
        side = m.to_move
        legal = GAME.legal_actions(st, side)
        action = choose([a for a in legal if a.get("type") != "offer_draw"] or legal, rng)
        services.act(m.pk, people[side], m.seq, action)
    m.refresh_from_db()
    if m.status != "finished":
        pytest.skip("no end on the board within the actions tried")
    [rm] = RatedMatch.objects.all()
    assert rm.played_id == m.pk and rm.reason == str(m.outcome.get("reason") or "")
    assert _figures(user, "stratego")[3] == _figures(other_user, "stratego")[3] == 1
    assert not Rating.objects.filter(pool=EAGLES).exists()


def test_an_unrated_game_changes_nothing(user, other_user, asked):
    m = _two_people(user, other_user, rated=False)
    services.resign(m.pk, other_user)
    m.refresh_from_db()
    assert m.status == "finished" and not m.rated
    assert not Rating.objects.exists() and not RatedMatch.objects.exists()
    assert not SideRecord.objects.exists()


def test_the_computers_games_are_never_rated(user, asked):
    r = client_for(user).post(BASE, {"side": "allied", "opponent": "computer",
                                     "rated": True}, format="json")
    assert r.status_code == 400 and "never rated" in r.json()["detail"]
    with pytest.raises(services.BadInput):
        services.create_game(user, "allied", rated=True)
    assert not StrategoMatch.objects.exists()
    # a computer's game marked rated all the same: the rater checks again
    m = services.create_game(user, "allied")
    StrategoMatch.objects.filter(pk=m.pk).update(rated=True)
    services.resign(m.pk, user)
    m.refresh_from_db()
    assert m.status == "finished" and m.rated and m.bot
    assert not Rating.objects.exists() and not RatedMatch.objects.exists()


def test_the_new_game_form_offers_rated(user, other_user, asked):
    c = Client()
    c.force_login(user)
    assert 'name="rated"' in c.get("/stratego/").content.decode()
    r = c.post("/stratego/", {"side": "allied", "opponent": "open", "rated": "on",
                              "time_control": "untimed", "public": "on"})
    assert r.status_code == 302
    assert StrategoMatch.objects.get().rated is True
    r = c.post("/stratego/", {"side": "allied", "opponent": "computer", "rated": "on",
                              "time_control": "untimed"})
    assert r.status_code == 400 and "never rated" in r.content.decode()


def test_an_error_in_the_rater_rolls_the_end_back(user, other_user, asked, monkeypatch):
    m = _two_people(user, other_user, rated=True)

    def boom(*args, **kwargs):
        raise RuntimeError("rating failed")

    monkeypatch.setattr("ratings.matches.rate_players", boom)
    with pytest.raises(RuntimeError):
        turns.end_by(KIND, m.pk, other_user, "resign", lambda match, side: ("allied",
                                                                            "resigned"))
    m.refresh_from_db()
    assert m.status == "active" and not RatedMatch.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_rating_as_eagles(django_user_model):
    """Back to ``0002_rated_campaigns`` (one rating per player), a rating and a side record
    written there, then forward: the same figures, pool "eagles"."""
    old, new = [("ratings", "0002_rated_campaigns")], [("ratings",
                                                       "0003_rating_pools_rated_matches")]
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(old)
        apps = executor.loader.project_state(old).apps
        alice = django_user_model.objects.create_user("alice", "", "pw")
        apps.get_model("ratings", "Rating").objects.create(
            user_id=alice.pk, rating=1612.5, rd=71.25, volatility=0.061, games=9)
        apps.get_model("ratings", "SideRecord").objects.create(
            user_id=alice.pk, battle="ligny", side="french", played=2, won=1, lost=1)
        executor = MigrationExecutor(connection)
        executor.migrate(new)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    r = Rating.objects.get(user=alice)
    assert (r.pool, r.rating, r.rd, r.volatility, r.games) == (EAGLES, 1612.5, 71.25, 0.061, 9)
    s = SideRecord.objects.get(user=alice)
    assert (s.pool, s.battle, s.side, s.played, s.won, s.lost) == \
        (EAGLES, "ligny", "french", 2, 1, 1)
    from ratings.selectors import player_profile
    assert player_profile("alice")["rating"] == 1612.5
