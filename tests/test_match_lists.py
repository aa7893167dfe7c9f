"""A user's list of matches a page at a time, at the same cost whatever their number (issue 31,
"Pages that do not grow with the database"; ``play/lists.py``): only the columns a row shows,
newest first, a cursor to the next page, the same number of queries for 3 or 40 matches."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles import services
from battles.models import Battle
from campaigns.models import Campaign
from online.stratego.models import StrategoMatch

pytestmark = pytest.mark.django_db


def copies(match, n: int, **change) -> list[int]:
    """``n`` more rows like ``match`` (a row written by the service), each a minute older."""
    model = type(match)
    rows = []
    for _ in range(n):
        row = model.objects.get(pk=match.pk)
        row.pk = None
        for key, value in change.items():
            setattr(row, key, value)
        rows.append(row)
    made = model.objects.bulk_create(rows)
    start = timezone.now() - timedelta(days=1)
    for i, row in enumerate(made):  # created_at is auto_now_add: set it afterwards
        model.objects.filter(pk=row.pk).update(created_at=start - timedelta(minutes=i))
    return [row.pk for row in made]


@pytest.fixture
def alice_battles(catalogue, user, other_user):
    b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, other_user)
    return b


def _list_queries(client, url: str) -> tuple[dict, list[str]]:
    with CaptureQueriesContext(connection) as seen:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return response.json(), [q["sql"] for q in seen.captured_queries]


@pytest.mark.parametrize("more", [2, 40])
def test_the_battle_list_reads_the_same_queries_and_no_position_whatever_the_number(
        alice_api, alice_battles, more):
    copies(alice_battles, more)
    body, queries = _list_queries(alice_api, "/api/battles/?limit=10")
    assert len(body["results"]) == min(10, more + 1) and bool(body["next"]) == (more >= 10)
    reads = [q for q in queries if "battles_battle" in q]
    assert len(reads) == 3  # one per branch: my two seats, my invitations
    for sql in reads:  # only the columns a row shows: never the position, the deal
        assert '"state"' not in sql and '"decks"' not in sql and '"deck_choices"' not in sql
        assert "LIMIT 11" in sql
    assert len(queries) <= 6  # the session, the user, the three branches


def test_pages_follow_one_another_newest_first_with_nothing_twice(alice_api, alice_battles,
                                                                   user, other_user):
    carol = User.objects.create_user("carol", "", "pw")
    mine = [alice_battles.pk, *copies(alice_battles, 25)]
    # an invitation to alice (she sits in none of its seats), and a battle not hers
    invite = services.create_battle(other_user, "ligny", "allied", opponent=user.username)
    copies(alice_battles, 3, french_player=carol, allied_player=other_user)
    seen, url = [], "/api/battles/?limit=7"
    while url:
        body = alice_api.get(url).json()
        seen += [r["id"] for r in body["results"]]
        url = f"/api/battles/?limit=7&before={body['next']}" if body["next"] else None
    assert sorted(seen) == sorted([*mine, invite.pk]) and len(seen) == len(set(seen))
    order = list(Battle.objects.filter(pk__in=seen).order_by("-created_at", "-id")
                 .values_list("pk", flat=True))
    assert seen == order


@pytest.mark.parametrize("url", ["/api/battles/?before=yesterday", "/api/battles/?before=1.x",
                                 "/api/battles/?limit=0", "/api/battles/?limit=201",
                                 "/api/battles/?limit=ten"])
def test_a_bad_cursor_or_limit_is_a_clear_400(alice_api, url):
    r = alice_api.get(url)
    assert r.status_code == 400 and r.json()["code"] == "bad_input"


def test_the_battles_page_is_paginated_and_reads_no_position(client, user, alice_battles):
    copies(alice_battles, 60)
    client.force_login(user)
    with CaptureQueriesContext(connection) as seen:
        page = client.get("/battles/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('data-testid="battle-row-') == 50 and 'data-testid="older"' in html
    mine = [q["sql"] for q in seen.captured_queries
            if 'FROM "battles_battle"' in q["sql"] and '"invited_id" =' not in q["sql"]]
    assert mine and not [sql for sql in mine if '"deck_choices"' in sql]
    older = html.split('data-testid="older"')[0].rsplit('href="', 1)[1].split('"')[0]
    rest = client.get("/battles/" + older.replace("&amp;", "&"))
    assert rest.content.decode().count('data-testid="battle-row-') == 11
    assert client.get("/battles/?before=nonsense").status_code == 400


@pytest.mark.parametrize("model, url", [(Campaign, "/api/campaigns/"),
                                        (StrategoMatch, "/api/games/stratego/")])
def test_the_other_games_lists_are_paginated_the_same_way(alice_api, user, other_user, model,
                                                          url):
    from play.seeds import new_seed, seed_hash

    seed = new_seed()
    first = model.objects.create(french_player=user, allied_player=None, bot="",
                                 invited=other_user, seed=seed, seed_hash=seed_hash(seed),
                                 status="waiting")
    copies(first, 12)
    body, queries = _list_queries(alice_api, url + "?limit=5")
    assert len(body["results"]) == 5 and body["next"]
    assert not [q for q in queries if model._meta.db_table in q and '"state"' in q]
    body = alice_api.get(f"{url}?limit=50&before={body['next']}").json()
    assert len(body["results"]) == 8 and body["next"] is None
