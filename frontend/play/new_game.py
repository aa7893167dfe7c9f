"""A game's list page, the parts every game's has: its rows (``list_rows``: my matches, the
open ones I may join, the public ones to watch) and its new-game form, read once
(``new_game_terms``: who to play, the computer, anyone, or a player named in ``username``;
the time control, one of ``play.clock``'s presets; the ``public`` and ``rated`` boxes). The
service checks the rest and says what is wrong."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.http import HttpRequest

from config.errors import BadInput
from frontend import paging
from frontend.rows import url_of
from game import SIDE_NAMES, SIDES
from play import clock

MAX_LIST = 100  # my matches, and the open ones
WATCH_LIST = 20  # the newest public matches under way
SIDE_CHOICES = [(s, SIDE_NAMES[s]) for s in SIDES]
TIME_CONTROLS = [(key, label) for key, label, _tc in clock.PRESETS]


def list_rows(request: HttpRequest, summary: Callable[[Any, Any], dict[str, Any]],
              mine: Sequence[Any], open_: Any, watch: Any, game: str | None = None
              ) -> dict[str, Any]:
    """The list page's rows and choices: ``mine``, the page of my matches the request asks
    for (``play.lists`` branches; ``next_page`` its cursor), with the side I play or
    "invited"; ``open`` (with their time control in words), ``watch`` (as anyone sees them:
    ``summary`` for nobody), each a query set cut here to its limit; the sides and time
    controls. ``game``: the URL name of a match's page; each row of ``mine`` and ``watch``
    gets its ``url`` (reversed once here, not by a template tag per row)."""
    user = request.user
    page = paging.page(mine, request)
    url = url_of(game) if game else None
    rows = [summary(m, user) for m in page.rows]
    for row in rows:
        row["side_name"] = SIDE_NAMES.get(row["my_side"] or "", "invited")
    open_rows = [summary(m, user) for m in open_[:MAX_LIST]]
    for row in open_rows:
        row["time_text"] = clock.describe(row["time_control"])
    watch_rows = [summary(m, None) for m in watch[:WATCH_LIST]]
    if url is not None:
        for row in (*rows, *watch_rows):
            row["url"] = url(row["id"])
    return {"mine": rows, "next_page": page.next, "open": open_rows, "watch": watch_rows,
            "sides": SIDE_CHOICES, "time_controls": TIME_CONTROLS}


def new_game_terms(form: Mapping[str, Any]) -> dict[str, Any]:
    """``opponent``, ``time_control``, ``public`` and ``rated`` from the form, as a game's
    create service takes them; 400 for a time control not in the list."""
    opponent = form.get("opponent", "computer")
    if opponent == "player":
        opponent = str(form.get("username", "")).strip() or "player"
    time_control = form.get("time_control", "untimed")
    if time_control not in clock.PRESET_CONTROLS:
        raise BadInput("choose a time control from the list")
    return {"opponent": opponent, "time_control": clock.PRESET_CONTROLS[time_control],
            "public": form.get("public") == "on", "rated": form.get("rated") == "on"}
