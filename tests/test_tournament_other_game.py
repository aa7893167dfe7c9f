"""A tournament of another game than the EAGLES battle: the toy "race" kind (``tests/toygame``,
Race to ten, seated by its ``seat`` hook). Its games are created through ``play.seating`` when a
round is paired, linked by ``MatchGame`` (kind "race"), played to the end through
``play.turns.act``; their winners settle the matches (``match_finished``), the standings follow;
a pause pauses the races; a no-show at the deadline ends a race by absence; the EAGLES fields
are refused for it and ``game_options`` go to the race's seating."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from config.errors import Conflict
from play import registry, turns
from tests.toygame.game import GAME
from tests.toygame.models import Race
from tournaments import selectors, services
from tournaments.models import Match, MatchGame, ResultLog, Status, Tournament
from tournaments.services.clock import advance

pytestmark = pytest.mark.django_db

RACE = registry.get("race")
LIVE = {"kind": "live", "base": 600, "increment": 5}


def people(*names: str) -> list[User]:
    return [User.objects.create_user(n, f"{n}@example.com", "s3cret-pass-1815") for n in names]


@pytest.fixture
def org():
    return people("olga")[0]


def race_tournament(org, n=4, **fields) -> tuple[Tournament, list[User]]:
    fields = {"name": "Race Cup", "game": "race", "online": True, "format": "swiss",
              "rounds": 1, **fields}
    t = services.create_tournament(org, **fields)
    users = people(*[f"racer{k}" for k in range(n)])
    for user in users:
        services.register(t.pk, user)
    return t, users


def links_of(m: Match) -> list[MatchGame]:
    return list(MatchGame.objects.filter(match=m).order_by("game"))


def play_to_the_end(race: Race, hold_at: int = 5) -> Race:
    """Both seated players play the race to its end through the service (roll below
    ``hold_at`` pending points, else hold)."""
    for _ in range(1000):
        race.refresh_from_db()
        if race.status != "active":
            return race
        side = race.to_move
        state = GAME.from_json(race.state, None)
        action = "roll" if state["pending"] < hold_at else "hold"
        turns.act(RACE, race.pk, race.player(side), race.seq, {"type": action, "side": side})
    raise AssertionError("the race never ended")  # pragma: no cover


# --- settings ---------------------------------------------------------------------------------

def test_the_game_is_a_kind_that_can_be_seated_and_takes_no_eagles_fields(org):
    with pytest.raises(services.TournamentError) as err:
        services.create_tournament(org, name="x", game="chess")
    assert err.value.message == ("game must be one of battle, stratego, belle_alliance, race: "
                                 "'chess' is not (no such game)")
    with pytest.raises(services.TournamentError, match=r"'campaign' is not \(a tournament "
                                                       r"cannot seat its matches\)"):
        services.create_tournament(org, name="x", game="campaign")
    with pytest.raises(services.TournamentError) as err:
        services.create_tournament(org, name="x", game="race", battle="ligny", scale="1/2")
    assert err.value.message == ('battle, scale: only a battle tournament (game "battle") '
                                 "takes them; a race tournament has no battle, decks or scale")
    with pytest.raises(services.TournamentError, match="deck_kind: only a battle tournament"):
        services.create_tournament(org, name="x", game="race", deck_kind="dealt")
    with pytest.raises(services.TournamentError, match="game_options must be an object"):
        services.create_tournament(org, name="x", game="race", game_options=[1])
    with pytest.raises(services.TournamentError, match="game_options are for another game"):
        services.create_tournament(org, name="x", battle="ligny", game_options={"a": 1})
    with pytest.raises(services.TournamentError, match="battle is required"):
        services.create_tournament(org, name="x")  # a battle tournament, as before

    t = services.create_tournament(org, name="Race Cup", game="race", online=True,
                                   time_control=LIVE)
    assert (t.game, t.battle, t.game_options) == ("race", "", {})
    # back to a battle: it needs its battle; with one it is an EAGLES tournament again
    with pytest.raises(services.TournamentError, match="battle is required"):
        services.update_tournament(t.pk, org, game="battle")
    t = services.update_tournament(t.pk, org, game="battle", battle="wavre")
    assert (t.game, t.battle) == ("battle", "wavre")
    t = services.update_tournament(t.pk, org, game="race")  # the EAGLES fields reset
    assert (t.game, t.battle) == ("race", "")


def test_the_api_takes_the_game_with_a_precise_400(org):
    api = Client()
    api.force_login(org)
    r = api.post("/api/tournaments/", {"name": "Net Race", "game": "race", "online": True,
                                       "game_options": {}}, content_type="application/json")
    assert r.status_code == 201, r.content
    assert (r.json()["game"], r.json()["battle"], r.json()["game_options"]) == ("race", "", {})
    r = api.post("/api/tournaments/", {"name": "x", "game": "go"},
                 content_type="application/json")
    assert r.status_code == 400
    assert ("game must be one of battle, stratego, belle_alliance, race: 'go' is not (no such game)"
            in r.content.decode())
    r = api.post("/api/tournaments/", {"name": "x", "game": "race", "battle": "ligny"},
                 content_type="application/json")
    assert r.status_code == 400 and "only a battle tournament" in r.content.decode()


def test_an_entry_in_a_race_tournament_has_no_deck(org):
    t = services.create_tournament(org, name="Race Cup", game="race")
    [user] = people("dora")
    with pytest.raises(services.TournamentError, match="french_version: a race tournament "
                                                       "registers no deck"):
        services.register(t.pk, user, french_version=1)
    entry = services.register(t.pk, user)
    assert entry.versions() == []


# --- played to the end ------------------------------------------------------------------------

def test_a_race_tournament_is_seated_played_recorded_and_ranked(org):
    t, users = race_tournament(org, 4, time_control=LIVE)
    services.start_tournament(t.pk)
    t.refresh_from_db()
    assert t.status == Status.RUNNING and t.current_round == 1
    matches = list(Match.objects.filter(round__tournament=t).select_related(
        "french__user", "allied__user"))
    assert len(matches) == 2
    for m in matches:
        [link] = links_of(m)
        assert (link.kind, link.game) == ("race", 1) and link.battle is None
        race = link.played
        assert isinstance(race, Race) and race.pk == link.played_id
        # seated through the kind's seat: both players, active, the tournament's options
        assert (race.french_player, race.allied_player) == (m.french.user, m.allied.user)
        assert race.status == "active" and race.time_control == LIVE
        assert not race.rated and race.public and race.clock_started_at is not None
        assert race.clocks == {"french": 600, "allied": 600}

    for m in matches:
        race = play_to_the_end(links_of(m)[0].played)
        assert race.status == "finished" and race.outcome["reason"] == "race"
        m.refresh_from_db()
        winner = race.outcome["winner"]
        assert m.state == Match.State.SETTLED and m.source == ResultLog.Source.ONLINE
        assert (m.french_games, m.allied_games) == ((1, 0) if winner == "french" else (0, 1))
        log = ResultLog.objects.get(match=m, source="online")
        who = race.player(winner).username
        assert log.reason == f"game 1: race {race.pk} won by {who} (race)"
    # the signal once more changes nothing (idempotent)
    from tournaments.services.online_results import on_match_finished
    on_match_finished(kind="race", match=race)
    assert ResultLog.objects.filter(source="online").count() == 2

    advance(t.pk)  # the round is complete: the single round ends the event
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    rows = selectors.standings_page(selectors.standings(t))["rows"]
    winners = {m.french.user.username if m.french_games else m.allied.user.username
               for m in Match.objects.filter(round__tournament=t).select_related(
                   "french__user", "allied__user")}
    assert len(rows) == 4
    assert {row["name"] for row in rows[:2]} == winners
    assert [row["match_points"] for row in rows] == [3, 3, 0, 0]


def test_two_game_race_matches_swap_the_sides(org):
    t, _ = race_tournament(org, 2, format="swiss_two_game")
    services.start_tournament(t.pk)
    m = Match.objects.select_related("french__user", "allied__user").get(round__tournament=t)
    game1, game2 = (link.played for link in links_of(m))
    assert (game1.french_player, game1.allied_player) == (m.french.user, m.allied.user)
    assert (game2.french_player, game2.allied_player) == (m.allied.user, m.french.user)
    play_to_the_end(game1)
    m.refresh_from_db()
    assert m.state != Match.State.SETTLED  # one race of two over: not yet
    play_to_the_end(game2)
    m.refresh_from_db()
    game1.refresh_from_db()
    game2.refresh_from_db()
    listed = {"french": "french", "allied": "allied"}
    swapped = {"french": "allied", "allied": "french"}
    assert m.games == [listed[game1.outcome["winner"]], swapped[game2.outcome["winner"]]]
    assert m.source == ResultLog.Source.ONLINE


def test_game_options_go_to_the_race_seating_which_refuses_unknown_ones(org):
    t, _ = race_tournament(org, 2, game_options={"colour": "red"})
    with pytest.raises(services.TournamentError) as err:
        services.start_tournament(t.pk)
    assert err.value.status == 400
    assert err.value.message == (
        "the race tournament's games cannot be seated: unknown race option 'colour'; "
        "known: public, rated, time_control (game_options: {'colour': 'red'})")
    t.refresh_from_db()
    assert t.status == Status.REGISTRATION and not Race.objects.exists()  # nothing started
    services.update_tournament(t.pk, org, game_options={})
    services.start_tournament(t.pk)
    assert Race.objects.filter(status="active").count() == 1


# --- pausing, no-shows, pages -------------------------------------------------------------------

def test_pausing_a_race_tournament_pauses_its_races(org, django_capture_on_commit_callbacks):
    t, _ = race_tournament(org, 2, time_control=LIVE)
    services.start_tournament(t.pk)
    [link] = MatchGame.objects.filter(match__round__tournament=t)
    race = link.played
    services.pause(t.pk, org)
    race.refresh_from_db()
    assert race.paused_at is not None and race.deadline is None
    with pytest.raises(Conflict) as err:
        turns.act(RACE, race.pk, race.player(race.to_move), race.seq,
                  {"type": "roll", "side": race.to_move})
    assert err.value.code == "paused" and "paused this race" in err.value.message
    services.resume(t.pk, org)
    race.refresh_from_db()
    assert race.paused_at is None and race.deadline is not None
    turns.act(RACE, race.pk, race.player(race.to_move), race.seq,
              {"type": "taunt", "side": race.to_move})


def test_a_no_show_at_the_deadline_ends_the_race_by_absence(org):
    t, _ = race_tournament(org, 2, time_control=LIVE)
    services.start_tournament(t.pk)
    m = Match.objects.select_related("round", "french__user", "allied__user").get(
        round__tournament=t)
    [link] = links_of(m)
    race = link.played
    absent = race.to_move  # never acts
    advance(t.pk, now=m.round.ends_at + timedelta(seconds=1))
    m.refresh_from_db()
    race.refresh_from_db()
    assert m.source == ResultLog.Source.NO_SHOW
    assert ResultLog.objects.get(match=m, source="no_show").reason == (
        "never acted in the online race by the round's deadline")
    present = "allied" if absent == "french" else "french"
    assert race.status == "finished"
    assert race.outcome == {"winner": present, "reason": "absent", "loser": absent}


def test_the_pages_and_api_show_each_race(org):
    t, users = race_tournament(org, 2)
    services.start_tournament(t.pk)
    m = Match.objects.select_related("french__user").get(round__tournament=t)
    [link] = links_of(m)
    client = Client()
    client.force_login(m.french.user)
    data = client.get(f"/api/tournaments/{t.pk}/my-match/").json()
    assert data["games"] == [{"game": 1, "kind": "race", "id": link.played_id, "url": None,
                              "status": "active", "my_side": "french"}]
    assert data["battles"] == []  # the battle rows only
    page = client.get(reverse("tournament-my-match", args=[t.pk]))
    assert page.status_code == 200
    assert f"Game 1: race #{link.played_id}".encode() in page.content  # no page: no link
    detail = client.get(reverse("tournament", args=[t.pk]))
    assert detail.status_code == 200 and b"registers no deck" in detail.content
