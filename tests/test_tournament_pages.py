# Over 500 lines on purpose: one idea, the tournament pages through the test client, page by page.
"""Tournament pages (Django test client): every page renders; registration with deck choice;
my match and its report; organiser controls are the organiser's only (403, nothing changes);
a match that is not yours cannot be reported; exports download with their content types."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Entry, Match, Report, ResultLog, Round, Status, Tournament

from .tournament_helpers import field, organiser, player, register, report_both, tournament

pytestmark = pytest.mark.django_db


def client_for(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def org(catalogue):
    return organiser()


@pytest.fixture
def running(org):
    """A started 4-player Quatre Bras Swiss: (tournament, organiser, [players])."""
    t, users = field(org, 4)
    services.start_tournament(t.pk, org)
    t.refresh_from_db()
    return t, org, users


def matches_of(t, number=1):
    """The round's played matches; never empty (a loop over nothing would check nothing)."""
    matches = list(Match.objects.filter(round__tournament=t, round__number=number,
                                        allied__isnull=False).select_related("french__user",
                                                                             "allied__user"))
    assert matches, f"round {number} has no matches"
    return matches


def url(name, t, *args):
    return reverse(name, args=[t.pk, *args])


# --- every page renders ----------------------------------------------------------------------

def test_the_nav_shows_tournaments_to_everyone(catalogue):
    page = client_for().get("/")
    assert b'href="/tournaments/"' in page.content


def test_list_groups_upcoming_running_finished(running, org):
    t, _, _ = running
    upcoming = tournament(org, name="Ligny Cup", battle="ligny")
    page = client_for().get(reverse("tournaments"))
    assert page.status_code == 200
    html = page.content.decode()
    running_at = html.index('data-testid="group-running"')
    finished_at = html.index('data-testid="group-finished"')
    assert html.index("Ligny Cup") < running_at < html.index(t.name) < finished_at
    assert upcoming.name in html


@pytest.mark.parametrize("name", ["tournament", "tournament-pairings", "tournament-standings",
                                  "tournament-how"])
def test_public_pages_render_for_anyone(running, name):
    t, _, users = running
    for c in (client_for(), client_for(users[0])):
        page = c.get(url(name, t))
        assert page.status_code == 200, name
        assert t.name.encode() in page.content


def test_detail_shows_status_schedule_players_and_round(running):
    t, _, _ = running
    html = client_for().get(url("tournament", t)).content.decode()
    assert "Running" in html and 'data-testid="players-count">4' in html
    assert "Round 1" in html and "50 minutes" in html


def test_pairings_table_per_round(running):
    t, _, _ = running
    page = client_for().get(url("tournament-round", t, 1))
    html = page.content.decode()
    for m in matches_of(t):
        assert m.french.user.username in html and m.allied.user.username in html
    assert client_for().get(url("tournament-round", t, 7)).status_code == 404


def test_standings_and_how_computed_after_a_round(running):
    t, org, _ = running
    for m in matches_of(t):
        report_both(m, {"result": "french"})
    winners = {m.french.user.username for m in matches_of(t)}
    html = client_for().get(url("tournament-standings", t)).content.decode()
    assert "Standings after round 1" in html
    first = html.split('data-testid="rank-1"')[1].split("</tr>")[0]
    assert any(w in first for w in winners)
    how = client_for().get(url("tournament-how", t) + "?round=1").content.decode()
    assert "mean over opponents (byes excluded)" in how
    assert "max(1/3, match points / (3 x rounds played))" in how
    assert client_for().get(url("tournament-standings", t) + "?round=9").status_code == 404


def test_create_page_and_organiser_pages_render(running, org):
    t, _, _ = running
    c = client_for(org)
    assert c.get(reverse("tournament-create")).status_code == 200
    assert c.get(url("tournament-manage", t)).status_code == 200
    m = matches_of(t)[0]
    assert c.get(url("tournament-match", t, m.pk)).status_code == 200


# --- create --------------------------------------------------------------------------------

FORM = {"name": "Quatre Bras Open", "battle": "quatre-bras", "deck_kind": "custom",
        "scale": "1/2", "format": "swiss", "rounds": "", "top_cut": "", "round_minutes": "45",
        "break_minutes": "5", "pairing_mode": "scheduled", "tiebreaker_1": "ogw",
        "tiebreaker_2": "french", "tiebreaker_3": "", "tiebreaker_4": "", "tiebreaker_5": "",
        "registration_closes_at": "", "check_in_opens_at": "", "starts_at": "",
        "max_players": "", "webhook_url": "https://example.com/hook", "description": ""}


def test_create_through_the_form(org):
    page = client_for(org).post(reverse("tournament-create"), FORM)
    t = Tournament.objects.get()
    assert page.status_code == 302 and page["Location"] == url("tournament", t)
    assert (t.organiser, t.scale, t.round_seconds, t.break_seconds) == (org, "1/2", 2700, 300)
    assert t.tiebreakers == ["ogw", "french"] and t.rounds is None
    assert t.pairing_mode == "scheduled" and t.webhook_secret


def test_2_0_create_a_dealt_tournament_and_register_without_a_deck(org):
    form = client_for(org).get(reverse("tournament-create")).content.decode()
    assert 'name="deal_pool"' in form and 'name="deal_historical"' in form
    assert '<option value="dealt" selected>' in form  # the default format
    page = client_for(org).post(reverse("tournament-create"), {
        **FORM, "deck_kind": "dealt", "deal_pool": "collection", "deal_historical": "on"})
    assert page.status_code == 302
    t = Tournament.objects.get()
    assert (t.deck_kind, t.deal_pool, t.deal_historical) == ("dealt", "collection", True)
    detail = client_for(org).get(url("tournament", t)).content.decode()
    assert "no deck is registered" in detail and "each player&#x27;s collection" in detail
    user, _ = player("ney")
    c = client_for(user)
    text = c.get(url("tournament-register", t)).content.decode()
    fmt = re.search(r'data-testid="deck-format">(.*?)</p>', text, re.S).group(1)
    assert "<strong>dealt</strong>" in fmt and "No deck is chosen" in fmt
    assert "historical cards only" in fmt and "scale 1/2" in fmt
    assert 'name="french_version"' not in text
    assert c.post(url("tournament-register", t), {"club": ""}).status_code == 302
    assert Entry.objects.get(tournament=t, user=user).versions() == []


def test_15_0_custom_tournament_register_page_says_so(org):
    t = tournament(org, deck_kind="custom", scale="1/2")
    user, _ = player("ney")
    text = client_for(user).get(url("tournament-register", t)).content.decode()
    fmt = re.search(r'data-testid="deck-format">(.*?)</p>', text, re.S).group(1)
    assert "Custom Battle Points (15.0)" in fmt and "BP × scale" in fmt
    assert "built for scale 1/2" in fmt and 'name="french_version"' in text


def test_create_refused_by_the_service_shows_why_and_creates_nothing(org):
    bad = {**FORM, "format": "swiss_top_cut"}
    page = client_for(org).post(reverse("tournament-create"), bad)
    assert page.status_code == 400
    assert b"needs top_cut" in page.content
    repeat = {**FORM, "tiebreaker_2": "ogw"}
    assert client_for(org).post(reverse("tournament-create"), repeat).status_code == 400
    assert not Tournament.objects.exists()


def test_anonymous_cannot_create(catalogue):
    page = client_for().post(reverse("tournament-create"), FORM)
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]
    assert not Tournament.objects.exists()


# --- registration, check-in ----------------------------------------------------------------

def test_register_with_deck_choice(org):
    t = tournament(org)
    user, versions = player("ney")
    c = client_for(user)
    form = c.get(url("tournament-register", t)).content.decode()
    assert f'value="{versions["french"].pk}"' in form
    assert f'value="{versions["british"].pk}"' in form
    assert 'name="prussian_version"' not in form  # no Prussians at Quatre Bras
    page = c.post(url("tournament-register", t), {
        "french_version": versions["french"].pk, "british_version": versions["british"].pk,
        "club": "Grande Armée"})
    assert page.status_code == 302
    entry = Entry.objects.get(tournament=t, user=user)
    assert entry.french_version == versions["french"] and entry.club == "Grande Armée"
    assert b"You are registered" in c.get(url("tournament", t)).content


def test_register_refusal_shows_the_deck_problems_and_changes_nothing(org):
    t = tournament(org)
    user, _ = player("ney")
    _, theirs = player("soult")
    page = client_for(user).post(url("tournament-register", t), {
        "french_version": theirs["french"].pk, "british_version": theirs["british"].pk})
    assert page.status_code == 400
    assert b'data-testid="deck-problems"' in page.content
    assert b"no such deck version" in page.content
    assert theirs["french"].deck.name.encode() not in page.content  # no enumeration
    unbacked, mine = player("grouchy", own=False)
    page = client_for(unbacked).post(url("tournament-register", t), {
        "french_version": mine["french"].pk, "british_version": mine["british"].pk})
    assert page.status_code == 400 and b"collection" in page.content
    assert not Entry.objects.exists()


def test_check_in_button(org):
    from datetime import timedelta

    from django.utils import timezone

    start = timezone.now() + timedelta(hours=2)
    t = tournament(org, check_in_opens_at=timezone.now() + timedelta(hours=1), starts_at=start)
    user, versions = player("ney")
    register(t, user, versions)
    c = client_for(user)
    c.post(url("tournament-check-in", t))
    assert Entry.objects.get(user=user).checked_in_at is None  # not open yet: refused
    Tournament.objects.filter(pk=t.pk).update(status=Status.CHECK_IN)
    assert b'data-testid="check-in"' in c.get(url("tournament", t)).content
    assert c.post(url("tournament-check-in", t)).status_code == 302
    assert Entry.objects.get(user=user).checked_in_at is not None


def test_withdraw_before_the_start(org):
    t = tournament(org)
    user, versions = player("ney")
    register(t, user, versions)
    client_for(user).post(url("tournament-withdraw", t))
    assert not Entry.objects.exists()


# --- my match and reports ------------------------------------------------------------------

def test_both_players_report_on_my_match_and_it_settles(running):
    t, _, _ = running
    m = matches_of(t)[0]
    french, allied = client_for(m.french.user), client_for(m.allied.user)
    page = french.get(url("tournament-my-match", t))
    assert b'data-testid="report-form"' in page.content
    assert b'data-testid="my-side">French' in page.content
    assert french.post(url("tournament-my-match", t),
                       {"match": m.pk, "result": "allied"}).status_code == 302
    page = french.get(url("tournament-my-match", t)).content.decode()
    assert "You reported; waiting for" in page and 'data-testid="report-form"' not in page
    allied.post(url("tournament-my-match", t), {"match": m.pk, "result": "allied"})
    m.refresh_from_db()
    assert m.state == Match.State.SETTLED and m.allied_games == 1
    assert b"Allied won" in allied.get(url("tournament-my-match", t)).content


def test_disagreeing_reports_show_the_dispute(running):
    t, _, _ = running
    m = matches_of(t)[0]
    client_for(m.french.user).post(url("tournament-my-match", t),
                                   {"match": m.pk, "result": "french"})
    client_for(m.allied.user).post(url("tournament-my-match", t),
                                   {"match": m.pk, "result": "allied"})
    page = client_for(m.french.user).get(url("tournament-my-match", t)).content.decode()
    assert 'data-state="disputed"' in page and "Disputed" in page


def test_second_report_is_refused(running):
    t, _, _ = running
    m = matches_of(t)[0]
    c = client_for(m.french.user)
    c.post(url("tournament-my-match", t), {"match": m.pk, "result": "french"})
    page = c.post(url("tournament-my-match", t), {"match": m.pk, "result": "allied"})
    assert page.status_code == 409 and b"already reported" in page.content
    assert Report.objects.filter(match=m).count() == 1


def test_reporting_a_match_not_yours_is_refused_and_changes_nothing(running, org):
    t, _, _ = running
    first, second = matches_of(t)[:2]
    intruder = client_for(second.french.user)
    page = intruder.post(url("tournament-my-match", t), {"match": first.pk, "result": "allied"})
    assert page.status_code == 403
    outsider, _ = player("wellington")
    assert client_for(outsider).post(url("tournament-my-match", t),
                                     {"match": first.pk, "result": "draw"}).status_code == 403
    first.refresh_from_db()
    assert first.state == Match.State.PENDING and not Report.objects.exists()


# --- organiser controls --------------------------------------------------------------------

def test_organiser_controls_are_the_organiser_only(running):
    t, _, users = running
    player_client = client_for(users[0])
    assert player_client.get(url("tournament-manage", t)).status_code == 403
    assert b'data-testid="manage-link"' not in player_client.get(url("tournament", t)).content
    for action in ("pause", "pair-next", "cancel", "start", "drop"):
        page = player_client.post(reverse("tournament-action", args=[t.pk, action]),
                                  {"entry": t.entries.last().pk})
        assert page.status_code == 403, action
    m = matches_of(t)[0]
    for name in ("tournament-settle", "tournament-correct"):
        page = player_client.post(url(name, t, m.pk), {"result": "french", "reason": "mine"})
        assert page.status_code == 403, name
    anonymous = client_for().get(url("tournament-manage", t))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    t.refresh_from_db()
    m.refresh_from_db()
    assert t.status == Status.RUNNING and t.current_round == 1
    assert m.state == Match.State.PENDING and not ResultLog.objects.filter(match=m).exists()
    assert not Entry.objects.filter(tournament=t, dropped_at__isnull=False).exists()


def test_organiser_starts_from_the_controls(org):
    t, _ = field(org, 4)
    c = client_for(org)
    assert b'data-testid="start"' in c.get(url("tournament-manage", t)).content
    assert c.post(reverse("tournament-action", args=[t.pk, "start"])).status_code == 302
    t.refresh_from_db()
    assert t.status == Status.RUNNING and Round.objects.filter(tournament=t).count() == 1
    page = c.post(reverse("tournament-action", args=[t.pk, "start"]))
    assert page.status_code == 409 and b"already started" in page.content
    assert Round.objects.filter(tournament=t).count() == 1


def test_pair_next_round_only_when_the_round_is_complete(running):
    t, org, _ = running
    c = client_for(org)
    page = c.post(reverse("tournament-action", args=[t.pk, "pair-next"]))
    assert page.status_code == 409 and b"round 1 is not complete" in page.content
    for m in matches_of(t):
        report_both(m, {"result": "french"})
    assert b'data-testid="pair-next"' in c.get(url("tournament-manage", t)).content
    assert c.post(reverse("tournament-action", args=[t.pk, "pair-next"])).status_code == 302
    assert Round.objects.filter(tournament=t).count() == 2


def test_pause_resume_and_drop(running):
    t, org, users = running
    c = client_for(org)
    c.post(reverse("tournament-action", args=[t.pk, "pause"]))
    t.refresh_from_db()
    assert t.status == Status.PAUSED
    c.post(reverse("tournament-action", args=[t.pk, "resume"]))
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    entry = Entry.objects.get(tournament=t, user=users[1])
    c.post(reverse("tournament-action", args=[t.pk, "drop"]), {"entry": entry.pk})
    entry.refresh_from_db()
    assert entry.dropped_after_round == 1


def test_settle_a_dispute_and_correct_with_a_reason(running):
    t, org, _ = running
    m = matches_of(t)[0]
    services.report_result(m.pk, m.french.user, {"result": "french"})
    services.report_result(m.pk, m.allied.user, {"result": "allied"})
    c = client_for(org)
    manage = c.get(url("tournament-manage", t)).content.decode()
    assert f'data-testid="dispute-{m.pk}"' in manage
    c.post(url("tournament-settle", t, m.pk), {"result": "french", "from": "manage"})
    m.refresh_from_db()
    assert m.state == Match.State.SETTLED and m.source == "organiser"
    page = c.post(url("tournament-correct", t, m.pk), {"result": "draw", "reason": ""})
    assert page.status_code == 400 and b"needs a reason" in page.content
    m.refresh_from_db()
    assert m.draws == 0
    c.post(url("tournament-correct", t, m.pk), {"result": "draw", "reason": "misread"})
    m.refresh_from_db()
    assert m.draws == 1 and m.source == "correction"
    log = c.get(url("tournament-match", t, m.pk)).content.decode()
    assert "misread" in log and org.username in log


def test_one_game_dispute_shows_each_report_by_side(running):
    t, org, _ = running
    m = matches_of(t)[0]
    services.report_result(m.pk, m.french.user, {"result": "french"})
    services.report_result(m.pk, m.allied.user, {"result": "allied"})
    manage = client_for(org).get(url("tournament-manage", t)).content.decode()
    card = manage.split(f'data-testid="dispute-{m.pk}"')[1].split("</ul>")[0]
    assert f"{m.french.user.username} reported French 1, Allied 0" in card
    assert f"{m.allied.user.username} reported French 0, Allied 1" in card
    assert "game 1" not in card


def test_two_game_dispute_shows_each_reports_games(org):
    """Both players report 1-1 but disagree on who won which game: the organiser sees each
    report's per-game outcomes (the panel, its htmx fragment and the match page), told apart."""
    t, _ = field(org, 4, format="swiss_two_game")
    services.start_tournament(t.pk, org)
    m = matches_of(t)[0]
    f, a = m.french.user.username, m.allied.user.username
    services.report_result(m.pk, m.french.user, {"games": ["french", "allied"]})
    services.report_result(m.pk, m.allied.user, {"games": ["allied", "french"]})
    m.refresh_from_db()
    assert m.state == Match.State.DISPUTED
    mine = f"{f} reported 1-1 (game 1: {f} won, game 2: {a} won)"
    theirs = f"{a} reported 1-1 (game 1: {a} won, game 2: {f} won)"
    c = client_for(org)
    for html in (c.get(url("tournament-manage", t)).content.decode(),
                 c.get(url("tournament-manage", t), headers=HX).content.decode()):
        card = html.split(f'data-testid="dispute-{m.pk}"')[1].split("</ul>")[0]
        assert mine in card and theirs in card and card.count('data-testid="report"') == 2
    page = c.get(url("tournament-match", t, m.pk)).content.decode()
    reports = page.split('data-testid="reports"')[1].split("</ul>")[0]
    assert mine in reports and theirs in reports
    # the reports are the organiser's: a player's view of the match page does not list them
    assert 'data-testid="reports"' not in client_for(m.french.user).get(
        url("tournament-match", t, m.pk)).content.decode()
    # settled from the match page: the log shows the games that were settled
    c.post(url("tournament-settle", t, m.pk), {"game1": "allied", "game2": "french",
                                                "reason": "saw it"})
    m.refresh_from_db()
    assert m.state == Match.State.SETTLED and m.games == ["allied", "french"]
    log = c.get(url("tournament-match", t, m.pk)).content.decode()
    log = log.split('data-testid="result-log"')[1].split("</table>")[0]
    assert f"1-1-0 (game 1: {a} won, game 2: {f} won)" in log


def test_publish_lists_after_the_end(running):
    t, org, _ = running
    c = client_for(org)
    page = c.post(reverse("tournament-action", args=[t.pk, "publish-lists"]), {"public": "1"})
    assert page.status_code == 409
    t.refresh_from_db()
    assert not t.lists_public


# --- deck lists: never an opponent's before the match --------------------------------------

def test_deck_lists_hidden_until_paired(org):
    t, users = field(org, 4)
    other = Entry.objects.get(tournament=t, user=users[1])
    assert client_for(users[0]).get(url("tournament-decks", t, other.pk)).status_code == 403
    assert client_for().get(url("tournament-decks", t, other.pk)).status_code == 403
    assert client_for(org).get(url("tournament-decks", t, other.pk)).status_code == 200
    mine = Entry.objects.get(tournament=t, user=users[0])
    assert client_for(users[0]).get(url("tournament-decks", t, mine.pk)).status_code == 200
    detail = client_for(users[0]).get(url("tournament", t)).content.decode()
    row = detail.split(f'data-testid="player-{other.pk}"')[1].split("</tr>")[0]
    assert "hidden" in row
    services.start_tournament(t.pk, org)
    m = Match.objects.get(round__tournament=t, french__user=users[0]) if Match.objects.filter(
        round__tournament=t, french__user=users[0]).exists() else Match.objects.get(
        round__tournament=t, allied__user=users[0])
    opponent = m.allied if m.french.user == users[0] else m.french
    page = client_for(users[0]).get(url("tournament-decks", t, opponent.pk))
    assert page.status_code == 200 and b"French" in page.content


# --- exports -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, content_type", [("standings.csv", "text/csv"),
                                                ("pairings.csv", "text/csv"),
                                                ("tournament.trf", "text/plain")])
def test_exports_download(running, name, content_type):
    t, _, _ = running
    page = client_for().get(url("tournament-export", t, name))
    assert page.status_code == 200
    assert page["Content-Type"] == f"{content_type}; charset=utf-8"
    assert page["Content-Disposition"] == f'attachment; filename="t{t.pk}-{name}"'
    assert page.content
    assert client_for().get(url("tournament-export", t, "secrets.txt")).status_code == 404


# --- the standings chart and the live standings ----------------------------------------------

HX = {"HX-Request": "true"}


def chart_lines_in(html: str) -> dict[str, str]:
    """The chart's lines: {player name: match points after each round, comma-separated}."""
    return dict(re.findall(r'<g class="chart-line" data-player="[^"]*" data-name="([^"]*)" '
                           r'data-points="([^"]*)"', html))


def test_standings_chart_draws_a_line_per_player_after_each_round(running):
    t, _, users = running
    before = client_for().get(url("tournament-standings", t)).content.decode()
    assert 'data-testid="standings-chart"' in before and "No rounds yet" in before
    assert not chart_lines_in(before)
    for m in matches_of(t):
        report_both(m, {"result": "french"})
    html = client_for().get(url("tournament-standings", t)).content.decode()
    points = chart_lines_in(html)
    assert sorted(points) == sorted(u.username for u in users)
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="standings-chart" role="img"' in html
    assert '<title id="standings-chart-title">' in html and "<desc id=" in html
    winners = {m.french.user.username for m in matches_of(t)}
    assert {name for name, p in points.items() if p == "3"} == winners
    assert {name for name, p in points.items() if p == "0"} == set(points) - winners


def test_standings_poll_while_in_progress_only(running, org):
    t, _, _ = running
    page = client_for().get(url("tournament-standings", t)).content.decode()
    assert 'hx-trigger="every 15s"' in page
    assert f'hx-get="{url("tournament-standings", t)}"' in page
    for m in matches_of(t):
        report_both(m, {"result": "french"})
    chosen = client_for().get(url("tournament-standings", t) + "?round=1").content.decode()
    assert 'hx-trigger="every 15s"' not in chosen  # a past round's standings stay put
    upcoming = tournament(org, name="Ligny Cup", battle="ligny")
    assert b"every 15s" not in client_for().get(url("tournament-standings", upcoming)).content
    Tournament.objects.filter(pk=t.pk).update(status=Status.FINISHED)
    assert b"every 15s" not in client_for().get(url("tournament-standings", t)).content


def test_standings_poll_gets_the_fragment_with_the_status_line(running):
    t, _, _ = running
    page = client_for().get(url("tournament-standings", t), headers=HX)
    html = page.content.decode()
    assert page.status_code == 200 and "HX-Request" in page["Vary"]
    assert "<html" not in html and 'data-testid="tournament-name"' not in html
    assert html.lstrip().startswith('<div id="standings-live"')
    assert 'id="t-status-line" hx-swap-oob="true"' in html and "Running" in html
    Tournament.objects.filter(pk=t.pk).update(status=Status.FINISHED)
    done = client_for().get(url("tournament-standings", t), headers=HX).content.decode()
    assert "every 15s" not in done and "Finished" in done  # the last poll stops polling


# --- htmx: fragments, inline refusals, and the same URLs without JavaScript -----------------

def test_report_with_htmx_answers_with_the_match_card(running):
    t, _, _ = running
    m = matches_of(t)[0]
    c = client_for(m.french.user)
    page = c.post(url("tournament-my-match", t), {"match": m.pk, "result": "french"},
                  headers=HX)
    html = page.content.decode()
    assert page.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<div id="my-match-card"')
    assert "Your report is in." in html and "You reported; waiting for" in html
    assert 'data-testid="report-form"' not in html
    assert Report.objects.filter(match=m).count() == 1
    # the message was shown inline: it does not come back on the next full page
    assert b"Your report is in." not in c.get(url("tournament-my-match", t)).content


def test_report_refused_with_htmx_is_a_4xx_card_with_the_message(running):
    t, _, _ = running
    m = matches_of(t)[0]
    c = client_for(m.french.user)
    c.post(url("tournament-my-match", t), {"match": m.pk, "result": "french"}, headers=HX)
    page = c.post(url("tournament-my-match", t), {"match": m.pk, "result": "allied"},
                  headers=HX)
    html = page.content.decode()
    assert page.status_code == 409 and html.lstrip().startswith('<div id="my-match-card"')
    assert 'data-testid="report-error"' in html and "already reported" in html
    bad = client_for(m.allied.user).post(url("tournament-my-match", t),
                                         {"match": m.pk, "result": "nonsense"}, headers=HX)
    assert bad.status_code == 400 and b'data-testid="report-error"' in bad.content
    assert b'data-testid="report-form"' in bad.content  # the form is still there to retry
    assert Report.objects.filter(match=m).count() == 1


def test_report_without_javascript_still_redirects(running):
    t, _, _ = running
    m = matches_of(t)[0]
    c = client_for(m.french.user)
    page = c.post(url("tournament-my-match", t), {"match": m.pk, "result": "french"})
    assert page.status_code == 302 and page["Location"] == url("tournament-my-match", t)
    assert b"Your report is in." in c.get(url("tournament-my-match", t)).content


def test_the_report_form_and_the_controls_post_with_htmx_to_their_own_urls(running):
    t, org, _ = running
    m = matches_of(t)[0]
    card = client_for(m.french.user).get(url("tournament-my-match", t)).content.decode()
    assert (f'hx-post="{url("tournament-my-match", t)}" hx-target="#my-match-card" '
            f'hx-swap="outerHTML"') in card
    manage = client_for(org).get(url("tournament-manage", t)).content.decode()
    assert 'id="manage-panel" hx-target="#manage-panel" hx-swap="outerHTML"' in manage
    for name in ("pause", "cancel", "drop"):
        action_url = reverse("tournament-action", args=[t.pk, name])
        assert f'action="{action_url}"' in manage and f'hx-post="{action_url}"' in manage
    assert 'name="htmx-config"' in manage and '"40[09]", "swap": true' in manage


def test_organiser_action_with_htmx_answers_with_the_controls_panel(running):
    t, org, users = running
    c = client_for(org)
    page = c.post(reverse("tournament-action", args=[t.pk, "pause"]), headers=HX)
    html = page.content.decode()
    assert page.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<div id="manage-panel"')
    assert "Paused: the clock is stopped." in html and 'data-testid="resume"' in html
    assert 'id="t-status-line" hx-swap-oob="true"' in html  # the header's status too
    assert "Paused" in html.split('id="t-status-line"')[1]
    t.refresh_from_db()
    assert t.status == Status.PAUSED
    entry = Entry.objects.get(tournament=t, user=users[1])
    page = c.post(reverse("tournament-action", args=[t.pk, "drop"]), {"entry": entry.pk},
                  headers=HX)
    assert page.status_code == 200 and b"The player is dropped." in page.content
    assert f'<option value="{entry.pk}">'.encode() not in page.content
    entry.refresh_from_db()
    assert entry.dropped_after_round == 1
    assert b"Paused: the clock" not in c.get(url("tournament-manage", t)).content


def test_organiser_action_refused_with_htmx_is_a_4xx_panel_with_the_message(running):
    t, org, _ = running
    c = client_for(org)
    page = c.post(reverse("tournament-action", args=[t.pk, "pair-next"]), headers=HX)
    html = page.content.decode()
    assert page.status_code == 409 and html.lstrip().startswith('<div id="manage-panel"')
    assert 'data-testid="manage-error"' in html and "round 1 is not complete" in html
    entry = t.entries.last()
    c.post(reverse("tournament-action", args=[t.pk, "drop"]), {"entry": entry.pk}, headers=HX)
    page = c.post(reverse("tournament-action", args=[t.pk, "drop"]), {"entry": entry.pk},
                  headers=HX)
    assert page.status_code == 409 and b'data-testid="manage-error"' in page.content
    assert b"already dropped" in page.content
    assert Round.objects.filter(tournament=t).count() == 1


def test_organiser_action_without_javascript_still_redirects(running):
    t, org, _ = running
    page = client_for(org).post(reverse("tournament-action", args=[t.pk, "pause"]))
    assert page.status_code == 302 and page["Location"] == url("tournament-manage", t)


def test_htmx_controls_are_still_the_organiser_only(running):
    t, _, users = running
    c = client_for(users[0])
    for name in ("pause", "drop", "pair-next"):
        page = c.post(reverse("tournament-action", args=[t.pk, name]),
                      {"entry": t.entries.last().pk}, headers=HX)
        assert page.status_code == 403 and b"manage-panel" not in page.content, name
    m = matches_of(t)[0]
    page = c.post(url("tournament-settle", t, m.pk), {"result": "french", "from": "manage"},
                  headers=HX)
    assert page.status_code == 403 and b"manage-panel" not in page.content
    t.refresh_from_db()
    assert t.status == Status.RUNNING


def test_settle_and_correct_with_htmx(running):
    t, org, _ = running
    m = matches_of(t)[0]
    services.report_result(m.pk, m.french.user, {"result": "french"})
    services.report_result(m.pk, m.allied.user, {"result": "allied"})
    c = client_for(org)
    page = c.post(url("tournament-settle", t, m.pk), {"result": "french", "from": "manage"},
                  headers=HX)
    html = page.content.decode()
    assert page.status_code == 200 and html.lstrip().startswith('<div id="manage-panel"')
    assert "Result settled." in html and f'data-testid="dispute-{m.pk}"' not in html
    refused = c.post(url("tournament-correct", t, m.pk), {"result": "draw", "reason": ""},
                     headers=HX)
    html = refused.content.decode()
    assert refused.status_code == 400 and html.lstrip().startswith('<div id="match-card"')
    assert 'data-testid="match-error"' in html and "needs a reason" in html
    page = c.post(url("tournament-correct", t, m.pk), {"result": "draw", "reason": "misread"},
                  headers=HX)
    html = page.content.decode()
    assert page.status_code == 200 and "Result corrected." in html and "misread" in html
    m.refresh_from_db()
    assert m.draws == 1 and m.source == "correction"
    plain = c.post(url("tournament-correct", t, m.pk), {"result": "french", "reason": "again"})
    assert plain.status_code == 302 and plain["Location"] == url("tournament-match", t, m.pk)


def test_htmx_posts_keep_csrf(running):
    t, org, _ = running
    c = Client(enforce_csrf_checks=True)
    c.force_login(org)
    manage = c.get(url("tournament-manage", t)).content.decode()
    token = c.cookies["csrftoken"].value
    assert "X-CSRFToken" in manage  # base.html: hx-headers on <body>
    action_url = reverse("tournament-action", args=[t.pk, "pause"])
    assert c.post(action_url, headers=HX).status_code == 403  # no token: refused
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    page = c.post(action_url, headers={**HX, "X-CSRFToken": token})
    assert page.status_code == 200 and b"Paused: the clock is stopped." in page.content


def test_the_create_form_asks_for_the_battle(org):
    """Issue 28: no silent Waterloo: the battle has no default, and none chosen is a 400
    that says so."""
    form = client_for(org).get(reverse("tournament-create")).content.decode()
    select = re.search(r'<select name="battle".*?</select>', form, re.S).group(0)
    assert re.findall(r'<option value="([^"]*)" selected', select) == [""]  # "Choose a battle…"
    page = client_for(org).post(reverse("tournament-create"), {**FORM, "battle": ""})
    assert page.status_code == 400 and "Choose the battle to be fought." in page.content.decode()
    assert not Tournament.objects.exists()
