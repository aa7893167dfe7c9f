"""Tournament pages at a constant number of queries whatever the number of players (issue 31,
"Pages that do not grow with the database": the pairings page made one query per match)."""

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
