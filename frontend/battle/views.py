"""Battle pages: my battles with a form to start one against the computer, and the battle
itself (the board, my Reserve, whose move it is, my legal actions as buttons, the log).

Like the API (``battles/api.py``) these views only read forms and render: every rule is in
``battles.services`` (writes) and ``battles.selectors`` (reads). What the page shows comes
from ``selectors.battle_view`` only (the engine's view of my side, my legal actions, the log
filtered for my side), drawn and worded by ``frontend.battle``: a face-down enemy card is
never named. Someone else's battle is a 404; a service refusal is the page again with the
message and the error's status (400 bad input or an illegal action, 409 a stale ``seq``, not
your move, waiting for an opponent, or over), and nothing changes. A battle between people
that nobody has joined yet has no position: its page says so (no board, no actions), says
who may take the other seat, and offers its creator a Cancel button.

Playing another person: the new-battle form's "Opponent" is the computer (with its strength),
anyone (an open battle) or a player named by username. The list shows the invitations I got
(Join with an optional deck of mine that fits, or Decline), the open battles of others (Join)
and my battles (Cancel for a waiting one); each is a plain POST form (``join/``,
``cancel/``: cancelling an invitation declines it), and a refusal is the list again with the
service's message and status (409 the seat is taken, 404, 403).

The page is the game page frame's (``frontend.play``, ``templates/frontend/play/game.html``)
with the battle's board, Reserve and legend inside: the frame draws the header, the status,
the clocks, the actions, Undo, Resign, the log per turn, the last dice and the seed.

htmx, as progressive enhancement: each legal action is a small form posting ``seq`` and the
action (JSON) to ``act/``; with ``HX-Request`` the answer is the play fragment (the frame's
play area, and its header swapped out of band: the opponent's name, the "your move" badge,
Resign), otherwise a redirect to the page. While the computer is to move, the fragment polls
the page every second; while it is another person's move, or nobody has taken the other seat
yet, every two seconds (so the board appears once they join). ``static/frontend/live.js``
(issue 12) opens the battle's websocket (``play/live/``) and fetches the fragment when a
newer ``seq`` arrives; while the socket is open it cancels this polling, which stays the
no-websocket fallback. ``static/frontend/battles.js`` (optional) offers only the decks that
fit the chosen battle and side in the new-battle form; ``static/frontend/play.js`` (every game
page) keeps the keyboard focus on the next action after a swap, never on a finish.
"""

from __future__ import annotations

from fractions import Fraction

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from battles import selectors, services
from battles.bots import BOTS
from battles.dealing import POOLS, scale_choices
from battles.engine import DEFAULT_SETTINGS, SIDES
from battles.engine.board import ARMY_SIDE
from battles.errors import BattleError
from battles.kind import KIND
from battles.models import Battle, Status
from battles.setup import cards_of
from decks.catalogue import derived
from decks.selectors import playable_version_list
from frontend import paging
from frontend.battle import play
from frontend.battle.board_ux import BOARD_SECTIONS
from frontend.battle.deploy_form import deploy_form
from frontend.battle.list_rows import my_battle_rows
from frontend.battle.view_context import PHASE_NAMES, SIDE_THE, reserve_panel
from frontend.battle.words import describe_actions, describe_event, describe_events
from frontend.errors import page_message, refuse
from frontend.learn.rules import rule_links
from frontend.play import actions as frame_actions
from frontend.play import frame
from frontend.play.frame import int_or_raw
from frontend.play.log import log_lines
from frontend.play.posts import GamePosts, or_404
from frontend.rows import url_of, utc_text
from frontend.whats_on import login_or_watch
from game import ARMY_NAMES, BATTLE_NAMES, BATTLES, SIDE_NAMES, other_side
from play import clock, presence
from play import passing as pass_choices

TEMPLATES = "frontend/battles/"
MAX_LIST = 200
LIVE_LIMIT = 20  # public battles under way listed on the battles page
POLL_SECONDS = 1  # waiting for the computer
HUMAN_POLL_SECONDS = 2  # waiting for another person's move, or for someone to join
OPPONENTS = (("computer", "The computer"), ("open", "Anyone (an open battle)"),
             ("player", "A player I name"))
BOT_LABELS = {"random": "Random (plays any legal move)",
              "greedy": "Greedy (picks the move that looks best now)",
              # Measured against Greedy (battles/bots/README.md): said so on the page.
              "search-easy": "Search, easy (thinks a few moves ahead, but in our test "
                             "battles it plays no better than Greedy)",
              "search": "Search (guesses your hidden cards and plays each candidate move "
                        "out to the end of the battle; won 241 of 400 test battles against "
                        "Greedy, which won 210 in the same seats; up to 1 s a move)",
              "search-hard": "Search, hard (the same with twice the samples on a close "
                             "call, up to 3 s a move; not measured separately)"}
WAITING = {"you": "Your move", "computer": "The computer's move",
           "opponent": "Your opponent's move"}
STATUS_LABELS = dict(Status.choices)

# --- helpers -------------------------------------------------------------------------------

get_battle = or_404(selectors.battle_of)  # the battle the viewer may see, or 404


def battle_name(key: str) -> str:
    return BATTLE_NAMES.get(key, key.replace("-", " ").title())


# Battles ended by the service rather than the engine (issue 12, Time): who did what.
END_WORDS = {"time": "{who} ran out of time", "resigned": "{who} resigned",
             "absent": "{who} left the battle (claimed for absence)"}


def outcome_text(outcome: dict | None, side: str | None) -> str:
    """'The battle is over: you win by holding enemy Right alone', from the outcome."""
    if not outcome:
        return ""
    words = END_WORDS.get(outcome.get("reason"))
    if words and outcome.get("winner") in SIDES:
        loser = other_side(outcome["winner"])
        result = "you win" if outcome["winner"] == side else "you lose"
        who = "you" if loser == side else SIDE_THE[loser]
        return f"The battle is over: {result}: {words.format(who=who)}"
    return describe_event({"type": "battle_over", **outcome}, side)


# --- my battles and a new one ----------------------------------------------------------------

def _deck_choices(user) -> list[dict]:
    """My decks with a playable (latest valid) version, grouped by battle and side: the
    service checks the choice again (battle, army, deck rules) when the battle is created."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for version in playable_version_list(user):  # one query, however many decks
        deck = version.deck
        if deck.battle not in BATTLES or deck.army not in ARMY_SIDE:
            continue
        if version.kind == "campaign":
            continue  # 16.0: a campaign deck is not played in a single battle
        side = SIDES[ARMY_SIDE[version.army]]
        groups.setdefault((version.battle, side), []).append({
            "id": version.pk, "label": f"{deck.name} (v{version.number}, "
                                       f"{ARMY_NAMES.get(version.army, version.army)}, "
                                       f"{version.kind}, scale {version.scale})",
            "battle": version.battle, "side": side})
    return [{"label": f"{battle_name(b)} · {SIDE_NAMES[s]}", "battle": b, "side": s,
             "decks": decks}
            for (b, s), decks in sorted(groups.items(),
                                        key=lambda kv: (BATTLES.index(kv[0][0]), kv[0][1]))]


def _list_rows(user, battles: list[Battle]) -> list[dict]:
    rows = []
    url = url_of("battle")
    for b in battles:
        s = selectors.battle_summary(b, user)
        waiting = s["status"] == Status.WAITING
        opponent = s["opponent"] or "anyone (open battle)"
        if waiting and s["opponent"]:
            opponent += " (invited)"
        rows.append({**s, "battle_name": battle_name(s["battle"]),
                     "side_name": SIDE_NAMES.get(s["my_side"], s["my_side"]),
                     "opponent_name": opponent, "can_cancel": waiting,
                     "status_label": STATUS_LABELS.get(s["status"], s["status"]),
                     "whose": ("Waiting for an opponent" if waiting
                               else WAITING.get(s["waiting_for"], "—")),
                     "outcome_text": outcome_text(s["outcome"], s["my_side"]),
                     "url": url(s["id"]), "created_text": utc_text(s["created_at"])})
    return rows


def _create_from_form(request: HttpRequest, form: dict) -> Battle:
    """Create the battle the form describes (``BattleError`` from the service, or for an
    invitation without a name)."""
    settings = {"decoys": form["decoys"]}
    turn_cap = int_or_raw(form["turn_cap"])
    if turn_cap is not None:
        settings["turn_cap"] = turn_cap
    opponent = form["opponent"]
    if opponent == "player":
        opponent = form["opponent_name"].strip()
        if not opponent:
            raise BattleError("enter the username of the player to invite, or choose "
                              "another opponent")
        if opponent in (services.COMPUTER, services.OPEN):
            raise BattleError(f"a player named {opponent!r} cannot be invited by name")
    elif opponent not in (services.COMPUTER, services.OPEN):
        raise BattleError("choose an opponent: the computer, anyone, or a player by name")
    version_id, deal = deck_choice(form["deck_version"], form["historical"])
    if form["time_control"] not in clock.PRESET_CONTROLS:
        raise BattleError("choose a time control from the list")
    return services.create_battle(request.user, form["battle"], form["side"],
                                  bot=form["bot"], deck_version_id=version_id, deal=deal,
                                  settings=settings, opponent=opponent, scale=form["scale"],
                                  time_control=clock.PRESET_CONTROLS[form["time_control"]],
                                  public=form["public"], rated=form["rated"])


def deck_choice(value: str, historical: bool) -> tuple[object, dict | None]:
    """The deck select's value: "collection" or "set" (2.0: dealt from that pool, historical
    only if ticked), a saved deck version's id, or empty (the whole set, historical only)."""
    if value in POOLS:
        return None, {"pool": value, "historical": historical}
    if not value:
        return None, None
    return int_or_raw(value), None


def _scale_options() -> list[dict]:
    """Every scale some battle allows (2.0), with the battles it fits (the script hides the
    others; the service refuses a scale that does not fit with a message). It depends only
    on the catalogue: worked out once per catalogue version (it counted every battle's pools
    at every scale on each request, a third of the page's time)."""
    return derived("battle-scale-options", _scale_options_of)


def _scale_options_of(records: dict[int, dict]) -> list[dict]:
    fits: dict[str, list[str]] = {}
    for key in BATTLES:
        for scale in scale_choices(key, records):
            fits.setdefault(scale, []).append(key)
    return [{"value": v, "battles": " ".join(b), "label": scale_label(v)}
            for v, b in sorted(fits.items(), key=lambda kv: Fraction(kv[0]))]


def scale_label(value: str) -> str:
    """A scale as a player reads it (2.0: every deck is its size times the scale)."""
    f = Fraction(value)
    if f == 1:
        return "1: the armies as they fought"
    if f < 1:
        return f"{value}: armies at {value} of their size, a shorter battle"
    return f"{value}: armies {value} times their size, a longer battle"


def _fitting(deck_groups: list[dict], battle: str, side: str | None) -> list[dict]:
    """My playable decks for that battle and side (for a Join form)."""
    return [d for g in deck_groups if g["battle"] == battle and g["side"] == side
            for d in g["decks"]]


def _invitation_rows(user, deck_groups) -> list[dict]:
    rows = []
    for b in selectors.waiting_invitations(user, MAX_LIST):
        s = selectors.battle_summary(b, user)
        rows.append({**s, "battle_name": battle_name(s["battle"]),
                     "side_name": SIDE_NAMES.get(s["my_side"], s["my_side"]),
                     "decks": _fitting(deck_groups, s["battle"], s["my_side"])})
    return rows


def _open_rows(user, deck_groups) -> list[dict]:
    rows = []
    for b in selectors.open_battles_for(user, MAX_LIST):
        s = selectors.open_summary(b)
        rows.append({**s, "battle_name": battle_name(s["battle"]),
                     "side_name": SIDE_NAMES.get(s["side"], s["side"]),
                     "time_text": clock.describe(s["time_control"]),
                     "decks": _fitting(deck_groups, s["battle"], s["side"])})
    return rows


def render_list(request: HttpRequest, *, form: dict | None = None, error: str = "",
                list_error: str = "", status: int = 200) -> HttpResponse:
    deck_groups = _deck_choices(request.user)
    mine = paging.page(selectors.battle_list(request.user, invitations=False), request)
    rows = _list_rows(request.user, mine.rows)
    return render(request, TEMPLATES + "list.html", {
        "rows": rows, "rows_html": my_battle_rows(rows, get_token(request)),
        "next_page": mine.next,
        "form": form or _form({}), "error": error,
        "list_error": list_error,
        "invitations": _invitation_rows(request.user, deck_groups),
        "open_rows": _open_rows(request.user, deck_groups),
        "battles": [(key, battle_name(key)) for key in BATTLES],
        "sides": [(s, SIDE_NAMES[s]) for s in SIDES],
        "bots": [(name, BOT_LABELS.get(name, name.title())) for name in BOTS],
        "opponents": OPPONENTS,
        "deck_groups": deck_groups,
        "scales": _scale_options(),
        "time_controls": [(key, label) for key, label, _tc in clock.PRESETS],
        "live_rows": live_rows(request.user),
    }, status=status)


def live_rows(user) -> list[dict]:
    """Public battles under way that ``user`` does not play, to watch (``watch_views``)."""
    rows = []
    for b in selectors.live_battles(LIVE_LIMIT * 2):
        if selectors.side_of(b, user) is not None:
            continue
        names = selectors.player_names(b)
        rows.append({"id": b.pk, "battle_name": battle_name(b.battle), "turn": b.turn,
                     "players": " vs ".join(f"{names[s]} ({SIDE_NAMES[s]})" for s in SIDES)})
        if len(rows) == LIVE_LIMIT:
            break
    return rows


def _form(data) -> dict:
    return {"battle": data.get("battle", BATTLES[0]), "side": data.get("side", "french"),
            "opponent": data.get("opponent", "computer"),
            "opponent_name": data.get("opponent_name", ""),
            "bot": data.get("bot", "random"), "deck_version": data.get("deck_version", ""),
            "historical": bool(data.get("historical")), "scale": data.get("scale", "1"),
            "turn_cap": data.get("turn_cap", str(DEFAULT_SETTINGS["turn_cap"] or "")),
            "decoys": bool(data.get("decoys")) if data else DEFAULT_SETTINGS["decoys"],
            "time_control": data.get("time_control", clock.PRESETS[0][0]),
            "public": bool(data.get("public")) if data else True,
            "rated": bool(data.get("rated"))}


@login_or_watch("a battle")
def battle_list(request: HttpRequest) -> HttpResponse:
    """My invitations, the open battles of others, my battles, and the form to start one
    (POST: create)."""
    if request.method != "POST":
        return render_list(request)
    form = _form(request.POST)
    try:
        b = _create_from_form(request, form)
    except BattleError as exc:
        if exc.status == 403:
            refuse(exc)
        return render_list(request, form=form, error=page_message(exc, capitalise=True),
                           status=exc.status)
    return redirect("battle", pk=b.pk)


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    """Take the empty seat of an open battle or of one I am invited to (optionally with one
    of my decks), then see the battle; a refusal is the list with the message."""
    version_id, deal = deck_choice(request.POST.get("deck_version", ""),
                                   bool(request.POST.get("historical")))
    try:
        services.join_battle(pk, request.user, version_id, deal=deal)
    except BattleError as exc:  # 409 the seat is taken, 404, 400 (my own, a wrong deck)
        return render_list(request, list_error=page_message(exc, capitalise=True),
                           status=exc.status)
    return redirect("battle", pk=pk)


@login_required
@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Cancel my battle nobody has joined, or decline an invitation; then the list."""
    try:
        services.cancel_battle(pk, request.user)
    except BattleError as exc:  # 403 someone else's open battle, 404, 409 started
        return render_list(request, list_error=page_message(exc, capitalise=True),
                           status=exc.status)
    return redirect("battles")


# --- a battle --------------------------------------------------------------------------------

def action_sections(actions: list[dict], view: dict, cards=None) -> list[dict]:
    """The legal actions in sections of groups (``frontend.play.actions``), each button with
    its full label (from ``describe_action``) and, in a group of several, the short words
    that differ."""
    sections = frame_actions.action_sections(actions, describe_actions(actions, view, cards),
                                             BOARD_SECTIONS)
    for s in sections:  # each section links the rules of its actions (how to play)
        s["rules"] = rule_links([it["type"] for g in s["groups"] for it in g["items"]])
    return sections


_split_group = frame_actions.split_group  # the words a group shares (tests)


def status_line(view: dict, side: str, waiting: str | None) -> str:
    phase = view.get("phase")
    if phase == "over":
        return "The battle is over"
    parts = []
    if view.get("turn"):
        parts.append(f"Turn {view['turn']}")
    parts.append(PHASE_NAMES.get(phase, str(phase or "").title()))
    active = view.get("active")
    if active in SIDES and phase != "deploy":
        parts.append("your turn" if active == side else f"the {SIDE_NAMES[active]} turn")
    parts.append(WAITING.get(waiting, "") if waiting else "")
    return " · ".join(p for p in parts if p)


def _log(bv: dict, side: str, since: int | None, cards=None) -> list[dict]:
    events = bv["log"]
    return log_lines(events, describe_events(events, side, cards, view=bv["view"]), side, since)


def battle_context(battle: Battle, user, **extra) -> dict:
    """Everything the battle page shows, from ``selectors.battle_view`` only."""
    bv = selectors.battle_view(battle, user)
    side, view = bv["my_side"], bv["view"]
    waiting = bv["waiting_for"]
    running = bv["deadline"] and bv["status"] == Status.ACTIVE and (
        side if waiting == "you" else other_side(side))
    context = {
        "game": frame.game(
            "battle", bv, noun="battle", list_url=reverse("battles"), list_name="Battles",
            log_title="Battle log", can_resign=bv["status"] == "active" and not bv["paused"],
            resign_summary="Resign…",
            resign_question="Resign this battle? Your opponent wins; this cannot be undone.",
            undo_title="Take back your last action: allowed in your turn until a die is "
                       "rolled or a card is revealed",
            replay_text="every action, from either side or with all cards shown, with every "
                        "die re-derived from the seed."),
        "since": frame.my_last_seq(battle, side),
        "bv": bv, "side": side, "side_name": SIDE_NAMES[side],
        "battle_name": battle_name(bv["battle"]),
        "deck_kinds": [(SIDE_NAMES[s], bv["decks"][s]) for s in SIDES],
        "opponent": bv["opponent"] or "anyone who takes the other seat",
        "invitee": bv["opponent"] if bv["status"] == Status.WAITING else None,
        "outcome": outcome_text(bv["outcome"], side),
        "poll": waiting in ("computer", "opponent"),
        "poll_seconds": POLL_SECONDS if waiting == "computer" else HUMAN_POLL_SECONDS,
        "over": bv["status"] != Status.ACTIVE,
        "board": "", "reserve": None, "sections": [], "log": [],
        "status_line": STATUS_LABELS.get(bv["status"], bv["status"]),
        "clocks": frame.clock_rows(bv["clocks"], side, running),
        "time_control_text": clock.describe(bv["time_control"]),
        **extra,
    }
    if view is not None:  # None: no position yet (a battle between people not yet joined)
        cards = cards_of(battle)  # the battle's own card records (issue 10), built once
        context.update(
            reserve=reserve_panel(view, side, cards), status_line=status_line(view, side, waiting),
            sections=action_sections(bv["legal_actions"], view, cards),
            log=_log(bv, side, context["since"], cards), **frame.last_dice(bv["log"]))
        play.add_board_ux(context, battle, cards)  # the board (marked), log per turn, keys
        context.update(deploy_form("battle", battle, bv["legal_actions"], view, side, cards,
                                   bv["seq"]))  # several cards from one form (4.1)
    context.update(frame.passing("battle", battle, bv))  # pass for the rest of the turn...
    return context


def _render_battle(request: HttpRequest, battle: Battle, status: int = 200,
                   **extra) -> HttpResponse:
    context = battle_context(battle, request.user, **extra)
    return frame.render_game(request, TEMPLATES + "battle.html", context, status=status)


@login_required
def battle_page(request: HttpRequest, pk: int) -> HttpResponse:
    battle = get_battle(request, pk)
    presence.looked_at(battle, request.user)
    return _render_battle(request, battle)


POSTS = GamePosts(
    page="battle", fetch=get_battle, render=_render_battle, service=services,
    warning=lambda request, battle, seq, action: play.confirm_warning(
        battle, request.user, seq, action),  # an action that can lose the battle: asked
    pass_kinds=lambda: pass_choices.kinds_of(KIND))
(act, undo, resign, claim, pass_rest, pass_kind, passing, deploy, end_for_me,
 fire_order) = POSTS.views("act", "undo", "resign", "claim", "pass_rest", "pass_kind",
                           "passing", "deploy", "end_for_me", "fire_order")
