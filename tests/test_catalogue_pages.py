"""The catalogue pages through the Django test client: search, errors, card page, SVGs."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from cards.models import Card

pytestmark = pytest.mark.django_db


def count_of(html: str) -> int:
    match = re.search(r'data-testid="result-count">(\d+) card', html)
    assert match, html[:500]
    return int(match.group(1))


def test_catalogue_lists_all_cards_paginated(client, catalogue):
    r = client.get(reverse("catalogue"))
    assert r.status_code == 200
    html = r.content.decode()
    assert count_of(html) == 300
    assert html.count('class="card-tile"') == 60
    assert 'href="/cards/1/"' in html and 'src="/cards/1.svg"' in html
    assert 'hx-trigger="keyup changed delay:300ms, search"' in html and 'hx-push-url="true"' in html
    assert 'href="/cards/syntax/"' in html
    r = client.get(reverse("catalogue"), {"page": 5})
    assert r.content.decode().count('class="card-tile"') == 60
    assert client.get(reverse("catalogue"), {"page": "nonsense"}).status_code == 200


def test_search_query_and_filters(client, catalogue):
    expected = Card.objects.filter(army="french", type="cavalry").count()
    r = client.get(reverse("catalogue"), {"q": "army:french type:cavalry"})
    assert count_of(r.content.decode()) == expected > 0
    r = client.get(reverse("catalogue"), {"army": "french", "type": "cavalry"})
    html = r.content.decode()
    assert count_of(html) == expected
    assert '<option value="cavalry" selected>' in html
    napoleon = client.get(reverse("catalogue"), {"q": "napoleon"}).content.decode()
    assert "Napoléon" in napoleon
    # An unknown filter value is ignored rather than an error.
    assert count_of(client.get(reverse("catalogue"), {"army": "austrian"}).content.decode()) == 300


def test_table_view(client, catalogue):
    r = client.get(reverse("catalogue"), {"q": "type:artillery", "view": "table"})
    html = r.content.decode()
    assert 'data-testid="card-table"' in html and 'class="card-tile"' not in html
    assert "F1" in html or "1/3" in html


def test_htmx_request_gets_the_results_fragment(client, catalogue):
    r = client.get(reverse("catalogue"), {"q": "type:general"}, HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200 and "<html" not in html and 'data-testid="result-count"' in html
    assert "HX-Request" in r["Vary"]
    assert r["HX-Push-Url"] == "/cards/?q=type%3Ageneral"
    full = client.get(reverse("catalogue"), {"q": "type:general"}, HTTP_HX_REQUEST="true",
                      HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<html" in full.content.decode()


@pytest.mark.parametrize("query", ["army:french bp>=x", "army:", "(type:cavalry", "bogus:1",
                                   '"unclosed', "morale<=z", "-", ")" * 5, "a" * 2000])
def test_malformed_query_shows_message_and_position(client, catalogue, query):
    r = client.get(reverse("catalogue"), {"q": query})
    assert r.status_code == 200
    html = r.content.decode()
    assert 'data-testid="query-error"' in html and 'role="alert"' in html
    match = re.search(r'data-position="(\d+)"><code>(.*?)\n( *)\^</code>', html, re.S)
    if match:  # the caret sits under the offending character
        assert len(match.group(3)) == int(match.group(1))
        assert "<mark>" in match.group(2)


def test_bad_query_caret_points_at_the_value(client, catalogue):
    html = client.get(reverse("catalogue"), {"q": "army:french bp>=x"}).content.decode()
    assert 'data-position="16"' in html
    assert "army:french bp&gt;=<mark>x</mark>\n" + " " * 16 + "^" in html


def test_card_page(client, catalogue):
    card = Card.objects.filter(type="infantry", firepower=2).first()
    r = client.get(reverse("card-detail", args=[card.number]))
    assert r.status_code == 200
    html = r.content.decode()
    assert "<svg" in html and 'role="img"' in html
    assert "F2</strong>: hits on 5-6" in html
    value = {"a": 4, "b": 3, "c": 2, "d": 1}[card.morale]
    assert f"{card.morale.upper()} = {value}" in html
    for slug in card.battles:
        assert f'href="/cards/?q=battle%3A{slug}"' in html
    if card.ob:
        assert card.ob in html
    assert 'aria-current="true"' in html and "?finish=gold" in html
    gold = client.get(reverse("card-detail", args=[card.number]), {"finish": "gold"})
    assert 'data-finish="gold"' in gold.content.decode()
    assert f'href="/cards/{card.number - 1}/"' in html or card.number == 1
    assert f'href="/cards/{card.number + 1}/"' in html or card.number == 300


def test_general_terrain_special_pages(client, catalogue):
    for kind, expected in [("general", "Command"),
                           ("terrain", "Terrain class"), ("special", "Special")]:
        card = Card.objects.filter(type=kind).first()
        html = client.get(reverse("card-detail", args=[card.number])).content.decode()
        assert expected in html, kind
    special = Card.objects.filter(type="special").exclude(special_text=None).first()
    html = client.get(reverse("card-detail", args=[special.number])).content.decode()
    assert special.special_text.split(":")[0] in html


def test_card_page_htmx_face_swap(client, catalogue):
    r = client.get(reverse("card-detail", args=[1]), {"finish": "silver"},
                   HTTP_HX_REQUEST="true", HTTP_HX_TARGET="card-face")
    html = r.content.decode()
    assert html.lstrip().startswith('<div id="card-face"') and 'data-finish="silver"' in html


def test_unknown_card_is_404(client, catalogue):
    assert client.get("/cards/301/").status_code == 404
    assert client.get("/cards/0/").status_code == 404
    assert client.get("/cards/999.svg").status_code == 404
    assert client.get("/cards/back/austrian.svg").status_code == 404


def test_owned_counts_for_a_logged_in_user(client, catalogue, user):
    from cards.collection import services as collection_services

    collection_services.add_copies(user, 1, "gold", 2)
    client.force_login(user)
    html = client.get(reverse("card-detail", args=[1])).content.decode()
    assert 'data-testid="owned"' in html and "Gold: 2" in html


def test_svg_endpoint(client, catalogue):
    r = client.get("/cards/1.svg", {"finish": "gold"})
    assert r.status_code == 200
    assert r["Content-Type"].startswith("image/svg+xml")
    assert "public" in r["Cache-Control"] and "max-age" in r["Cache-Control"]
    root = ET.fromstring(r.content)
    assert root.get("data-finish") == "gold" and root.get("data-number") == "1"
    again = client.get("/cards/1.svg", {"finish": "gold"}, HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 304
    bronze = client.get("/cards/1.svg")
    assert ET.fromstring(bronze.content).get("data-finish") == "bronze"
    back = client.get("/cards/back/prussian.svg")
    assert back["Content-Type"].startswith("image/svg+xml")
    assert ET.fromstring(back.content).get("data-army") == "prussian"


def test_syntax_page(client, catalogue):
    html = client.get(reverse("catalogue-syntax")).content.decode()
    assert "<code>army</code>" in html and "<code>morale</code>" in html
