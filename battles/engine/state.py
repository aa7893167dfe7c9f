"""The battle state: compact, copy-cheap, and fully restorable from JSON (position.py).

Cards in a Reserve, a Reinforcement deck, the eliminated pile or the discard pile are card
numbers. A card on the field is a ``Piece`` with a fresh piece id, handed out each time a card
leaves its Reserve, so an opponent can follow a face-down card on the table but never link it
to a card it saw before it went back to the Reserve (8.1: revealed cards stay face-up only
until moved to the Reserve).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, Final

from game import BATTLES_CHART, DeckFigures, apportion, chart_row, deck_figures

from .board import ARMY_SIDE
from .cards import CardTable, keep, load_cards
from .errors import IllegalAction

LINE: Final = 0  # 9.0 formations
COLUMN: Final = 1
SQUARE: Final = 2
FORMATIONS: Final[tuple[str, ...]] = ("line", "column", "square")
# RULINGS 5.0-c: no clause caps turns (a battle ends by victory, or for people by
# resignation or time): no cap unless asked; simulations and bots ask for SIMULATION_TURN_CAP.
DEFAULT_SETTINGS: dict[str, Any] = {"turn_cap": None, "decoys": False}
SIMULATION_TURN_CAP = 40
BATTLES = tuple(BATTLES_CHART)


_PIECE_FIELDS = ("pid", "num", "side", "place", "up", "hits", "ghits", "form", "blown",
                 "moves", "fired", "eng", "dis", "formed", "occ", "ctrl")


class Piece:
    """A card on the field. Per-turn flags are reset at the start of its side's turn."""

    __slots__ = _PIECE_FIELDS

    def __init__(self, pid: int, num: int, side: int, place: int, up: bool = False) -> None:
        self.pid = pid
        self.num = num
        self.side = side
        self.place = place
        self.up = up
        self.hits = 0  # 6.0 troop hits awaiting Morale rolls
        self.ghits = 0  # 12.4 general hits
        self.form = LINE
        self.blown = False  # 7.31
        self.moves = 0  # Battle Moves made this turn (8.0, 8.3)
        self.fired = False  # fired or shocked this turn (7.0)
        self.eng = False  # engaged by a move this turn (8.3)
        self.dis = False  # disengaged this turn (8.3)
        self.formed = False  # free formation change used this turn (9.0)
        self.occ = 0  # terrain piece this troop card occupies (11.0)
        self.ctrl = side  # terrain: the side it faces / benefits (11.5)

    def copy(self) -> Piece:
        # Through __init__, not Piece.__new__: compiled by mypyc, __new__ runs __init__ too
        # (and failed without its arguments); every field below, as in _PIECE_FIELDS.
        p = Piece(self.pid, self.num, self.side, self.place, self.up)
        p.hits, p.ghits, p.form, p.blown = self.hits, self.ghits, self.form, self.blown
        p.moves, p.fired, p.eng, p.dis = self.moves, self.fired, self.eng, self.dis
        p.formed, p.occ, p.ctrl = self.formed, self.occ, self.ctrl
        return p


_STATE_FIELDS = ("cards", "battle", "settings", "turn", "active", "phase", "step", "priority",
                 "pieces", "next_pid", "reserve", "fresh", "decks", "rates", "elim",
                 "discard", "effects", "next_eid", "pending", "hit", "crossings",
                 "last_mover", "transit", "back", "prussians", "outcome", "deck_bp", "armies",
                 "cache")
# mypyc compiles a class with its attributes annotated (bench/engine.py --mypyc); the
# attributes may still be None where ``Any`` says so (narrowing would be trusted blindly)


class State:
    __slots__ = _STATE_FIELDS
    cards: CardTable
    battle: str
    settings: dict[str, Any]
    turn: int
    active: int
    phase: str
    step: str
    priority: int
    pieces: dict[int, Piece]
    next_pid: int
    reserve: list[list[int]]
    fresh: list[list[int]]
    decks: dict[str, list[int]]
    rates: dict[str, int]
    elim: list[list[int]]
    discard: list[list[int]]
    effects: list[dict[str, Any]]
    next_eid: int
    pending: Any
    hit: set[int]
    crossings: dict[int, int]
    last_mover: int
    transit: int
    back: Any
    prussians: bool
    outcome: Any
    deck_bp: list[int]
    armies: tuple[str, ...]
    cache: Any
    # ``back``: RULINGS 8.2-b/8.3, a Cavalry or General card that may leave the Reserve again
    # as its consecutive second move (moves.second_from_reserve), else None.
    # ``cache``: the last ``queries.index`` of this state, or None. Engine code that adds,
    # removes, moves or turns up a piece sets it to None (see queries.index).

    def copy(self) -> State:
        s = State.__new__(State)
        s.cards = self.cards
        s.battle = self.battle
        s.settings = dict(self.settings)
        s.turn, s.active, s.phase, s.step = self.turn, self.active, self.phase, self.step
        s.priority = self.priority
        s.pieces = {pid: p.copy() for pid, p in self.pieces.items()}
        s.next_pid = self.next_pid
        s.reserve = [list(self.reserve[0]), list(self.reserve[1])]
        s.fresh = [list(self.fresh[0]), list(self.fresh[1])]
        s.decks = {k: list(v) for k, v in self.decks.items()}
        s.rates = dict(self.rates)
        s.elim = [list(self.elim[0]), list(self.elim[1])]
        s.discard = [list(self.discard[0]), list(self.discard[1])]
        s.effects = [dict(e) for e in self.effects]
        s.next_eid = self.next_eid
        s.pending = dict(self.pending) if self.pending else None
        s.hit = set(self.hit)
        s.crossings = dict(self.crossings)
        s.last_mover, s.transit = self.last_mover, self.transit
        s.back = dict(self.back) if self.back else None
        s.prussians = self.prussians
        s.outcome = dict(self.outcome) if self.outcome else None
        s.deck_bp = list(self.deck_bp)
        s.armies = self.armies
        s.cache = None
        return s

    def restore(self, other: State) -> None:
        for name in _STATE_FIELDS:
            setattr(self, name, getattr(other, name))



def historical_deck(battle: str, army: str, seed: int | str,
                    cards: CardTable | Iterable[Mapping[str, Any]] | None = None) -> list[int]:
    """A Battle Deck of the chart's size D dealt at random from the cards that fought the
    battle (2.0 note; terrain is always historical), keeping the card types in the proportions
    of that pool (RULINGS: default decks), as a player building a historical deck would."""
    cards = card_table(cards)
    size = chart_row(battle)[army].deck
    pool, by_kind = _pool(cards, battle, army)
    if size >= len(pool):
        return list(pool)  # (no draw: the seeded generator is not needed)
    rng = random.Random(f"eagles-deck:{battle}:{army}:{seed}")
    deck: list[int] = []
    for nums, q in _quotas(cards, battle, army, size):
        deck.extend(sample(rng, nums, q))
    return sorted(deck)


def _quotas(cards: CardTable, battle: str, army: str, size: int
            ) -> list[tuple[list[int], int]]:
    """(the cards of a type, how many of them the deck takes) in type order:
    ``game.apportion`` of the D places over the card types of the pool (largest remainder,
    every type kept, RULINGS 4.1-d/4.1-e), kept with the pools (it depends on nothing
    else)."""
    memo = _pool_memo(cards)
    key = ("quotas", battle, army, size)
    got = memo.get(key)
    if got is None:
        _, by_kind = _pool(cards, battle, army)
        quota = apportion({kind: len(nums) for kind, nums in by_kind.items()}, size)
        got = memo[key] = [(by_kind[kind], quota[kind]) for kind in sorted(by_kind)]
    return got


def _pool_memo(cards: CardTable) -> dict[Any, Any]:
    memo = getattr(cards, "_pools", None)
    if memo is None or memo.get("size") != len(cards):
        memo = {"size": len(cards)}
        keep(cards, "_pools", memo)
    return memo


def _pool(cards: CardTable, battle: str, army: str
          ) -> tuple[list[int], dict[str, list[int]]]:
    """The card numbers of ``army`` that fought ``battle``, sorted, and the same by card
    type; kept on the card table (read-only for callers; a table that grows is redone)."""
    memo = _pool_memo(cards)
    got = memo.get((battle, army))
    if got is None:
        pool = sorted(c.num for c in cards.values() if c.army == army and battle in c.battles)
        by_kind: dict[str, list[int]] = {}
        for num in pool:
            by_kind.setdefault(cards[num].kind, []).append(num)
        got = memo[(battle, army)] = (pool, by_kind)
    return got


def card_table(cards: CardTable | Iterable[Mapping[str, Any]] | None) -> CardTable:
    """A card table from a table or from catalogue records (plain dicts) given by the caller."""
    if isinstance(cards, CardTable):
        return cards
    if cards is None:
        raise TypeError("the engine needs the card records: pass cards= (the battle's "
                        "records, or cards.catalogue.file.catalogue_records())")
    return load_cards(cards)


@lru_cache(maxsize=512)
def _figures(battle: str, army: str, kind: str, scale: Fraction, size: int
             ) -> DeckFigures | None:
    """``game.deck_figures`` (pure; Fraction arithmetic), remembered per argument set."""
    return deck_figures(battle, army, kind, scale, size=size)


# ``_figures`` of decks without a scale, keyed by plain values: making the Fraction and
# hashing it for the lru_cache cost more than the rest of new_battle's bookkeeping
_UNSCALED: dict[tuple[str, str, str, int, int], Any] = {}


def _deck_scale(spec: Mapping[str, Any], size: int, chart_deck: int) -> Fraction:
    """The scale a deck was built at; a dealt deck without one is scaled by its size (3.0)."""
    if spec.get("scale") is None:
        return Fraction(max(1, size), chart_deck)
    try:
        return Fraction(str(spec["scale"]))
    except (ValueError, ZeroDivisionError):
        raise IllegalAction(f"deck scale {spec['scale']!r} is not a number") from None


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` (n > 0), the same draws: CPython's ``_randbelow_with_getrandbits``
    spelled out, as the library's Python frames cost more than the draw (the golden digests
    pin the streams)."""
    if n <= 0:
        raise ValueError("empty range for randrange()")
    k = n.bit_length()
    if type(rng) is _RANDOM:
        # the C method called directly (compiled: no bound method made per draw); a
        # subclass may have its own getrandbits (SystemRandom)
        r: int = _GETRANDBITS(rng, k)
        while r >= n:
            r = _GETRANDBITS(rng, k)
        return r
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


_RANDOM: Final = random.Random
_GETRANDBITS: Final[Any] = random.Random.getrandbits


def shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``, the same permutation (CPython's Fisher-Yates with ``below``)."""
    for i in range(len(x) - 1, 0, -1):
        j = below(rng, i + 1)
        x[i], x[j] = x[j], x[i]


def sample(rng: random.Random, population: Sequence[int], k: int) -> list[int]:
    """``rng.sample(population, k)``, the same picks (CPython's two ways, chosen as it does:
    a shrinking pool for small populations, rejection of repeats for large ones)."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    result = [0] * k
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = below(rng, n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for i in range(k):
            j = below(rng, n)
            while j in selected:
                j = below(rng, n)
            selected.add(j)
            result[i] = population[j]
    return result


def new_battle(battle: str, seed: int | str = 0, decks: dict[str, list[int]] | None = None,
               settings: dict[str, Any] | None = None,
               cards: CardTable | Iterable[Mapping[str, Any]] | None = None,
               deck_kinds: Mapping[str, Mapping[str, Any]] | None = None) -> State:
    """Set up a battle (2.0, 3.0): each army's Battle Deck is shuffled, the Muster dealt
    face-down into its Reserve, the rest kept as its Reinforcement deck. Missing decks (an
    army not named in ``decks``) are dealt historically; a named empty deck stays empty.
    The Allied side deploys first; the French adjust last (4.1).

    ``cards``: the card records (or table) the battle plays with, from the caller.
    ``deck_kinds``: army -> ``{"kind": "dealt" | "custom" | "campaign", "scale": "1/2"}``;
    an army not named has a dealt deck scaled by its size. Muster and reinforcement rate are
    ``game.deck_figures`` of that (the rule the deck validator uses)."""
    if not chart_row(battle):  # the four battles, or a campaign-only one (16.0 Charleroi)
        raise IllegalAction(f"unknown battle {battle!r}")
    cards = card_table(cards)
    s = State.__new__(State)
    s.cards = cards
    s.battle = battle
    s.settings = {**DEFAULT_SETTINGS, **(settings or {})}
    s.turn, s.active, s.phase, s.step, s.priority = 0, 1, "deploy", "deploy", 1
    s.pieces, s.next_pid = {}, 1
    s.reserve, s.fresh, s.elim, s.discard = [[], []], [[], []], [[], []], [[], []]
    s.decks, s.rates = {}, {}
    s.effects, s.next_eid, s.pending = [], 1, None
    s.hit, s.crossings = set(), {}
    s.last_mover = s.transit = 0
    s.back = None
    s.prussians = battle != "waterloo"  # 10.0 only restricts the Prussians at Waterloo
    s.outcome = None
    s.deck_bp = [0, 0]
    s.armies = tuple(chart_row(battle))
    s.cache = None
    rng = random.Random(f"eagles-setup:{battle}:{seed}")
    for army, entry in chart_row(battle).items():
        # A named army's deck is that deck, even empty (a campaign's split may leave an army
        # none, 16-a): only an army not named is dealt historically. An empty list read as
        # "no deck given" dealt cards from outside a campaign's pools (issue 29).
        given = (decks or {}).get(army)
        deck = list(given) if given is not None else historical_deck(battle, army, seed, cards)
        for n in deck:
            if n not in cards or cards[n].army != army:
                raise IllegalAction(f"card {n} is not a {army} card")
        side = ARMY_SIDE[army]
        s.deck_bp[side] += sum(cards[n].bp for n in deck)
        shuffle(rng, deck)
        # 3.0, 15.0, 16.0: one rule for Muster and rate (None muster: Waterloo Prussians).
        spec = (deck_kinds or {}).get(army) or {}
        kind = str(spec.get("kind") or "dealt")
        if spec.get("scale") is None:  # scaled by its size: the figures without a Fraction
            key = (battle, army, kind, len(deck), entry.deck)
            fig = _UNSCALED.get(key)
            if fig is None:
                fig = _figures(battle, army, kind, _deck_scale(spec, len(deck), entry.deck),
                               len(deck))
                if fig is not None:  # an unknown kind raises below: not kept
                    _UNSCALED[key] = fig
        else:
            fig = _figures(battle, army, kind, _deck_scale(spec, len(deck), entry.deck),
                           len(deck))
        if fig is None:
            raise IllegalAction(f"unknown deck kind {kind!r} for the {army} deck")
        muster = min(fig.muster or 0, len(deck))
        s.rates[army] = fig.reinforcement_rate or 1
        s.reserve[side].extend(deck[:muster])
        s.decks[army] = list(reversed(deck[muster:]))  # draw from the end: deck order kept
    s.reserve[0].sort()
    s.reserve[1].sort()
    return s


def is_over(st: State) -> bool:
    """Whether the battle has ended. A call, not ``st.outcome is None`` inline: mypy keeps
    such a test's narrowing across the calls that may end the battle, and mypyc trusts it."""
    return st.outcome is not None
