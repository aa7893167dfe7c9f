"""The game log as the frame shows it (pure: the stdlib and ``game``).

- ``log_lines(events, texts, side, since, by)``: one line per event of the viewer's log (the
  selectors' per-viewer log: never the raw events), with its action's ``seq``, whether the
  viewer's side acted (``mine``) and whether it came after the viewer's last action
  (``new``: what the opponent did since; marked on the page);
- ``log_groups(events, lines, board_of, board_name)``: the lines in groups, one per turn
  ("Deployment" before the first), or, for a game of several boards, one per board and
  turn (in the order each began), the game's own events (no board) in groups of their own
  between them; the group of the newest line and any group with a new line are ``open``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from game import SIDE_NAMES

SAME = object()  # board_of: this event belongs where the one before it did (an undo)


def log_lines(events: Sequence[Mapping], texts: Sequence[str], side: str | None,
              since: int | None, *, by: str = "side") -> list[dict]:
    """The worded log: ``texts`` line up with ``events`` (else they are shown unmarked);
    ``by`` is the event's key naming the side that acted; ``since`` the viewer's last action
    (None: none yet, everything is new; a spectator, ``side`` None, sees nothing new)."""
    if len(texts) != len(events):
        return [{"seq": None, "text": text, "mine": False, "new": False} for text in texts]
    out = []
    for e, text in zip(events, texts, strict=True):
        seq = e.get("seq")
        new = side is not None and isinstance(seq, int) and seq > (since or 0)
        out.append({"seq": seq, "text": text, "mine": side is not None and e.get(by) == side,
                    "new": new})
    return out


def _title(board: Any, turn: tuple | None, board_name: Callable[[Any], str]) -> str:
    if board is None:
        return "The campaign"
    when = "Deployment" if turn is None else f"Turn {turn[0]}" + (
        f" ({turn[1]})" if turn[1] else "")
    return f"{board_name(board)} · {when}" if board else when


def log_groups(events: Sequence[Mapping], lines: Sequence[Mapping],
               board_of: Callable[[Mapping], Any] | None = None,
               board_name: Callable[[Any], str] = str) -> list[dict]:
    """``lines`` (one per event of ``events``) grouped per turn, and per board when
    ``board_of`` names each event's board (None: the game's own events; ``SAME``: the group
    of the event before). Lines that do not line up with the events form one group."""
    if not lines:
        return []
    if len(lines) != len(events):
        return [{"title": "The whole log", "turn": None, "board": "", "lines": list(lines),
                 "open": True}]
    turns: dict[Any, tuple] = {}
    groups: list[dict] = []
    by_key: dict[tuple, dict] = {}  # a board's turn gathers its lines, though boards alternate
    board: Any = ""
    last: dict = {}
    for e, line in zip(events, lines, strict=True):
        if board_of is not None:
            found = board_of(e)
            board = board if found is SAME else found
        if e.get("type") == "turn" and isinstance(e.get("turn"), int):
            turns[board] = (e["turn"], SIDE_NAMES.get(str(e.get("side")), ""))
        turn = turns.get(board) if board is not None else None
        key = (board, turn)
        group = by_key.get(key) if board is not None else (
            groups[-1] if groups and groups[-1]["key"] == key else None)
        if group is None:
            group = {"key": key, "title": _title(board, turn, board_name),
                     "turn": turn[0] if turn else 0, "board": board, "lines": []}
            groups.append(group)
            if board is not None:
                by_key[key] = group
        group["lines"].append(line)
        last = group
    for g in groups:
        g["open"] = g is last or any(line.get("new") for line in g["lines"])
    return groups
