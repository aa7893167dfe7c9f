"""Campaign pages: my campaigns (with the open ones and a create form), a campaign's page
(both live boards, whose move on each, the pools, losses as a chart, the timeline, my legal
actions as buttons) and a finished campaign's replay.

Thin: every rule is in ``campaigns.services`` (writes) and ``campaigns.selectors`` (reads).
What a page shows comes from ``selectors.campaign_view`` only (the core's view of my side),
drawn by ``frontend.battle.board_svg`` per board: a face-down enemy card is never named.
While it is not my move the play area polls the page (htmx ``hx-select``); each action is a
plain POST form (redirect back), so the page works without JavaScript too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from battles.campaign import view as core_view
from battles.engine import SIDES
from campaigns import selectors, services
from campaigns.kind import cards_of, core_of
from campaigns.models import Campaign, PoolChoice, Status
from config.errors import BadInput, NotFound, ServiceError
from frontend.battle.board_svg import board_svg
from frontend.battle.words import describe_actions
from frontend.campaigns.chart import NAMES, losses_svg
from frontend.campaigns.clocks import outcome_text
from frontend.errors import page_message, refuse
from frontend.play import frame
from game import SIDE_NAMES
from play import clock

TEMPLATES = "frontend/campaigns/"
POLL_SECONDS = 2
MAX_LIST = 100
WATCH_LIST = 20  # the newest public campaigns under way
OPPONENTS = (("computer", "The computer"), ("open", "Anyone (an open campaign)"),
             ("player", "A player I name"))
BOTS = (("greedy", "Greedy"), ("random", "Random"), ("search-easy", "Search (easy)"),
        ("search", "Search (normal)"), ("search-hard", "Search (hard)"))


def battle_name(b: str | None) -> str:
    return NAMES.get(b or "", (b or "").replace("-", " ").title())


def campaign_or_404(request: HttpRequest, pk) -> Campaign:
    try:
        return selectors.campaign_of(request.user, pk)
    except NotFound as exc:
        raise Http404(exc.message) from None


def int_or_raw(value: str):
    value = (value or "").strip()
    if value.isascii() and value.isdigit() and len(value) < 12:
        return int(value)
    return value or None


# --- my campaigns and a new one ------------------------------------------------------------

@login_required
def campaign_list(request: HttpRequest) -> HttpResponse:
    error, status, form = "", 200, {}
    if request.method == "POST":
        form = request.POST
        opponent = form.get("opponent", "computer")
        if opponent == "player":
            opponent = form.get("username", "").strip()
        cap = int_or_raw(form.get("turn_cap", ""))
        try:
            if form.get("time_control", "untimed") not in clock.PRESET_CONTROLS:
                raise BadInput("choose a time control from the list")
            c = services.create_campaign(
                request.user, form.get("side"), opponent=opponent or "player",
                bot=form.get("bot", "greedy"), pool=form.get("pool", "set"),
                settings={"turn_cap": cap}, public=form.get("public") == "on",
                time_control=clock.PRESET_CONTROLS[form.get("time_control", "untimed")],
                rated=form.get("rated") == "on")
        except ServiceError as exc:
            status, error = exc.status, page_message(exc, capitalise=True)
        else:
            return redirect("campaign", pk=c.pk)
    return _render_list(request, error, status, form)


def _render_list(request: HttpRequest, error: str = "", status: int = 200,
                 form: Mapping | None = None) -> HttpResponse:
    mine = [selectors.campaign_summary(c, request.user)
            for c in selectors.campaigns_of(request.user)[:MAX_LIST]]
    for row in mine:
        row["side_name"] = SIDE_NAMES.get(row["my_side"] or "", "invited")
    open_rows = [selectors.campaign_summary(c, request.user)
                 for c in selectors.open_campaigns(request.user)[:MAX_LIST]]
    for row in open_rows:
        row["time_text"] = clock.describe(row["time_control"])
    watch = [selectors.campaign_summary(c, None)
             for c in selectors.watchable_campaigns(request.user)[:WATCH_LIST]]
    return render(request, TEMPLATES + "list.html", {
        "mine": mine, "open": open_rows, "watch": watch, "error": error, "form": form or {},
        "sides": [(s, SIDE_NAMES[s]) for s in SIDES], "opponents": OPPONENTS, "bots": BOTS,
        "pools": PoolChoice.choices,
        "time_controls": [(key, label) for key, label, _tc in clock.PRESETS]}, status=status)


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        services.join_campaign(pk, request.user, pool=request.POST.get("pool", "set"))
    except ServiceError as exc:
        refuse(exc)
        return _list_with_error(request, exc)
    return redirect("campaign", pk=pk)


@login_required
@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        services.cancel_campaign(pk, request.user)
    except ServiceError as exc:
        refuse(exc)
        return _list_with_error(request, exc)
    return redirect("campaigns")


def _list_with_error(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    return _render_list(request, page_message(exc, capitalise=True), exc.status)


# --- a campaign ------------------------------------------------------------------------------

def _action_label(a: Mapping, board_view: Mapping | None, cards) -> str:
    kind = a.get("type")
    if kind == "split":
        decks = a.get("decks") or {}
        return "Split: " + ", ".join(f"{len(v)} free card{'s' if len(v) != 1 else ''} to "
                                     f"{battle_name(b)}" for b, v in decks.items())
    if kind == "retreat":
        return f"Retreat from {battle_name(a.get('board'))} (concede that battle, keep the cards)"
    if kind == "reinforce":
        return f"Reinforce {battle_name(a.get('to'))} with the survivors of " \
               f"{battle_name(a.get('from'))}"
    if kind == "keep":
        return f"Keep the survivors of {battle_name(a.get('from'))} for a later battle"
    if board_view is None:
        return str(kind)
    plain = {k: v for k, v in a.items() if k != "board"}
    return describe_actions([plain], board_view, cards)[0]


def _timeline(history: list[Mapping]) -> list[str]:
    out = []
    for h in history:
        t = h.get("type")
        if t == "start":
            p = h.get("pools") or [0, 0]
            out.append(f"The campaign begins: {p[0]} French and {p[1]} Allied cards.")
        elif t == "phase":
            out.append({"first": "Quatre Bras and Ligny", "second": "Wavre and Waterloo",
                        "charleroi": "The Battle of Charleroi",
                        "over": "The campaign is over"}.get(h.get("phase"), h.get("phase")))
        elif t == "split":
            counts = h.get("counts") or {}
            out.append(f"The {SIDE_NAMES.get(h.get('side'), '')} split their cards: " + ", ".join(
                f"{n} to {battle_name(b)}" for b, n in counts.items()) + ".")
        elif t == "battle":
            cards = h.get("cards") or {}
            out.append(f"{battle_name(h.get('battle'))} begins ({cards.get('french', 0)} French, "
                       f"{cards.get('allied', 0)} Allied cards).")
        elif t == "retreat":
            out.append(f"The {SIDE_NAMES.get(h.get('side'), '')} retreat from "
                       f"{battle_name(h.get('battle'))} (turn {h.get('turn')}).")
        elif t == "result":
            w = h.get("winner")
            who = f"won by the {SIDE_NAMES[w]}" if w in SIDE_NAMES else "drawn"
            out.append(f"{battle_name(h.get('battle'))} {who} ({h.get('reason')}, turn "
                       f"{h.get('turn')}).")
        elif t in ("reinforce", "keep"):
            verb = "reinforce" if t == "reinforce" else "keep back"
            out.append(f"The {SIDE_NAMES.get(h.get('side'), '')} {verb} {h.get('count')} "
                       f"survivors of {battle_name(h.get('from'))}"
                       + (f" into {battle_name(h.get('to'))}." if t == "reinforce" else "."))
        elif t == "over":
            out.append(f"The {SIDE_NAMES.get(h.get('winner'), '')} win the campaign.")
    return out


def _boards(v: Mapping, side: str | None, cards, *, prefix: str = "board") -> list[dict]:
    boards = []
    to_move = v.get("to_move") or {}
    results = v.get("results") or {}
    for b, bv in (v.get("boards") or {}).items():
        moving = to_move.get("board") == b
        boards.append({
            "key": b, "name": battle_name(b), "turn": bv.get("turn"),
            "result": results.get(b),
            "moving": SIDE_NAMES.get(to_move.get("side"), "") if moving else "",
            "svg": mark_safe(board_svg(bv, side or "french", cards,  # noqa: S308 (escaped)
                                       id_prefix=f"{prefix}-{b}")),
        })
    return boards


def campaign_context(request: HttpRequest, c: Campaign, *, error: str = "",
                     posted: Mapping[str, str] | None = None) -> dict[str, Any]:
    from .editing import split_context, undo_notes

    cv = selectors.campaign_view(c, request.user)
    side = cv["my_side"]
    cards = cards_of(c) if c.state is not None else None
    v = cv["view"] or {}
    board_views = v.get("boards") or {}
    actions = [{"label": _action_label(a, board_views.get(a.get("board")), cards),
                "json": json.dumps(a, separators=(",", ":")), "type": a.get("type")}
               for a in cv["legal_actions"]]
    pools = {}
    for s in SIDES:
        p = (v.get("pools") or {}).get(s) or {}
        names = []
        if "cards" in p and cards is not None:
            names = [cards[n].name for n in p["cards"] if n in cards]
        pools[s] = {"name": SIDE_NAMES[s], "count": p.get("count", 0), "cards": names,
                    "eliminated": len((v.get("eliminated") or {}).get(s) or ())}
    to_move = v.get("to_move") or {}
    poll = c.status == Status.WAITING or (c.status == Status.ACTIVE
                                          and cv["waiting_for"] != "you")
    return {
        "cv": cv, "side": side, "side_name": SIDE_NAMES.get(side or "", "spectator"),
        "boards": _boards(v, side, cards) if cards is not None else [],
        "actions": actions, "pools": [pools[s] for s in SIDES],
        "chart": mark_safe(losses_svg(v.get("history") or ())),  # noqa: S308 (escaped)
        "timeline": _timeline(v.get("history") or ()), "error": error,
        "step_name": {"split": "split their cards", "reinforce": "decide on reinforcing",
                      "play": "move"}.get(to_move.get("step"), ""),
        "moving_side": SIDE_NAMES.get(to_move.get("side") or "", ""),
        "moving_board": battle_name(to_move.get("board")) if to_move.get("board") else "",
        "poll": poll, "poll_seconds": POLL_SECONDS, "outcome": outcome_text(cv["outcome"]),
        "clocks": frame.clock_rows(cv["clocks"], side, to_move.get("side") if cv["deadline"]
                                   and c.status == Status.ACTIVE else None),
        "time_control_text": clock.describe(cv["time_control"]),
        "pool_choices": PoolChoice.choices,
        "joinable": c.status == Status.WAITING and side is None,
        "split": split_context(core_of(c), side, cv["legal_actions"], cards, posted)
        if cards is not None and any(a.get("type") == "split" for a in cv["legal_actions"])
        else None,
        "undo_notes": undo_notes(cv["log"], side),
    }


def campaign_page(request: HttpRequest, pk: int) -> HttpResponse:
    c = campaign_or_404(request, pk)
    return render(request, TEMPLATES + "campaign.html", campaign_context(request, c))


@login_required
@require_POST
def act(request: HttpRequest, pk: int) -> HttpResponse:
    c = campaign_or_404(request, pk)
    raw = request.POST.get("action", "")
    try:
        action = json.loads(raw) if raw else None
    except ValueError:
        action = raw
    try:
        services.act(c.pk, request.user, int_or_raw(request.POST.get("seq", "")), action)
    except ServiceError as exc:
        refuse(exc)
        c = campaign_or_404(request, pk)
        return render(request, TEMPLATES + "campaign.html",
                      campaign_context(request, c, error=page_message(exc, capitalise=True)),
                      status=exc.status)
    return redirect("campaign", pk=pk)


@login_required
@require_POST
def resign(request: HttpRequest, pk: int) -> HttpResponse:
    c = campaign_or_404(request, pk)
    try:
        services.resign(c.pk, request.user)
    except ServiceError as exc:
        refuse(exc)
        c = campaign_or_404(request, pk)
        return render(request, TEMPLATES + "campaign.html",
                      campaign_context(request, c, error=page_message(exc, capitalise=True)),
                      status=exc.status)
    return redirect("campaign", pk=pk)


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished campaign, step by step (``?step=n``: after action n), as the viewer's side
    saw it (a spectator: both sides hidden)."""
    c = campaign_or_404(request, pk)
    if c.status != Status.FINISHED or c.state is None:
        raise Http404("a campaign's replay is shown once it is over")
    step = int_or_raw(request.GET.get("step", "0"))
    step = min(step if type(step) is int else 0, c.seq)
    side = services.side_of(c, request.user)
    shown = None
    for n, core in services.states(c):
        if n == step:
            shown = core_view(core, side)
            break
    cards = cards_of(c)
    row = c.actions.filter(seq=step).first()
    return render(request, TEMPLATES + "replay.html", {
        "c": c, "step": step, "last": c.seq, "prev": max(step - 1, 0),
        "next": min(step + 1, c.seq),
        "boards": _boards(shown, side, cards, prefix="replay"),
        "chart": mark_safe(losses_svg(shown.get("history") or ())),  # noqa: S308
        "timeline": _timeline(shown.get("history") or ()),
        "by": SIDE_NAMES.get(row.side, "") if row else "",
        "undoes": row.action.get("undoes") if row and row.action.get("type") == "undo" else None,
    })
