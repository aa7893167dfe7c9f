"""The page parts of a two-seat game on the game page frame (``frame``), as La Belle
Alliance's and Stratego's pages share them: the status line of a game not under way, the
frame's words for a game (``game_words``), the context of who may join, whether the page
polls and the clocks (``seat_context``), and the game page view (``game_page``). A game's
page adds its own board, actions, log and the line of a game under way."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from play import clock, presence
from play.models import MatchStatus as Status

from . import frame

POLL_SECONDS = 2  # a page waiting for the other player (or the computer) asks this often


def status_text(status: Any) -> str | None:
    """The status line of a game not under way (waiting, or ended and how); None while it is
    active (the game's page says whose move it is)."""
    if status == Status.WAITING:
        return "Waiting for an opponent to join."
    if status == Status.ACTIVE:
        return None
    return {Status.CANCELLED: "This game was cancelled.",
            Status.EXPIRED: "This game expired: nobody took the seat in time.",
            Status.DECLINED: "The invitation was declined.",
            Status.FINISHED: "The game is over."}.get(status, "")


def game_words(kind: str, page: str, m: Any, gv: Mapping[str, Any], *, title: str,
               list_url: str, undo_title: str, replay_text: str) -> dict[str, Any]:
    """``frame.game`` for game ``m`` of ``kind`` (its pages named ``page``, ``page-act``,
    ...; its list page ``list_url``): a player may resign while it is active, actions post as
    plain forms, the live channel is ``ws/games/<kind>/<id>/`` and its messages are of
    ``kind``."""
    words = frame.game(
        page, gv, noun="game", title=title, list_url=reverse(list_url), list_name=title,
        log_title="Log", can_resign=m.status == Status.ACTIVE and gv["my_side"] is not None,
        resign_summary="Resign…", resign_question="Resign this game? Your opponent wins.",
        undo_title=undo_title, replay_text=replay_text, htmx=False,
        live_url=f"/ws/games/{kind}/{m.pk}/")
    words["kind"] = kind  # the URL names are the page's; the socket's messages the kind's
    return words


def seat_context(m: Any, gv: Mapping[str, Any]) -> dict[str, Any]:
    """Whether the viewer may join (a waiting game not theirs), whether the page polls (it
    waits, or the other side moves) and the clocks (the side to move's running)."""
    side = gv["my_side"]
    return {
        "joinable": m.status == Status.WAITING and side is None,
        "poll": m.status == Status.WAITING or (m.status == Status.ACTIVE
                                               and gv["waiting_for"] != "you"),
        "poll_seconds": POLL_SECONDS,
        "clocks": frame.clock_rows(gv["clocks"], side, m.to_move if gv["deadline"]
                                   and m.status == Status.ACTIVE else None),
        "time_control_text": clock.describe(gv["time_control"]),
    }


def game_page(fetch: Callable[[HttpRequest, Any], Any],
              render: Callable[[HttpRequest, Any], HttpResponse]
              ) -> Callable[[HttpRequest, int], HttpResponse]:
    """A game's page: the game ``fetch`` finds (404 otherwise), the viewer marked present
    (``play.presence``), drawn by ``render``."""
    def game_page(request: HttpRequest, pk: int) -> HttpResponse:
        m = fetch(request, pk)
        presence.looked_at(m, request.user)
        return render(request, m)
    return game_page
