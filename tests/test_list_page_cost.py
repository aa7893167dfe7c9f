"""The list pages' fixed cost (issue 31, "Pages that do not grow with the database"): the
/battles/ page reads the same queries with 10 or 60 battles of the user (and with more open,
invited and watchable battles of others: no query per row), the new-battle form's deck
choices are one query however many decks, the scales offered are worked out once per
catalogue version, and the rows' links and times are written in Python as the template tags
wrote them."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.template.defaultfilters import date as date_filter
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles import services
from battles.models import Battle
from cards.catalogue import cache
from decks.models import Deck, DeckVersion
from frontend.battle import views
from frontend.rows import url_of, utc_text
from tests.test_match_lists import copies

pytestmark = pytest.mark.django_db


def _page_queries(client) -> tuple[str, list[str]]:
    with CaptureQueriesContext(connection) as seen:
        response = client.get("/battles/")
    assert response.status_code == 200
    return response.content.decode(), [q["sql"] for q in seen.captured_queries]


def _others(bob: User, carol: User, alice: User, n: int) -> None:
    """``n`` open battles of bob's, ``n`` invitations of alice, ``n`` public battles under
    way between bob and carol."""
    for _ in range(n):
        services.create_battle(bob, "quatre-bras", "allied", opponent="open")
        services.create_battle(carol, "ligny", "french", opponent=alice.username)
        live = services.create_battle(bob, "quatre-bras", "french", opponent="open")
        services.join_battle(live.pk, carol)


def test_the_battles_page_reads_the_same_queries_for_10_and_60_battles(
        catalogue, client, user, other_user):
    carol = User.objects.create_user("carol")
    mine = services.create_battle(user, "quatre-bras", "french", opponent="open")
    services.join_battle(mine.pk, other_user)
    copies(Battle.objects.get(pk=mine.pk), 9)
    _others(other_user, carol, user, 1)
    client.force_login(user)
    client.get("/battles/")  # the catalogue's records and scales, once per process
    small, few = _page_queries(client)
    assert small.count('data-testid="battle-row-') == 10

    copies(Battle.objects.get(pk=mine.pk), 50)
    _others(other_user, carol, user, 2)
    large, many = _page_queries(client)
    assert large.count('data-testid="battle-row-') == 50  # a page; "Older" for the rest
    assert 'data-testid="older"' in large
    for row in ("open", "live", "invitation"):  # each list's rows, 3 of each now
        assert len(re.findall(rf'data-testid="{row}-\d+"', large)) == 3, row
    assert len(many) == len(few), "\n".join(many)
    # no list reads a battle's position, deals or the players' passwords
    battle_reads = [q for q in many if 'FROM "battles_battle"' in q]
    assert battle_reads and not any('"state"' in q or '"decks"' in q or '"password"' in q
                                    for q in battle_reads)


def _deck(user, name: str, battle: str, army: str, valid: list[bool], kind: str = "custom"):
    deck = Deck.objects.create(owner=user, name=name, battle=battle, army=army, kind=kind)
    for number, ok in enumerate(valid, start=1):
        DeckVersion.objects.create(deck=deck, number=number, battle=battle, army=army,
                                   kind=kind, scale="1", entries=[], valid=ok)
    return deck


def test_the_deck_choices_are_one_query_with_the_latest_valid_version_of_each_deck(user):
    _deck(user, "Ney", "quatre-bras", "french", [True, True, False])  # v2: v3 is invalid
    _deck(user, "Picton", "quatre-bras", "british", [False, True])
    _deck(user, "Blücher", "ligny", "prussian", [False])  # nothing playable
    _deck(user, "Campaign", "quatre-bras", "french", [True], kind="campaign")  # 16.0
    other = User.objects.create_user("zed")
    _deck(other, "Not mine", "quatre-bras", "french", [True])
    with CaptureQueriesContext(connection) as seen:
        groups = views._deck_choices(user)
    assert len(seen.captured_queries) == 1
    got = {(g["battle"], g["side"]): [d["label"] for d in g["decks"]] for g in groups}
    assert got == {("quatre-bras", "french"): ["Ney (v2, French, custom, scale 1)"],
                   ("quatre-bras", "allied"): ["Picton (v2, British, custom, scale 1)"]}


def test_the_scales_offered_are_worked_out_once_per_catalogue_version(catalogue):
    cache.clear()
    first = views._scale_options()
    with CaptureQueriesContext(connection) as seen:
        again = views._scale_options()
    assert again is first  # the same list: not worked out again
    assert len(seen.captured_queries) == 1  # the catalogue version's check only
    assert first == views._scale_options_of(cache.records_by_number())
    assert [o["value"] for o in first if o["value"] == "1"] == ["1"]
    cache.clear()
    assert views._scale_options() is not first  # a new catalogue version: worked out anew


@pytest.mark.parametrize("when", [datetime(2026, 1, 5, 7, 3, tzinfo=UTC),
                                  datetime(2026, 11, 27, 18, 30, 59, tzinfo=UTC),
                                  datetime(1815, 6, 18, 11, 35, tzinfo=UTC)])
def test_a_row_time_reads_as_the_date_filter_wrote_it(when):
    assert utc_text(when) == date_filter(when, "j M Y, H:i")
    assert utc_text(None) == ""


@pytest.mark.parametrize("name", ["battle", "campaign", "stratego-game", "belle-alliance-game"])
def test_a_row_link_is_the_reversed_url(name):
    assert url_of(name)(42) == reverse(name, args=[42])


def test_the_menus_move_count_is_each_users_own_from_the_one_compiled_query(
        catalogue, user, other_user):
    from notifications.selectors import your_move_counts

    b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, other_user)
    Battle.objects.filter(pk=b.pk).update(status="active", to_move="french")
    assert your_move_counts(user)["battle"] == 1 and your_move_counts(other_user)["battle"] == 0
    Battle.objects.filter(pk=b.pk).update(to_move="allied")
    with CaptureQueriesContext(connection) as seen:
        assert your_move_counts(other_user) == {**your_move_counts(user), "battle": 1}
    assert len(seen.captured_queries) == 2
    assert your_move_counts(user)["battle"] == 0


# The "My battles" rows as the template wrote them before they were written in Python.
OLD_ROWS = """{% for r in rows %}
          <tr data-testid="battle-row-{{ r.id }}">
            <td><a href="{{ r.url }}">{{ r.battle_name }} <span class="muted">#{{ r.id }}</span></a>{% if r.rated %} <small data-testid="rated-{{ r.id }}">rated</small>{% endif %}<br><small class="muted">{{ r.created_text }} UTC</small></td>
            <td>{{ r.side_name }}</td>
            <td>{{ r.opponent_name }}</td>
            <td>{{ r.status_label }}</td>
            <td>{% if r.waiting_for == "you" %}<strong class="badge badge-move" data-testid="your-move-{{ r.id }}">{{ r.whose }}</strong>{% else %}{{ r.whose }}{% endif %}</td>
            <td>{{ r.outcome_text|default:"—" }}</td>
            <td>{% if r.can_cancel %}<form method="post" action="{% url 'battle-cancel' r.id %}" class="b-inline">{% csrf_token %}<details class="ask" data-testid="cancel-ask"><summary>Cancel…</summary><p>Nobody can take the seat any more; this cannot be undone.</p><button type="submit" class="danger" data-testid="cancel">Yes, cancel it</button></details></form>{% endif %}</td>
          </tr>
        {% endfor %}"""  # noqa: E501


def _lines(html: str) -> list[str]:
    return [line.strip() for line in html.splitlines() if line.strip()]


def test_the_rows_written_in_python_are_the_templates_rows(catalogue, user, other_user):
    from django.template import Context, Template

    from frontend.battle.list_rows import my_battle_rows

    waiting = services.create_battle(user, "quatre-bras", "french", opponent="open")
    live = services.create_battle(user, "ligny", "allied", opponent="open")
    services.join_battle(live.pk, other_user)
    Battle.objects.filter(pk=live.pk).update(status="active", to_move="allied", rated=True)
    over = services.create_battle(user, "wavre", "french", opponent="open")
    services.join_battle(over.pk, other_user)
    services.resign(over.pk, user)
    battles = [Battle.objects.get(pk=pk) for pk in (waiting.pk, live.pk, over.pk)]
    rows = views._list_rows(user, battles)
    rows[0]["opponent_name"] = "<b>Ney's</b> \"&\" co"  # what autoescape must escape
    assert [r["waiting_for"] for r in rows][1] == "you" and rows[0]["can_cancel"]
    assert rows[2]["outcome_text"] and rows[1]["rated"]
    rows.append({**rows[1], "id": 7, "outcome_text": "", "waiting_for": None})  # "—"
    old = Template(OLD_ROWS).render(Context({"rows": rows, "csrf_token": "t0ken"}))
    new = my_battle_rows(rows, "t0ken")
    assert _lines(new) == _lines(old)
    assert "&lt;b&gt;Ney&#x27;s&lt;/b&gt; &quot;&amp;&quot; co" in new


def test_no_query_of_the_battles_page_reads_a_position_deals_or_a_password_but_the_login(
        catalogue, client, user, other_user):
    mine = services.create_battle(user, "quatre-bras", "french", opponent="open")
    services.join_battle(mine.pk, other_user)
    _others(other_user, User.objects.create_user("carol"), user, 2)
    client.force_login(user)
    client.get("/battles/")
    _, queries = _page_queries(client)
    readers = [q for q in queries if '"password"' in q]
    assert len(readers) == 1 and 'FROM "auth_user" WHERE "auth_user"."id" =' in readers[0]
    for q in queries:
        for column in ('"state"', '"decks"', '"card_set_id"', '"entries"', '"seed"'):
            assert column not in q, (column, q)


def test_an_older_page_reads_the_same_queries_as_the_first(catalogue, client, user, other_user):
    mine = services.create_battle(user, "quatre-bras", "french", opponent="open")
    services.join_battle(mine.pk, other_user)
    copies(Battle.objects.get(pk=mine.pk), 60)
    client.force_login(user)
    client.get("/battles/")
    first, few = _page_queries(client)
    cursor = re.search(r'\?before=([0-9.]+)" data-testid="older"', first).group(1)
    with CaptureQueriesContext(connection) as seen:
        older = client.get(f"/battles/?before={cursor}").content.decode()
    assert len(seen.captured_queries) == len(few)
    ids = set(re.findall(r'data-testid="battle-row-(\d+)"', first))
    older_ids = set(re.findall(r'data-testid="battle-row-(\d+)"', older))
    assert len(ids) == 50 and len(older_ids) == 11 and not ids & older_ids
