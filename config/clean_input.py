"""Clean input (issue 11): NUL bytes and other control characters are refused with a 400 that
names the field, before any view or database sees them.

PostgreSQL cannot store NUL in text (SQLite can), and a lone UTF-16 surrogate cannot be encoded
for it at all, so without this the same request is a 400 on one database and a 500 on the
other. Tab, line feed and carriage return stay allowed (multi-line text). Two hooks, one rule:
``RefuseControlCharactersMiddleware`` for the path and query string of every request, and the
API's parsers (config/parsers.py) for JSON and form bodies. Page forms are covered by Django's
own ``ProhibitNullCharactersValidator`` on every form CharField.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework.exceptions import ParseError

# C0 controls except \t \n \r, DEL, and lone surrogates (from JSON "\ud800" escapes).
FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def describe(char: str) -> str:
    return "a NUL byte" if char == "\x00" else f"the control character U+{ord(char):04X}"


def message(field: str, char: str) -> str:
    return f"{field}: {describe(char)} is not allowed in text."


def find_forbidden(value: Any, field: str = "") -> tuple[str, str] | None:
    """The first (field path, character) in a parsed body or a string, else None. Lists and
    nested objects give dotted paths: ``cards.3.name``."""
    if not _any_forbidden(value):  # the usual case, without building a path per value
        return None
    for path, text in _strings(value, field):
        match = FORBIDDEN.search(text)
        if match:
            return path or "body", match.group()
    return None


_PLAIN = (int, float, bool, type(None))


def _any_forbidden(value: Any) -> bool:
    """Whether a forbidden character is anywhere in ``value`` (as ``_strings`` walks it).
    Iterative, as ``_strings`` is: a body's depth never meets Python's recursion limit."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if FORBIDDEN.search(item) is not None:
                return True
        elif isinstance(item, dict):
            for key, child in item.items():
                if FORBIDDEN.search(str(key)) is not None:
                    return True
                stack.append(child)
        elif isinstance(item, (list, tuple)):
            stack.extend(child for child in item if type(child) not in _PLAIN)
    return False


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every (path, text) in ``value`` in document order, a key before what it names."""
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            yield path, item
        elif isinstance(item, dict):
            later: list[tuple[str, Any]] = []
            for key, child in item.items():
                key = str(key)
                name = f"{path}.{key}" if path else key
                later += [(name, key), (name, child)]  # a bad key is named by itself
            stack.extend(reversed(later))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed([(f"{path}.{index}" if path else str(index), child)
                                   for index, child in enumerate(item)]))


class ControlCharacterError(ParseError):
    """A 400 ``{"detail": ..., "field": ...}`` from the API's parsers."""

    def __init__(self, field: str, char: str):
        field = safe_name(field)
        super().__init__({"detail": message(field, char), "field": field})


def check_body(data: Any) -> None:
    """Raise ``ControlCharacterError`` for the first forbidden character in a parsed body."""
    found = find_forbidden(data)
    if found:
        raise ControlCharacterError(*found)


def check_form(data) -> None:
    """The same for a form body (a QueryDict): the field is named by its key alone."""
    for key, values in data.lists():
        for text in (key, *values):
            match = FORBIDDEN.search(text) if isinstance(text, str) else None
            if match:
                raise ControlCharacterError(key, match.group())


class RefuseControlCharactersMiddleware:
    """400 for a forbidden character in the decoded path or in a query parameter's name or
    value, on every URL (API and pages)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        found = _in_request(request)
        if found is None:
            return self.get_response(request)
        field, char = found
        return JsonResponse({"detail": message(field, char), "field": field}, status=400)


def _in_request(request: HttpRequest) -> tuple[str, str] | None:
    match = FORBIDDEN.search(request.path_info)
    if match:
        return "path", match.group()
    for key, values in request.GET.lists():
        for text in (key, *values):
            match = FORBIDDEN.search(text)
            if match:
                return safe_name(key), match.group()
    return None


def safe_name(field: str) -> str:
    """A field name fit to echo back: its own forbidden characters replaced by '?'."""
    return FORBIDDEN.sub("?", field)
