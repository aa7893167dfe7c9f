"""Rows another app writes in the same statement as an action's own, on PostgreSQL (issue 31:
an action in <= 4 round trips, BEGIN and COMMIT included).

An action's rows and its match's row are one statement (``sql.insert_and_update``); an app
whose after-commit listener would write a row for most actions (a "your move" notice: a
sixth of a battle's actions) registers a ``Writer`` here instead: given the match as the
action leaves it (locked, about to be written) and the side that chose the action, it
returns a ``Part``, data-modifying CTEs run in that same statement, so the row commits with
the action or not at all and costs no round trip of its own. ``match_changed`` then carries
the part's ``name`` in ``written``, and the app's listener does not write it again.
Elsewhere (SQLite) there is no such statement: no part, the listener does it as before.

The statement that ends a match (``play.turns.finish``: its last rows, if any, and the
finished match's row) asks the same writers, with the match finished and ``by`` "": the
end's notices and a tournament game's link are read or written there (issue 31, an ending
action in 4 round trips); ``match_finished`` listeners get the parts' returned rows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Part:
    name: str  # what ``match_changed`` carries in ``written``
    # (name, statement) run as CTEs after the action's own, in order, with ``params`` (their
    # %s in the same order); the last one's first row (RETURNING) is given to ``after``
    ctes: tuple[tuple[str, str], ...]
    params: tuple[Any, ...]
    after: Callable[[dict | None], None] | None = None  # called once the statement ran


# (kind, match as the action leaves it, the side that chose the action) -> a Part or None
Writer = Callable[[Any, Any, str], Part | None]
_writers: list[Writer] = []


def register(writer: Writer) -> None:
    """Add ``writer`` (an app's ``ready``; once: registering it again changes nothing)."""
    if writer not in _writers:
        _writers.append(writer)


def parts(kind: Any, match: Any, by: str, vendor: str) -> list[Part]:
    """The registered writers' parts for this action (none but on PostgreSQL). A writer that
    fails is logged and left out: its app's listener then writes after commit as before."""
    if vendor != "postgresql":
        return []
    out = []
    for writer in _writers:
        try:
            part = writer(kind, match, by)
        except Exception:  # noqa: BLE001 - the action goes on; the listener does it later
            log.exception("%s %s: writer %r failed", kind.kind, match.pk, writer)
            continue
        if part is not None:
            out.append(part)
    return out


def keeping(parts: list[Part]) -> tuple[list[Part], dict[str, Any]]:
    """``parts`` with each one's returned row (its last CTE's first row, None if none) kept
    in the dict returned, by the part's name, once the statement ran (the end of a match:
    ``play.turns.finish`` hands them to ``match_finished`` listeners in ``written``)."""
    rows: dict[str, Any] = {}

    def keep(part: Part) -> Callable[[dict | None], None]:
        def after(row: dict | None) -> None:
            rows[part.name] = row
            if part.after is not None:
                part.after(row)
        return after

    return [replace(part, after=keep(part)) for part in parts], rows
