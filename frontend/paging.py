"""A list page's page of the user's matches (``play.lists``): ``?before=`` and ``?limit=`` as
the API takes them; a malformed one is a 400 page, never a 500."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import BadRequest
from django.http import HttpRequest

from config.errors import BadInput
from play import lists


def page(parts: Sequence[Any], request: HttpRequest) -> lists.Page:
    try:
        return lists.page_of(parts, request.GET)
    except BadInput as exc:
        raise BadRequest(exc.message) from None
