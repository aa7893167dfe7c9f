"""Stratego: Waterloo pages: my games (with the open ones, the games to watch and a form to
start one against the computer or a person), a game's page on the game page frame
(``frontend.play``) and a finished game's replay.

Thin: every rule is in ``online.stratego.services`` (writes) and ``online.stratego.selectors``
(reads).
A page shows ``selectors.game_view`` only (the module's view of the viewer's side, its legal
actions, the log ``events_for`` lets through): an unrevealed enemy piece is drawn by its
back. The board is ``board_svg``: select a piece (``?sel=col-row``, or ``?sel=p-<id>`` for
one off the board), its legal moves and targets light up (clicking one plays it; the same
actions are buttons in the panel); in the set-up, pieces are swapped by clicking squares
(static/frontend/stratego.js) or set up at random. Every action is a plain POST form
(redirect back): the page works without JavaScript too; the live wiring is the frame's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from frontend.play import frame
from frontend.play.actions import action_sections
from frontend.play.frame import int_or_raw
from frontend.play.game_list import GameList
from frontend.play.log import log_groups, log_lines
from frontend.play.new_game import new_game_terms
from frontend.play.posts import GamePosts, or_404, seat_view
from frontend.play.replay import replay_at
from frontend.play.seated import game_page as seated_game_page
from frontend.play.seated import game_words, seat_context, status_text
from game import SIDE_NAMES, SIDES, other_side
from online.stratego import selectors, services
from online.stratego.kind import KIND
from online.stratego.models import StrategoMatch, Variant
from play.seats import side_of
from stratego.engine.rules import MODES

from .board_svg import board_svg, setup_svg
from .controls import CARD_TYPES, hand_context, pursuit_context, terrain_rows
from .words import action_label, card_name, event_text, outcome_text, piece_name, square

TEMPLATES = "frontend/stratego/"
BOTS = (("greedy", "Greedy"), ("random", "Random"))
PIECE_ACTIONS = ("move", "attack", "fire", "rest", "enter", "pursue")
SECTIONS = (("selected", "The selected piece", PIECE_ACTIONS),
            ("card", "The card you chose: click a lit square", ("card",)),
            ("defence", "Your piece is attacked", ("fighting_spirit", "decline")),
            ("steps", "The card in play", ("look", "end_card")),
            ("rampage", "Attack on (Blue + / Red +)", ("rampage",)),
            ("pursuit", "The Pursuit", ("save",)),
            ("setup", "Set-up", ("deploy", "roll_for_prussians")),
            ("finish", "Your turn", ("end_turn", "offer_draw", "accept_draw")))
# Where an action's square is, to light it on the board (a card: its piece's square).
TARGET_KEYS = ("target", "to", "at", "square")
FRONTNESS = {"light_infantry": 0, "line_infantry": 1, "artillery": 2, "heavy_cavalry": 3,
             "light_cavalry": 4, "commander": 5, "commander_in_chief": 6}
HOME_ROWS = {"french": (3, 2, 1, 0), "allied": (6, 7, 8, 9)}  # front row first
TIME_TRACK = 20  # turns shown on the time track (11:00 to 20:30)


game_or_404 = or_404(selectors.game_of)


# --- my games and a new one -------------------------------------------------------------------

LIST = GameList(selectors=selectors, template=TEMPLATES + "list.html", list_url="stratego",
                page="stratego-game", rating_name="Stratego", error_id="stratego-error",
                sides=[(s, SIDE_NAMES[s]) for s in SIDES], bots=BOTS,
                extra={"variants": [(v, label) for v, label in Variant.choices if v in MODES]})


game_list = LIST.view(lambda user, form: services.create_game(
    user, form.get("side"), bot=form.get("bot", "greedy"),
    variant=form.get("variant", "basic"), **new_game_terms(form),
    options={k: True for k in services.SCENARIOS if form.get(k) == "on"}), "Stratego: Waterloo")


join = seat_view(lambda request, pk: services.join_game(pk, request.user), LIST.render,
                 lambda pk: redirect("stratego-game", pk=pk))
cancel = seat_view(lambda request, pk: services.cancel_game(pk, request.user), LIST.render,
                   lambda pk: redirect("stratego"))


# --- a game ----------------------------------------------------------------------------------

def _pair(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value):
        return value[0], value[1]
    return None


def _selection(raw: str | None) -> tuple[str, Any] | None:
    """``?sel=``: ("square", (col, row)) or ("piece", id) (None: nothing or nonsense)."""
    raw = (raw or "").strip()
    if raw.startswith("p-") and 1 < len(raw) <= 20:
        return "piece", raw[2:]
    parts = raw.split("-")
    if len(parts) == 2 and all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts):
        return "square", (int(parts[0]), int(parts[1]))
    return None


def _owner_key(a: Mapping[str, Any]) -> tuple[str, Any] | None:
    """Which piece a legal action belongs to: its ``from`` square, else its ``piece``
    (generic: a new action type with either key still shows under its piece)."""
    sq = _pair(a.get("from"))
    if sq is not None:
        return "square", sq
    if isinstance(a.get("piece"), str):
        return "piece", a["piece"]
    return None


def _target_of(a: Mapping[str, Any]) -> tuple[int, int] | None:
    if a.get("type") == "card" and _pair(a.get("from")) is not None:
        return _pair(a.get("from"))  # the Grand battery: one of the battery's artillery
    if "slot" in a:
        return None  # a Pursuit of cavalry set aside: off the board
    for key in TARGET_KEYS:
        sq = _pair(a.get(key))
        if sq is not None:
            return sq
    return None


def _last_enemy(log: Sequence[Mapping[str, Any]], side: str | None) -> list[tuple[int, int]]:
    """The squares of the opponent's last action (from the viewer's log): marked."""
    if side is None:
        return []
    enemy = other_side(side)
    last_seq = max((e["seq"] for e in log if e.get("by") == enemy
                    and e.get("type") in ("move", "attack", "fire", "enter")), default=None)
    if last_seq is None:
        return []
    out: list[tuple[int, int]] = []
    for e in log:
        if e.get("seq") != last_seq or e.get("type") not in ("move", "attack", "fire", "enter"):
            continue
        for key in ("from", "to", "target"):
            sq = _pair(e.get(key))
            if sq is not None and sq not in out:
                out.append(sq)
    return out


def _default_placement(reserve: Sequence[Mapping[str, Any]], side: str
                       ) -> dict[str, tuple[int, int]]:
    """A starting set-up to edit: infantry in front, cavalry and commanders behind."""
    squares = [(c, r) for r in HOME_ROWS[side] for c in range(12)]
    ordered = sorted(reserve, key=lambda p: (FRONTNESS.get(str(p.get("type")), 9), p["id"]))
    return {str(p["id"]): sq for p, sq in zip(ordered, squares, strict=False)}


def _setup_context(gv: Mapping[str, Any], side: str) -> dict[str, Any] | None:
    v = gv["view"] or {}
    if not any(a.get("type") == "deploy" for a in gv["legal_actions"]):
        return None
    reserve = [p for p in (v.get("sides") or {}).get(side, {}).get("reserve") or ()
               if p.get("army") != "prussian"]
    placement = _default_placement(reserve, side)
    extra = [str(p["id"]) for p in reserve if str(p["id"]) not in placement]
    pieces = {str(p["id"]): {**p, "side": side} for p in reserve}
    action = {"type": "deploy", "side": side,
              "placement": {pid: list(sq) for pid, sq in sorted(placement.items())}}
    return {"svg": mark_safe(setup_svg(v, side, placement, extra, pieces)),  # noqa: S308
            "action": json.dumps(action, separators=(",", ":")),
            "random": json.dumps({"type": "deploy", "side": side, "random": True},
                                 separators=(",", ":")),
            "count": len(reserve)}


def _play_context(request: HttpRequest, gv: Mapping[str, Any], side: str | None
                  ) -> dict[str, Any]:
    """The board with the selection, and the actions in the frame's sections."""
    v = gv["view"] or {}
    every = gv["legal_actions"]
    card = request.GET.get("card")
    # The cards are played from the hand (controls.hand_context); a card played on a square
    # is chosen there first (?card=), then its squares light up.
    legal = [a for a in every if a.get("type") not in CARD_TYPES]
    cards = [a for a in every if a.get("type") == "card" and a.get("card") == card
             and _target_of(a) is not None]
    at = {sq: p for p in v.get("board") or () if (sq := _pair(p.get("square"))) is not None}
    mine = (v.get("sides") or {}).get(side or "") or {}
    offboard = {str(p["id"]): p for where in ("reserve", "withdrawn", "resting")
                for p in mine.get(where) or ()}
    offboard.update({str(p["id"]): p for p in ((v.get("pursuit") or {}).get("aside") or {})
                     .get(side or "") or () if p.get("id")})
    owners: dict[tuple[str, Any], list[int]] = {}
    for i, a in enumerate(legal):
        key = _owner_key(a)
        if key is not None:
            owners.setdefault(key, []).append(i)
    sel = _selection(request.GET.get("sel"))
    if sel not in owners or cards:
        sel = None
    base = reverse("stratego-game", args=[gv["id"]])
    links = {k[1]: f"{base}?sel={k[1][0]}-{k[1][1]}#board" for k in owners if k[0] == "square"}
    chosen = owners.get(sel, []) if sel is not None else []
    shown = [legal[i] for i in chosen] + cards + [a for a in legal if _owner_key(a) is None]
    labels = [action_label(a, at, offboard) for a in shown]
    sections = action_sections(shown, labels, SECTIONS)
    targets: dict[tuple[int, int], tuple[str, str]] = {}
    n = 0
    for s in sections:
        for g in s["groups"]:
            for it in g["items"]:
                n += 1
                it["form_id"] = f"act-{n}"
                tgt = _target_of(it["action"])
                if tgt is not None and tgt not in targets:
                    targets[tgt] = (it["form_id"], str(it["type"]))
    selected_name = ""
    if sel is not None:
        selected_name = (piece_name(at.get(sel[1])) if sel[0] == "square"
                         else piece_name(offboard.get(sel[1])))
    aside = {str(p.get("id")) for p in ((v.get("pursuit") or {}).get("aside") or {})
             .get(side or "") or ()}
    offboard_links = [{"id": pid, "name": piece_name(p),
                       "url": f"{base}?sel=p-{pid}#board",
                       "selected": sel == ("piece", pid)}
                      for pid, p in offboard.items() if ("piece", pid) in owners]
    return {
        "board_svg": mark_safe(board_svg(  # noqa: S308 (escaped)
            v, side, links=links, targets=targets,
            selected=sel[1] if sel is not None and sel[0] == "square" else None,
            marked=_last_enemy(gv["log"], side))),
        "sections": [], "sw_sections": sections, "selected_name": selected_name,
        "selected_square": square(list(sel[1])) if sel and sel[0] == "square" else "",
        "offboard_links": [o for o in offboard_links if o["id"] not in aside],
        "pieces_with_actions": len(owners),
        "hand": hand_context(v, every, side, base, card if cards else None),
        "chosen_card": card_name(card) if cards else "",
        "pursuit": pursuit_context(v, side, owners, base, sel),
    }


def _sides_context(v: Mapping[str, Any], side: str | None) -> list[dict[str, Any]]:
    out = []
    for s in ((side, other_side(side)) if side in SIDES else SIDES):
        e = (v.get("sides") or {}).get(s) or {}
        out.append({"side": s, "name": SIDE_NAMES[s], "mine": s == side,
                    "reserve_count": e.get("reserve_count", 0),
                    "reserve": [piece_name(p) for p in e.get("reserve") or ()],
                    "withdrawn": [piece_name(p) for p in e.get("withdrawn") or ()],
                    "resting": [piece_name(p) for p in e.get("resting") or ()],
                    "eliminated": [piece_name(p) for p in e.get("eliminated") or ()],
                    "lines": (e.get("lines_of_retreat") or {}).get("sector")})
    return out


def _time_track(turn: int) -> list[dict[str, Any]]:
    out = []
    for t in range(1, max(TIME_TRACK, turn) + 1):
        minutes = 11 * 60 + 30 * (t - 1)
        out.append({"turn": t, "time": f"{minutes // 60:02d}:{minutes % 60:02d}",
                    "now": t == turn, "prussians": t == 13})
    return out


def _last_die(log: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    for e in reversed(log):
        if e.get("face"):
            return {"face": e["face"], "seq": e.get("seq"),
                    "colour": "blue" if str(e["face"]).startswith("Blue") else "red"}
    return None


def status_line(gv: Mapping[str, Any]) -> str:
    v = gv["view"] or {}
    not_under_way = status_text(gv["status"])
    if not_under_way is not None:
        return not_under_way
    active = SIDE_NAMES.get(str(v.get("active")), "")
    if v.get("phase") == "setup":
        doing = "set up"
    else:
        doing = f"act (turn {v.get('turn')}, {v.get('time')}, {v.get('actions_left')} " \
                "actions left)"
    if gv["waiting_for"] == "you":
        return f"Your move: {doing}."
    return f"The {active} {doing}; this page updates by itself."


def game_context(request: HttpRequest, m: StrategoMatch, *, error: str = "",
                 **extra: Any) -> dict[str, Any]:
    gv = selectors.game_view(m, request.user)
    side = gv["my_side"]
    v = gv["view"] or {}
    names = {str(p["id"]): str(p.get("name")) for p in v.get("board") or () if p.get("id")}
    for e in ((v.get("sides") or {}).get(side or "") or {}).values():
        if isinstance(e, list):
            names.update({str(p["id"]): str(p.get("name")) for p in e
                          if isinstance(p, dict) and p.get("id")})
    log = gv["log"]
    since = frame.my_last_seq(m, side)
    lines = log_lines(log, [event_text(e, names) for e in log], side, since, by="by")
    setup = _setup_context(gv, side) if side is not None and gv["waiting_for"] == "you" \
        else None
    if setup is not None:
        setup["last"] = services.last_setup(m, request.user) is not None
    play = _play_context(request, gv, side) if setup is None else {
        "sections": [], "sw_sections": [], "board_svg": "", "offboard_links": [],
        "hand": hand_context(v, gv["legal_actions"], side, "", None)}
    words = game_words("stratego", "stratego-game", m, gv, title="Stratego: Waterloo",
                       list_url="stratego",
                       undo_title="Take back your last action: in your turn, until a die is "
                                  "rolled, a piece revealed or the turn ended",
                       replay_text="the game step by step.")
    return {
        "game": words,
        "gv": gv, "v": v, "side": side, "side_name": SIDE_NAMES.get(side or "", "spectator"),
        "setup": setup, **play,
        "sides": _sides_context(v, side), "terrain": terrain_rows(v),
        "time_track": _time_track(int(v.get("turn") or 0)),
        "last_die": _last_die(log),
        **seat_context(m, gv), "error": error, "status_line": status_line(gv),
        "outcome": outcome_text(gv["outcome"]),
        "log": lines, "log_turns": log_groups(log, lines),
        "log_new": sum(1 for line in lines if line["new"]),
        **extra,
    }


def render_game(request: HttpRequest, m: StrategoMatch, *, status: int = 200,
                **extra: Any) -> HttpResponse:
    return frame.render_game(request, TEMPLATES + "game.html",
                             game_context(request, m, **extra), status=status)


game_page = seated_game_page(game_or_404, render_game)

POSTS = GamePosts(page="stratego-game", fetch=game_or_404, render=render_game,
                  service=services)
act, undo, resign, claim = POSTS.views("act", "undo", "resign", "claim")


@login_required
@require_POST
def last_setup(request: HttpRequest, pk: int) -> HttpResponse:
    """Deploy the last set-up I used for my side ("The last set-up I used"); refused with
    the reason when there is none or it no longer fits this game."""
    seq = int_or_raw(request.POST.get("seq", ""))
    return POSTS.call(request, pk, lambda m: services.use_last_setup(m.pk, request.user, seq))


REPLAY_VIEWPOINTS = (("french", "French view"), ("allied", "Allied view"),
                     ("all", "Spectator"))


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished game, step by step (``?step=n``), as the viewer's side saw it (a
    spectator: no hidden identity), or from ``?as=french|allied``; every die checked."""
    r = replay_at(KIND, request, pk)
    m = r.match
    side = side_of(m, request.user)
    chosen = request.GET.get("as")
    viewpoint = chosen if chosen in SIDES else side
    shown = r.book.view(r.step, viewpoint)
    return render(request, TEMPLATES + "replay.html", {
        **r.context(), "viewpoint": viewpoint or "",
        "viewpoints": REPLAY_VIEWPOINTS[:2],
        "as_query": f"&as={viewpoint}" if chosen == viewpoint and viewpoint else "",
        "board": mark_safe(board_svg(shown, viewpoint)),  # noqa: S308 (escaped)
        "by": SIDE_NAMES.get(r.at.side or "", ""), "turn": shown.get("turn"),
        "time": shown.get("time"),
        "outcome": outcome_text(m.outcome),
    })
