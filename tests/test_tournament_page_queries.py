"""Tournament pages at a constant number of queries whatever the number of players (issue 31,
"Pages that do not grow with the database": the pairings page made one query per match), and
the standings a page at a time, with "find me"."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services
from tournaments.models import Match

from .tournament_helpers import organiser, player, register, report_both, tournament

pytestmark = pytest.mark.django_db


def played_round(org, n: int, prefix: str):
    """A started ``n``-player Swiss with every match of round 1 reported."""
    t = tournament(org, name=f"Swiss {prefix}")
    for k in range(n):
        user, versions = player(f"{prefix}{k + 1:02d}", "quatre-bras")
        register(t, user, versions)
    services.start_tournament(t.pk, org)
    for m in Match.objects.filter(round__tournament=t, allied__isnull=False):
        report_both(m, {"result": "french"})
    return t


def queries(url: str) -> int:
    with CaptureQueriesContext(connection) as seen:
        page = Client().get(url)
    assert page.status_code == 200
    return len(seen.captured_queries)


@pytest.mark.parametrize("name", ["tournament-pairings", "tournament-standings"])
def test_a_tournament_page_reads_as_much_for_4_players_as_for_12(catalogue, name):
    org = organiser()
    small, large = played_round(org, 4, "a"), played_round(org, 12, "b")
    assert queries(reverse(name, args=[small.pk])) == queries(reverse(name, args=[large.pk]))


def test_standings_come_a_page_at_a_time_and_find_me_finds_my_page(catalogue):
    from rest_framework.test import APIClient

    from tournaments.models import Entry

    t = played_round(organiser(), 12, "c")
    api = APIClient()
    first = api.get(f"/api/tournaments/{t.pk}/standings/?limit=5").json()
    assert (len(first["rows"]), first["page"], first["pages"], first["players"]) == (5, 1, 3, 12)
    last = api.get(f"/api/tournaments/{t.pk}/standings/?limit=5&page=3").json()
    assert len(last["rows"]) == 2
    whole = api.get(f"/api/tournaments/{t.pk}/standings/?limit=500").json()["rows"]
    me = Entry.objects.get(tournament=t, user__username=whole[7]["name"]).user
    api.force_login(me)
    found = api.get(f"/api/tournaments/{t.pk}/standings/?limit=5&find=me").json()
    assert found["page"] == 2 and me.username in [r["name"] for r in found["rows"]]
    for bad in ("page=4", "page=0", "limit=0", "limit=x", "find=nobody"):
        r = api.get(f"/api/tournaments/{t.pk}/standings/?limit=5&{bad}")
        assert r.status_code == 400 and r.json()["code"] == "bad_input", bad
    page = Client()
    page.force_login(me)
    html = page.get(reverse("tournament-standings", args=[t.pk]) + "?limit=5&find=me")
    assert html.status_code == 200 and b'data-testid="find-me"' in html.content
    assert html.content.count(b'data-testid="rank-') == 5
    assert page.get(reverse("tournament-standings", args=[t.pk]) + "?page=9").status_code == 400


def test_the_pairings_page_shows_a_page_of_tables(catalogue, monkeypatch):
    from frontend.tournaments import views

    monkeypatch.setattr(views, "PAIRINGS_PAGE", 2)
    t = played_round(organiser(), 10, "d")  # 5 tables: 3 pages
    url = reverse("tournament-pairings", args=[t.pk])
    first, last = Client().get(url), Client().get(url + "?page=3")
    assert first.content.count(b'data-testid="table-') == 2
    assert b'data-testid="pairings-next"' in first.content
    assert last.content.count(b'data-testid="table-') == 1
    assert Client().get(url + "?page=4").status_code == 400
