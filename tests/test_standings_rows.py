"""Standings stored one row per player (issue 31): a page of the standings reads only its own
rows, whatever the number of players; "find me" is the page with my row; the chart reads only
the rows it draws; ``record_result`` takes few round trips; and migration 0010 carries the
snapshots' JSON lists into rows and back."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournaments import selectors, services
from tournaments.models import Entry, Match, StandingRow, StandingSnapshot

from .tournament_helpers import organiser

pytestmark = pytest.mark.django_db


def swiss(org, n: int, prefix: str, play: bool = True):
    """An ``n``-player dealt Swiss (entries written in bulk, as ``bench/growth.py`` does),
    started; ``play``: round 1 played through ``record_result`` (its snapshot stored)."""
    rng = random.Random(n)
    users = User.objects.bulk_create([User(username=f"{prefix}{k:04d}") for k in range(n)])
    t = services.create_tournament(org, name=f"rows {prefix}", battle="quatre-bras",
                                   deck_kind="dealt", deal_pool="set", rounds=3,
                                   round_seconds=3600)
    Entry.objects.bulk_create([Entry(tournament=t, user=u, seed=k + 1, rating=1500)
                               for k, u in enumerate(users)])
    services.start_tournament(t.pk, org)
    if not play:
        return t, users
    for pk in Match.objects.filter(tournament=t, round__number=1, allied__isnull=False
                                   ).values_list("pk", flat=True):
        services.record_result(pk, {"result": rng.choice(["french", "allied", "draw"])},
                               source="online")
    return t, users


class JsonRead:
    """Counts the standing rows' JSON values decoded, and their characters."""

    def __init__(self, monkeypatch) -> None:
        self.values = self.chars = 0
        field = StandingRow._meta.get_field("data")
        decode = field.from_db_value

        def counting(value, expression, conn):
            self.values += 1
            self.chars += len(value) if isinstance(value, str | bytes) else 0
            return decode(value, expression, conn)

        monkeypatch.setattr(field, "from_db_value", counting)


def read(monkeypatch, client, url: str) -> tuple[int, int, int]:
    """(queries, JSON row values decoded, their characters) of one GET."""
    seen = JsonRead(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url)
    assert page.status_code == 200, page.content[:300]
    return len(queries.captured_queries), seen.values, seen.chars


def test_a_standings_page_reads_as_much_for_16_players_as_for_256(catalogue, monkeypatch):
    org = organiser()
    (small, small_users), (large, large_users) = swiss(org, 16, "s"), swiss(org, 256, "l")
    assert StandingSnapshot.objects.get(tournament=large).players == 256
    assert StandingRow.objects.filter(snapshot__tournament=large).count() == 256
    paths = {"page": "/tournaments/{}/standings/?limit=10",
             "page, find me": "/tournaments/{}/standings/?limit=10&find=me",
             "api": "/api/tournaments/{}/standings/?limit=10",
             "api, find me": "/api/tournaments/{}/standings/?limit=10&find=me"}
    costs: dict[str, list] = {label: [] for label in paths}
    for me, t in ((small_users[3], small), (large_users[200], large)):
        client = Client()
        client.force_login(me)
        for label, path in paths.items():
            costs[label].append(read(monkeypatch, client, path.format(t.pk)))
    for label, ((q16, rows16, chars16), (q256, rows256, chars256)) in costs.items():
        assert q16 == q256, (label, costs[label])
        # the page's 10 rows (and the chart's top 8 on the page), never the whole table
        # (with "find me" the small tournament's page is the top one, whose rows the chart
        # shares; the large one's is further down, so the two may differ below that bound)
        assert rows16 <= 18 and rows256 <= 18, (label, costs[label])
        assert chars256 < 2 * chars16, (label, costs[label])


def test_find_me_is_the_page_with_my_row(catalogue):
    from rest_framework.test import APIClient

    t, users = swiss(organiser(), 40, "f")
    whole = services.compute_rows(t, 1)
    api = APIClient()
    for rank in (1, 10, 11, 25, 40):
        me = User.objects.get(username=whole[rank - 1]["name"])
        api.force_login(me)
        found = api.get(f"/api/tournaments/{t.pk}/standings/?limit=10&find=me").json()
        assert found["page"] == (rank - 1) // 10 + 1 and found["pages"] == 4, rank
        assert found["players"] == 40
        assert [r["rank"] for r in found["rows"]] == list(
            range(10 * found["page"] - 9, 10 * found["page"] + 1))
        assert me.username in [r["name"] for r in found["rows"]]
    # every page, in order, is the table the pure computation gives
    pages = [api.get(f"/api/tournaments/{t.pk}/standings/?limit=10&page={p}").json()["rows"]
             for p in (1, 2, 3, 4)]
    assert [r for page in pages for r in page] == whole
    stranger = api.get(f"/api/tournaments/{t.pk}/standings/?find=nobody")
    assert stranger.status_code == 400 and stranger.json()["code"] == "bad_input"


def test_a_recomputed_snapshot_replaces_its_rows(catalogue):
    t, _ = swiss(organiser(), 8, "r")
    snap = services.snapshot(t, 1)
    again = services.snapshot(t, 1)
    assert again.pk == snap.pk and again.players == 8
    assert list(StandingRow.objects.filter(snapshot=snap).order_by("rank")
                .values_list("data", flat=True)) == services.compute_rows(t, 1)
    assert StandingSnapshot.objects.get(pk=snap.pk).rows == services.compute_rows(t, 1)


def test_the_chart_reads_only_the_rows_it_draws(catalogue):
    t, _ = swiss(organiser(), 24, "c")
    rounds, players = selectors.chart_rounds(t, 1, 8)
    assert players == 24 and [n for n, _ in rounds] == [1]
    assert [r["rank"] for r in rounds[0][1]] == list(range(1, 9))


def test_record_result_takes_five_queries(catalogue):
    t, _ = swiss(organiser(), 8, "q", play=False)
    first, second = Match.objects.filter(tournament=t, allied__isnull=False)[:2]
    services.record_result(first.pk, {"result": "allied"}, source="online")
    with CaptureQueriesContext(connection) as seen:
        services.record_result(second.pk, {"result": "french"}, source="online")
    sql = [q["sql"] for q in seen.captured_queries
           if not q["sql"].startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))]
    # lock the tournament, lock the match (and its round), update it, log it, is the round
    # complete (it is not: no snapshot yet)
    assert len(sql) == 5, sql
    second.refresh_from_db()
    assert (second.state, second.french_games, second.source) == ("settled", 1, "online")
    assert not StandingSnapshot.objects.filter(tournament=t).exists()


# --- the migration --------------------------------------------------------------------------

def _migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


@pytest.mark.django_db(transaction=True)
def test_migration_0010_carries_the_json_rows_over_and_back(catalogue):
    t, _ = swiss(organiser(), 12, "m")
    before = services.compute_rows(t, 1)
    assert StandingSnapshot.objects.get(tournament=t).rows == before
    _migrate([("tournaments", "0009_tournament_games")])
    old = MigrationExecutor(connection).loader.project_state(
        ("tournaments", "0009_tournament_games")).apps
    OldSnapshot = old.get_model("tournaments", "StandingSnapshot")
    assert OldSnapshot.objects.get(tournament_id=t.pk, round_number=1).rows == before
    _migrate([("tournaments", "0010_standing_rows")])
    snap = StandingSnapshot.objects.get(tournament=t)
    assert snap.players == 12 and snap.rows == before
    assert list(StandingRow.objects.filter(snapshot=snap).order_by("rank")
                .values_list("rank", "name")) == [(r["rank"], r["name"]) for r in before]
    assert selectors.standings_page(selectors.standings(t), limit=5, page=3)["rows"] == \
        before[10:]
