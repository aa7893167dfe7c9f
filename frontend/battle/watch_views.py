"""Watching a battle (issue 12, Spectators): ``/battles/<id>/watch/`` shows a public battle
from nobody's side (``selectors.spectator_view``: the engine's ``view(state, None)``, the
public events), to anyone, logged in or not; a private battle is 404 except to its players
(who see it from nobody's side here too). ``static/frontend/live.js`` keeps it up to date
over the battle's websocket (``play/live/``); without JavaScript, reload. With
``HX-Request`` the answer is the ``watch`` fragment only (what live.js swaps in).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe

from battles import selectors
from battles.engine import SIDES
from battles.errors import NotFound
from battles.models import Status
from battles.setup import cards_of
from frontend.battle.board_svg import board_svg
from frontend.battle.words import describe_event, describe_events
from frontend.play.frame import is_htmx
from frontend.play.log import log_groups, log_lines
from game import SIDE_NAMES

from .views import STATUS_LABELS, battle_name, status_line


def watch_context(battle) -> dict:
    """Everything the watch page shows, from ``selectors.spectator_view`` only."""
    sv = selectors.spectator_view(battle)
    view = sv["view"]
    players = {s: sv["players"][s] or "nobody yet" for s in SIDES}
    context = {
        "sv": sv, "battle_name": battle_name(sv["battle"]),
        "players": [(SIDE_NAMES[s], s, players[s]) for s in SIDES],
        "status_line": STATUS_LABELS.get(sv["status"], sv["status"]),
        "outcome": describe_event({"type": "battle_over", **sv["outcome"]}, None)
        if sv["outcome"] else "",
        "board": "", "log": [], "log_turns": [],
        # the frame's log and fair-dice panels (frontend/play/_log.html, _seed.html)
        "game": {"noun": "battle", "log_title": "Battle log", "seed_hash": sv["seed_hash"],
                 "seed": sv["seed"], "replay_url": reverse("battle-replay", args=[sv["id"]]),
                 "replay_text": "every action, from either side or with all cards shown, "
                                "with every die re-derived from the seed."},
    }
    if view is not None:
        cards = cards_of(battle)
        line = status_line(view, "", None)
        if sv["to_move"] and sv["status"] == Status.ACTIVE:
            line += f" · {SIDE_NAMES[sv['to_move']]} to move ({players[sv['to_move']]})"
        context.update(
            board=mark_safe(board_svg(view, "french", cards)),  # noqa: S308 (escaped by renderer)
            status_line=line,
            log=log_lines(sv["log"], describe_events(sv["log"], None, cards, view=view), None,
                          None))
        context["log_turns"] = log_groups(sv["log"], context["log"])  # per turn, as players see
    return context


def watch_page(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        battle = selectors.watchable(request.user, pk)
    except NotFound as exc:
        raise Http404(exc.message) from None
    fragment = is_htmx(request)
    template = "frontend/battles/watch.html" + ("#watch" if fragment else "")
    response = render(request, template, {**watch_context(battle), "fragment": fragment})
    patch_vary_headers(response, ["HX-Request"])
    return response
