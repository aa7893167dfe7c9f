"""Tournament API: organiser controls, player registration/check-in/report, visibility of deck
lists, standings with their computation, exports, and bad input answered 4xx with no change."""

import pytest
from rest_framework.test import APIClient

from tournaments.models import Entry, Match, Round, Tournament

from .tournament_helpers import organiser, player

pytestmark = pytest.mark.django_db


def client_for(user):
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def org(catalogue):
    return organiser()


@pytest.fixture
def org_api(org):
    return client_for(org)


def create(org_api, **extra):
    r = org_api.post("/api/tournaments/", {"name": "Quatre Bras Open", "battle": "quatre-bras",
                                           "round_seconds": 600, **extra}, format="json")
    assert r.status_code == 201, r.data
    return r.data


def join(tid, name):
    user, versions = player(name)
    api = client_for(user)
    r = api.post(f"/api/tournaments/{tid}/register/",
                 {"french_version": versions["french"].pk,
                  "british_version": versions["british"].pk}, format="json")
    assert r.status_code == 201, r.data
    return user, api, versions


@pytest.fixture
def running(org_api):
    t = create(org_api)
    players = [join(t["id"], f"p{k}") for k in range(4)]
    r = org_api.post(f"/api/tournaments/{t['id']}/start/")
    assert r.status_code == 200 and r.data["status"] == "running", r.data
    return t["id"], players


def test_create_list_detail(org_api, api):
    t = create(org_api, tiebreakers=["ogw", "omw"])
    assert t["tiebreakers"] == ["ogw", "omw"] and t["status"] == "registration"
    assert api.get("/api/tournaments/").data["results"][0]["id"] == t["id"]
    detail = api.get(f"/api/tournaments/{t['id']}/").data
    assert "webhook_secret" not in detail


def test_create_with_bad_settings_is_400(org_api):
    for bad in ({"battle": "austerlitz"}, {"format": "ladder"}, {"round_seconds": 0},
                {"tiebreakers": ["luck"]}, {"format": "swiss_top_cut", "top_cut": 3}):
        r = org_api.post("/api/tournaments/", {"name": "x", "battle": "ligny", **bad},
                         format="json")
        assert r.status_code == 400 and r.data["detail"], bad
    assert not Tournament.objects.exists()


def test_anonymous_cannot_create(api):
    assert api.post("/api/tournaments/", {"name": "x", "battle": "ligny"}).status_code in (401,
                                                                                            403)


def test_register_foreign_deck_is_400_and_nothing_changes(org_api):
    t = create(org_api)
    user, _ = player("ney")
    _, theirs = player("soult")
    r = client_for(user).post(f"/api/tournaments/{t['id']}/register/",
                              {"french_version": theirs["french"].pk,
                               "british_version": theirs["british"].pk}, format="json")
    assert r.status_code == 400 and "problems" in r.data
    assert not Entry.objects.exists()


def test_register_withdraw_and_check_in(org_api):
    t = create(org_api)
    user, api, _ = join(t["id"], "ney")
    r = api.post(f"/api/tournaments/{t['id']}/check-in/")
    assert r.status_code == 409  # check-in is not open
    assert api.post(f"/api/tournaments/{t['id']}/withdraw/").status_code == 200
    assert not Entry.objects.exists()


def test_organiser_controls_are_organiser_only(running):
    tid, players = running
    _, api, _ = players[0]
    for action in ("pause", "resume", "start", "pair-next", "cancel"):
        r = api.post(f"/api/tournaments/{tid}/{action}/")
        assert r.status_code == 403 and r.data["code"] == "not_allowed"


def test_round_started_twice_is_409(running, org_api):
    tid, _ = running
    r = org_api.post(f"/api/tournaments/{tid}/start/")
    assert r.status_code == 409 and "already started" in r.data["detail"]
    assert r.data["code"] == "conflict"
    r = org_api.post(f"/api/tournaments/{tid}/pair-next/")
    assert r.status_code == 409
    assert Round.objects.count() == 1


def test_my_match_report_and_agreement(running):
    tid, players = running
    _, api, _ = players[0]
    mine = api.get(f"/api/tournaments/{tid}/my-match/").data
    assert mine["round"] == 1 and mine["my_side"] in ("french", "allied")
    opponent_name = mine["allied"] if mine["my_side"] == "french" else mine["french"]
    opponent_api = next(p[1] for p in players if p[0].username == opponent_name)
    r = api.post(f"/api/matches/{mine['id']}/report/", {"result": "french"}, format="json")
    assert r.status_code == 200 and r.data["state"] == "reported"
    r = api.post(f"/api/matches/{mine['id']}/report/", {"result": "french"}, format="json")
    assert r.status_code == 409  # a second report
    r = opponent_api.post(f"/api/matches/{mine['id']}/report/", {"result": "french"},
                          format="json")
    assert r.data["state"] == "settled"
    log = api.get(f"/api/matches/{mine['id']}/log/").data["results"]
    assert log[0]["source"] == "agreement"


def test_report_for_a_match_not_yours_is_403(running):
    tid, players = running
    _, api, _ = players[0]
    mine = api.get(f"/api/tournaments/{tid}/my-match/").data
    other = Match.objects.exclude(pk=mine["id"]).first()
    r = api.post(f"/api/matches/{other.pk}/report/", {"result": "french"}, format="json")
    assert r.status_code == 403 and r.data["detail"] == "this is not your match"
    assert not other.reports.exists()


def test_dispute_settle_and_correct(running, org_api):
    tid, players = running
    m = Match.objects.filter(round__number=1).first()
    apis = {p[0].pk: p[1] for p in players}
    a = apis[m.french.user_id]
    b = apis[m.allied.user_id]
    a.post(f"/api/matches/{m.pk}/report/", {"result": "french"}, format="json")
    b.post(f"/api/matches/{m.pk}/report/", {"result": "allied"}, format="json")
    disputes = org_api.get(f"/api/tournaments/{tid}/disputes/").data["results"]
    assert [d["id"] for d in disputes] == [m.pk] and len(disputes[0]["reports"]) == 2
    assert a.get(f"/api/tournaments/{tid}/disputes/").status_code == 403
    r = org_api.post(f"/api/matches/{m.pk}/settle/", {"result": "french", "reason": "seen"},
                     format="json")
    assert r.status_code == 200 and r.data["state"] == "settled"
    r = org_api.post(f"/api/matches/{m.pk}/correct/", {"result": "allied"}, format="json")
    assert r.status_code == 400  # a reason is required
    r = org_api.post(f"/api/matches/{m.pk}/correct/", {"result": "allied", "reason": "typo"},
                     format="json")
    assert r.status_code == 200 and r.data["allied_games"] == 1
    log = org_api.get(f"/api/matches/{m.pk}/log/").data["results"]
    assert [x["source"] for x in log] == ["organiser", "correction"]
    assert log[1]["by"] == "orga" and log[1]["reason"] == "typo"


def test_deck_lists_visible_to_organiser_and_opponent_only_after_pairing(org_api):
    t = create(org_api)
    players = [join(t["id"], f"p{k}") for k in range(4)]
    p0, api0, _ = players[0]
    entries = {e.user_id: e.pk for e in Entry.objects.all()}
    other = entries[players[1][0].pk]
    assert api0.get(f"/api/tournaments/{t['id']}/players/{other}/decks/").status_code == 403
    assert org_api.get(f"/api/tournaments/{t['id']}/players/{other}/decks/").status_code == 200
    assert api0.get(f"/api/tournaments/{t['id']}/players/{entries[p0.pk]}/decks/"
                    ).status_code == 200
    org_api.post(f"/api/tournaments/{t['id']}/start/")
    m = Match.objects.get(round__number=1, french_id=entries[p0.pk]) if Match.objects.filter(
        french_id=entries[p0.pk]).exists() else Match.objects.get(allied_id=entries[p0.pk])
    opponent = m.allied_id if m.french_id == entries[p0.pk] else m.french_id
    stranger = next(e for e in entries.values() if e not in (opponent, entries[p0.pk]))
    assert api0.get(f"/api/tournaments/{t['id']}/players/{opponent}/decks/").status_code == 200
    assert api0.get(f"/api/tournaments/{t['id']}/players/{stranger}/decks/").status_code == 403
    rows = api0.get(f"/api/tournaments/{t['id']}/players/").data["results"]
    assert {r["id"]: r["lists_visible"] for r in rows}[stranger] is False


def test_standings_exports_and_drop_after_end(running, org_api, api):
    tid, players = running
    apis = {p[0].pk: p[1] for p in players}
    for _ in range(2):
        t = Tournament.objects.get(pk=tid)
        matches = list(Match.objects.filter(round__number=t.current_round))
        assert matches
        for m in matches:
            for user_id in (m.french.user_id, m.allied.user_id):
                apis[user_id].post(f"/api/matches/{m.pk}/report/", {"result": "french"},
                                   format="json")
        from tournaments import services

        services.advance(tid)
    assert Tournament.objects.get(pk=tid).status == "finished"
    s = api.get(f"/api/tournaments/{tid}/standings/").data
    assert s["round"] == 2 and len(s["rows"]) == 4
    assert s["rows"][0]["how"]["omw"]["formula"].startswith("mean over opponents")
    assert api.get(f"/api/tournaments/{tid}/standings/?round=1").data["round"] == 1
    assert api.get(f"/api/tournaments/{tid}/standings/?round=9").status_code == 404
    csv_text = api.get(f"/api/tournaments/{tid}/export/standings.csv").content.decode()
    assert csv_text.splitlines()[0].startswith("rank,player,match_points")
    pairings = api.get(f"/api/tournaments/{tid}/export/pairings.csv").content.decode()
    assert len(pairings.splitlines()) == 5
    trf = api.get(f"/api/tournaments/{tid}/export/tournament.trf").content.decode()
    assert trf.startswith("012 Quatre Bras Open") and trf.count("\n001 ") == 4
    entry = Entry.objects.first()
    r = org_api.post(f"/api/tournaments/{tid}/drop/", {"entry": entry.pk}, format="json")
    assert r.status_code == 409 and "over" in r.data["detail"]
    # lists may be published after the event
    r = org_api.post(f"/api/tournaments/{tid}/publish-lists/")
    assert r.status_code == 200 and r.data["lists_public"]
    assert api.get(f"/api/tournaments/{tid}/players/{entry.pk}/decks/").status_code == 200


def test_player_drops_themself(running):
    tid, players = running
    _, api, _ = players[0]
    r = api.post(f"/api/tournaments/{tid}/drop/", {}, format="json")
    assert r.status_code == 200 and r.data["dropped"]
    assert api.post(f"/api/tournaments/{tid}/drop/", {}, format="json").status_code == 409


def test_pause_and_resume(running, org_api):
    tid, _ = running
    assert org_api.post(f"/api/tournaments/{tid}/pause/").data["status"] == "paused"
    assert org_api.post(f"/api/tournaments/{tid}/pause/").status_code == 409
    assert org_api.post(f"/api/tournaments/{tid}/resume/").data["status"] == "running"


def test_rounds_and_pairings(running, api):
    tid, _ = running
    rounds = api.get(f"/api/tournaments/{tid}/rounds/").data["results"]
    assert rounds[0]["number"] == 1 and rounds[0]["matches_total"] == 2
    detail = api.get(f"/api/tournaments/{tid}/rounds/1/").data
    assert len(detail["matches"]) == 2 and detail["matches"][0]["french"]
    assert api.get(f"/api/tournaments/{tid}/rounds/2/").status_code == 404


def test_double_elimination_through_the_api(org_api):
    t = create(org_api, format="double_elimination")
    assert t["format"] == "double_elimination"
    players = [join(t["id"], f"p{k}") for k in range(3)]
    r = org_api.post(f"/api/tournaments/{t['id']}/start/")
    assert r.status_code == 200 and r.data["planned_rounds"] == 5, r.data
    pairings = org_api.get(f"/api/tournaments/{t['id']}/rounds/1/").data
    matches = pairings["matches"] if isinstance(pairings, dict) else pairings
    assert {m["bracket"] for m in matches} == {"W1"}
    game = next(m for m in matches if not m["bye"])
    # a draw is refused in an elimination match
    user = next(u for u, api, _ in players
                if Entry.objects.filter(user=u, pk=game["french_entry"]).exists())
    r = client_for(user).post(f"/api/matches/{game['id']}/report/", {"result": "draw"},
                              format="json")
    assert r.status_code == 400
    r = org_api.get(f"/api/tournaments/{t['id']}/standings/")
    assert r.status_code == 200 and all("finish" in row for row in r.data["rows"])


def test_registering_a_version_entered_elsewhere_is_400_naming_it(org_api):
    first = create(org_api, name="First Open")
    second = create(org_api, name="Second Open")
    user, api, versions = join(first["id"], "ney")
    r = api.post(f"/api/tournaments/{second['id']}/register/",
                 {"french_version": versions["french"].pk,
                  "british_version": versions["british"].pk}, format="json")
    assert r.status_code == 400 and "First Open" in r.data["detail"]
    assert not Entry.objects.filter(tournament_id=second["id"]).exists()


# --- two-game matches: per-game outcomes ---------------------------------------------------

@pytest.fixture
def two_game(org_api):
    t = create(org_api, format="swiss_two_game")
    players = [join(t["id"], f"p{k}") for k in range(4)]
    assert org_api.post(f"/api/tournaments/{t['id']}/start/").status_code == 200
    apis = {user.pk: api for user, api, _ in players}
    m = Match.objects.filter(round__number=1, allied__isnull=False).first()
    return t["id"], m, apis[m.french.user_id], apis[m.allied.user_id]


def test_two_game_report_game_by_game(two_game, org_api):
    tid, m, french, allied = two_game
    url = f"/api/matches/{m.pk}/report/"
    # contradicting totals, an unclear split, per-game outcomes of the wrong shape: 400
    for bad in ({"games": ["french", "allied"], "french_games": 2, "allied_games": 0},
                {"french_games": 1, "allied_games": 1, "draws": 0},
                {"games": ["french"]}, {"games": ["french", "nobody"]}):
        r = french.post(url, bad, format="json")
        assert r.status_code == 400 and r.data["detail"], bad
    assert not m.reports.exists() and Match.objects.get(pk=m.pk).state == "pending"
    # each player won as French
    r = french.post(url, {"games": ["french", "allied"]}, format="json")
    assert r.status_code == 200 and r.data["state"] == "reported" and r.data["games"] is None
    mine = french.get(f"/api/tournaments/{tid}/my-match/").data
    assert mine["my_report"] == {"french_games": 1, "allied_games": 1, "draws": 0,
                                 "games": ["french", "allied"]}
    r = allied.post(url, {"games": ["french", "allied"]}, format="json")
    assert r.status_code == 200 and r.data["state"] == "settled"
    assert r.data["games"] == ["french", "allied"]
    assert (r.data["french_games"], r.data["allied_games"], r.data["draws"]) == (1, 1, 0)
    other = Match.objects.filter(round__number=1, allied__isnull=False).exclude(pk=m.pk).get()
    r = org_api.post(f"/api/matches/{other.pk}/settle/", {"games": ["draw", "draw"]},
                     format="json")
    assert r.status_code == 200  # round 1 complete: standings after it
    rows = {int(row["player"]): row for row in
            org_api.get(f"/api/tournaments/{tid}/standings/").data["rows"]}
    for entry_id in (m.french_id, m.allied_id):
        assert rows[entry_id]["french_record"]["won"] == 1
        assert rows[entry_id]["allied_record"] == {"won": 0, "drawn": 0, "lost": 1}
    csv_text = org_api.get(f"/api/tournaments/{tid}/export/standings.csv").content.decode()
    head, *body = [line.split(",") for line in csv_text.splitlines()]
    french_won, allied_won = head.index("french_won"), head.index("allied_won")
    for name in (m.french.user.username, m.allied.user.username):
        row = next(r for r in body if r[1] == name)
        assert (row[french_won], row[allied_won]) == ("1", "0")


def test_two_game_dispute_shows_the_games_and_the_organiser_settles(two_game, org_api):
    tid, m, french, allied = two_game
    url = f"/api/matches/{m.pk}/report/"
    french.post(url, {"games": ["french", "allied"]}, format="json")
    r = allied.post(url, {"games": ["allied", "french"]}, format="json")
    assert r.data["state"] == "disputed"  # same 1-1 totals, other games
    reports = org_api.get(f"/api/tournaments/{tid}/disputes/").data["results"][0]["reports"]
    assert sorted(x["games"] for x in reports) == [["allied", "french"], ["french", "allied"]]
    r = org_api.post(f"/api/matches/{m.pk}/settle/", {"games": ["draw", "french"]},
                     format="json")
    assert r.status_code == 200 and r.data["games"] == ["draw", "french"]
    r = org_api.post(f"/api/matches/{m.pk}/correct/", {"games": ["draw", "allied"],
                                                       "french_games": 1, "reason": "typo"},
                     format="json")
    assert r.status_code == 400 and "contradict" in r.data["detail"]
    assert Match.objects.get(pk=m.pk).games == ["draw", "french"]
    log = org_api.get(f"/api/matches/{m.pk}/log/").data["results"]
    assert [x["after"]["games"] for x in log] == [["draw", "french"]]


def test_one_game_match_refuses_per_game_outcomes(running):
    tid, players = running
    m = Match.objects.filter(round__number=1, allied__isnull=False).first()
    api = next(a for u, a, _ in players if u.pk == m.french.user_id)
    r = api.post(f"/api/matches/{m.pk}/report/", {"games": ["french", "allied"]},
                 format="json")
    assert r.status_code == 400 and "two-game" in r.data["detail"]
    assert not m.reports.exists()


def test_two_game_report_page_has_a_select_per_game(two_game):
    """The my-match page (same service): game 1 and game 2 selects name who won."""
    from django.test import Client
    from django.urls import reverse

    tid, m, _, _ = two_game
    pages = []
    for user in (m.french.user, m.allied.user):
        c = Client()
        c.force_login(user)
        pages.append(c)
    url = reverse("tournament-my-match", args=[tid])
    html = pages[0].get(url).content.decode()
    fr, al = m.french.user.username, m.allied.user.username
    assert f"Game 1 ({fr} French, {al} Allied)" in html and 'name="game1"' in html
    assert f"Game 2 ({al} French, {fr} Allied)" in html and 'name="game2"' in html
    assert 'name="french_games"' not in html
    bad = pages[0].post(url, {"match": m.pk, "game1": "french"})
    assert bad.status_code == 400 and not m.reports.exists()
    for c in pages:
        assert c.post(url, {"match": m.pk, "game1": "allied", "game2": "draw"}
                      ).status_code == 302
    m.refresh_from_db()
    assert m.games == ["allied", "draw"] and (m.allied_games, m.draws) == (1, 1)
    html = pages[0].get(url).content.decode()
    assert f"0-1-1 (game 1: {al} won, game 2: draw)" in html


def test_2_0_dealt_tournament_through_the_api(org_api):
    t = create(org_api, deck_kind="dealt", deal_pool="collection", deal_historical=True)
    assert (t["deck_kind"], t["deal_pool"], t["deal_historical"]) == ("dealt", "collection",
                                                                     True)
    user, versions = player("ney")
    api = client_for(user)
    r = api.post(f"/api/tournaments/{t['id']}/register/",
                 {"french_version": versions["french"].pk}, format="json")
    assert r.status_code == 400
    assert r.data["detail"].startswith("french_version: this tournament deals the decks (2.0)")
    r = api.post(f"/api/tournaments/{t['id']}/register/", {}, format="json")
    assert r.status_code == 201, r.data  # ney's collection holds D historical cards per army
    assert Entry.objects.get(pk=r.data["id"]).versions() == []
    r = org_api.post("/api/tournaments/", {"name": "x", "battle": "wavre", "deck_kind": "dealt",
                                           "scale": "1/3"}, format="json")
    assert r.status_code == 400 and "multiple of 1/4" in r.data["detail"]
