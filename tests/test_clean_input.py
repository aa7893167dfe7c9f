"""Issue 11, clean input: NUL bytes and other control characters are refused with 400
``{"detail": ..., "field": ...}`` naming the field, on SQLite and PostgreSQL alike (CI runs this
file on both). The six requests that were 500s on PostgreSQL, then a sweep over every API
route's query parameters taken from the OpenAPI schema."""

import json
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tournaments.models import Tournament

from .tournament_helpers import organiser

pytestmark = pytest.mark.django_db


def assert_refused(r, field: str) -> None:
    assert r.status_code == 400, (r.status_code, r.content[:300])
    body = r.json()
    assert body["field"] == field, body
    assert field in body["detail"] and "not allowed" in body["detail"], body
    assert "\x00" not in r.content.decode()  # the bad character is never echoed


@pytest.mark.parametrize("url, field", [
    ("/api/battles/?status=%00", "status"),
    ("/api/tournaments/?status=%00", "status"),
    ("/api/shared-decks/%00/", "path"),
    ("/api/cards/?q=napol%00eon", "q"),
    ("/api/cards/?%00=1", "?"),
    ("/cards/?q=%01", "q"),  # pages too
])
def test_nul_in_query_or_path_is_400_naming_it(alice_api, catalogue, url, field):
    assert_refused(alice_api.get(url), field)


@pytest.fixture
def org_api(catalogue):
    c = APIClient()
    c.force_authenticate(organiser())
    return c


@pytest.mark.parametrize("field", ["name", "description"])
def test_nul_in_a_tournament_text_is_400_and_nothing_is_stored(org_api, field):
    body = {"name": "Quatre Bras Open", "battle": "quatre-bras", "round_seconds": 600,
            field: "Quatre\x00Bras"}
    assert_refused(org_api.post("/api/tournaments/", body, format="json"), field)
    assert not Tournament.objects.exists()


def test_nul_in_a_battle_opponent_is_400(alice_api, catalogue):
    r = alice_api.post("/api/battles/", {"battle": "quatre-bras", "side": "allied",
                                         "opponent": "bob\x00"}, format="json")
    assert_refused(r, "opponent")


@pytest.mark.parametrize("char", ["\x01", "\x1b", "\x7f", "\ud800"])
def test_other_control_characters_and_lone_surrogates_are_refused(org_api, char):
    body = json.dumps({"name": f"Open{char}", "battle": "quatre-bras", "round_seconds": 600})
    r = org_api.post("/api/tournaments/", body, content_type="application/json")
    assert_refused(r, "name")


def test_nested_fields_are_named_by_their_path(org_api):
    r = org_api.post("/api/tournaments/", {"name": "Open", "battle": "quatre-bras",
                                           "prizes": [{"label": "ok"}, {"label": "b\x00d"}]},
                     format="json")
    assert_refused(r, "prizes.1.label")


def test_form_and_multipart_bodies_are_checked(alice_api, catalogue):
    r = alice_api.post("/api/collection/import/", {"mode": "add\x00"}, format="multipart")
    assert_refused(r, "mode")
    r = alice_api.post("/api/tournaments/", "name=a%00b&battle=ligny",
                       content_type="application/x-www-form-urlencoded")
    assert r.status_code in (400, 403)  # a player may not create; never a 500


def test_tab_and_newlines_stay_allowed(org_api):
    body = {"name": "Quatre Bras Open", "battle": "quatre-bras", "round_seconds": 600,
            "description": "line one\n\tline two\r\n"}
    r = org_api.post("/api/tournaments/", body, format="json")
    assert r.status_code == 201, r.content
    assert Tournament.objects.get().description.startswith("line one\n\tline two")


def _api_get_routes() -> list[tuple[str, list[str]]]:
    """(path template, query parameter names) of every GET in the OpenAPI schema."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    routes = []
    for path, ops in schema["paths"].items():
        if "get" in ops:
            names = [p["name"] for p in ops["get"].get("parameters", []) if p["in"] == "query"]
            routes.append((path, names))
    return routes


def test_the_sweep_covers_every_api_route():
    paths = {path for path, _ in _api_get_routes()}
    assert len(paths) >= 25 and "/api/cards/" in paths and "/api/battles/" in paths


def test_sweep_every_api_route_refuses_nul_in_each_query_parameter(alice_api, catalogue):
    seen = 0
    for template, names in _api_get_routes():
        path = re.sub(r"\{[^}]+\}", "1", template)
        for name in [*names, "unknown"]:
            r = alice_api.get(f"{path}?{name}=a%00b")
            assert r.status_code == 400 and r.json()["field"] == name, (path, name, r.content)
            seen += 1
        # a string path parameter that is NUL
        if "{" in template:
            bad = re.sub(r"\{[^}]+\}", "%00", template)
            assert_refused(alice_api.get(bad), "path")
    assert seen > 40


def test_url_reverse_unchanged_for_clean_paths(alice_api, catalogue):
    """The middleware lets clean requests through untouched."""
    assert alice_api.get(reverse("api-me")).status_code == 200
    assert alice_api.get("/api/cards/?q=napol%C3%A9on").status_code == 200
