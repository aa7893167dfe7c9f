"""Matchup lab pages (issue 14): ask from the deck page or from the lab's own page
(``GET /matchups/``: my decks to ask about, my earlier questions), watch the progress, read
the results.

Thin: ``matchups.services`` asks and reads; ``charts.py`` draws. While a matchup runs, its live
fragment polls itself every second with htmx (no inline script) and stops once done.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from config.errors import ServiceError
from decks.selectors import decks_of
from frontend.errors import page_message, refuse
from matchups import services
from matchups.models import ACTIVE, Matchup
from matchups.words import pct

from . import charts


def _context(m) -> dict:
    data = services.as_dict(m)
    r = data["results"]
    context = {"m": m, "data": data, "running": m.status in ACTIVE,
               "progress_svg": charts.progress_bar(m.progress, m.games)}
    if r:
        context.update(
            plot_svg=charts.win_rate_plot(r["series"], title=f"{data['deck_a']['name']}'s "
                                                             f"win rate"),
            differences=r.get("differences"),
            rows=[{"label": label, "wins": r["wins"][key], "rate": pct(r["win_rate"][key]),
                   "low": pct(r["ci95"][key][0]), "high": pct(r["ci95"][key][1]), "key": key}
                  for key, label in (("a", data["deck_a"]["name"]),
                                     ("b", data["deck_b"]["name"]), ("draw", "Draws"))])
    return context


def _matchup(request: HttpRequest, matchup_id: int):
    try:
        return services.matchup_of(request.user, matchup_id)
    except ServiceError as exc:
        refuse(exc)
        raise


@login_required
@require_GET
def page(request: HttpRequest, matchup_id: int) -> HttpResponse:
    return render(request, "frontend/matchups/page.html",
                  _context(_matchup(request, matchup_id)))


@login_required
@require_GET
def live(request: HttpRequest, matchup_id: int) -> HttpResponse:
    return render(request, "frontend/matchups/_live.html", _context(_matchup(request, matchup_id)))


LAB_EARLIER = 20


@login_required
@require_http_methods(["GET", "POST"])
def lab(request: HttpRequest) -> HttpResponse:
    """GET: the lab's page (my decks that can be asked about, ``?deck=<id>``: its form;
    my earlier questions); POST: ask (``ask``)."""
    if request.method == "POST":
        return ask(request)
    decks = [d for d in decks_of(request.user) if d.kind != "campaign"]
    chosen = request.GET.get("deck", "")
    deck = next((d for d in decks if str(d.pk) == chosen), None)
    earlier = (Matchup.objects.filter(created_by=request.user)
               .select_related("deck_a__deck", "deck_b__deck")
               .order_by("-created_at", "-id")[:LAB_EARLIER])
    return render(request, "frontend/matchups/lab.html",
                  {"decks": decks, "deck": deck, "earlier": earlier})


def ask(request: HttpRequest) -> HttpResponse:
    post = request.POST
    bots = [post.get("bot_a") or "greedy", post.get("bot_b") or "greedy"]
    try:
        m, created = services.ask(request.user, post.get("deck_a"), post.get("deck_b") or None,
                                  bots, post.get("games") or None, post.get("seed") or None)
    except ServiceError as exc:
        refuse(exc)
        messages.error(request, f"Matchup not started: {page_message(exc)}.")
        deck = (post.get("deck") or "").strip()
        return redirect("deck-builder", int(deck)) if deck.isdigit() else redirect("decks")
    if not created:
        messages.info(request, "This question was asked before: here is its answer.")
    return redirect("matchup", m.pk)
