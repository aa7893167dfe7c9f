"""Bodies that are valid JSON but not objects, or empty, get a 400, never a 500.

Found by fuzzing the OpenAPI schema (schemathesis, `not_a_server_error`)."""

import json

import pytest

pytestmark = pytest.mark.django_db

POSTS = [
    "/api/tournaments/", "/api/tournaments/1/register/", "/api/tournaments/1/drop/",
    "/api/matches/1/report/", "/api/matches/1/correct/", "/api/matches/1/settle/",
    "/api/decks/", "/api/decks/validate/", "/api/collection/add/", "/api/collection/remove/",
    "/api/collection/import/", "/api/trades/", "/api/wants/", "/api/auth/login/",
]


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("body", [[], [1, 2], "text", 7, None])
def test_json_body_that_is_not_an_object_is_400(alice_api, catalogue, path, body):
    response = alice_api.generic("POST", path, json.dumps(body),
                                 content_type="application/json")
    assert response.status_code == 400, (path, body, response.content)
    assert "must be a JSON object" in response.json()["detail"]


def test_collection_import_without_a_body_is_400(alice_api, catalogue):
    response = alice_api.generic("POST", "/api/collection/import/?mode=add", b"",
                                 content_type="")
    assert response.status_code == 400
    assert "CSV" in response.json()["detail"]


def test_too_many_form_fields_is_400(alice_api, catalogue):
    body = "&".join(f"f{i}=1" for i in range(1500))
    response = alice_api.generic("POST", "/api/decks/validate/", body,
                                 content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
