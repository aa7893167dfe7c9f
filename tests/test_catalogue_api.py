"""The catalogue API: search language over HTTP, filters, ordering, detail, errors."""

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.catalogue.records import fold
from cards.catalogue.search import QueryError
from cards.catalogue.selectors import search_cards
from cards.models import Card

pytestmark = pytest.mark.django_db

LIST = "/api/cards/"
MORALE_VALUE = {"a": 4, "b": 3, "c": 2, "d": 1}


def numbers(api, query: str = "", **params) -> list[int]:
    """Card numbers of every page of a search."""
    params = {"page_size": 300, **params}
    if query:
        params["q"] = query
    response = api.get(LIST, params)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["count"] == len(body["results"])
    return [card["number"] for card in body["results"]]


def expected(predicate) -> list[int]:
    return sorted(card.number for card in Card.objects.all() if predicate(card))


# ------------------------------------------------------------------------ the example


def test_example_query(api, catalogue):
    # Every filter plus a name word, chosen so that the answer is not empty (the Guard
    # cavalry is Morale A: "guard" here would compare an empty list with an empty list).
    query = "army:french type:cavalry morale<=b bp>=8 battle:waterloo division"
    response = api.get(LIST, {"q": query, "page_size": 300})
    assert response.status_code == 200
    results = response.json()["results"]
    for card in results:
        assert card["army"] == "french" and card["type"] == "cavalry"
        assert card["morale"] in ("b", "c", "d") and card["bp"] >= 8
        assert "waterloo" in card["battles"] and "division" in fold(card["name"])
    want = expected(
        lambda c: c.army == "french" and c.type == "cavalry" and c.morale in "bcd"
        and c.bp >= 8 and c.at_waterloo and "division" in c.search_name)
    assert [c["number"] for c in results] == want and len(want) >= 5


def test_example_query_without_the_name_word(api, catalogue):
    # Without the name word the same filters find every matching card.
    got = numbers(api, "army:french type:cavalry morale<=b bp>=8 battle:waterloo")
    want = expected(lambda c: c.army == "french" and c.type == "cavalry" and c.morale in "bcd"
                    and c.bp >= 8 and c.at_waterloo)
    assert got == want and len(want) > 0


def test_aliases_give_the_same_results(api, catalogue):
    assert numbers(api, "a:fr t:cav m<=b bp>=8 b:wt") == numbers(
        api, "army:french type:cavalry morale<=b bp>=8 battle:waterloo")


# ------------------------------------------------------------------- language features


@pytest.mark.parametrize("query, predicate", [
    ("morale>=b", lambda c: c.morale in ("a", "b")),
    ("morale<=b", lambda c: c.morale in ("b", "c", "d")),
    ("morale!=b", lambda c: c.morale in ("a", "c", "d")),
    ("-morale:b", lambda c: c.morale != "b"),
    ("bp>=10 or morale:a", lambda c: c.bp >= 10 or c.morale == "a"),
    ("battle:ligny -army:french", lambda c: c.at_ligny and c.army != "french"),
    ("t:artillery is:horse", lambda c: c.type == "artillery" and c.artillery_kind == "horse"),
    ("is:foot", lambda c: c.artillery_kind == "foot"),
    ("army:british nat:kgl", lambda c: c.army == "british" and c.nationality == "kgl"),
    ("nat!=kgl", lambda c: c.nationality is not None and c.nationality != "kgl"),
    ("cv!=3", lambda c: c.cv is not None and c.cv != 3),
    ("-cv:3", lambda c: c.cv != 3),
    ("cv>=4 (army:prussian or army:british)",
     lambda c: c.cv is not None and c.cv >= 4 and c.army in ("prussian", "british")),
    ("-(army:french or army:british)", lambda c: c.army == "prussian"),
    ("is:general", lambda c: c.type == "general"),
    ("is:troop", lambda c: c.type in ("infantry", "cavalry", "artillery")),
    ("is:army-commander", lambda c: c.type == "general" and c.corps == "A"),
    ("is:chief", lambda c: c.chief_of_staff is True),
    ("is:second", lambda c: c.second_in_command is True),
    ("is:guard", lambda c: c.morale == "a" or (c.ob_corps or "").lower() == "guard"
     or (c.type == "general" and (c.corps or "").lower() == "guard")),
    ("-is:special -is:terrain", lambda c: c.type not in ("special", "terrain")),
    ("class:river", lambda c: c.terrain_class == "river"),
    ("pos:left", lambda c: c.terrain_position == "l"),
    ("move<=1", lambda c: c.move_limit is not None and c.move_limit <= 1),
    ("off>=2 def>=2", lambda c: (c.offense or 0) >= 2 and (c.defense or 0) >= 2),
    ("f:3 s>=3", lambda c: c.firepower == 3 and (c.shock or 0) >= 3),
    ("long:2 short>2", lambda c: c.fire_long == 2 and (c.fire_short or 0) > 2),
    ("#>=111 #<=120", lambda c: 111 <= c.number <= 120),
    ("corps:ii", lambda c: (c.ob_corps or "").lower() == "ii" or (c.corps or "").lower() == "ii"),
    ("ob:guard", lambda c: "guard" in c.ob.lower()),
    ("ob=guard", lambda c: c.ob.lower() == "guard"),
    ("text:morale", lambda c: "morale" in (c.special_text or "").lower()),
    ("effect:remove-hits", lambda c: (c.effect or {}).get("kind") == "remove_hits"),
    ("effect!=remove_hits", lambda c: c.type == "special"
     and (c.effect or {}).get("kind") != "remove_hits"),
    ("name:guard", lambda c: "guard" in c.search_name),
    ('"old guard"', lambda c: "old guard" in c.search_name),
    ("name=napoleon", lambda c: c.search_name == "napoleon"),
])
def test_query_matches_plain_python_filter(api, catalogue, query, predicate):
    want = expected(predicate)
    assert numbers(api, query) == want
    assert want, f"{query!r} should match at least one card of the catalogue"


def test_name_search_folds_accents_and_case(api, catalogue):
    napoleon = Card.objects.get(name="Napoléon").number
    for query in ("napoleon", "NAPOLÉON", "Napoléon", "name:napol"):
        assert napoleon in numbers(api, query)
    blucher = numbers(api, "blucher")
    assert Card.objects.get(name="Blücher").number in blucher


def test_empty_query_returns_every_card(api, catalogue):
    assert api.get(LIST, {"q": ""}).json()["count"] == 300
    assert api.get(LIST, {"q": "   "}).json()["count"] == 300


# ------------------------------------------------------------------ filters, ordering


def test_filters(api, catalogue):
    cases = [
        (dict(army="prussian", type="cav"), lambda c: c.army == "prussian" and c.type == "cavalry"),
        (dict(nationality="kgl"), lambda c: c.nationality == "kgl"),
        (dict(morale="a"), lambda c: c.morale == "a"),
        (dict(battle="quatre-bras"), lambda c: c.at_quatre_bras),
        (dict(bp_min=5, bp_max=7), lambda c: 5 <= c.bp <= 7),
    ]
    for params, predicate in cases:
        want = expected(predicate)
        assert want and numbers(api, **params) == want, params  # never empty against empty
    assert numbers(api, number=111) == [111]
    want = expected(lambda c: c.type == "general" and c.army == "french")
    assert want and numbers(api, "is:general", army="fr") == want


@pytest.mark.parametrize("params, detail", [
    ({"army": "italian"}, "army: unknown army value 'italian' (values: french, british,"
                          " prussian)"),
    ({"type": "dragoon"}, "type: unknown type value 'dragoon'"),
    ({"morale": "e"}, "morale: morale takes a letter A-D, got 'e'"),
    ({"battle": "jena"}, "battle: unknown battle value 'jena'"),
    ({"bp_min": "x"}, "bp_min: "),
    ({"bp_max": "-1"}, "bp_max: "),
    ({"number": "301"}, "number: card numbers run from 1 to 300, got 301"),
    ({"ordering": "colour"}, "ordering: unknown key 'colour' (use number, name, bp, cv,"),
])
def test_bad_filter_values_are_400_with_a_precise_message(api, catalogue, params, detail):
    response = api.get(LIST, params)
    assert response.status_code == 400
    body = response.json()
    assert body["detail"].startswith(detail), body
    assert list(body["errors"]) == list(params)


def test_ordering(api, catalogue):
    by_bp = api.get(LIST, {"ordering": "-bp", "page_size": 300}).json()["results"]
    keys = [(-c["bp"], c["number"]) for c in by_bp]
    assert keys == sorted(keys)
    by_name = api.get(LIST, {"ordering": "name", "q": "army:french"}).json()["results"]
    names = [fold(c["name"]) for c in by_name]
    assert names == sorted(names)
    mixed = api.get(LIST, {"ordering": "cv,-number", "q": "is:troop",
                           "page_size": 300}).json()["results"]
    keys = [(c["cv"], -c["number"]) for c in mixed]
    assert keys == sorted(keys)
    default = numbers(api, "t:general")
    assert default == sorted(default)


def test_pagination_keys(api, catalogue):
    body = api.get(LIST).json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 300 and len(body["results"]) == 50
    assert body["previous"] is None and "page=2" in body["next"]
    page2 = api.get(LIST, {"page": 2}).json()
    assert page2["results"][0]["number"] == 51


def test_list_items_have_printings(api, catalogue, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        body = api.get(LIST, {"page_size": 300}).json()
    assert all(len(card["printings"]) == 3 for card in body["results"])


# ------------------------------------------------------------------------------ detail


def test_detail(api, catalogue):
    response = api.get(reverse("api-card-detail", args=[1]))
    assert response.status_code == 200
    card = response.json()
    assert card["number"] == 1 and card["name"] == "Napoléon"
    assert card["printings"] == [{"finish": "gold", "rarity": "rare"},
                                 {"finish": "silver", "rarity": "uncommon"},
                                 {"finish": "bronze", "rarity": "common"}]
    assert card["ob"] == Card.objects.get(number=1).ob
    assert "battles" in card and "data_version" in card


def test_detail_ob_string(api, catalogue):
    card = Card.objects.exclude(ob_division=None).exclude(ob_brigade=None).first()
    body = api.get(f"/api/cards/{card.number}/").json()
    assert body["ob"] == f"{card.ob_corps}/{card.ob_division}/{card.ob_brigade}"


@pytest.mark.parametrize("number, detail", [
    ("301", "No card #301: card numbers run from 1 to 300."),
    ("0", "No card #0: card numbers run from 1 to 300."),
    ("abc", "No card 'abc': card numbers run from 1 to 300."),
    ("99999999999999999999999", "No card '99999999999999999999': card numbers run from 1 to"
                                " 300."),
    ("-1", "No card '-1': card numbers run from 1 to 300."),
])
def test_unknown_card_is_404(api, catalogue, number, detail):
    response = api.get(f"/api/cards/{number}/")
    assert response.status_code == 404
    assert response.json() == {"detail": detail}


# ------------------------------------------------------------------------------ errors


@pytest.mark.parametrize("query, message, position", [
    ("colour:red", "unknown field 'colour' at position 0 (fields: army, type,", 0),
    ("army:fr morale:e", "morale takes a letter A-D, got 'e' at position 15", 15),
    ("army<fr", "'<' does not apply to army at position 4 (use ':' or '!=')", 4),
    ('bp>3 name:"old', "unclosed quote starting at position 10", 10),
    ("a b)", "')' at position 3 has no matching '('", 3),
    ("bp>=", "expected a value after 'bp>=' at position 0", 0),
])
def test_malformed_query_is_400_with_position(api, catalogue, query, message, position):
    response = api.get(LIST, {"q": query})
    assert response.status_code == 400
    body = response.json()
    assert body["detail"].startswith(message)
    assert body["query"] == query and body["position"] == position
    assert body["code"] == "bad_query"


def test_too_long_query_is_400(api, catalogue):
    response = api.get(LIST, {"q": "napoleon " * 200})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("query is too long: 1800 characters")
    assert response.json()["position"] == 1000


@pytest.mark.parametrize("raw", [
    "%00", "%ff%fe", "%C3%28", "a%00b", "%F0%9F%92%A3", "%ED%A0%80", "((((((((",
    "%22%22%22", "-", "or", ":::", "%E2%80%AEevil", "is%3A%00",
])
def test_garbage_bytes_never_500(api, catalogue, raw):
    response = api.get(f"{LIST}?q={raw}")
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert response.json()["detail"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=120))
def test_any_text_is_200_or_400(api, catalogue, text):
    response = api.get(LIST, {"q": text})
    assert response.status_code in (200, 400)


def test_every_field_and_operator_answers_200_or_400(api, catalogue):
    from cards.catalogue.search.parser import FIELDS, OPERATORS

    for spec in FIELDS:
        if spec.kind in ("enum", "flag"):
            values = list(spec.values)
        elif spec.kind == "morale":
            values = ["a", "d"]
        elif spec.kind == "number":
            values = ["0", "3", "300"]
        else:
            values = ["guard", "I/1", '"a b"']
        for op in OPERATORS:
            for value in values:
                for query in (f"{spec.name}{op}{value}", f"-{spec.name}{op}{value}"):
                    response = api.get(LIST, {"q": query})
                    assert response.status_code == (200 if op in spec.operators else 400), query


def test_many_terms_within_the_limit_run(api, catalogue):
    query = " or ".join(f"#:{n}" for n in range(1, 101))
    assert len(query) <= 1000
    assert numbers(api, query) == list(range(1, 101))


# --------------------------------------------------------------------------- selectors


def test_search_cards_selector(catalogue):
    qs = search_cards("is:general", army="br", ordering="-bp")
    bps = [c.bp for c in qs]
    assert bps == sorted(bps, reverse=True) and all(c.army == "british" for c in qs)
    assert search_cards("").count() == 300
    assert search_cards("", army=None, type="").count() == 300
    with pytest.raises(QueryError) as info:
        search_cards("bp>=x")
    assert info.value.position == 4
    with pytest.raises(QueryError) as info:
        search_cards("", army="x")
    assert info.value.position is None


# ---------------------------------------------------------------------------- catalogue


def test_catalogue_endpoint(api, catalogue):
    body = api.get(reverse("api-catalogue")).json()
    assert body["version"]
    assert body["cards"] == 300
    assert body["by_army"] == {"french": 110, "british": 90, "prussian": 100}
    assert sum(body["by_type"].values()) == 300
    names = [f["name"] for f in body["search"]["fields"]]
    assert {"army", "type", "morale", "bp", "is", "name"} <= set(names)


def test_named_urls():
    assert reverse("api-cards-list") == "/api/cards/"
    assert reverse("api-card-detail", args=[12]) == "/api/cards/12/"
    assert reverse("api-catalogue") == "/api/catalogue/"


def test_schema_documents_q_and_filters(api, db):
    response = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json() if response["Content-Type"].startswith("application/json") \
        else None
    if schema is None:
        import yaml

        schema = yaml.safe_load(response.content)
    params = {p["name"] for p in schema["paths"]["/api/cards/"]["get"]["parameters"]}
    assert {"q", "army", "type", "nationality", "morale", "battle", "bp_min", "bp_max",
            "number", "ordering", "page"} <= params


# -------------------------------------------------------------------------------- admin


@pytest.mark.parametrize("model", ["card", "printing", "cataloguerelease", "collectionentry",
                                   "wantentry", "trade", "starterdeck"])
def test_admin_changelists_render(admin_client, catalogue, model):
    response = admin_client.get(f"/admin/cards/{model}/", {"q": "napoleon"})
    assert response.status_code == 200


def test_admin_card_is_read_only(admin_client, catalogue):
    card = Card.objects.get(number=1)
    response = admin_client.get(f"/admin/cards/card/{card.pk}/change/")
    assert response.status_code == 200
    assert admin_client.get("/admin/cards/card/add/").status_code == 403
