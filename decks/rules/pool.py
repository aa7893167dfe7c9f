"""A dealt deck's pool (2.0): can it supply the D x scale cards the battle deals?

2.0: "Players form Battle Decks from their available cards ... Deal out (face-down) this number
of cards." A dealt deck holds no chosen cards; it names a pool and the battle deals D x scale
*distinct* cards of the army from it. So a pool is checked for how many distinct cards of the
army it can deal: copies beyond the first add nothing, Terrain counts only if it is this
battle's (2.0, 11.0: Terrain is always historical), and in historical-only mode only cards that
fought in the battle count.

Two ways to give a pool:

- ``pool=None``: the whole set (the catalogue), or the owner's collection as a mapping of
  copies owned per card number (``listed=False``): cards that cannot be dealt are simply not
  counted;
- a card list the player wrote (``listed=True``, the CLI's ``--pool`` and the API's validate):
  it must be of the deck's army (``wrong_army``, ``unknown_card`` errors), and a card that can
  never be dealt (another battle's Terrain, a card absent from the battle in historical mode)
  is a ``never_dealt`` warning.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from game.figures import deck_figures

from .chart import ARMIES, ARMY_NAMES, BATTLE_NAMES, BATTLES, as_scale, format_scale
from .deck import Deck
from .validate import (
    ERROR,
    Problem,
    Validation,
    card_label,
    name_or,
    problem,
    request_problems,
    sort_problems,
)

POOLS = ("collection", "set")  # the copies I own / the whole set


def dealable(card: Mapping, battle: str, army: str, historical: bool) -> bool:
    """Whether the battle can deal ``card`` into a deck of ``army`` (2.0, 11.0)."""
    if card.get("army") != army:
        return False
    if card.get("type") == "terrain" and card.get("terrain_battle") != battle:
        return False
    return not historical or battle in (card.get("battles") or ())


def validate_pool(deck: Deck, cards_by_number: Mapping[int, Mapping],
                  pool: Mapping[int, int] | None = None, *, listed: bool = False
                  ) -> Validation:
    """The problems and figures of a dealt deck with its pool.

    ``pool``: copies per card number (counts above 0 count once; counts are otherwise
    ignored), or None for the whole set. ``listed``: the pool is a list the player wrote, so
    cards that cannot be dealt are reported rather than silently left out.
    """
    battle, army = (v if isinstance(v, str) else repr(v) for v in (deck.battle, deck.army))
    scale = as_scale(deck.scale)
    problems = request_problems(battle, army, "dealt", scale)
    if deck.pool not in POOLS:
        problems.append(problem("unknown_kind", f"2.0: there is no pool {deck.pool!r} "
                                f"(pools: {', '.join(POOLS)})"))
    fig = deck_figures(battle, army, "dealt", scale)
    numbers = (sorted(cards_by_number) if pool is None
               else sorted(n for n, c in pool.items() if type(c) is int and c > 0))
    known = battle in BATTLES and army in ARMIES
    battle_name = BATTLE_NAMES.get(battle, battle)
    distinct = 0
    for number in numbers:
        card = cards_by_number.get(number)
        if card is None:
            if listed:
                problems.append(problem("unknown_card", f"1.0: #{number} is not a card of the "
                                        "catalogue", (number,)))
            continue
        if not known:
            continue
        if dealable(card, battle, army, deck.historical):
            distinct += 1
            continue
        if not listed:
            continue
        label = card_label(number, card)
        if card.get("army") != army:
            problems.append(problem(
                "wrong_army", f"2.0: {label} is a {name_or(ARMY_NAMES, card.get('army'), '?')} "
                f"card; a {ARMY_NAMES[army]} pool deals {ARMY_NAMES[army]} cards only",
                (number,)))
        elif card.get("type") == "terrain" and card.get("terrain_battle") != battle:
            where = name_or(BATTLE_NAMES, card.get("terrain_battle"), "no battle's")
            problems.append(problem(
                "never_dealt", f"2.0, 11.0: {label} is {where} terrain; Terrain is always "
                f"historical, so it is never dealt at {battle_name}", (number,)))
        else:
            problems.append(problem(
                "never_dealt", f"2.0: {label} did not fight at {battle_name}; a historical-only "
                "deal never deals it", (number,)))
    need = fig.size if fig else None
    if need is not None and distinct < need:
        source = {"set": "the whole set", "collection": "your collection"}.get(
            deck.pool, "the pool") if not listed else "the listed pool"
        historical = " historical" if deck.historical else ""
        assert scale is not None  # a dealt deck has a size only at a usable scale
        scaled = "" if scale == 1 else f" at scale {format_scale(scale)}"
        problems.append(problem(
            "pool_too_small", f"2.0: {source} has {distinct} distinct{historical} "
            f"{ARMY_NAMES[army]} cards that {battle_name} can deal; a dealt deck{scaled} needs "
            f"{need} ({need - distinct} more)"))
    sort_problems(problems)
    return Validation(
        valid=not any(p.severity == ERROR for p in problems),
        problems=tuple(problems),
        size=need or 0,
        required_size=need,
        bp_total=0,
        bp_limit=None,
        muster=fig.muster if fig else None,
        reinforcement_rate=fig.reinforcement_rate if fig else None,
        playable_from_collection=None,
        scale=format_scale(scale) if isinstance(scale, Fraction) else str(deck.scale),
        pool_size=distinct,
    )

__all__ = ["POOLS", "Problem", "dealable", "validate_pool"]
