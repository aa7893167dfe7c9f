"""A two-seat game's list page, written once (``templates/frontend/play/list.html``): my
games, the open ones I may join, the public ones to watch, and the new-game form (its fields
read by ``new_game``). A game's views give its selectors (``games_of``, ``open_games``,
``watchable_games``, ``game_summary``), its URL names and its form's choices."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from frontend.play.new_game import MAX_LIST, WATCH_LIST, list_rows
from frontend.play.posts import list_view
from frontend.whats_on import login_or_watch

OPPONENTS = (("computer", "The computer"), ("open", "Anyone (an open game)"),
             ("player", "A player I name"))


@dataclass(frozen=True)
class GameList:
    """A game's list page. ``selectors``: its read module; ``template``: its list template
    (extending the shared one); ``list_url`` and ``page``: the URL names of the list and of
    a game (``<page>-join`` and ``<page>-cancel`` its list POSTs); ``rating_name``: its
    ratings' name; ``error_id``: the test id of the error box; ``sides`` and ``bots``: the
    form's choices (value, words); ``extra()``: more context (its own fields' choices)."""

    selectors: Any
    template: str
    list_url: str
    page: str
    rating_name: str
    error_id: str
    sides: Sequence[tuple[str, str]]
    bots: Sequence[tuple[str, str]]
    extra: Mapping[str, Any] = field(default_factory=dict)

    def render(self, request: HttpRequest, error: str = "", status: int = 200,
               form: Mapping[str, Any] | None = None) -> HttpResponse:
        """The page for ``request.user`` (``error`` and ``status``: a refusal to show;
        ``form``: what was posted, shown again)."""
        user, sel = request.user, self.selectors
        return render(request, self.template, {
            **list_rows(request, sel.game_summary, sel.games_of(user),
                        sel.open_list(user, MAX_LIST), sel.watch_list(user, WATCH_LIST),
                        game=self.page),
            "error": error, "form": form or {}, "sides": self.sides, "opponents": OPPONENTS,
            "bots": self.bots,
            "urls": {"list": self.list_url, "game": self.page, "join": f"{self.page}-join",
                     "cancel": f"{self.page}-cancel"},
            "rating_name": self.rating_name, "error_id": self.error_id, **self.extra},
            status=status)

    def view(self, create: Callable[[Any, Mapping[str, Any]], Any], wanted: str
             ) -> Callable[[HttpRequest], HttpResponse]:
        """The list page's view: GET the page (a visitor: what is on now, ``wanted`` the
        game's name); POST ``create(user, form)`` a new game, then its page (a refusal: the
        list again with the message, its status and the form as posted)."""
        return list_view(lambda request, form: create(request.user, form), self.render,
                         self.page, guard=login_or_watch(wanted))
