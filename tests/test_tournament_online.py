"""Tournament games played on the site (issue 12): pairing an online round creates each
match's battle(s) with the players seated, their decks and the time control; a finished battle
settles its match through ``record_result`` (source ``online``) once; two-game matches, flag
falls, no-shows at the deadline, the organiser's correction; the match page (Play this match,
deadline countdown, named result choices); over-the-table tournaments unchanged; the
standings chart keeps players on 0 points on the axis."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.test import Client
from django.urls import reverse

from battles import setup
from battles.engine import from_json, legal_actions
from battles.errors import BattleError
from battles.models import Battle
from battles.models import Status as BattleStatus
from battles.seated import create_seated_battle
from battles.services import act, finish_battle
from frontend.tournaments.online import countdown_text
from frontend.tournaments.standings_chart import LEFT, PLOT_H, TOP_PAD, standings_chart
from play.signals import match_finished
from tournaments import services
from tournaments.models import Match, MatchGame, ResultLog, Round, Tournament
from tournaments.services.clock import advance
from tournaments.services.online import clean_time_control

from .tournament_helpers import field, organiser, player

LIVE = {"kind": "live", "base": 600, "increment": 5}


@pytest.fixture
def org(catalogue):
    return organiser()


def online_field(org, n=2, **fields):
    t, users = field(org, n, online=True, time_control=LIVE, **fields)
    services.start_tournament(t.pk)
    t.refresh_from_db()
    return t, users


def the_match(t, number=1) -> Match:
    return (Match.objects.select_related("french__user", "allied__user", "round")
            .get(round__tournament=t, round__number=number, allied__isnull=False))


def battles_of(m) -> list[Battle]:
    return [link.battle for link in MatchGame.objects.filter(match=m).order_by("game")]


def end(battle: Battle, winner: str | None, reason: str = "morale") -> None:
    with transaction.atomic():
        b = Battle.objects.select_for_update().get(pk=battle.pk)
        finish_battle(b, {"winner": winner, "reason": reason, "turn": 1})


def online_log(m) -> list[ResultLog]:
    return list(ResultLog.objects.filter(match=m).exclude(source=ResultLog.Source.BYE))


# --- settings ---------------------------------------------------------------------------------

def test_time_control_is_checked(org):
    assert clean_time_control({}) == {}
    assert clean_time_control({"kind": "correspondence", "days": 3}) == {
        "kind": "correspondence", "days": 3}
    assert clean_time_control({"kind": "live", "base": 300}) == {
        "kind": "live", "base": 300, "increment": 0}
    for bad, words in [({"kind": "blitz"}, "kind"), ({"kind": "live", "base": "5"}, "base"),
                       ({"kind": "correspondence", "days": 0}, "days"),
                       ({"kind": "live", "base": 600, "days": 2}, "does not take"),
                       ([1], "object")]:
        with pytest.raises(services.TournamentError, match=words):
            services.create_tournament(org, name="x", battle="quatre-bras", online=True,
                                       time_control=bad)
    with pytest.raises(services.TournamentError, match="online must be true or false"):
        services.create_tournament(org, name="x", battle="quatre-bras", online="yes")


def test_api_and_form_take_online_and_time_control(org):
    api = Client()
    api.force_login(org)
    r = api.post("/api/tournaments/", {"name": "Net Cup", "battle": "ligny", "online": True,
                                       "time_control": {"kind": "correspondence", "days": 2}},
                 content_type="application/json")
    assert r.status_code == 201, r.content
    assert r.json()["online"] is True
    assert r.json()["time_control"] == {"kind": "correspondence", "days": 2}
    r = api.post(reverse("tournament-create"), {
        "name": "Form Cup", "battle": "quatre-bras", "deck_kind": "custom", "scale": "1",
        "format": "swiss", "round_minutes": 60, "pairing_mode": "on_completion",
        "online": "on", "time_kind": "live", "time_base_minutes": 15,
        "time_increment_seconds": 10})
    assert r.status_code == 302, r.content.decode()[-2000:]
    made = Tournament.objects.get(name="Form Cup")
    assert made.online and made.time_control == {"kind": "live", "base": 900, "increment": 10}


# --- pairing creates the battles --------------------------------------------------------------

def test_pairing_an_online_round_seats_both_players_with_their_decks(org):
    t, _ = online_field(org)
    m = the_match(t)
    [b] = battles_of(m)
    assert (b.french_player, b.allied_player) == (m.french.user, m.allied.user)
    assert b.status == BattleStatus.ACTIVE and not b.bot and b.state is not None
    assert b.battle == t.battle and b.scale == t.scale
    assert b.time_control == LIVE and b.clocks == {"french": 600, "allied": 600}
    # The clock of the side with priority runs from the pairing: a flag fall can end it.
    assert b.clock_started_at is not None
    assert (b.deadline - b.clock_started_at).total_seconds() == 600
    assert b.rated is False and b.public is True
    assert b.french_deck_id == m.french.french_version_id
    assert b.british_deck_id == m.allied.british_version_id
    french_cards = sorted(n for n, count, _ in m.french.french_version.entries
                          for _ in range(count))
    assert sorted(b.decks["french"]) == french_cards
    assert b.deck_choices["british"]["version"] == m.allied.british_version_id
    assert m.state == Match.State.PENDING


def test_my_match_api_lists_the_battles(org):
    t, _ = online_field(org, 2, format="swiss_two_game")
    m = the_match(t)
    game1, game2 = battles_of(m)
    c = Client()
    c.force_login(m.allied.user)
    data = c.get(f"/api/tournaments/{t.pk}/my-match/").json()
    assert data["battles"] == [
        {"game": 1, "battle": game1.pk, "status": "active", "my_side": "allied"},
        {"game": 2, "battle": game2.pk, "status": "active", "my_side": "french"}]


def test_a_dealt_online_tournament_deals_from_its_pool(org):
    t, _ = field(org, 0, online=True, deck_kind="dealt", deal_pool="set",
                 deal_historical=True)
    for name in ("d1", "d2"):
        user, _ = player(name)
        services.register(t.pk, user)
    services.start_tournament(t.pk)
    [b] = battles_of(the_match(t))
    assert {c["kind"] for c in b.deck_choices.values()} == {"dealt"}
    assert all(c["historical"] and c["pool"] == "set" for c in b.deck_choices.values())
    assert b.french_deck_id is None and b.time_control == {}


def test_seated_battle_refuses_one_player_twice(org, catalogue):
    with pytest.raises(BattleError, match="two different players"):
        create_seated_battle(org, org, "quatre-bras")


# --- results ---------------------------------------------------------------------------------

def test_a_finished_battle_settles_its_match_once(org):
    t, _ = online_field(org, 2)
    m = the_match(t)
    [b] = battles_of(m)
    end(b, "french")
    m.refresh_from_db()
    assert m.state == Match.State.SETTLED and m.source == ResultLog.Source.ONLINE
    assert (m.french_games, m.allied_games, m.draws) == (1, 0, 0)
    [entry] = online_log(m)
    assert entry.source == ResultLog.Source.ONLINE and f"battle {b.pk}" in entry.reason
    b.refresh_from_db()
    match_finished.send(sender=Battle, kind="battle", match=b)  # the signal again: nothing more
    assert len(online_log(m)) == 1
    t.refresh_from_db()
    assert Round.objects.get(tournament=t, number=1).state == Round.State.FINISHED


def test_a_flag_fall_is_a_loss(org):
    t, _ = online_field(org, 2)
    m = the_match(t)
    end(battles_of(m)[0], "allied", reason="time")
    m.refresh_from_db()
    assert (m.french_games, m.allied_games) == (0, 1) and m.source == "online"
    assert "(time)" in online_log(m)[0].reason


def test_a_two_game_match_reports_after_the_second_battle(org):
    t, _ = online_field(org, 2, format="swiss_two_game")
    m = the_match(t)
    game1, game2 = battles_of(m)
    assert (game1.french_player, game1.allied_player) == (m.french.user, m.allied.user)
    assert (game2.french_player, game2.allied_player) == (m.allied.user, m.french.user)
    assert game2.french_deck_id == m.allied.french_version_id
    end(game1, "french")  # the listed French player wins game 1
    m.refresh_from_db()
    assert m.state == Match.State.PENDING and not online_log(m)
    end(game2, "french")  # the listed Allied player, French in game 2, wins it
    m.refresh_from_db()
    assert m.games == ["french", "allied"] and (m.french_games, m.allied_games) == (1, 1)
    assert m.source == "online" and len(online_log(m)) == 1


def test_a_drawn_battle_in_an_elimination_round_goes_to_the_organiser(org):
    t, _ = online_field(org, 2, format="single_elimination")
    m = the_match(t)
    b = battles_of(m)[0]
    end(b, None, reason="turn_cap")
    m.refresh_from_db()
    b.refresh_from_db()
    assert m.state == Match.State.DISPUTED and b.status == BattleStatus.FINISHED
    services.settle_dispute(m.pk, org, {"result": "allied"}, "replayed")
    m.refresh_from_db()
    assert m.state == Match.State.SETTLED and m.allied_games == 1


def test_the_organiser_corrects_an_online_result(org):
    t, _ = online_field(org, 4)
    m = Match.objects.filter(round__tournament=t, allied__isnull=False).first()
    end(battles_of(m)[0], "french")
    services.correct_result(m.pk, org, {"result": "allied"}, "the French player cheated")
    m.refresh_from_db()
    assert m.source == ResultLog.Source.CORRECTION and (m.french_games, m.allied_games) == (0, 1)
    assert [e.source for e in online_log(m)] == ["online", "correction"]


def test_players_cannot_hand_report_an_online_match(org):
    t, _ = online_field(org, 2)
    m = the_match(t)
    with pytest.raises(services.Conflict, match="played on the site"):
        services.report_result(m.pk, m.french.user, {"result": "french"})


# --- no-shows at the deadline ------------------------------------------------------------------

def first_action(b: Battle) -> None:
    b.refresh_from_db()
    side = b.to_move
    state = from_json(b.state, setup.engine_cards(b))
    act(b.pk, b.player(side), b.seq, legal_actions(state, side)[0])


def test_a_player_who_never_moved_is_a_no_show_at_the_deadline(org):
    t, _ = online_field(org, 2)
    m = the_match(t)
    [b] = battles_of(m)
    waited = b.to_move  # nobody moved: the side to move was waited for, the other was not
    done = advance(t.pk, now=m.round.ends_at + timedelta(seconds=1))
    assert any("at time" in d for d in done)
    m.refresh_from_db()
    b.refresh_from_db()
    assert m.state == Match.State.SETTLED and m.source == ResultLog.Source.NO_SHOW
    loser_games = m.french_games if waited == "french" else m.allied_games
    assert loser_games == 0 and m.french_games + m.allied_games == 1 and not m.double_loss
    other = "allied" if waited == "french" else "french"
    assert b.status == BattleStatus.FINISHED
    assert b.outcome["reason"] == "absent" and b.outcome["winner"] == other
    assert len(online_log(m)) == 1  # the battle's end changed nothing more


def test_both_absent_in_a_two_game_match_is_a_double_loss(org):
    t, _ = online_field(org, 2, format="swiss_two_game")
    m = the_match(t)
    game1, game2 = battles_of(m)
    if game1.player(game1.to_move) == game2.player(game2.to_move):
        pytest.skip("the same player moves first in both games")  # pragma: no cover
    advance(t.pk, now=m.round.ends_at + timedelta(seconds=1))
    m.refresh_from_db()
    assert m.double_loss and m.source == ResultLog.Source.NO_SHOW
    for b in (game1, game2):
        b.refresh_from_db()
        assert b.outcome == {"winner": None, "reason": "absent", "turn": b.turn}


def test_players_who_both_moved_get_the_time_limit_rule(org):
    t, _ = online_field(org, 2)
    m = the_match(t)
    [b] = battles_of(m)
    first = b.to_move
    for _ in range(60):  # until the other side has moved too
        first_action(b)
        b.refresh_from_db()
        if b.to_move and b.to_move != first:
            first_action(b)
            break
    assert {s for s in b.actions.values_list("side", flat=True)} == {"french", "allied"}
    advance(t.pk, now=m.round.ends_at + timedelta(seconds=1))
    m.refresh_from_db()
    b.refresh_from_db()
    assert m.source == ResultLog.Source.TIME_LIMIT and m.draws == 1
    assert b.status == BattleStatus.ACTIVE  # the battle stays as it is


def test_a_two_game_match_half_played_at_the_deadline_keeps_the_finished_game(org):
    t, _ = online_field(org, 2, format="swiss_two_game")
    m = the_match(t)
    game1, game2 = battles_of(m)
    end(game1, "allied")  # the listed Allied player won game 1
    first_action(game2)  # game 2: one side moved, then nobody
    game2.refresh_from_db()
    mover = game2.actions.values_list("side", flat=True).first()
    if game2.to_move != mover:
        pytest.skip("the first action passed the move")  # pragma: no cover
    # the player to move in game 2 acted in game 2: nobody is a no-show
    advance(t.pk, now=m.round.ends_at + timedelta(seconds=1))
    m.refresh_from_db()
    assert m.source == ResultLog.Source.TIME_LIMIT and m.games == ["allied", "draw"]
    assert "game 2 drawn" in online_log(m)[-1].reason


# --- over the table: unchanged --------------------------------------------------------------

def test_over_the_table_tournaments_create_no_battles(org):
    t, _ = field(org, 2)
    services.start_tournament(t.pk)
    m = the_match(t)
    assert not MatchGame.objects.exists() and not Battle.objects.exists()
    for entry in (m.french, m.allied):
        services.report_result(m.pk, entry.user, {"result": "allied"})
    m.refresh_from_db()
    assert m.source == ResultLog.Source.AGREEMENT


# --- pages -----------------------------------------------------------------------------------

def test_countdown_text():
    from django.utils import timezone

    now = timezone.now()
    assert countdown_text(now + timedelta(hours=2, minutes=14, seconds=5), now) == \
        "in 2 h 14 min"
    assert countdown_text(now + timedelta(days=3, hours=4), now) == "in 3 d 4 h"
    assert countdown_text(now + timedelta(minutes=5, seconds=30), now) == "in 5 min"
    assert countdown_text(now + timedelta(seconds=20), now) == "in less than a minute"
    assert countdown_text(now - timedelta(seconds=1), now) == "passed"
    assert countdown_text(None, now) == ""


def test_the_match_page_offers_play_this_match_and_a_countdown(org):
    t, _ = online_field(org, 2)
    m = the_match(t)
    [b] = battles_of(m)
    c = Client()
    c.force_login(m.french.user)
    html = c.get(reverse("tournament-my-match", args=[t.pk])).content.decode()
    assert "Play this match" in html and f'href="{reverse("battle", args=[b.pk])}"' in html
    assert "you play French" in html
    countdown = re.search(r'data-testid="countdown"[^>]*>([^<]*)<', html).group(1)
    assert re.fullmatch(r"in 4\d min|in 50 min", countdown), countdown  # a 50-minute round
    assert 'data-testid="deadline"' in html and "UTC</time>" in html
    assert "Time: " not in html and 'data-testid="report-form"' not in html
    assert "the result is recorded when the battle ends" in html
    organiser_page = Client()
    organiser_page.force_login(org)
    page = organiser_page.get(reverse("tournament-match", args=[t.pk, m.pk])).content.decode()
    assert f"battle #{b.pk}" in page


def test_the_overview_says_how_the_games_are_played(org):
    t, _ = online_field(org, 2)
    html = Client().get(reverse("tournament", args=[t.pk])).content.decode()
    assert "On the site" in html and "live, 10 minutes per player + 5 s per turn" in html
    table = services.create_tournament(org, name="Table", battle="quatre-bras")
    html = Client().get(reverse("tournament", args=[table.pk])).content.decode()
    assert "Over the table: the players report their results" in html


def test_over_the_table_result_choices_name_the_players(org):
    t, _ = field(org, 2)
    services.start_tournament(t.pk)
    m = the_match(t)
    c = Client()
    c.force_login(m.french.user)
    html = c.get(reverse("tournament-my-match", args=[t.pk])).content.decode()
    assert f"{m.french.user.username} (French) won" in html
    assert f"{m.allied.user.username} (Allied) won" in html
    assert 'data-testid="report-form"' in html and "Play this match" not in html
    assert 'data-testid="countdown"' in html


# --- standings chart -------------------------------------------------------------------------

def test_players_on_zero_points_lie_on_the_axis():
    rows = [{"player": str(k), "name": f"p{k}", "rank": k, "match_points": 3 if k < 3 else 0}
            for k in range(1, 7)]
    svg = standings_chart([(1, rows)])
    axis = TOP_PAD + PLOT_H
    assert f'y1="{axis}" y2="{axis}"' in svg  # the axis line
    points = re.findall(r'<g class="chart-line" data-player="(\d)"[^>]*>'
                        r'<polyline points="([^"]*)"', svg)
    assert len(points) == 6
    for pid, coords in points:
        last_y = float(coords.split()[-1].split(",")[1])
        if int(pid) == 6:  # the last rank on zero points: on the axis
            assert last_y == axis, (pid, coords)
        else:  # the others on zero drawn apart above it (issue 28), the leaders higher
            assert last_y < axis, (pid, coords)
    for cy in re.findall(r'class="chart-point" cx="[^"]*" cy="([^"]*)"', svg):
        assert float(cy) <= axis
    assert LEFT > 0


# --- at once (PostgreSQL) --------------------------------------------------------------------

def _at_once(*calls) -> list:
    """Run ``calls`` in threads released together; their results or exceptions."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i):
        try:
            barrier.wait(timeout=30)
            results[i] = calls[i]()
        except Exception as exc:  # noqa: BLE001 - inspected by the test
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "deadlocked"
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_deadline_and_a_battle_ending_at_once_give_one_result(catalogue):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises all writers")
    t, _ = online_field(organiser(), 2)
    m = the_match(t)
    [b] = battles_of(m)
    results = _at_once(lambda: advance(t.pk, now=m.round.ends_at + timedelta(seconds=1)),
                       lambda: end(b, "french", reason="resigned"))
    assert not [r for r in results if isinstance(r, Exception)], results
    m.refresh_from_db()
    b.refresh_from_db()
    assert m.state == Match.State.SETTLED and b.status == BattleStatus.FINISHED
    [entry] = online_log(m)  # exactly one result, whichever came first
    assert entry.source in (ResultLog.Source.NO_SHOW, ResultLog.Source.ONLINE)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_both_games_ending_at_once_report_the_match_once(catalogue):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises all writers")
    t, _ = online_field(organiser(), 2, format="swiss_two_game")
    m = the_match(t)
    game1, game2 = battles_of(m)
    results = _at_once(lambda: end(game1, "allied"), lambda: end(game2, "allied"))
    assert results == [None, None]
    m.refresh_from_db()
    assert m.games == ["allied", "french"] and m.source == ResultLog.Source.ONLINE
    assert len(online_log(m)) == 1
