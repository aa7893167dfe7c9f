"""Check a deck against the rules (2.0, 3.0, 11.0, 15.0, 16.0) and, optionally, a collection.

``validate`` never stops at the first problem and never raises on bad input: every problem is
reported, each with a stable code, a message naming the rule, the cards involved and a severity.
``not_owned`` is a warning (a deck not backed by the collection is still a valid draft); every
other code is an error, and a deck is ``valid`` when it has no errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from game.figures import deck_figures

from .chart import (
    ARMIES,
    ARMY_NAMES,
    BATTLE_NAMES,
    BATTLES,
    BATTLES_CHART,
    KINDS,
    PRINTINGS,
    as_scale,
    chart_entry,
    format_scale,
    scale_problem,
)
from .deck import Deck

ERROR = "error"
WARNING = "warning"

# Every code, in the order problems are listed. All are errors except not_owned.
CODES = (
    "unknown_battle", "unknown_army", "army_not_in_battle", "unknown_kind", "bad_scale",
    "bad_count", "unknown_card", "unknown_printing", "wrong_army", "duplicate",
    "too_many_copies", "duplicate_general", "duplicate_terrain", "terrain_not_historical",
    "not_historical", "deck_size", "bp_exceeded", "never_dealt", "pool_too_small", "not_owned",
)
WARNING_CODES = frozenset({"not_owned", "never_dealt"})
_ORDER = {code: i for i, code in enumerate(CODES)}
MAX_COPIES = 3  # 15.0


class Problem(NamedTuple):
    """One broken rule. A named tuple: a deck may have dozens, built on every keystroke."""

    code: str
    message: str
    cards: tuple[int, ...] = ()
    severity: str = ERROR
    line: int | None = None  # the deck-list line it comes from (unknown_card when parsing)

    def to_dict(self) -> dict:
        answer: dict[str, Any] = {"code": self.code, "message": self.message,
                                  "cards": list(self.cards), "severity": self.severity}
        if self.line is not None:
            answer["line"] = self.line
        return answer


@dataclass(frozen=True, slots=True)
class Validation:
    """The answer for one deck, valid or not: its problems and its figures."""

    valid: bool
    problems: tuple[Problem, ...]
    size: int
    required_size: int | None  # dealt decks: D x scale; None when the size is free
    bp_total: int
    bp_limit: int | None  # BP x scale rounded down (enforced for custom decks only)
    muster: int | None  # None: no muster (Waterloo Prussians) or figures unknown
    reinforcement_rate: int | None
    playable_from_collection: bool | None  # None when no collection was given
    scale: str
    pool_size: int | None = None  # dealt decks: distinct cards of the army the pool can deal

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == ERROR)

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == WARNING)

    def codes(self) -> set[str]:
        return {p.code for p in self.problems}

    def to_dict(self) -> dict:
        return {
            "valid": self.valid,
            "problems": [p.to_dict() for p in self.problems],
            "size": self.size,
            "required_size": self.required_size,
            "bp_total": self.bp_total,
            "bp_limit": self.bp_limit,
            "muster": self.muster,
            "reinforcement_rate": self.reinforcement_rate,
            "playable_from_collection": self.playable_from_collection,
            "scale": self.scale,
            "pool_size": self.pool_size,
        }


def card_label(number: int, card: Mapping | None) -> str:
    """A card as the messages name it: ``#12 Ney``, or ``#12`` without its record."""
    name = card.get("name") if card else None
    return f"#{number} {name}" if name else f"#{number}"


def name_or(names: Mapping[str, str], key: object, default: str) -> str:
    """``names[key]`` for a card's value (unchecked), ``default`` when it is not a key."""
    return names.get(key, default) if isinstance(key, str) else default


def problem(code: str, message: str, cards: tuple[int, ...] = ()) -> Problem:
    """A ``Problem`` with its severity (``WARNING_CODES`` are warnings, the rest errors)."""
    return Problem(code, message, cards, WARNING if code in WARNING_CODES else ERROR)


def sort_problems(problems: list[Problem]) -> None:
    """In place, in the order of ``CODES`` (stable: same code, order found)."""
    problems.sort(key=lambda p: _ORDER.get(p.code, len(_ORDER)))


def validate(deck: Deck, cards_by_number: Mapping[int, Mapping],
             owned: Mapping[int, int] | None = None) -> Validation:
    """All problems of ``deck`` and its figures.

    ``cards_by_number``: card records (the keys of cards/data/catalogue.json) by number.
    ``owned``: copies owned per card number, any printing, already net of copies committed to
    locked tournament decks; when given, missing copies are ``not_owned`` warnings.
    """
    problems: list[Problem] = []
    battle, army, kind = (v if isinstance(v, str) else repr(v)
                          for v in (deck.battle, deck.army, deck.kind))
    kind_name = kind if kind in KINDS else "dealt"

    scale = as_scale(deck.scale)
    problems.extend(request_problems(battle, army, kind, scale))

    # The entries: counts and printings, then copies per card (all printings together).
    counts: dict[int, int] = {}
    for entry in deck.entries:
        number, count = entry.number, entry.count
        if type(number) is not int:
            problems.append(problem("unknown_card", f"1.0: {number!r} is not a card number"))
            continue
        if type(count) is not int or count <= 0:  # bool is not a count
            problems.append(problem(
                "bad_count", f"#{number}: {count!r} copies is not a count; a count is a whole "
                "number of at least 1", (number,)))
            continue
        if entry.printing is not None and entry.printing not in PRINTINGS:
            problems.append(problem(
                "unknown_printing", f"18.0: #{number}: {entry.printing!r} is not a printing "
                f"(printings: {', '.join(PRINTINGS)})", (number,)))
        counts[number] = counts.get(number, 0) + count

    custom = kind == "custom"
    no_duplicates = f"{kind_name} decks allow no duplicates"
    army_name = ARMY_NAMES.get(army, str(army))
    battle_name = BATTLE_NAMES.get(battle, str(battle))
    size = bp_total = 0
    missing_any = False
    for number in sorted(counts):
        count = counts[number]
        size += count
        card = cards_by_number.get(number)
        if card is None:
            problems.append(problem("unknown_card", f"1.0: #{number} is not a card of the "
                                    "catalogue", (number,)))
            continue
        card_army, card_type = card.get("army"), card.get("type")
        bp_total += (card.get("bp") or 0) * count
        # Cheap checks first; messages (and the card's label) only for the rare failing card.
        wrong_army = card_army != army and army in ARMIES
        terrain_wrong = (card_type == "terrain" and battle in BATTLES
                         and card.get("terrain_battle") != battle)
        # 2.0 historical-only: "cards that fought in the historical battle". Specials did not
        # fight; their list of battles is not printed on them, and 13.0 limits no Special
        # to battles (battles/engine/RULINGS.md 13.0-d): never "absent".
        absent = (deck.historical and not terrain_wrong and battle in BATTLES
                  and card_type != "special"
                  and battle not in (card.get("battles") or ()))
        have = count
        if owned is not None:
            have = owned.get(number, 0)
            have = have if type(have) is int and have > 0 else 0
        if not (wrong_army or count > 1 or terrain_wrong or absent or have < count):
            continue
        label, cards = card_label(number, card), (number,)
        if wrong_army:
            problems.append(problem(
                "wrong_army", f"2.0: {label} is a "
                f"{name_or(ARMY_NAMES, card_army, str(card_army))} card; a {army_name} deck "
                f"takes {army_name} cards only", cards))
        if count > 1:
            if not custom:
                problems.append(problem(
                    "duplicate", f"2.0: {label} appears {count} times; {no_duplicates} "
                    "(up to three copies only in a 15.0 custom deck)", cards))
            elif card_type == "general":
                problems.append(problem(
                    "duplicate_general", f"15.0: {label} appears {count} times; Generals are "
                    "never duplicated, even in custom decks", cards))
            elif card_type == "terrain":
                problems.append(problem(
                    "duplicate_terrain", f"15.0: {label} appears {count} times; Terrain cards "
                    "are never duplicated, even in custom decks", cards))
            elif count > MAX_COPIES:
                problems.append(problem(
                    "too_many_copies", f"15.0: {label} appears {count} times (Gold, Silver and "
                    f"Bronze together); a custom deck allows at most {MAX_COPIES} copies of a "
                    "card", cards))
        if terrain_wrong:
            where = name_or(BATTLE_NAMES, card.get("terrain_battle"), "no battle's")
            problems.append(problem(
                "terrain_not_historical", f"2.0, 11.0: {label} is {where} terrain; Terrain is "
                f"always historical, so it cannot be in a {battle_name} deck", cards))
        if absent:
            problems.append(problem(
                "not_historical", f"2.0: {label} did not fight at {battle_name}; this deck is "
                "historical-only", cards))
        if have < count:
            missing_any = True
            problems.append(problem(
                "not_owned", f"Collection: {label}: the deck needs {count}, you have {have} "
                "free (copies in locked tournament decks are not free); the deck can be "
                "saved as a draft", cards))

    # 3.0, 15.0, 16.0: the one figures rule the engine uses too.
    fig = deck_figures(battle, army, kind_name, scale, size=size)
    required = fig.size if fig and kind_name == "dealt" else None
    if kind_name == "dealt":
        if required is not None and size != required:
            diff = size - required
            gap = f"{-diff} missing" if diff < 0 else f"{diff} too many"
            assert scale is not None  # a dealt deck has a size only at a usable scale
            scaled = "" if scale == 1 else f" at scale {format_scale(scale)}"
            problems.append(problem(
                "deck_size", f"2.0: a dealt {battle_name} {army_name} deck{scaled} has "
                f"{required} cards; this deck has {size} ({gap})"))
    elif size == 0:
        problems.append(problem("deck_size", f"15.0: a {kind_name} deck needs at least one "
                                "card; this deck is empty"))

    bp_limit = fig.bp_limit if fig else None
    if custom and bp_limit is not None and bp_total > bp_limit:
        chart = chart_entry(battle, army)
        # a BP limit comes from a known battle and army and a usable scale
        assert chart is not None and scale is not None
        scaled = "" if scale == 1 else f" x scale {format_scale(scale)}"
        problems.append(problem(
            "bp_exceeded", f"15.0: the cards total {bp_total} BP; a custom {battle_name} "
            f"{army_name} deck may not exceed {bp_limit} BP (BP{chart.bp}{scaled}), "
            f"{bp_total - bp_limit} BP over"))

    muster = fig.muster if fig else None
    sort_problems(problems)
    return Validation(
        valid=not any(p.severity == ERROR for p in problems),
        problems=tuple(problems),
        size=size,
        required_size=required,
        bp_total=bp_total,
        bp_limit=bp_limit,
        muster=muster,
        reinforcement_rate=fig.reinforcement_rate if fig else None,
        playable_from_collection=None if owned is None else not missing_any,
        scale=format_scale(scale) if isinstance(scale, Fraction) else str(deck.scale),
    )


def request_problems(battle: str, army: str, kind: str, scale: Fraction | None
                     ) -> list[Problem]:
    """Problems of the request itself: battle, army, kind and scale (3.0, 1.0, 2.0)."""
    problems: list[Problem] = []
    kind_name = kind if kind in KINDS else "dealt"
    if battle not in BATTLES:
        problems.append(problem("unknown_battle", f"3.0: there is no battle {battle!r} on the "
                                f"Battles Chart (battles: {', '.join(BATTLES)})"))
    if army not in ARMIES:
        problems.append(problem("unknown_army", f"1.0: there is no army {army!r} "
                                f"(armies: {', '.join(ARMIES)})"))
    elif battle in BATTLES and chart_entry(battle, army) is None:
        fought = " and ".join(ARMY_NAMES[a] for a in BATTLES_CHART[battle])
        problems.append(problem("army_not_in_battle", f"3.0: the {ARMY_NAMES[army]} did not "
                                f"fight at {BATTLE_NAMES[battle]}; the Battles Chart has the "
                                f"{fought} there"))
    if kind not in KINDS:
        problems.append(problem("unknown_kind", f"2.0: there is no deck kind {kind!r} "
                                f"(kinds: {', '.join(KINDS)})"))
    why = scale_problem(battle, scale, fixed_size=kind_name == "dealt")
    if why:
        problems.append(problem("bad_scale", why))
    return problems
