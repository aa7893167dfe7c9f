"""The OpenAPI schema: generated without warnings, valid, and covering the key endpoints."""

import json

import pytest
from django.core.management import call_command
from drf_spectacular.drainage import GENERATOR_STATS

KEY_PATHS = [
    "/api/cards/",
    "/api/cards/{number}/",
    "/api/collection/add/",
    "/api/collection/remove/",
    "/api/collection/import/",
    "/api/collection/export/",
    "/api/collection/completion/",
    "/api/trades/suggestions/",
    "/api/decks/",
    "/api/decks/validate/",
    "/api/auth/login/",
    "/api/battles/",
    "/api/battles/{id}/",
    "/api/battles/{id}/act/",
    "/api/battles/open/",
    "/api/battles/{id}/join/",
    "/api/battles/{id}/cancel/",
    "/api/campaigns/",
    "/api/campaigns/{id}/",
    "/api/campaigns/{id}/act/",
]


@pytest.fixture(scope="module")
def schema(tmp_path_factory) -> dict:
    """``manage.py spectacular --validate --fail-on-warn``, in-process, as parsed JSON."""
    path = tmp_path_factory.mktemp("schema") / "schema.json"
    GENERATOR_STATS.reset()  # the warning cache is process-wide: count only this run
    try:
        call_command("spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json",
                     "--file", str(path))
    except Exception as exc:  # SchemaGenerationError / SystemExit: show what was reported
        pytest.fail(f"schema generation failed ({exc!r}); warnings: "
                    f"{dict(GENERATOR_STATS._warn_cache)}; errors: "
                    f"{dict(GENERATOR_STATS._error_cache)}")
    return json.loads(path.read_text())


def test_schema_generates_cleanly_and_validates(schema):
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Eagles Online API"


@pytest.mark.parametrize("path", KEY_PATHS)
def test_key_path_documented(schema, path):
    assert path in schema["paths"], sorted(schema["paths"])


def test_collection_endpoints_document_request_and_response(schema):
    paths = schema["paths"]
    add = paths["/api/collection/add/"]["post"]
    assert add["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/CopiesInput")
    assert "application/json" in add["responses"]["200"]["content"]

    export = paths["/api/collection/export/"]["get"]
    assert export["responses"]["200"]["content"]["text/csv"]["schema"]["type"] == "string"

    upload = paths["/api/collection/import/"]["post"]["requestBody"]["content"]
    assert {"multipart/form-data", "application/json", "text/csv"} <= set(upload)
    ref = upload["multipart/form-data"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert schema["components"]["schemas"][ref]["properties"]["file"]["format"] == "binary"

    card_input = schema["components"]["schemas"]["CopiesInput"]["properties"]
    assert card_input["number"]["type"] == "integer"
    assert card_input["finish"]["type"] == "string"


@pytest.mark.django_db
def test_schema_endpoint_and_docs_render(api):
    r = api.get("/api/schema/")
    assert r.status_code == 200
    r = api.get("/api/docs/")
    assert r.status_code == 200
    assert b"swagger-ui" in r.content
