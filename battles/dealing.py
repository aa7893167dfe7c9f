"""Each side's Battle Deck: the player's choice, checked, and the deal (2.0, 15.0).

One battle has one scale (2.0: "card ratios must be maintained"), chosen at creation; every
army's deck is D x scale cards (dealt) or a custom deck built for that scale (15.0: BP x
scale). A side chooses either

- a **dealt** deck (2.0: "Deal out (face-down) this number of cards"): a pool, ``collection``
  (the distinct cards the player owns, net of copies locked in tournaments) or ``set`` (every
  card), optionally historical only (the 2.0 note; Terrain is always historical). The pool's
  card numbers are recorded at choosing time (``Battle.deck_choices``) and the deck is dealt
  when every side's choice is known (at creation against the computer, at join between
  people) from ``random.Random(f"{seed}:deal:{army}")``: a stream of the battle's secret seed
  kept apart from the dice (``{seed}:{n}``) and the engine's setup shuffle, so the revealed
  seed re-derives every deal (``redeal``; ``services.replay`` checks it);
- a saved **custom** deck version (15.0) whose scale is the battle's, valid under the deck
  rules (so its BP limit holds at that scale).

An army nobody chose for (the computer's, a player who names no pool, or the other army of a
side that brought one custom deck at Waterloo) gets ``default_choice``: at scale 1 the
engine's default historical deck (``historical_deck``, from the seed, as before dealt decks);
at another scale a deal from the whole set, historical only (the whole set if too few cards
fought there at a large scale). Both are re-derived from the seed like any deal.

Nothing here is sent to a player: the dealt cards reach their owner only through the engine's
``view`` (the Muster in their Reserve, the rest as reinforcements when drawn).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from decks.catalogue import cards_by_number
from decks.checks import check_version
from decks.models import DeckVersion
from decks.rules.chart import (
    ARMY_NAMES,
    BATTLE_NAMES,
    BATTLES_CHART,
    as_scale,
    format_scale,
    scale_problem,
    scale_step,
)
from decks.rules.deal import deal, pool_cards
from decks.selectors import own_version, owned_counts

from .engine import SIDES, CardTable, historical_deck
from .engine.board import ARMY_SIDE
from .errors import BattleError

POOLS = {"collection": "my collection", "set": "the whole set"}
DEALT, CUSTOM, DEFAULT = "dealt", "custom", "default"
MAX_OFFERED_SCALE = Fraction(2)


def armies(battle: str, side: str | None = None) -> list[str]:
    return [a for a in BATTLES_CHART[battle]
            if side is None or ARMY_SIDE[a] == SIDES.index(side)]


def deck_size(battle: str, army: str, scale: str) -> int:
    """D x scale (2.0), whole for a clean scale."""
    size = BATTLES_CHART[battle][army].deck * Fraction(scale)
    return size.numerator


def clean_scale(battle: str, value: Any) -> str:
    """The battle's scale as exact text ("1", "1/2"), or a 400: more than 0, at most 4, and D
    x scale whole for every army of the battle (2.0: the ratio holds)."""
    if value is None or value == "":
        return "1"
    if isinstance(value, float | int | str) and not isinstance(value, bool):
        scale = as_scale(value)
    else:
        scale = None
    problem = scale_problem(battle, scale, fixed_size=True)
    if problem:
        raise BattleError(problem)
    return format_scale(scale)


def scale_choices(battle: str, records: dict[int, dict] | None = None) -> list[str]:
    """The scales offered for a battle: the multiples of 1/gcd(D) (decks/rules/README) up to
    2, where the whole set still holds D x scale cards of every army (``records``: the
    catalogue's, read here if not given)."""
    records = cards_by_number() if records is None else records
    step = scale_step(battle)
    # the whole set's pool of each army, counted once (not once per scale tried)
    have = {a: len(pool_cards(records, battle, a)) for a in armies(battle)}
    out = []
    scale = step
    while scale <= MAX_OFFERED_SCALE:
        if all(deck_size(battle, a, str(scale)) <= n for a, n in have.items()):
            out.append(format_scale(scale))
        scale += step
    return out


def _dealt(user, battle: str, army: str, scale: str, pool: str, historical: bool) -> dict:
    records = cards_by_number()
    owned = None if pool == "set" else sorted(owned_counts(user))
    cards = pool_cards(records, battle, army, owned, historical)
    need = deck_size(battle, army, scale)
    if len(cards) < need:
        which = "your collection has" if pool == "collection" else "the whole set has"
        hist = " historical" if historical else ""
        raise BattleError(
            f"2.0: {which} {len(cards)}{hist} {ARMY_NAMES[army]} cards for "
            f"{BATTLE_NAMES[battle]}; a deal at scale {scale} needs {need}")
    return {"kind": DEALT, "pool": pool, "historical": historical, "from": cards}


def default_choice(battle: str, army: str, scale: str) -> dict:
    """An army nobody chose a deck for. At scale 1 the engine's default historical deck
    (``historical_deck``: D cards that fought there, dealt from the seed in the proportions of
    the card types, RULINGS: default decks); at another scale D x scale cards dealt from the
    whole set, historical only (the whole set if too few fought there)."""
    if Fraction(scale) == 1:
        return {"kind": DEFAULT, "pool": "set", "historical": True}
    try:
        return _dealt(None, battle, army, scale, "set", True)
    except BattleError:
        return _dealt(None, battle, army, scale, "set", False)


def _clean_deal(deal_choice: Any) -> tuple[str, bool]:
    if not isinstance(deal_choice, dict):
        raise BattleError('deal must be an object: {"pool": "collection" or "set", '
                          '"historical": true or false}')
    unknown = sorted(set(deal_choice) - {"pool", "historical"})
    if unknown:
        raise BattleError(f"unknown deal option {unknown[0]!r}; known: historical, pool")
    pool = deal_choice.get("pool", "set")
    if pool not in POOLS:
        raise BattleError(f'deal pool must be "collection" (your cards) or "set" (every '
                          f'card), not {pool!r}')
    historical = deal_choice.get("historical", False)
    if type(historical) is not bool:
        raise BattleError("deal historical must be true or false")
    return pool, historical


def _version(user, battle: str, side: str, scale: str, version_id: Any) -> DeckVersion:
    if type(version_id) is not int:
        raise BattleError("deck_version must be a deck version id (a whole number) or null")
    version = own_version(user, version_id)  # someone else's and none: one answer (issue 11)
    label = f"deck version {version.pk} ({version.deck.name} v{version.number})"
    if version.battle != battle:
        raise BattleError(f"{label} is for {version.battle}, not {battle}")
    if ARMY_SIDE.get(version.army) != SIDES.index(side) or version.army not in armies(battle):
        raise BattleError(f"{label} is a {version.army} deck: it cannot play the {side} side "
                          f"at {battle} (armies: {', '.join(armies(battle, side))})")
    if as_scale(version.scale) != Fraction(scale):
        # 2.0: one scale per battle, so both sides' decks keep the chart's ratio.
        raise BattleError(f"{label}: this deck is built for scale {version.scale}; the battle "
                          f"is played at scale {scale}")
    if version.kind not in (CUSTOM, DEALT):
        raise BattleError(f"{label} is a {version.kind} deck (16.0): it is played in a "
                          f"campaign, not a single battle")
    if version.kind != DEALT:
        result = check_version(version)
        if not result.valid:
            raise BattleError(f"{label} breaks the deck rules: "
                              + "; ".join(p.message for p in result.errors))
    return version


def choose(user, battle: str, side: str, scale: str, deck_version_id: Any = None,
           deal_choice: Any = None) -> tuple[dict[str, dict], DeckVersion | None]:
    """Every army of ``side``: its deck choice (what ``Battle.deck_choices`` records), and
    the saved version played, if any. ``deck_version_id``: a custom deck (played as saved) or
    a saved dealt deck (its pool and historical option); ``deal_choice``: ``{"pool",
    "historical"}`` for every army of the side; neither: the whole set, historical only."""
    if deck_version_id is not None and deal_choice is not None:
        raise BattleError("choose one deck: deck_version (a saved deck) or deal (a pool to "
                          "deal from), not both")
    choices: dict[str, dict] = {}
    version = None
    if deck_version_id is not None:
        version = _version(user, battle, side, scale, deck_version_id)
        if version.kind == DEALT:
            choices[version.army] = _dealt(user, battle, version.army, scale,
                                           version.pool,
                                           version.historical)
        else:
            choices[version.army] = {"kind": CUSTOM, "version": version.pk,
                                     "cards": sorted(n for n, count, _ in version.entries
                                                     for _ in range(count))}
    pool, historical = _clean_deal(deal_choice) if deal_choice is not None else (None, False)
    for army in armies(battle, side):
        if army in choices:
            continue
        choices[army] = (_dealt(user, battle, army, scale, pool, historical) if pool
                         else default_choice(battle, army, scale))
    return choices, version


def deal_rng(seed: int, army: str) -> random.Random:
    """The deal's own stream of the secret seed (apart from the dice and the setup)."""
    return random.Random(f"{seed}:deal:{army}")


def deal_decks(battle: str, seed: int, scale: str, choices: dict[str, dict],
               cards: CardTable) -> dict[str, list[int]]:
    """Every army's Battle Deck: the custom deck's cards, or D x scale cards dealt from the
    recorded pool with the seed's deal stream (in dealing order). Armies without a choice
    get ``default_choice`` (recorded into ``choices``)."""
    decks = {}
    for army in armies(battle):
        choice = choices.setdefault(army, default_choice(battle, army, scale))
        if choice["kind"] == CUSTOM:
            decks[army] = list(choice["cards"])
        elif choice["kind"] == DEFAULT:
            decks[army] = sorted(historical_deck(battle, army, seed, cards))
        else:
            decks[army] = deal(choice["from"], deck_size(battle, army, scale),
                               deal_rng(seed, army))
    return decks


def redeal(battle, cards: CardTable) -> dict[str, list[int]] | None:
    """The decks re-derived from the setup and the seed (None for a battle made before deals
    were recorded): what a player checks with the seed revealed at the end."""
    if not battle.deck_choices:
        return None
    return deal_decks(battle.battle, battle.seed, battle.scale,
                      {a: dict(c) for a, c in battle.deck_choices.items()}, cards)


def deck_kinds(choices: dict[str, dict], scale: str) -> dict[str, dict[str, str]]:
    """``{army: {"kind", "scale"}}`` for the engine's one Muster and rate rule (3.0, 15.0):
    a custom deck musters half its size; a dealt or default deck the chart's M x scale."""
    return {army: {"kind": CUSTOM if choice["kind"] == CUSTOM else DEALT, "scale": scale}
            for army, choice in choices.items()}


def describe(choice: dict | None) -> str:
    """A side's deck in words, without its cards: what the battle page shows."""
    if not choice:
        return "not chosen yet"
    if choice["kind"] == CUSTOM:
        return "custom deck (15.0)"
    if choice["kind"] == DEFAULT:
        return "the default historical deck"
    pool = "the player's collection" if choice["pool"] == "collection" else "the whole set"
    words = f"dealt from {pool}"
    return words + (", historical only" if choice.get("historical") else "")
