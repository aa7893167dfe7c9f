"""Ratings pages: a player's page, the leaderboard, and the lobby (open challenges with
filters, "play now", the computer with its strengths).

Thin views: reads come from ``ratings.selectors`` and ``ratings.lobby``, writes go through
``ratings.lobby.play_now`` and ``battles.services.create_battle``. A refusal is a 404 (no such
player, no such page) or the lobby again with the service's message and status.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from battles import services
from battles.bots import BOTS
from battles.errors import BattleError
from frontend.battle.views import BOT_LABELS, battle_name
from frontend.errors import page_message, refuse
from frontend.whats_on import login_or_watch
from game import BATTLES, SIDE_NAMES, SIDES
from ratings import lobby, selectors

TEMPLATES = "frontend/ratings/"
TIME_LABELS = {"untimed": "Untimed", "live": "Live (a clock per side)",
               "correspondence": "Correspondence (days per move)"}
DECK_LABELS = {"dealt": "Dealt", "custom": "Custom deck"}
RESULT_LABELS = {"won": "Won", "lost": "Lost", "drawn": "Drawn"}


def _names(row: dict, side_key: str = "side") -> dict:
    return {**row, "battle_name": battle_name(row["battle"]),
            "side_name": SIDE_NAMES.get(row[side_key], row[side_key])}


def time_text(control: dict) -> str:
    """A time control in words: "untimed", "live 10 min + 5 s", "correspondence, 3 days"."""
    kind = (control or {}).get("kind")
    if kind == "live":
        base, inc = control.get("base", 0), control.get("increment", 0)
        return f"live {base // 60} min + {inc} s" if isinstance(base, int) and \
            isinstance(inc, int) else "live"
    if kind == "correspondence":
        days = control.get("days")
        return f"correspondence, {days} day{'s' if days != 1 else ''} a move" \
            if isinstance(days, int) else "correspondence"
    return "untimed"


def player(request: HttpRequest, username: str) -> HttpResponse:
    try:
        profile = selectors.player_profile(username)
    except BattleError as exc:
        refuse(exc)
        raise
    profile["records"] = [_names(r) for r in profile["records"]]
    profile["recent"] = [{**_names(r), "result_label": RESULT_LABELS[r["result"]]}
                         for r in profile["recent"]]
    campaigns = profile["campaigns"]
    campaigns["records"] = [{**r, "side_name": SIDE_NAMES[r["side"]]}
                            for r in campaigns["records"]]
    campaigns["recent"] = [{**r, "side_name": SIDE_NAMES[r["side"]],
                            "result_label": RESULT_LABELS[r["result"]]}
                           for r in campaigns["recent"]]
    for game in profile["other_games"]:
        game["records"] = [{**r, "side_name": SIDE_NAMES[r["side"]]} for r in game["records"]]
        game["recent"] = [{**r, "side_name": SIDE_NAMES[r["side"]],
                           "result_label": RESULT_LABELS[r["result"]]}
                          for r in game["recent"]]
    return render(request, TEMPLATES + "player.html", {"p": profile})


def leaderboard(request: HttpRequest) -> HttpResponse:
    """The leaderboard of one game (``?game=``: a rating pool, EAGLES by default), with a
    link to each other game's."""
    try:
        board = selectors.leaderboard(request.GET.get("page"), pool=request.GET.get("game"))
    except BattleError as exc:  # past the last page, a page that is no number, no such game
        raise Http404(exc.message) from None
    board["title"] = dict(selectors.pools())[board["pool"]]
    return render(request, TEMPLATES + "leaderboard.html", {"board": board})


# --- the lobby ------------------------------------------------------------------------------

def _lobby_context(request: HttpRequest, filters: lobby.Filters, **extra) -> dict:
    rows = []
    for c in lobby.challenges(request.user, filters):
        rows.append({**_names(c), "time_text": time_text(c["time_control"]),
                     "deck_label": DECK_LABELS[c["deck_kind"]]})
    me = selectors.ratings_of([request.user.pk])[request.user.pk]
    return {"rows": rows, "filters": filters, "me": me,
            "battles": [(key, battle_name(key)) for key in BATTLES],
            "sides": [(s, SIDE_NAMES[s]) for s in SIDES],
            "times": list(TIME_LABELS.items()), "decks": list(DECK_LABELS.items()),
            "bots": [(name, BOT_LABELS.get(name, name.title())) for name in BOTS],
            "windows": lobby.WINDOWS, "error": "", "play": {}, **extra}


@login_or_watch("against another player")
def lobby_page(request: HttpRequest) -> HttpResponse:
    q = request.GET
    try:
        filters = lobby.Filters.clean(q.get("battle"), q.get("time"), q.get("deck"),
                                      q.get("rated"))
    except BattleError as exc:
        return render(request, TEMPLATES + "lobby.html",
                      _lobby_context(request, lobby.Filters(),
                                     error=page_message(exc, capitalise=True)),
                      status=exc.status)
    return render(request, TEMPLATES + "lobby.html", _lobby_context(request, filters))


def _refused(request: HttpRequest, exc: BattleError, form: dict) -> HttpResponse:
    refuse(exc)
    return render(request, TEMPLATES + "lobby.html",
                  _lobby_context(request, lobby.Filters(), play=form,
                                 error=page_message(exc, capitalise=True)),
                  status=exc.status)


@login_required
@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """Join the open battle whose creator is closest to my rating, or open one and wait;
    then the battle's page (playing, or waiting for an opponent)."""
    form = {"battle": request.POST.get("battle", ""), "side": request.POST.get("side", ""),
            "rated": bool(request.POST.get("rated"))}
    try:
        found = lobby.play_now(request.user, form["battle"], form["side"],
                               rated=form["rated"])
    except BattleError as exc:
        return _refused(request, exc, form)
    return redirect("battle", pk=found.battle.pk)


@login_required
@require_POST
def computer(request: HttpRequest) -> HttpResponse:
    """A battle against the computer at the strength chosen (never rated)."""
    form = {"battle": request.POST.get("battle", ""), "side": request.POST.get("side", ""),
            "bot": request.POST.get("bot", "")}
    try:
        b = services.create_battle(request.user, form["battle"], form["side"], bot=form["bot"])
    except BattleError as exc:
        return _refused(request, exc, form)
    return redirect("battle", pk=b.pk)
