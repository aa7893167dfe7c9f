"""The game page frame's view side: the context every game's page hands to
``templates/frontend/play/game.html`` and how it is rendered (see ``frontend.play``).

A page's context holds ``game`` (``game(...)``: ids, whose move, the URLs, the words that
differ between games) and the frame's parts: ``status_line``, ``outcome``, ``error``,
``confirm`` (``confirm(...)``), ``clocks`` (``clock_rows``), ``poll`` and ``poll_seconds``,
``sections`` (``actions.action_sections``), ``log`` and ``log_turns`` (``log``), ``dice``
and ``dice_caption`` (``last_dice``). Everything shown comes from the selectors' view of
the viewer (a player's side, or a spectator's): never the raw events or the state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe

from config import safe_json
from frontend.battle.dice_svg import dice_svg, last_roll
from game import SIDE_NAMES, SIDES, other_side
from play import presence

PAGE = "frontend/play/_page.html"  # the whole page: header, then the play area
FRAGMENT = "frontend/play/_fragment.html"  # htmx: the play area, the header out of band


def is_htmx(request: HttpRequest) -> bool:
    """An htmx request wants a fragment (a history restore wants the whole page)."""
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def render_game(request: HttpRequest, template: str, context: dict, *,
                status: int = 200) -> HttpResponse:
    """``template`` (which extends ``frontend/play/game.html``) as a whole page, or, for
    htmx, as the play fragment with the header swapped out of band."""
    fragment = is_htmx(request)
    response = render(request, template, {**context, "fragment": fragment,
                                           "frame": FRAGMENT if fragment else PAGE},
                      status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def int_or_raw(value: str | None):
    """A whole number from a form field, the raw text otherwise (the service says why it is
    wrong), None when empty."""
    value = (value or "").strip()
    if value.isascii() and value.isdigit() and len(value) < 12:
        return int(value)
    return value or None


def posted(data: Mapping[str, str]) -> tuple[Any, Any]:
    """``seq`` and ``action`` (JSON) from an action form (the service refuses what they are
    not)."""
    raw = data.get("action", "")
    try:
        action = safe_json.loads(raw) if raw else None
    except ValueError:  # not JSON, or nested too deep
        action = raw
    return int_or_raw(data.get("seq", "")), action


def game(kind: str, view: Mapping, **words: Any) -> dict[str, Any]:
    """The frame's ``game``: from the selectors' view (``id``, ``seq``, ``status``,
    ``waiting_for``, ``can_undo``, ``can_claim``, ``seed_hash``, ``seed``, ``opponent``,
    ``paused``), the URLs of the kind's pages (named ``<kind>``, ``<kind>-act``, ``-undo``,
    ``-resign``, ``-claim``, ``-replay``) and its socket, the absence limit
    (``play.presence``: the claim form), and the ``words`` that differ between games (``noun``,
    ``title``, ``list_url``, ``list_name``, ``resign_summary``, ``resign_question``,
    ``undo_title``, ``log_title``, ``replay_text``, ``clock_note``, ``htmx``: actions post
    through htmx, ``can_resign``)."""
    pk = view["id"]
    url = {name: reverse(f"{kind}{name}", args=[pk])
           for name in ("", "-act", "-undo", "-resign", "-claim", "-replay")}
    return {
        "kind": kind, "id": pk, "seq": view["seq"], "status": view["status"],
        "waiting_for": view.get("waiting_for"), "paused": bool(view.get("paused")),
        "opponent": view.get("opponent"), "can_undo": bool(view.get("can_undo")),
        "can_claim": bool(view.get("can_claim")), "claim_url": url["-claim"],
        "absence_limit": presence.ABSENCE_LIMIT,
        "seed_hash": view.get("seed_hash"), "seed": view.get("seed"),
        "dom_id": f"{kind}-play", "url": url[""], "act_url": url["-act"],
        "undo_url": url["-undo"], "resign_url": url["-resign"], "replay_url": url["-replay"],
        "live_url": f"/ws/{kind}s/{pk}/", "htmx": True, "can_resign": False,
        **words,
    }


# The kinds of response window a player may choose not to be asked in, as a player says them.
PASS_KIND_WORDS = {"fire": "Enemy fire", "shock": "Enemy shock attacks",
                   "engage": "Enemy moves into contact", "morale": "Enemy morale rolls"}


def passing(kind: str, match: Any, view: Mapping) -> dict[str, Any]:
    """A player's standing choices to pass (``play.passing``) as the frame shows them:
    ``pass_rest`` ("Pass for the rest of this enemy turn": only in a response window, i.e.
    while a Pass is among their legal actions), ``pass_kinds`` (each kind of window the game
    has, with whether they are asked in it), ``pass_skipped`` and the two forms' URLs. Empty
    for a spectator, a match not under way or a game without such windows."""
    from play import registry
    from play.passing import choices_of, kinds_of, own_endings, window_now

    side = view.get("my_side")
    game = registry.get(kind)
    kinds = kinds_of(game)
    if side is None or view.get("status") != "active" or not kinds:
        return {"pass_rest": False, "pass_kinds": []}
    skip = set(choices_of(match, side).get("skip") or ())
    pass_rest = any(a.get("type") == "pass" for a in view.get("legal_actions") or ())
    window = window_now(game, match, side) if pass_rest else None
    return {
        **ending_for_me(kind, match, view, own_endings(game)),
        **fire_order(kind, match, view),
        "pass_rest": pass_rest,
        # "Pass, and do not ask me about enemy fire again": the kind of this window
        "pass_kind": PASS_KIND_WORDS.get(window, "").lower() if window else "",
        "pass_kind_url": reverse(f"{kind}-pass-kind", args=[match.pk]),
        "pass_kinds": [{"key": k, "label": PASS_KIND_WORDS.get(k, k), "ask": k not in skip}
                       for k in kinds],
        "pass_skipped": len(skip & set(kinds)),
        "pass_rest_url": reverse(f"{kind}-pass-rest", args=[match.pk]),
        "passing_url": reverse(f"{kind}-passing", args=[match.pk]),
    }


def fire_order(kind: str, match: Any, view: Mapping) -> dict[str, Any]:
    """The order "Fire with every ready card (each at its suggested target)"
    (``play.passing.fire_order``) as the frame shows it: ``fire_offer`` (a card of the
    player's can fire in their Combat Phase: the button beside the fire actions),
    ``fire_on`` (the order stands for this phase: "Stop firing for me"),
    ``fire_suggested`` (the suggested fires, as the action buttons' JSON: each is marked in
    the fire list) and the form's URL. {} for a game without it."""
    from play import registry
    from play.passing import fire_order_now

    now = fire_order_now(registry.get(kind), match, view.get("my_side"),
                         list(view.get("legal_actions") or ()))
    if not now:
        return {}
    suggested = now["suggested"]
    return {"fire_offer": bool(suggested), "fire_on": now["in_force"],
            "fire_suggested": [json.dumps(a, separators=(",", ":")) for a in suggested],
            "fire_order_url": reverse(f"{kind}-fire-order", args=[match.pk])}


def ending_for_me(kind: str, match: Any, view: Mapping, endings: frozenset[str]
                  ) -> dict[str, Any]:
    """The setting "end my phase or turn for me when that is all that is left"
    (``accounts.Preferences.end_for_me``) as the frame shows it: ``end_offer`` (ending is the
    player's lone action now: the button that ends it and switches the setting on),
    ``end_on`` (the setting is on: the button to switch it off), the form's URL."""
    if not endings:
        return {}
    from accounts.models import Preferences

    legal = view.get("legal_actions") or ()
    user_id = match.player_id(view.get("my_side")) if hasattr(match, "player_id") else None
    on = bool(user_id is not None and Preferences.objects.filter(
        user_id=user_id, end_for_me=True).exists())
    return {"end_offer": not on and len(legal) == 1 and legal[0].get("type") in endings,
            "end_on": on, "end_for_me_url": reverse(f"{kind}-end-for-me", args=[match.pk])}


def is_legal_now(view: Mapping, seq: Any, action: Any) -> bool:
    """``action`` is one of the viewer's legal actions at ``seq`` (a risky one is asked
    about only then; anything else goes to the service, which accepts or refuses it)."""
    return isinstance(action, dict) and seq == view["seq"] and action in view["legal_actions"]


def confirm(message: str, seq: Any, action: str) -> dict[str, Any]:
    """The question asked before a risky action (``confirm=1`` plays it)."""
    return {"message": message, "seq": seq, "action": action}


def my_last_seq(match: Any, side: str | None) -> int | None:
    """The seq of ``side``'s last action (who acted is public), None before its first or
    for a spectator."""
    if side is None:
        return None
    return match.actions.filter(side=side).aggregate(m=Max("seq"))["m"]


def clock_text(seconds: int) -> str:
    """3 d 04:05:06, 1:02:03, 12:34 (as static/frontend/clock.js writes it)."""
    days, rest = divmod(max(0, int(seconds)), 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours:02d}:{minutes:02d}:{secs:02d}"
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def clock_rows(clocks: Mapping | None, side: str | None, running: str | None) -> list[dict]:
    """Both clocks (the viewer's first; a spectator: French first): seconds left, as text,
    and which one runs ([] untimed)."""
    if not clocks:
        return []
    order = (side, other_side(side)) if side in SIDES else SIDES
    return [{"side": s, "name": SIDE_NAMES[s], "mine": s == side,
             "seconds": clocks.get(s, 0), "text": clock_text(clocks.get(s, 0)),
             "running": running == s} for s in order]


def last_dice(log: Sequence[Mapping], where: str = "") -> dict[str, Any]:
    """The last dice rolled in the viewer's ``log`` (``dice``: an SVG, "" when none) and its
    caption's note (``dice_caption``: "action 12", or ``where`` first)."""
    seq, rolls = last_roll(log)
    note = ", ".join(part for part in (where, f"action {seq}" if seq else "") if part)
    return {"dice": mark_safe(dice_svg(rolls)), "dice_caption": note}  # noqa: S308 (escaped)
