"""The replay page of a finished battle: ``/battles/<id>/replay/?step=n&as=french|allied|all``.

For its players and, if the battle is public, anyone (a private battle of others is a 404;
a battle not over yet is refused with 409: its seed and face-down cards are still secret).
The battle is rebuilt once per request from its setup and revealed seed
(``play.replays.replay_book``, bound to battles by ``battles.replays``: every action's events
compared with those recorded, the positions drawn kept), so any step is drawn without
replaying again, and the page says whether every die re-derived from the seed matches what
was rolled (``frontend.play.replay``). The board is drawn by the battle
page's renderer (``board_svg``) from the chosen viewpoint: a side's own view, or ``all`` (both
sides' views merged: every card).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

from battles import replays
from battles.engine import SIDES
from battles.errors import BattleError
from battles.selectors import side_of
from battles.setup import cards_of
from frontend.battle.board_svg import board_svg
from frontend.battle.view_context import SIDE_THE
from frontend.battle.views import END_WORDS, battle_name, outcome_text
from frontend.battle.words import describe_action, describe_event, describe_events
from frontend.errors import page_message, refuse
from frontend.play.replay import dice_sentence, seed_ok

TEMPLATE = "frontend/battles/replay.html"
VIEWPOINTS = (("french", "French view"), ("allied", "Allied view"), ("all", "All cards"))


def _step(raw: str | None, last: int) -> int:
    """The step asked for; none: the first (a replay opens at the start, where "Next" leads
    on)."""
    if raw is None or raw == "":
        return 0
    if not (raw.isascii() and raw.isdigit() and len(raw) < 7):
        raise BattleError("step must be a whole number: 0 is the position before the first "
                          "action")
    return min(int(raw), last)


def _events_seen(events: list[dict], viewpoint: str) -> tuple[list[dict], str | None]:
    if viewpoint in SIDES:
        return events, viewpoint
    return [{**e, "visibility": "all"} for e in events], None


def replay(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        battle = replays.replayable(request.user, pk)
    except BattleError as exc:
        refuse(exc)  # 404: not one the user may see
        return render(request, TEMPLATE, {"error": page_message(exc, capitalise=True),
                                          "battle_id": pk}, status=exc.status)
    mine = side_of(battle, request.user)
    viewpoint = request.GET.get("as") or mine or "all"
    raw = request.GET.get("step")
    try:
        if viewpoint not in ("french", "allied", "all"):
            raise BattleError("as must be french, allied or all")
        _step(raw, 0)  # well formed (its range is known once the battle is rebuilt)
    except BattleError as exc:
        return render(request, TEMPLATE, {"error": page_message(exc, capitalise=True),
                                          "battle_id": pk}, status=exc.status)
    # A battle ended by a resignation, the clock or an absence claim ends with one more step
    # than its actions: that end, on the last position.
    ended = (battle.outcome or {}).get("reason") in END_WORDS
    # One replay per request, keeping only the positions drawn: this step and the one before.
    book = replays.replay_book(
        battle, keep=lambda i, last: min(_step(raw, last + ended), last) - i in (0, 1))
    played = len(book.steps) - 1
    last = played + ended
    n = _step(raw, last)
    cards = cards_of(battle)
    if n > played:  # the end step: nothing was played, the battle was ended
        return _render_end(request, battle, book, played, viewpoint, mine, cards, last)
    step = book.steps[n]
    shown = book.view(n, viewpoint)
    facing = viewpoint if viewpoint in SIDES else (mine or "french")
    events, seen_by = _events_seen(step.events, viewpoint)
    before = book.view(n - 1, viewpoint) if n else None
    lines = describe_events(events, seen_by, cards, view=shown, before=before)
    if step.auto and step.action is not None:  # played by auto-play: said as the log says
        lines.insert(0, describe_event({"type": "auto_played", "side": step.side,
                                        "action": step.action.get("type")}, seen_by))
    action_text = ""
    if step.action is not None:
        action_text = describe_action(step.action, before or shown, cards)
    return render(request, TEMPLATE, {
        **_common(battle, book, n, last, viewpoint),
        "board": mark_safe(board_svg(shown, facing, cards, id_prefix="replay")),  # noqa: S308
        "action_text": action_text, "lines": lines,
    })


def _common(battle, book, n: int, last: int, viewpoint: str) -> dict:
    """What every step of the page shows: the players, the navigation, the dice check."""
    turn = book.steps[min(n, len(book.steps) - 1)].turn
    return {
        "battle": battle, "battle_id": battle.pk, "battle_name": battle_name(battle.battle),
        "players": {s: (battle.player(s).username if battle.player(s) else
                        f"computer ({battle.bot})" if battle.bot else "?") for s in SIDES},
        "step": n, "last": last, "prev": max(n - 1, 0), "next": min(n + 1, last),
        "viewpoint": viewpoint, "viewpoints": VIEWPOINTS,
        "turns": [{"turn": t, "step": i, "label": f"Turn {t}" if t else "Deployment",
                   "current": turn == t} for t, i in book.turns()],
        "undone": book.undone,
        "dice": dice_sentence(book, battle.seed), "dice_ok": book.check.ok,
        "seed": str(battle.seed), "seed_hash": battle.seed_hash, "seed_ok": seed_ok(battle),
        "outcome": outcome_text(battle.outcome, viewpoint if viewpoint in SIDES else None),
    }


def _render_end(request: HttpRequest, battle, book, played: int, viewpoint: str, mine,
                cards, last: int) -> HttpResponse:
    """The step after the last action of a battle ended by the service: the last position,
    and who ended it how ("The Allies resigned")."""
    seen_by = viewpoint if viewpoint in SIDES else None
    shown = book.view(played, viewpoint)
    facing = viewpoint if viewpoint in SIDES else (mine or "french")
    outcome = battle.outcome or {}
    loser = next((s for s in SIDES if s != outcome.get("winner")), None)
    words = END_WORDS[outcome["reason"]]
    who = "you" if loser == seen_by else SIDE_THE.get(loser, "a player")
    text = words.format(who=who)
    return render(request, TEMPLATE, {
        **_common(battle, book, last, last, viewpoint),
        "board": mark_safe(board_svg(shown, facing, cards, id_prefix="replay")),  # noqa: S308
        "action_text": text[0].upper() + text[1:], "lines": [outcome_text(outcome, seen_by)],
    })
