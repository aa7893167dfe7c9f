"""One error shape: the house family (config.errors), mapped once for the API and once for
the pages; no view overrides the mapping, and nothing branches on an error's English text."""

import ast
import re
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404

from config.api_errors import exception_handler
from config.errors import CODES, BadInput, Conflict, NotAllowed, NotFound, ServiceError
from frontend.errors import page_message, refuse

ROOT = Path(__file__).resolve().parent.parent
APPS = ["accounts", "battles", "cards", "config", "decks", "frontend", "game", "tournaments"]


def _sources():
    for app in APPS:
        yield from (ROOT / app).rglob("*.py")


def test_no_view_overrides_the_api_error_mapping():
    overriding = [str(path.relative_to(ROOT)) for path in _sources()
                  if re.search(r"def handle_exception\(", path.read_text())]
    assert overriding == []


def test_no_control_flow_on_error_text():
    pattern = re.compile(r"\.message\.(startswith|endswith)\(|in str\(exc\)|\" in exc\.message")
    found = [str(path.relative_to(ROOT)) for path in _sources()
             if pattern.search(path.read_text())]
    assert found == []


def test_every_code_raised_is_a_listed_code():
    codes = set()
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                codes |= {k.value.value for k in node.keywords if k.arg == "code"
                          and isinstance(k.value, ast.Constant)
                          and isinstance(node.func, ast.Name | ast.Attribute)
                          and getattr(node.func, "id", getattr(node.func, "attr", ""))
                          in {"BadInput", "ServiceError", "Conflict", "NotFound",
                              "NotAllowed", "BattleError", "TournamentError",
                              "DeckInputError"}}
    assert codes and codes <= set(CODES)
    for cls in (ServiceError, BadInput, NotAllowed, NotFound, Conflict):
        assert cls.code in CODES


@pytest.mark.parametrize("exc, status, code", [
    (BadInput("no"), 400, "bad_input"), (NotAllowed("no"), 403, "not_allowed"),
    (NotFound("no"), 404, "not_found"), (Conflict("no"), 409, "conflict"),
    (Conflict("moved on", code="stale_seq", seq=3), 409, "stale_seq"),
])
def test_the_api_answers_detail_code_and_extra(exc, status, code):
    response = exception_handler(exc, {})
    assert response.status_code == status
    assert response.data == {"detail": exc.message, "code": code, **exc.extra}


def test_pages_map_by_status_and_code():
    with pytest.raises(Http404):
        refuse(NotFound("no such battle"))
    with pytest.raises(PermissionDenied):
        refuse(NotAllowed("not yours"))
    assert refuse(Conflict("over")) is None
    assert page_message(BadInput("bad seq"), capitalise=True) == "Bad seq"
    stale = Conflict("the battle has moved on: reload", code="stale_seq")
    assert page_message(stale) == "The battle has moved on: this is where it stands now."
