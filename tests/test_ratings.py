"""Ratings (ratings/): a rated battle between two people updates both players once, in the
transaction that ends it; the computer's games never count; the player page, leaderboard and
lobby (filters, play now by closest rating)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from battles import services
from battles.errors import BattleError
from battles.models import Battle
from battles.modules import ENDING_ACTIONS
from ratings import lobby
from ratings.models import RatedBattle, Rating, SideRecord
from ratings.services import rate_battle

pytestmark = pytest.mark.django_db


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def browser(user) -> Client:
    """A logged-in client for the pages (sessions)."""
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def carol(db) -> User:
    return User.objects.create_user("carol", "carol@example.com", "s3cret-pass-1815")


def started(french, allied, *, rated=True, battle="quatre-bras") -> Battle:
    b = services.create_battle(french, battle, "french", opponent="open", rated=rated)
    services.join_battle(b.pk, allied)
    return Battle.objects.get(pk=b.pk)


def finish(battle: Battle, winner: str | None, reason: str = "resigned") -> Battle:
    """End the battle as the services do (a resignation, a flag fall, the engine)."""
    with transaction.atomic():
        locked = Battle.objects.select_for_update().get(pk=battle.pk)
        services.finish_battle(locked, {"winner": winner, "reason": reason, "turn": 2})
    return Battle.objects.get(pk=battle.pk)


def figures(user) -> tuple[float, float, int]:
    r = Rating.objects.get(user=user)
    return r.rating, r.rd, r.games


def record(user, battle="quatre-bras", side="french") -> tuple[int, int, int, int]:
    r = SideRecord.objects.get(user=user, battle=battle, side=side)
    return r.played, r.won, r.lost, r.drawn


def test_a_rated_resignation_updates_both_players_once(user, other_user, sent):
    b = finish(started(user, other_user), "allied", "resigned")
    (ra, rda, ga), (rb, rdb, gb) = figures(user), figures(other_user)
    assert ga == gb == 1
    assert ra < 1500 < rb and ra + rb == pytest.approx(3000)  # equals: mirror images
    assert rda == pytest.approx(rdb) and rda < 350
    assert record(user) == (1, 0, 1, 0) and record(other_user, side="allied") == (1, 1, 0, 0)
    rb_row = RatedBattle.objects.get(battle=b)
    assert (rb_row.french_before, rb_row.allied_before) == (1500, 1500)
    assert rb_row.french_after == pytest.approx(ra) and rb_row.french_score == 0
    # Once: rating it again (a repeated signal, a replayed task) changes nothing.
    assert rate_battle(b) is None
    assert figures(user) == (ra, rda, ga) and RatedBattle.objects.count() == 1
    assert record(user) == (1, 0, 1, 0)


def test_a_flag_fall_rates_and_a_draw_scores_half(user, other_user, carol, sent):
    finish(started(user, other_user), "french", "time")
    assert figures(user)[0] > 1500 > figures(other_user)[0]
    before = figures(user)[0]
    # A draw against a lower-rated player costs the higher one a little.
    finish(started(other_user, user), None, "turn_cap")
    assert figures(user)[0] < before
    assert record(user, side="allied") == (1, 0, 0, 1)
    assert record(other_user, side="french") == (1, 0, 0, 1)
    assert figures(user)[2] == 2 and not Rating.objects.filter(user=carol).exists()


def test_unrated_and_computer_games_are_never_rated(user, other_user, sent):
    finish(started(user, other_user, rated=False), "french")
    vs_computer = services.create_battle(user, "quatre-bras", "french", bot="random")
    finish(vs_computer, "french")
    # Even if the flag were set by hand, a battle with the computer is not rated.
    Battle.objects.filter(pk=vs_computer.pk).update(rated=True)
    assert rate_battle(Battle.objects.get(pk=vs_computer.pk)) is None
    assert not Rating.objects.exists() and not RatedBattle.objects.exists()


def test_rated_against_the_computer_is_refused(user, sent):
    with pytest.raises(BattleError, match="games against the computer are never rated"):
        services.create_battle(user, "quatre-bras", "french", rated=True)
    r = client(user).post("/api/battles/", {"battle": "quatre-bras", "side": "french",
                                            "rated": True}, format="json")
    assert r.status_code == 400, r.content
    assert r.json()["detail"] == "games against the computer are never rated"
    r = client(user).post("/api/battles/", {"battle": "quatre-bras", "side": "french",
                                            "opponent": "open", "rated": "yes"}, format="json")
    assert r.status_code == 400 and r.json()["detail"] == "rated must be true or false"
    r = client(user).post("/api/battles/", {"battle": "quatre-bras", "side": "french",
                                            "opponent": "open", "rated": True}, format="json")
    assert r.status_code == 201 and r.json()["rated"] is True
    assert Battle.objects.get(pk=r.json()["id"]).rated is True
    assert not Battle.objects.filter(bot="random").exists()


def test_a_failing_rating_rolls_the_end_back(user, other_user, sent, monkeypatch):
    """The listener runs inside the finishing transaction: both are saved, or neither."""
    b = started(user, other_user)

    def boom(*args, **kwargs):
        raise RuntimeError("rating store down")

    monkeypatch.setattr("ratings.services.glicko2.rate_game", boom)
    with pytest.raises(RuntimeError):
        finish(b, "french")
    assert Battle.objects.get(pk=b.pk).status == "active"
    assert not Rating.objects.exists() and not SideRecord.objects.exists()


# --- player page, leaderboard, API ------------------------------------------------------------

def test_player_page_and_api(user, other_user, sent):
    b = finish(started(user, other_user), "french", "resigned")
    data = APIClient().get("/api/players/alice/").json()  # public
    assert data["username"] == "alice" and data["games"] == 1 and data["rating"] > 1500
    assert len(data["records"]) == 8  # every battle and side
    qb = {(r["battle"], r["side"]): r for r in data["records"]}
    assert qb["quatre-bras", "french"] == {"battle": "quatre-bras", "side": "french",
                                           "played": 1, "won": 1, "lost": 0, "drawn": 0}
    assert qb["waterloo", "allied"]["played"] == 0
    [recent] = data["recent"]
    assert recent["battle_id"] == b.pk and recent["opponent"] == "bob"
    assert recent["result"] == "won" and recent["reason"] == "resigned"
    assert recent["change"] > 0 and recent["rating_before"] == 1500
    assert APIClient().get("/api/players/nobody/").status_code == 404
    page = browser(other_user).get("/players/alice/")
    html = page.content.decode()
    assert page.status_code == 200 and 'data-testid="record-quatre-bras-french"' in html
    assert f'data-testid="recent-{b.pk}"' in html
    assert '<td>Won <small class="muted">(resigned)</small>' in html
    assert '<td>Lost <small class="muted">(resigned)</small>' in \
        browser(user).get("/players/bob/").content.decode()
    assert APIClient().get("/players/nobody/").status_code == 404
    # A newcomer has a page too: 1500, RD 350, no games.
    carol = User.objects.create_user("carol", "c@example.com", "s3cret-pass-1815")
    data = APIClient().get(f"/api/players/{carol.username}/").json()
    assert (data["rating"], data["rd"], data["games"], data["provisional"]) == \
        (1500, 350, 0, True)


def test_leaderboard_ranks_paginates_and_skips_players_without_games(user, other_user, sent,
                                                                     monkeypatch):
    User.objects.create_user("carol", "c@example.com", "s3cret-pass-1815")
    finish(started(user, other_user), "allied", "time")
    data = APIClient().get("/api/leaderboard/").json()
    assert [r["username"] for r in data["results"]] == ["bob", "alice"]
    assert [r["rank"] for r in data["results"]] == [1, 2] and data["count"] == 2
    assert data["results"][0]["provisional"] is True  # one game: RD still above 110
    monkeypatch.setattr("ratings.selectors.PER_PAGE", 1)
    assert APIClient().get("/api/leaderboard/?page=2").json()["results"][0]["rank"] == 2
    assert APIClient().get("/api/leaderboard/?page=3").status_code == 404
    assert APIClient().get("/api/leaderboard/?page=x").status_code == 400
    html = APIClient().get("/leaderboard/?page=2").content.decode()
    assert 'data-testid="rank-2"' in html and "alice" in html and "Page 2 of 2" in html
    assert APIClient().get("/leaderboard/?page=9").status_code == 404


# --- the lobby --------------------------------------------------------------------------------

def make_user(name: str, rating: float | None = None) -> User:
    u = User.objects.create_user(name, f"{name}@example.com", "s3cret-pass-1815")
    if rating is not None:
        Rating.objects.create(user=u, rating=rating, rd=60, games=10)
    return u


def test_lobby_filters_show_creators_ratings(user, sent):
    dave, erin = make_user("dave", 1700), make_user("erin", 1300)
    qb = services.create_battle(dave, "quatre-bras", "french", opponent="open", rated=True)
    ligny = services.create_battle(erin, "ligny", "allied", opponent="open")
    Battle.objects.filter(pk=ligny.pk).update(
        time_control={"kind": "correspondence", "days": 3})
    api = client(user)

    def ids(query=""):
        r = api.get(f"/api/lobby/{query}")
        assert r.status_code == 200, r.content
        return [c["id"] for c in r.json()["results"]]

    assert ids() == [ligny.pk, qb.pk]
    assert ids("?battle=ligny") == [ligny.pk]
    assert ids("?rated=yes") == [qb.pk] and ids("?rated=no") == [ligny.pk]
    assert ids("?time=correspondence") == [ligny.pk] and ids("?time=untimed") == [qb.pk]
    assert ids("?time=live") == [] and ids("?deck=dealt") == [ligny.pk, qb.pk]
    assert ids("?deck=custom") == []
    row = api.get("/api/lobby/?battle=quatre-bras").json()["results"][0]
    assert row["creator"] == "dave" and row["creator_rating"]["rating"] == 1700
    assert row["side"] == "allied" and row["rated"] is True and row["time_kind"] == "untimed"
    assert api.get("/api/lobby/?time=blitz").status_code == 400
    assert APIClient().get("/api/lobby/").status_code in (401, 403)
    page = browser(user)
    html = page.get("/lobby/?time=correspondence").content.decode()
    assert f'data-testid="challenge-{ligny.pk}"' in html and "correspondence, 3 days" in html
    assert f'data-testid="challenge-{qb.pk}"' not in html
    assert 'data-testid="strengths"' in html and "Greedy" in html
    assert page.get("/lobby/?rated=maybe").status_code == 400


def test_play_now_joins_the_closest_rating_else_waits(sent):
    me = make_user("me", 1500)
    far, near, close = make_user("far", 2400), make_user("near", 1750), make_user("close", 1420)
    b_far = services.create_battle(far, "quatre-bras", "french", opponent="open")
    b_near = services.create_battle(near, "quatre-bras", "french", opponent="open")
    services.create_battle(close, "wavre", "french", opponent="open")  # another battle
    services.create_battle(close, "quatre-bras", "allied", opponent="open")  # my side taken
    services.create_battle(close, "quatre-bras", "french", opponent="open", rated=True)
    found = lobby.play_now(me, "quatre-bras", "allied")
    assert found.joined and found.battle.pk == b_near.pk and found.window == 400
    assert found.battle.allied_player_id == me.pk and found.battle.status == "active"
    # Nobody left within 800 points (2400 is 900 away): a new open battle, waiting.
    found = lobby.play_now(me, "quatre-bras", "allied")
    assert not found.joined and found.battle.status == "waiting"
    assert found.battle.allied_player_id == me.pk and Battle.objects.get(pk=b_far.pk).status \
        == "waiting"
    # Rated only pairs with rated: the 1420 player's rated battle, through the API.
    r = client(me).post("/api/lobby/play-now/", {"battle": "quatre-bras", "side": "allied",
                                                 "rated": True}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["joined"] and body["gap"] == 80 and body["window"] == 200
    assert body["battle"]["opponent"] == "close" and body["battle"]["rated"] is True
    # Asking for a live battle with nobody waiting opens one with a live clock.
    found = lobby.play_now(me, "ligny", "allied", time="live")
    assert not found.joined and found.battle.time_control["kind"] == "live"
    assert lobby.time_kind(found.battle) == "live"


def test_play_now_page_and_the_computer_from_the_lobby(user, other_user, sent):
    waiting = services.create_battle(other_user, "quatre-bras", "french", opponent="open")
    c = browser(user)
    r = c.post("/lobby/play-now/", {"battle": "quatre-bras", "side": "allied"})
    assert r.status_code == 302 and r["Location"] == f"/battles/{waiting.pk}/"
    r = c.post("/lobby/play-now/", {"battle": "borodino", "side": "allied"})
    assert r.status_code == 400 and "Unknown battle" in r.content.decode()
    r = c.post("/lobby/computer/", {"battle": "wavre", "side": "french", "bot": "random"})
    b = Battle.objects.latest("pk")
    assert r.status_code == 302 and b.bot == "random" and not b.rated
    assert b.french_player_id == user.pk


def test_the_new_battle_form_creates_a_rated_open_battle(user, sent):
    r = browser(user).post("/battles/", {"battle": "quatre-bras", "side": "french",
                                         "opponent": "open", "bot": "random", "rated": "yes",
                                        "scale": "1", "turn_cap": ""})
    assert r.status_code == 302, r.content.decode()[:2000]
    b = Battle.objects.latest("pk")
    assert b.rated is True
    html = browser(user).get("/battles/").content.decode()
    assert f'data-testid="rated-{b.pk}">rated<' in html
    assert 'href="/lobby/">Lobby</a>' in html and 'href="/leaderboard/">Leaderboard</a>' in html
    [row] = client(user).get("/api/battles/").json()["results"]
    assert row["id"] == b.pk and row["rated"] is True
    r = browser(user).post("/battles/", {"battle": "quatre-bras", "side": "french",
                                         "opponent": "computer", "bot": "random",
                                        "rated": "yes", "scale": "1", "turn_cap": ""})
    assert r.status_code == 400 and "never rated" in r.content.decode()
    assert 'name="rated" type="checkbox" value="yes" checked' in r.content.decode()


def test_a_battle_the_engine_ends_is_rated_through_act(user, other_user, sent):
    """Played through ``services.act`` to the engine's own end (the turn limit, 5.0-c):
    rated once, with the engine's winner (or a draw)."""
    b = services.create_battle(user, "quatre-bras", "french", opponent="open", rated=True,
                               settings={"turn_cap": 1})
    services.join_battle(b.pk, other_user)
    players = {"french": user, "allied": other_user}
    for _ in range(400):
        b = Battle.objects.get(pk=b.pk)
        if b.status != "active":
            break
        side = b.to_move
        view = services.battle_view(b, players[side])
        actions = view["legal_actions"]
        ending = [a for a in actions if a["type"] in ENDING_ACTIONS]
        services.act(b.pk, players[side], b.seq, (ending or actions)[0])
    assert b.status == "finished" and b.outcome["reason"] == "turn_cap", b.outcome
    rated = RatedBattle.objects.get(battle=b)
    expected = {"french": 1.0, "allied": 0.0, None: 0.5}[b.outcome["winner"]]
    assert rated.french_score == expected
    assert figures(user)[2] == figures(other_user)[2] == 1
    side = {1.0: (1, 1, 0, 0), 0.0: (1, 0, 1, 0), 0.5: (1, 0, 0, 1)}[expected]
    assert record(user) == side


def test_the_rd_grows_for_idle_months_before_a_rating(user, other_user, sent):
    from datetime import timedelta

    from django.utils import timezone

    from ratings import glicko2

    Rating.objects.create(user=user, rating=1600, rd=60, games=5)
    Rating.objects.create(user=other_user, rating=1600, rd=60, games=5)
    Rating.objects.filter(user=user).update(updated_at=timezone.now() - timedelta(days=65))
    grown = glicko2.inactive(glicko2.Rating(1600, 60, 0.06), 2).rd
    assert APIClient().get("/api/players/alice/").json()["rd"] == round(grown, 1)
    assert APIClient().get("/api/players/bob/").json()["rd"] == 60
    finish(started(user, other_user, rated=False), "french")
    assert not RatedBattle.objects.exists()  # unrated: nothing
    finish(started(user, other_user), "french")
    rb = RatedBattle.objects.get()
    assert rb.french_rd_before == pytest.approx(grown) and rb.allied_rd_before == 60
    assert figures(user)[2] == 6
