"""The builder's deck panel (also the shared page's): the rows with their cards, the rules'
check, figures, statistics and chart; and deck input errors as lines of text."""

from __future__ import annotations

from django.http import HttpRequest

from decks import checks
from decks.catalogue import cards_by_number
from decks.inputs import DeckInputError
from decks.models import Deck, DeckKind, DeckVersion
from decks.rules import PRINTINGS
from game import CARD_TYPES

from . import chart as deck_chart
from .working_list import as_entries, same_as_saved

# Each rule problem's heading as a player says it (decks/rules/validate.py CODES); the code
# itself stays in the API and in the row's data-code, never in the words.
PROBLEM_TITLES = {
    "unknown_battle": "Unknown battle", "unknown_army": "Unknown army",
    "army_not_in_battle": "Army not in this battle", "unknown_kind": "Unknown kind of deck",
    "bad_scale": "Scale not allowed", "bad_count": "Impossible number of copies",
    "unknown_card": "Unknown card", "unknown_printing": "Unknown printing",
    "wrong_army": "Card of another army", "duplicate": "Card listed twice",
    "too_many_copies": "Too many copies", "duplicate_general": "A General more than once",
    "duplicate_terrain": "A terrain card more than once",
    "terrain_not_historical": "Terrain not in the historical set",
    "not_historical": "Card not in the historical deck", "deck_size": "Wrong number of cards",
    "bp_exceeded": "Too many build points", "never_dealt": "Card never dealt",
    "pool_too_small": "Not enough cards to deal from", "not_owned": "Cards you do not own",
}


def problem_title(code: str) -> str:
    return PROBLEM_TITLES.get(code) or code.replace("_", " ").capitalize()


PRINTING_CHOICES = [("", "Any printing")] + [(p, p.title()) for p in PRINTINGS]


def _problem_text(problems) -> list[str]:
    """DeckInputError problems as lines of text, whatever their shape."""
    lines = []
    for problem in problems or ():
        if isinstance(problem, str):
            lines.append(problem)
        elif isinstance(problem, dict):
            line = problem.get("line")
            message = problem.get("message") or str(problem)
            lines.append(f"line {line}: {message}" if line else message)
        else:
            line = getattr(problem, "line", None)
            message = getattr(problem, "message", None) or str(problem)
            lines.append(f"line {line}: {message}" if line else message)
    return lines


def describe_input_error(exc: Exception) -> tuple[str, list[str]]:
    message = getattr(exc, "message", None) or (exc.args[0] if exc.args else str(exc))
    return str(message), _problem_text(getattr(exc, "problems", ()))


def panel_context(request: HttpRequest, deck: Deck, rows: list[list], settings: dict,
                   owned: dict | None = None, *, public: bool = False,
                   version: DeckVersion | None = None) -> dict:
    """The deck panel: rows with their cards, the check, figures, statistics and chart.

    ``version``: the saved version the rows are (``working_list.shown_version``; None: an
    edited list), checked against the copies free for it; ``owned``, shown beside each row,
    is ``decks.selectors.free_copies`` for the same version."""
    from decks.stats import deck_statistics

    records = cards_by_number()
    rows = [row for row in rows if row[0] in records]  # the rules never see a forged number
    if settings["kind"] == DeckKind.DEALT:
        rows = []  # 2.0: a dealt deck holds no chosen cards; the battle deals them
    # Shown (and posted back) in one order, so a row's index means the same row next time.
    rows.sort(key=lambda r: (_TYPE_ORDER.get(records[r[0]].get("type"), 9), r[0],
                             r[2] or ""))
    entries = as_entries(rows)
    input_error = None
    try:
        validation = checks.check(
            battle=settings["battle"], army=settings["army"], kind=settings["kind"],
            scale=settings["scale"], historical=settings["historical"], entries=entries,
            # A dealt deck's pool is its owner's collection (shared pages show only how many
            # distinct cards it can deal, never which).
            pool=settings["pool"], user=deck.owner if settings["kind"] == DeckKind.DEALT
            else None if public else request.user, version=version)
    except DeckInputError as exc:  # e.g. a scale that is not a number
        validation, input_error = None, describe_input_error(exc)
    stats = deck_statistics(entries, records)
    flagged: dict[int, list[str]] = {}
    for problem in validation.problems if validation else ():
        for number in problem.cards:
            flagged.setdefault(number, []).append(problem.code)
    items = []
    for index, (number, count, printing) in enumerate(rows):
        card = records.get(number)
        items.append({
            "index": index, "number": number, "count": count, "printing": printing or "",
            "card": card, "name": card["name"] if card else f"Unknown card #{number}",
            "type": (card or {}).get("type", ""), "bp": (card or {}).get("bp"),
            "owned": None if owned is None else owned.get(number, 0),
            "codes": flagged.get(number, []),
        })
    problems = [{"code": p.code, "title": problem_title(p.code), "message": p.message,
                 "severity": p.severity,
                 "cards": [(n, records[n]["name"] if n in records else f"#{n}")
                           for n in p.cards]}
                for p in (validation.problems if validation else ())]
    return {
        "deck": deck, "rows": items, "settings": settings, "validation": validation,
        "input_error": input_error,
        "problems": problems, "errors": [p for p in problems if p["severity"] == "error"],
        "warnings": [p for p in problems if p["severity"] != "error"],
        "stats": stats, "chart": deck_chart.deck_chart(stats, title=f"{settings['name']}: "
                                                                    "statistics"),
        "printing_choices": PRINTING_CHOICES,
        "dirty": not public and not same_as_saved(rows, deck.latest, settings, deck),
        "public": public,
    }


_TYPE_ORDER = {t: i for i, t in enumerate(CARD_TYPES)}
