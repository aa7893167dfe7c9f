"""The campaign's own events and history in words (pure: the stdlib and ``game``): the
timeline, and the campaign page's log, whose board events are worded by
``frontend.battle.words`` from the viewer's view of that board.

``campaign_words(entry, side, cards)`` reads an entry of the view's ``history`` (``phase``,
``split``, ``battle``, ``retreat``, ``result``, ``reinforce``, ``keep``, ``over``) or a log
event of the same kind (``campaign_phase``, ``split``, ``split_cards``, ``battle_start``,
``retreat``, ``retreat_check``, ``campaign_battle_over``, ``campaign_over`` ...); None for a
board's own event. Only what the entry says is named: the log given is the viewer's
(``campaigns.selectors.campaign_view``: filtered by ``events_for``), so ``split_cards``
(one side's own split) reaches that side only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from frontend.battle.words import describe_events
from game import SIDE_NAMES

from .chart import NAMES

KINDS = {"campaign_phase": "phase", "battle_start": "battle", "campaign_battle_over": "result",
         "campaign_over": "over"}
PHASES = {"first": "Quatre Bras and Ligny", "second": "Wavre and Waterloo",
          "charleroi": "The Battle of Charleroi", "over": "The campaign is over"}


def battle_name(b: str | None) -> str:
    return NAMES.get(b or "", (b or "").replace("-", " ").title())


def _card(cards: Mapping | None, n: Any) -> str:
    c = (cards or {}).get(n)
    return getattr(c, "name", None) or f"card {n}"


def campaign_words(entry: Mapping, side: str | None = None,
                   cards: Mapping | None = None) -> str | None:
    """One line for a campaign entry or event, as ``side`` reads it ("You" for its own
    side; None: the timeline, third person), or None for a board's own event."""
    t = KINDS.get(str(entry.get("type")), entry.get("type"))
    battle = battle_name(entry.get("battle") or entry.get("board"))
    mine = side is not None and entry.get("side") == side
    who = "You" if mine else f"The {SIDE_NAMES.get(entry.get('side'), '')}"
    if t == "start":
        p = entry.get("pools") or [0, 0]
        return f"The campaign begins: {p[0]} French and {p[1]} Allied cards."
    if t == "phase":
        return PHASES.get(entry.get("phase"), entry.get("phase"))
    if t == "split":
        counts = entry.get("counts") or {}
        return f"{who} split {'your' if mine else 'their'} cards: " + ", ".join(
            f"{n} to {battle_name(b)}" for b, n in counts.items()) + "."
    if t == "split_cards":
        decks = entry.get("decks") or {}
        return "Your decks: " + "; ".join(
            f"{battle_name(b)}: " + (", ".join(_card(cards, n) for n in nums) or "no free card")
            for b, nums in decks.items()) + "."
    if t == "battle":
        n = entry.get("cards") or {}
        return (f"{battle} begins ({n.get('french', 0)} French, {n.get('allied', 0)} Allied "
                f"cards).")
    if t == "retreat":
        turn = f" (turn {entry['turn']})" if entry.get("turn") is not None else ""
        return f"{who} retreat from {battle}{turn}."
    if t == "retreat_check":
        what = _card(cards, entry["card"]) if entry.get("card") is not None else "a card"
        return (f"{battle}: {what} checks its morale after the battle: rolls {entry.get('roll')}"
                f", {'holds' if entry.get('passed') else 'is lost'}.")
    if t == "result":
        w = entry.get("winner")
        won = f"won by the {SIDE_NAMES[w]}" if w in SIDE_NAMES else "drawn"
        return f"{battle} {won} ({entry.get('reason')}, turn {entry.get('turn')})."
    if t in ("reinforce", "keep"):
        verb = "reinforce" if t == "reinforce" else "keep back"
        return (f"{who} {verb} {entry.get('count')} survivors of "
                f"{battle_name(entry.get('from'))}"
                + (f" into {battle_name(entry.get('to'))}." if t == "reinforce" else "."))
    if t == "over":
        return f"The {SIDE_NAMES.get(entry.get('winner'), '')} win the campaign."
    return None


def timeline(history: Sequence[Mapping]) -> list[str]:
    """The campaign's history, oldest first, in the third person."""
    return [line for h in history if (line := campaign_words(h)) is not None
            and h.get("type") in ("start", "phase", "split", "battle", "retreat", "result",
                                  "reinforce", "keep", "over")]


def log_texts(log: Sequence[Mapping], side: str | None, cards: Mapping | None,
              boards: Mapping[str, Mapping]) -> list[str]:
    """One line per event of the viewer's ``log``: the campaign's own events here, each
    board's events by ``describe_events`` from the viewer's view of that board (``boards``;
    a battle over is no longer in the view: its pieces are then named only as the events
    name them)."""
    texts = [campaign_words(e, side, cards) for e in log]
    rest: dict[Any, list[int]] = {}
    for i, text in enumerate(texts):
        if text is None:
            rest.setdefault(log[i].get("board"), []).append(i)
    for board, idx in rest.items():
        lines = describe_events([log[i] for i in idx], side, cards, view=boards.get(board))
        for i, line in zip(idx, lines, strict=False):
            texts[i] = line
    return [text if text is not None else "Something happened" for text in texts]
