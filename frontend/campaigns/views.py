"""Campaign pages: my campaigns (with the open ones and a create form), a campaign's page
(both live boards, whose move on each, the pools, losses as a chart, the timeline, my legal
actions as buttons) and a finished campaign's replay.

Thin: every rule is in ``campaigns.services`` (writes) and ``campaigns.selectors`` (reads).
What a page shows comes from ``selectors.campaign_view`` only (the core's view of my side,
its legal actions and the log filtered for my side), drawn by ``frontend.battle.board_svg``
per board and worded by ``frontend.battle.words`` and ``words``: a face-down enemy card is
never named. The page is the game page frame's (``frontend.play``): header, status, clocks,
actions in sections, Undo, Resign, the log per board and turn (what the opponent did since
my last action marked, on the boards too), the last dice and the fair-dice check, and the
live wiring; the boards, the split editor, the pools, the losses and the timeline are the
campaign's own. A Retreat (it concedes that battle) and a board action that can lose that
battle (4.3, ``battles.warnings``) are asked first, as on a battle's page.

As on a battle's page, each action form posts through htmx and the answer is the play
fragment (the header swapped out of band): one click, no reload, one update (``live.js``
does not fetch again what the mover's own POST answered); without JavaScript the same forms
post and redirect back. The page follows the live channel (``ws/campaigns/<id>/``, an alias
of ``ws/games/campaign/<id>/``); while it is not my move the play area also polls (htmx), the
fallback when the socket cannot open. In a response window the player may pass for the rest
of this enemy turn (``pass_rest``), and choose which kinds of window to be asked in
(``passing``): their standing choices (``play.passing``), whose passes the log flags as theirs.
At the end the boards stay, in their final positions (``selectors.final_boards``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe

from battles.engine import SIDES
from campaigns import selectors, services
from campaigns.kind import KIND, cards_of, core_of
from campaigns.models import Campaign, PoolChoice, Status
from config.errors import ServiceError
from frontend.battle.board_svg import board_svg
from frontend.battle.board_ux import BOARD_SECTIONS, action_keys, changed_marks
from frontend.battle.deploy_form import deploy_form
from frontend.battle.dice_svg import last_roll
from frontend.battle.view_context import SIDE_PEOPLE, reserve_panel
from frontend.battle.warnings import WARNED, warning
from frontend.battle.words import describe_actions
from frontend.campaigns.chart import losses_svg
from frontend.campaigns.clocks import outcome_text
from frontend.campaigns.words import battle_name, log_texts, timeline
from frontend.play import frame
from frontend.play.actions import action_sections
from frontend.play.frame import int_or_raw
from frontend.play.log import SAME, log_groups, log_lines
from frontend.play.new_game import MAX_LIST, WATCH_LIST, list_rows, new_game_terms
from frontend.play.posts import GamePosts, list_view, or_404, seat_view
from frontend.play.replay import dice_sentence, seed_ok
from frontend.whats_on import login_or_watch
from game import SIDE_NAMES, other_side
from play import clock, lobby, presence, replays
from play import passing as pass_choices

TEMPLATES = "frontend/campaigns/"
POLL_SECONDS = 2
OPPONENTS = (("computer", "The computer"), ("open", "Anyone (an open campaign)"),
             ("player", "A player I name"))
BOTS = (("greedy", "Greedy"), ("random", "Random"), ("search-easy", "Search (easy)"),
        ("search", "Search (normal)"), ("search-hard", "Search (hard)"))


campaign_or_404 = or_404(selectors.campaign_of)


# --- my campaigns and a new one ------------------------------------------------------------

def _create(request: HttpRequest, form: Mapping[str, Any]) -> Campaign:
    return services.create_campaign(
        request.user, form.get("side"), bot=form.get("bot", "greedy"),
        pool=form.get("pool", "set"), settings={"turn_cap": int_or_raw(form.get("turn_cap", ""))},
        **new_game_terms(form))


def _render_list(request: HttpRequest, error: str = "", status: int = 200,
                 form: Mapping | None = None) -> HttpResponse:
    user = request.user
    return render(request, TEMPLATES + "list.html", {
        **list_rows(request, selectors.campaign_summary, selectors.campaigns_of(user),
                    lobby.page_list(Campaign, "open", user, MAX_LIST, selectors.LIST_COLUMNS),
                    lobby.page_list(Campaign, "watch", user, WATCH_LIST,
                                    selectors.LIST_COLUMNS),
                    game="campaign"),
        "error": error, "form": form or {}, "opponents": OPPONENTS, "bots": BOTS,
        "pools": PoolChoice.choices,
    }, status=status)


campaign_list = list_view(_create, _render_list, "campaign",
                    guard=login_or_watch("the Campaign Game"))
join = seat_view(lambda request, pk: services.join_campaign(
    pk, request.user, pool=request.POST.get("pool", "set")), _render_list,
    lambda pk: redirect("campaign", pk=pk))
cancel = seat_view(lambda request, pk: services.cancel_campaign(pk, request.user),
                   _render_list, lambda pk: redirect("campaigns"))


# --- a campaign ------------------------------------------------------------------------------

# A Retreat concedes a battle (it asks first): like a finish it comes after every board
# action, just before "Finish", and never takes the focus after an action (play.js).
assert BOARD_SECTIONS[-1][0] == "finish"
CAMPAIGN_SECTIONS = (("campaign", "Campaign", ("split", "reinforce", "keep")),
                     *BOARD_SECTIONS[:-1],
                     ("retreat", "Retreat", ("retreat",)),
                     BOARD_SECTIONS[-1])
# What the side to move decides now, in the viewer's words: (mine, theirs).
STEPS = {"split": ("split your cards", "split their cards"),
         "reinforce": ("decide on reinforcing", "decide on reinforcing")}
# On a board (its phase and step, and for a response window what it answers).
BOARD_STEPS = {
    "deploy": ("deploy your cards", "deploy their cards"),
    "morale": ("roll for morale", "roll for morale"),
    "reinforce": ("bring in reinforcements or end your turn", "bring in reinforcements"),
    "combat": ("move, fire or end the Combat Phase", "move and fire"),
}
RESPONSE_STEPS = {
    "fire": ("answer the enemy's fire or let it go ahead", "may answer your fire"),
    "shock": ("answer the enemy's shock attack or let it go ahead",
              "may answer your shock attack"),
    "move": ("answer the enemy's move into contact or let it go ahead",
             "may answer your move into contact"),
    "morale": ("answer the enemy's morale roll or let it go ahead",
               "may answer your morale roll"),
}


def decision(v: Mapping, mine: bool) -> str:
    """What the side to move decides now (``v``: the campaign's view), in words: a split, a
    reinforcement, or on the board to move a deployment, a fire to answer, a morale roll,
    the Combat Phase..."""
    to_move = v.get("to_move") or {}
    i = 0 if mine else 1
    if to_move.get("step") in STEPS:
        return STEPS[to_move["step"]][i]
    board = ((v.get("boards") or {}).get(to_move.get("board")) or {})
    phase = board.get("phase")
    if board.get("step") == "response":
        kind = "morale" if phase == "morale" else str((board.get("pending") or {}).get("type"))
        return RESPONSE_STEPS.get(kind, RESPONSE_STEPS["fire"])[i]
    return BOARD_STEPS.get(str(phase), ("move", "move"))[i]


def _action_label(a: Mapping) -> str:
    """A campaign decision in words (a board's actions: ``describe_actions``)."""
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
    return f"Keep the survivors of {battle_name(a.get('from'))} for a later battle"


def _plain(action: Mapping) -> dict:
    """A board action as the battle engine reads it (without its ``board``)."""
    return {k: v for k, v in action.items() if k != "board"}


def retreat_warning(action: Mapping, side: str) -> str:
    """What the page asks before a Retreat (16.0: the battle is conceded)."""
    return (f"Retreat from {battle_name(action.get('board'))}? You concede that battle: "
            f"{SIDE_PEOPLE[other_side(side)]} win it, and your cards there go back to your "
            f"pool, each engaged card after one more Morale check (16.0). This cannot be "
            f"undone. Confirm?")


def action_warning(cv: Mapping, action: Mapping, cards) -> str:
    """The question to ask before ``action``, one of my legal actions (a Retreat always;
    a board action that can lose that battle, 4.3, as on a battle's page), or ""."""
    side = cv["my_side"]
    if action.get("type") == "retreat":
        return retreat_warning(action, side)
    if action.get("type") not in WARNED:
        return ""
    board = ((cv["view"] or {}).get("boards") or {}).get(action.get("board"))
    return warning(board, side, _plain(action), cards)


def _sections(cv: Mapping, cards) -> list[dict]:
    """My legal actions in the frame's sections, each with its warning mark."""
    legal = cv["legal_actions"]
    boards = (cv["view"] or {}).get("boards") or {}
    on_board = [a for a in legal if a.get("board") in boards and a.get("type") != "retreat"]
    words = dict(zip(map(id, on_board), describe_actions(
        [_plain(a) for a in on_board], boards.get(cv["board"]) or {}, cards), strict=True))
    labels = [words.get(id(a)) or _action_label(a) for a in legal]
    sections = action_sections(legal, labels, CAMPAIGN_SECTIONS)
    for s in sections:
        for g in s["groups"]:
            for it in g["items"]:
                it.update(action_keys(it["action"]))
                it["warn"] = bool(action_warning(cv, it["action"], cards))
    return sections


def _boards(v: Mapping, side: str | None, cards, *, prefix: str = "board",
            log: list[Mapping] | None = None, since: int | None = None) -> list[dict]:
    """Each board of the view, drawn from ``side``'s point of view; with ``log`` (the
    viewer's), what the opponent changed there since ``since`` (my last action) is ringed."""
    boards = []
    to_move = v.get("to_move") or {}
    results = v.get("results") or {}
    for b, bv in (v.get("boards") or {}).items():
        moving = to_move.get("board") == b
        if not moving and not bv.get("outcome"):
            # a board that waits for the other battle (16-b) or a campaign decision: it
            # names nobody to move ("Your move" there would contradict the page)
            bv = {**bv, "priority": None}
        marked: tuple = ((), ())
        if log is not None and side is not None:
            marked = changed_marks([e for e in log if e.get("board") == b], since or 0)
        boards.append({
            "key": b, "name": battle_name(b), "turn": bv.get("turn"),
            "result": results.get(b), "marked": len(marked[0]) + len(marked[1]),
            "moving": SIDE_NAMES.get(to_move.get("side"), "") if moving else "",
            "reserve": reserve_panel(bv, side, cards) if side else None,
            "svg": mark_safe(board_svg(bv, side or "french", cards,  # noqa: S308 (escaped)
                                       id_prefix=f"{prefix}-{b}", marked=marked)),
        })
    return boards


def status_line(cv: Mapping, joinable: bool) -> str:
    """Where the campaign stands, from the viewer's side."""
    status = cv["status"]
    v = cv["view"] or {}
    to_move = v.get("to_move") or {}
    at = f" at {battle_name(to_move['board'])}" if to_move.get("board") else ""
    if status == Status.WAITING:
        return "Waiting for an opponent to join" + (
            "." if joinable else ": this page updates by itself.")
    if status in (Status.CANCELLED, Status.EXPIRED, Status.FINISHED):
        return {Status.CANCELLED: "This campaign was cancelled.",
                Status.EXPIRED: "This campaign expired: nobody took the seat in time.",
                Status.FINISHED: "The campaign is over."}[status]
    if cv["waiting_for"] == "you":
        return f"Your move{at}: {decision(v, True)}."
    return (f"The {SIDE_NAMES.get(to_move.get('side') or '', '')} {decision(v, False)}{at}; "
            f"this page updates by itself.")


def pool_text(count: int, fighting: bool) -> str:
    """A side's pool in words: while battles are fought, the cards kept back for a later
    battle (none is usual: every card went into the battles); else the cards in hand for the
    next split or reinforcement."""
    cards = f"{count} card{'s' if count != 1 else ''}"
    if fighting:
        return (f"{cards} kept back for a later battle" if count else
                "no card kept back: all are in the battles")
    return f"{cards} in the pool"


def passing_kinds() -> tuple[str, ...]:
    """The kinds of response window a campaign's player may choose not to be asked in."""
    return pass_choices.kinds_of(KIND)


def _dice_log(log: list[Mapping]) -> list[Mapping]:
    """The viewer's log with each retreat check's die as ``dice`` (drawn as the others)."""
    return [{**e, "dice": [e["roll"]]} if e.get("type") == "retreat_check"
            and isinstance(e.get("roll"), int) else e for e in log]


def _log_context(cv: Mapping, side: str | None, cards, since: int | None) -> dict[str, Any]:
    """The log per board and turn, what is new since my last action, the last dice: from
    the viewer's log (``campaign_view``) only."""
    log = cv["log"]
    boards = (cv["view"] or {}).get("boards") or {}
    lines = log_lines(log, log_texts(log, side, cards, boards), side, since, by="by")

    def board_of(e: Mapping):
        if e.get("type") in ("undone", "auto_played"):
            return SAME
        if e.get("type") in ("battle_start", "campaign_battle_over"):
            return e.get("battle")
        return e.get("board")

    dice_log = _dice_log(log)
    seq, _rolls = last_roll(dice_log)
    where = next((battle_name(e.get("board")) for e in dice_log
                  if e.get("seq") == seq and e.get("dice") and e.get("board")), "")
    return {"log": lines, "log_turns": log_groups(log, lines, board_of, battle_name),
            "log_new": sum(1 for line in lines if line["new"]),
            **frame.last_dice(dice_log, where)}


def campaign_context(request: HttpRequest, c: Campaign, *, error: str = "",
                     posted: Mapping[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    from .editing import split_context, undo_notes

    cv = selectors.campaign_view(c, request.user)
    side = cv["my_side"]
    cards = cards_of(c) if c.state is not None else None
    v = cv["view"] or {}
    fighting = bool(v.get("boards"))
    pools = {}
    for s in SIDES:
        p = (v.get("pools") or {}).get(s) or {}
        names = []
        if "cards" in p and cards is not None:
            names = [cards[n].name for n in p["cards"] if n in cards]
        pools[s] = {"name": SIDE_NAMES[s], "count": p.get("count", 0), "cards": names,
                    "eliminated": len((v.get("eliminated") or {}).get(s) or ()),
                    "text": pool_text(p.get("count", 0), fighting)}
    if c.status == Status.FINISHED and cards is not None:  # the boards stay, as they ended
        v = {**v, "boards": {**selectors.final_boards(c, side), **(v.get("boards") or {})}}
    to_move = v.get("to_move") or {}
    poll = c.status == Status.WAITING or (c.status == Status.ACTIVE
                                          and cv["waiting_for"] != "you")
    joinable = c.status == Status.WAITING and side is None
    since = frame.my_last_seq(c, side)
    return {
        "game": frame.game(
            "campaign", cv, noun="campaign", list_url=reverse("campaigns"),
            list_name="Campaigns", log_title="Campaign log",
            can_resign=c.status == Status.ACTIVE and side is not None,
            resign_summary="Resign the campaign…",
            resign_question="Resign the whole campaign? The other side wins it. (To give up "
                            "one battle only, retreat from it when the rules allow.)",
            undo_title="Take back your last action: allowed in your turn on a board until a "
                       "die is rolled, a card revealed or a campaign decision made",
            replay_text="the campaign step by step, as your side saw it.",
            clock_note="one clock per side for the whole campaign"),
        "cv": cv, "side": side, "side_name": SIDE_NAMES.get(side or "", "spectator"),
        "boards": _boards(v, side, cards, log=cv["log"], since=since)
        if cards is not None else [],
        "sections": _sections(cv, cards), "pools": [pools[s] for s in SIDES],
        "chart": mark_safe(losses_svg(v.get("history") or ())),  # noqa: S308 (escaped)
        "timeline": timeline(v.get("history") or ()), "error": error,
        "status_line": status_line(cv, joinable),
        "poll": poll, "poll_seconds": POLL_SECONDS, "outcome": outcome_text(cv["outcome"]),
        "clocks": frame.clock_rows(cv["clocks"], side, to_move.get("side") if cv["deadline"]
                                   and c.status == Status.ACTIVE else None),
        "time_control_text": clock.describe(cv["time_control"]),
        "pool_choices": PoolChoice.choices, "joinable": joinable,
        "split": split_context(core_of(c), side, cv["legal_actions"], cards, posted)
        if cards is not None and any(a.get("type") == "split" for a in cv["legal_actions"])
        else None,
        "undo_notes": undo_notes(cv["log"], side),
        **frame.passing("campaign", c, cv),
        **(deploy_form("campaign", c, cv["legal_actions"],
                       ((v.get("boards") or {}).get(to_move.get("board")) or {}), side, cards,
                       c.seq) if cards is not None and c.status == Status.ACTIVE else {}),
        **_log_context(cv, side, cards, since),
        **extra,
    }


def render_campaign(request: HttpRequest, c: Campaign, *, status: int = 200,
                    **extra: Any) -> HttpResponse:
    """The campaign's page (htmx: its play fragment, the header out of band)."""
    return frame.render_game(request, TEMPLATES + "campaign.html",
                             campaign_context(request, c, **extra), status=status)


def campaign_page(request: HttpRequest, pk: int) -> HttpResponse:
    c = campaign_or_404(request, pk)
    presence.looked_at(c, request.user)  # a player at the page is not absent
    return render_campaign(request, c)


def _warning(request: HttpRequest, c: Campaign, seq: Any, action: Any) -> str:
    """What to ask before playing ``action`` (only one of my legal actions now is asked)."""
    cv = selectors.campaign_view(c, request.user)
    return action_warning(cv, action, cards_of(c)) if frame.is_legal_now(cv, seq, action) \
        else ""


POSTS = GamePosts(page="campaign", fetch=campaign_or_404, render=render_campaign,
                  service=services, warning=_warning, pass_kinds=passing_kinds)
(act, undo, resign, claim, pass_rest, pass_kind, passing, deploy, end_for_me,
 fire_order) = POSTS.views("act", "undo", "resign", "claim", "pass_rest", "pass_kind",
                           "passing", "deploy", "end_for_me", "fire_order")


REPLAY_VIEWPOINTS = (("french", "French view"), ("allied", "Allied view"),
                     ("all", "All cards"))


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished campaign, step by step (``?step=n``: after action n of the log, an undo
    included), as the viewer's side saw it (a spectator: both sides hidden), or from
    ``?as=french|allied|all`` (``all``: every card). Rebuilt once per request from the
    revealed seed (``play.replays.replay_book``), every die checked against those rolled."""
    try:
        c = replays.replayable(KIND, request.user, pk)
    except ServiceError as exc:  # 404, or not over yet (409): shown once it is over
        raise Http404("a campaign's replay is shown once it is over") from exc
    step = int_or_raw(request.GET.get("step", "0"))
    step = min(step if type(step) is int else 0, c.seq)
    side = services.side_of(c, request.user)
    chosen = request.GET.get("as")
    # unasked (or not one of them): a player's own side; a spectator's view, both sides hidden
    viewpoint = chosen if chosen in (*SIDES, replays.ALL) else side
    book = replays.replay_book(KIND, c, keep=lambda i, last: i == min(step, last), log=True)
    last = len(book.steps) - 1
    step = min(step, last)
    shown = book.view(step, viewpoint)
    at = book.steps[step]
    cards = cards_of(c)
    return render(request, TEMPLATES + "replay.html", {
        "c": c, "step": step, "last": last, "prev": max(step - 1, 0),
        "next": min(step + 1, last),
        "viewpoint": viewpoint or "", "viewpoints": REPLAY_VIEWPOINTS,
        "as_query": f"&as={viewpoint}" if chosen == viewpoint else "",
        "boards": _boards(shown, viewpoint if viewpoint in SIDES else side, cards,
                          prefix="replay"),
        "chart": mark_safe(losses_svg(shown.get("history") or ())),  # noqa: S308
        "timeline": timeline(shown.get("history") or ()),
        "by": SIDE_NAMES.get(at.side or "", ""),
        "undoes": at.undoes,
        "dice": dice_sentence(book, c.seed), "dice_ok": book.check.ok,
        "seed": str(c.seed), "seed_hash": c.seed_hash, "seed_ok": seed_ok(c),
        "undone": book.undone,
    })
