"""Learning the game (thin views): ``how_to_play`` (``/learn/``), the rules of EAGLES in the
site's own words with diagrams drawn by the board renderer (``diagrams``); ``tutorial``
(``/learn/tutorial/``), a first battle step by step on the real engine with scripted dice
(``battles.tutorial``), kept in the visitor's session (no account needed), which they can
leave at any step (``leave``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from battles import tutorial
from battles.engine import view
from frontend.battle.board_svg import board_svg
from frontend.battle.words import describe_action, describe_events
from frontend.play.frame import int_or_raw

from .diagrams import cards, diagrams
from .rules import rule_link

SESSION_KEY = "eagles_tutorial"
TEMPLATES = "frontend/learn/"


def how_to_play(request: HttpRequest) -> HttpResponse:
    return render(request, TEMPLATES + "how_to_play.html",
                  {"diagrams": {d["key"]: d for d in diagrams()},
                   "in_tutorial": SESSION_KEY in request.session})


def _page(request: HttpRequest, doc: dict, happened: list[str], status: int = 200,
          error: str = "") -> HttpResponse:
    table = cards()
    st = tutorial.state_of(doc, table)
    shown = view(st, tutorial.PLAYER)
    step = tutorial.current(doc)
    steps = list(tutorial.player_steps())
    context = {
        "board": mark_safe(board_svg(shown, tutorial.PLAYER, table,  # noqa: S308 (escaped)
                                     id_prefix="tutorial")),
        "step": step, "at": doc["at"], "happened": happened, "error": error,
        "number": steps.index(doc["at"]) + 1 if step else len(steps), "of": len(steps),
        "action": describe_action(tutorial.resolve(st, step), shown, table) if step else "",
        "rules": [rule_link(n) for n in step.rules] if step else [],
        "outcome": st.outcome,
    }
    return render(request, TEMPLATES + "tutorial.html", context, status=status)


def tutorial_view(request: HttpRequest) -> HttpResponse:
    """GET: the current step (a new tutorial when none is under way). POST ``at`` (the step
    shown): play it, and the computer's steps after it, then show the next."""
    doc = request.session.get(SESSION_KEY)
    if request.method == "POST":
        if doc is None:
            return redirect("tutorial")
        at = int_or_raw(request.POST.get("at"))
        if not isinstance(at, int):
            return _page(request, doc, [], 400, "Which step? The form sent no step number.")
        before = view(tutorial.state_of(doc, cards()), tutorial.PLAYER)
        try:
            doc, events = tutorial.play(doc, at, cards())
        except tutorial.TutorialError:  # a second tab, a reloaded form: show where it is
            return _page(request, doc, [], 409, "That step has already been played: here is "
                         "where your battle stands.")
        request.session[SESSION_KEY] = doc
        shown = view(tutorial.state_of(doc, cards()), tutorial.PLAYER)
        return _page(request, doc, describe_events(events, tutorial.PLAYER, cards(),
                                                   view=shown, before=before))
    if doc is None or request.GET.get("restart"):
        doc = tutorial.start(cards())
        request.session[SESSION_KEY] = doc
    return _page(request, doc, [])




@require_POST
def leave(request: HttpRequest) -> HttpResponse:
    """Leave the tutorial at any step: it is forgotten; back to how to play."""
    request.session.pop(SESSION_KEY, None)
    return redirect("learn")
