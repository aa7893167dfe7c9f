"""La Belle Alliance pages: my games (with the open ones, the games to watch and a form to
start one against the computer or a person), a game's page on the game page frame
(``frontend.play``) and a finished game's replay.

Thin: every rule is in ``online.belle_alliance.services`` (writes) and
``online.belle_alliance.selectors``
(reads). The battlefield map is ``battlefield_svg``, drawn from the card data the game plays
with; the cards are shown with their outcome tables (the house edition, ours, not the
publisher's, says so); the legal actions are buttons, one group per card. Every action is a
plain POST form (redirect back): the page works without JavaScript; the live wiring is the
frame's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe

from belle_alliance.engine import CardData
from frontend.play import frame
from frontend.play.actions import split_group
from frontend.play.game_list import GameList
from frontend.play.log import log_groups, log_lines
from frontend.play.new_game import new_game_terms
from frontend.play.posts import GamePosts, or_404, seat_view
from frontend.play.replay import replay_at
from frontend.play.seated import game_page as seated_game_page
from frontend.play.seated import game_words, seat_context, status_text
from game import SIDES
from online.belle_alliance import selectors, services
from online.belle_alliance.kind import KIND, cards_of
from online.belle_alliance.models import BelleAllianceMatch
from play.seats import side_of

from .battlefield_svg import battlefield_svg
from .words import HOUSE_NOTE, action_label, effect_text, event_text, names_of, outcome_text

TEMPLATES = "frontend/belle_alliance/"
PAGE = "belle-alliance-game"
BOTS = (("greedy", "Greedy"), ("expectimax", "Expectimax (plays the odds)"),
        ("random", "Random"))
SIDE_WORDS = {"french": "French", "allied": "Anglo-Allied (and Blücher)"}


game_or_404 = or_404(selectors.game_of)


# --- my games and a new one -------------------------------------------------------------------

LIST = GameList(selectors=selectors, template=TEMPLATES + "list.html", list_url="belle-alliance",
                page=PAGE, rating_name="La Belle Alliance", error_id="lba-error",
                sides=[(s, SIDE_WORDS[s]) for s in SIDES], bots=BOTS)


game_list = LIST.view(lambda user, form: services.create_game(
    user, form.get("side"), bot=form.get("bot", "greedy"), **new_game_terms(form)),
    "La Belle Alliance")


join = seat_view(lambda request, pk: services.join_game(pk, request.user), LIST.render,
                 lambda pk: redirect(PAGE, pk=pk))
cancel = seat_view(lambda request, pk: services.cancel_game(pk, request.user), LIST.render,
                   lambda pk: redirect("belle-alliance"))


# --- a game ----------------------------------------------------------------------------------

def card_tables(cards: CardData, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Each side's cards with their actions and outcome tables (rows 1-6), as the data gives
    them (a house edition: ours)."""
    out = []
    for side in SIDES:
        shown = []
        for card in cards.side_cards(side):
            actions = [{"name": a.name, "counter": a.kind == "counter",
                        "targets": [names.get(t, t) for t in a.targets],
                        "modifiers": [f"{m.value:+d}" + (f" ({m.why})" if m.why else "")
                                      for m in a.modifiers],
                        "note": a.note,
                        "rows": [(i + 1, effect_text(e.as_dict(), names))
                                 for i, e in enumerate(a.table)]} for a in card.actions]
            shown.append({"id": card.id, "name": names.get(card.id, card.name),
                          "kind": card.kind, "note": card.note, "actions": actions,
                          "divisions": list(card.divisions)})
        out.append({"side": side, "name": SIDE_WORDS[side], "cards": shown})
    return out


def action_groups(legal: Sequence[Mapping[str, Any]], cards: CardData,
                  names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The legal actions as the frame's sections: one group of buttons per card."""
    action_names = {(c.id, a.id): a.name for c in cards.cards.values() for a in c.actions}
    groups: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        key = str(a.get("card") or a.get("type"))
        groups.setdefault(key, []).append({
            "action": a, "type": a.get("type"), "label": action_label(a, names, action_names),
            "json": json.dumps(a, separators=(",", ":"))})
    shown = []
    for items in groups.values():
        title, where = split_group(items)
        shown.append({"title": title, "where": where, "items": items})
    if not shown:
        return []
    kind = str(legal[0].get("type"))
    title = {"casualty": "Which corps takes the casualty", "pass": "Pass"}.get(
        kind, "Activate a card")
    return [{"key": kind, "title": title, "groups": shown, "count": len(legal)}]


def status_line(gv: Mapping[str, Any]) -> str:
    v = gv["view"] or {}
    not_under_way = status_text(gv["status"])
    if not_under_way is not None:
        return not_under_way
    doing = f"turn {gv['turn']}, {v.get('time_label')}: the {SIDE_WORDS.get(gv['phase'], '')}" \
            " phase"
    if gv["waiting_for"] == "you":
        return f"Your move ({doing})."
    return f"{doing[:1].upper()}{doing[1:]}; this page updates by itself."


def _log_context(m: BelleAllianceMatch, side: str | None, log: Sequence[Mapping[str, Any]],
                 names: Mapping[str, str]) -> dict[str, Any]:
    """The log, one group per turn (a French phase opens a turn)."""
    lines = log_lines(log, [event_text(e, names) for e in log], side,
                      frame.my_last_seq(m, side), by="by")
    turns = [{"type": "turn", "turn": e.get("turn"), "side": ""}
             if e.get("type") == "phase" and e.get("side") == "french"
             else {"type": "turn", "turn": 1, "side": ""} if i == 0 else e
             for i, e in enumerate(log)]
    return {"log": lines, "log_turns": log_groups(turns, lines),
            "log_new": sum(1 for line in lines if line["new"])}


def game_context(request: HttpRequest, m: BelleAllianceMatch, *, error: str = "",
                 **extra: Any) -> dict[str, Any]:
    gv = selectors.game_view(m, request.user)
    side = gv["my_side"]
    v = gv["view"] or {}
    cards = cards_of(m)
    names = names_of(cards.doc)
    words = game_words("belle_alliance", PAGE, m, gv, title="La Belle Alliance",
                       list_url="belle-alliance",
                       undo_title="Take back your last action: in your phase, until a die "
                                  "is rolled",
                       replay_text="the game step by step, every die checked.")
    return {
        "game": words, "gv": gv, "v": v, "side": side,
        "side_name": SIDE_WORDS.get(side or "", "spectator"),
        "map_svg": mark_safe(battlefield_svg(cards, v["position"])) if v else "",  # noqa: S308
        "edition": cards.edition, "edition_title": cards.title,
        "house": not cards.publisher, "house_note": HOUSE_NOTE,
        "card_tables": card_tables(cards, names),
        "sections": action_groups(gv["legal_actions"], cards, names),
        **seat_context(m, gv), "error": error, "status_line": status_line(gv),
        "outcome": outcome_text(gv["outcome"]), **frame.last_dice(gv["log"]),
        **_log_context(m, side, gv["log"], names), **extra,
    }


def render_game(request: HttpRequest, m: BelleAllianceMatch, *, status: int = 200,
                **extra: Any) -> HttpResponse:
    return frame.render_game(request, TEMPLATES + "game.html",
                             game_context(request, m, **extra), status=status)


game_page = seated_game_page(game_or_404, render_game)

POSTS = GamePosts(page=PAGE, fetch=game_or_404, render=render_game, service=services)
act, undo, resign, claim = POSTS.views("act", "undo", "resign", "claim")


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished game, step by step (``?step=n``), every die checked against the seed."""
    r = replay_at(KIND, request, pk)
    m = r.match
    shown = r.book.view(r.step, side_of(m, request.user))
    cards = cards_of(m)
    names = names_of(cards.doc)
    return render(request, TEMPLATES + "replay.html", {
        **r.context(),
        "map": mark_safe(battlefield_svg(cards, shown["position"])),  # noqa: S308 (escaped)
        "by": SIDE_WORDS.get(r.at.side or "", ""), "turn": shown["position"]["turn"],
        "time": shown.get("time_label"),
        "lines": [event_text(e, names) for e in r.at.events],
        "outcome": outcome_text(m.outcome), "house": not cards.publisher,
        "house_note": HOUSE_NOTE
    })
