"""What is on now (issue 28, Finding things): the public games under way, for anyone, logged
in or not: battles (watched at ``/battles/<id>/watch/``), campaigns, Stratego: Waterloo and La Belle
Alliance games (their own pages show a spectator the public view). ``/watch/`` lists them all;
the home page shows the first few; a visitor who opens a games list that needs an account (the
battles, the campaigns, Stratego, La Belle Alliance, the lobby) sees this page with a word on
logging in to play instead of the log-in form.

Only public games that have started are listed, and only what anyone may see: the players'
names, the battle, the turn (``selectors.player_names``; no card, no position).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from battles import selectors as battle_selectors
from campaigns import selectors as campaign_selectors
from game import BATTLE_NAMES, SIDE_NAMES, SIDES
from online.belle_alliance import selectors as belle_alliance_selectors
from online.stratego import selectors as stratego_selectors

LIMIT = 20  # of each kind on /watch/
HOME_LIMIT = 4  # of each kind on the home page


def _players(names: dict) -> str:
    return " vs ".join(f"{names.get(s) or 'nobody yet'} ({SIDE_NAMES[s]})" for s in SIDES)


def _matches(selectors, user, limit: int, page: str, name: Callable) -> list[dict]:
    """A two-seat game's public matches under way (``selectors.watchable_games``): each with
    its page (URL name ``page``), ``name(match)``, the players and the turn."""
    return [{"id": m.pk, "url": reverse(page, args=[m.pk]), "name": name(m),
             "players": _players(selectors.player_names(m)),
             "detail": f"turn {m.turn}" if m.turn else ""}
            for m in selectors.watchable_games(user)[:limit]]


def games_on(user, limit: int = LIMIT) -> list[dict]:
    """Each kind of game with its public games under way (``user``'s own left out): ``key``,
    ``title``, ``rows`` (``url``, ``name``, ``players``, ``detail``) and ``more``."""
    battles = []
    for b in battle_selectors.live_public_battles()[:limit * 2]:
        if user.is_authenticated and battle_selectors.side_of(b, user) is not None:
            continue
        battles.append({"id": b.pk, "url": reverse("battle-watch", args=[b.pk]),
                        "name": BATTLE_NAMES.get(b.battle, b.battle),
                        "players": _players(battle_selectors.player_names(b)),
                        "detail": f"turn {b.turn}" if b.turn else "deploying"})
        if len(battles) == limit:
            break
    campaigns = [{"id": c.pk, "url": reverse("campaign", args=[c.pk]),
                  "name": "The Campaign Game",
                  "players": _players(campaign_selectors.player_names(c)), "detail": ""}
                 for c in campaign_selectors.watchable_campaigns(user)[:limit]]
    stratego = _matches(stratego_selectors, user, limit, "stratego-game",
                        lambda m: f"Stratego: Waterloo ({m.get_variant_display()})")
    belle_alliance = _matches(belle_alliance_selectors, user, limit, "belle-alliance-game",
                              lambda m: "La Belle Alliance")
    return [{"key": "battles", "title": "Battles", "rows": battles},
            {"key": "campaigns", "title": "Campaigns", "rows": campaigns},
            {"key": "stratego", "title": "Stratego: Waterloo", "rows": stratego},
            {"key": "belle_alliance", "title": "La Belle Alliance", "rows": belle_alliance}]


def watch_list(request: HttpRequest, *, wanted: str = "") -> HttpResponse:
    """Every public game under way; ``wanted``: the games list a visitor asked for (it needs
    an account: the page says so, with the log-in link back to it)."""
    kinds = games_on(request.user)
    return render(request, "frontend/watch.html", {
        "kinds": kinds, "anything_on": any(k["rows"] for k in kinds), "wanted": wanted,
        "login_next": request.get_full_path() if wanted else ""})


def login_or_watch(wanted: str) -> Callable:
    """A games list that needs an account: a visitor's GET shows what is on now (``/watch/``)
    instead of the log-in form; anything else is ``login_required``'s."""
    def decorate(view: Callable) -> Callable:
        guarded = login_required(view)

        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if not request.user.is_authenticated and request.method in ("GET", "HEAD"):
                return watch_list(request, wanted=wanted)
            return guarded(request, *args, **kwargs)
        return wrapper
    return decorate
