"""The ``search`` bot: determinised Monte-Carlo search over its side's information set.

Per decision (see README.md, "The search bot"):

1. ``greedy`` scores the legal actions; the ``width`` best (distinct scores first) are the
   candidates, in greedy's order.
2. For each of ``samples`` determinisations (``determinise.Determiniser``: the hidden cards
   dealt at random from the cards the view does not account for, never the true state), each
   candidate is applied to a copy of the sampled State and played on by ``greedy`` for both
   sides until ``horizon`` side-turns have ended (or the battle), then scored by ``evaluate``
   (+1 a win, -1 a loss, else material and held Positions). All candidates of one sample
   share the sample's dice and rollout choices (common random numbers), so their difference
   is the action's, not the luck's.
3. The candidate with the best mean wins; greedy's own first choice gets ``prior`` added
   (the search overrules it only on a clear difference); ties go to greedy's order.

This is "perfect-information Monte Carlo" over information-set samples (the flat form of
determinised ISMCTS): the tree is one level deep and the rollout policy is greedy. The budget
is ``samples`` (deterministic for a seed) and ``max_ms`` (a wall-clock cap for the service;
whole samples only, so it binds only when the machine is slow).

Pure: no Django.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping
from typing import Any

from battles.engine import SIDES, SeededDice, apply, legal_actions, view
from battles.engine.cards import CardTable
from battles.engine.state import State, card_table

from .base import Bot
from .determinise import Determiniser
from .greedy import GreedyBot, durability, strength

ROLLOUT_STEPS = 600  # a runaway rollout is cut here and scored as it stands


def card_value(cards: CardTable, num: int) -> float:
    c = cards[num]
    return strength(c) if c.troop else 0.0


def evaluate(st: State, me: int) -> float:
    """The State from side ``me``'s point of view, in [-1, 1]: the outcome if the battle is
    over, else the share of troop strength still in play (hits discount a card by its chance
    of routing) and the Positions each side holds."""
    out = st.outcome
    if out is not None:
        w = out.get("winner")
        if w is None:
            return 0.0
        return 1.0 if w == SIDES[me] else -1.0
    cards = st.cards
    power = [0.0, 0.0]
    held = [0, 0]
    present: dict[int, set[int]] = {}
    for p in st.pieces.values():
        c = cards[p.num]
        if not c.troop:
            continue
        v = strength(c)
        if p.hits:
            v *= max(0.0, 1.0 - p.hits / durability(c.morale))
        power[p.side] += v
        present.setdefault(p.place, set()).add(p.side)
    for side in (0, 1):
        for num in st.reserve[side]:
            power[side] += card_value(cards, num)
    for army, deck in st.decks.items():
        side = 0 if army == "french" else 1
        for num in deck:
            power[side] += 0.8 * card_value(cards, num)
    for place, sides in present.items():
        if 1 <= place <= 7 and place != 4:
            owner = 0 if place < 4 else 1
            if sides == {owner}:
                held[owner] += 1
    total = power[0] + power[1]
    share = (power[me] - power[1 - me]) / total if total > 0 else 0.0
    return 0.7 * share + 0.05 * (held[me] - held[1 - me])


class SearchBot(Bot):
    """``cards``: the public catalogue (records or a table). Budget: ``samples``
    determinisations per decision, ``width`` candidate actions, ``horizon`` side-turns of
    rollout, ``max_ms`` wall-clock cap per decision (None: none)."""

    name = "search"
    needs_view = True
    needs_cards = True
    level = "normal"
    samples = 6
    width = 3
    horizon = 2
    max_ms: float | None = 1000.0
    # greedy's own choice keeps this edge: the search overrules it only on a clear difference
    # (a few samples are noisy, and the max of noisy means is biased upwards)
    prior = 0.02

    def __init__(self, cards: CardTable | Iterable[Mapping[str, Any]], *,
                 samples: int | None = None, width: int | None = None,
                 horizon: int | None = None, max_ms: float | None | bool = False) -> None:
        self.cards = card_table(cards)
        self.greedy = GreedyBot(self.cards)
        if samples is not None:
            self.samples = samples
        if width is not None:
            self.width = width
        if horizon is not None:
            self.horizon = horizon
        if max_ms is not False:
            self.max_ms = max_ms
        self.stats = {"decisions": 0, "searched": 0, "rollouts": 0, "failed": 0}

    # -- candidates ------------------------------------------------------------------------
    def candidates(self, view: dict[str, Any], legal: list[dict]) -> list[dict]:
        """Greedy's best ``width`` actions, best first (ties in legal order)."""
        from .greedy import Ctx

        g = self.greedy
        ctx = Ctx(view, legal, self.cards)
        phase = view["phase"]
        if phase == "combat" and view["step"] == "main":
            for a in legal:
                if a["type"] in ("fire", "shock"):
                    s = ctx.fire_score(a)
                    if s > ctx.fire_best.get(a["piece"], 0.0):
                        ctx.fire_best[a["piece"]] = s
        order = sorted(range(len(legal)), key=lambda i: -g.score(ctx, phase, legal[i]))
        return [legal[i] for i in order[:self.width]]

    # -- the decision ----------------------------------------------------------------------
    def choose(self, view: dict[str, Any] | None, legal: list[dict], rng: random.Random
               ) -> dict:
        self.stats["decisions"] += 1
        if len(legal) == 1:
            return legal[0]
        cands = self.candidates(view, legal)
        if len(cands) == 1:
            return cands[0]
        self.stats["searched"] += 1
        me = SIDES.index(view["viewer"])
        det = Determiniser(view, legal, self.cards)
        base = rng.getrandbits(64)
        totals = [0.0] * len(cands)
        counts = [0] * len(cands)
        start = time.perf_counter()
        for i in range(self.samples):
            if i and self.max_ms is not None and \
                    (time.perf_counter() - start) * 1000.0 >= self.max_ms:
                break
            world = det.sample(random.Random(f"{base}:{i}:deal"))
            for k, a in enumerate(cands):
                value = self.rollout(world, a, me, f"{base}:{i}")
                if value is None:
                    self.stats["failed"] += 1
                    continue
                totals[k] += value
                counts[k] += 1
        best, top = 0, float("-inf")
        for k in range(len(cands)):
            if counts[k]:
                mean = totals[k] / counts[k] + (self.prior if k == 0 else 0.0)
                if mean > top:
                    best, top = k, mean
        return cands[best]

    def rollout(self, world: State, action: dict, me: int, seed: str) -> float | None:
        """``action`` in a copy of ``world``, then greedy for both sides to the horizon."""
        st = world.copy()
        dice = SeededDice(seed)
        rng = random.Random(seed)
        try:
            apply(st, action, dice, check=False)
            stop = st.turn + self.horizon
            steps = 0
            greedy = self.greedy
            while st.outcome is None and st.turn < stop and steps < ROLLOUT_STEPS:
                side = SIDES[st.priority]
                legal = legal_actions(st, side)
                a = legal[0] if len(legal) == 1 else greedy.choose(view(st, side), legal, rng)
                apply(st, a, dice, check=False)
                steps += 1
        except Exception:  # a sample the view could not pin down exactly: skip it
            return None
        self.stats["rollouts"] += 1
        return evaluate(st, me)


class EasySearchBot(SearchBot):
    name = "search-easy"
    level = "easy"
    samples = 2
    width = 2
    horizon = 1
    max_ms = 250.0


class HardSearchBot(SearchBot):
    name = "search-hard"
    level = "hard"
    samples = 16
    width = 4
    horizon = 2
    max_ms = 3000.0


LEVELS: dict[str, type[SearchBot]] = {"easy": EasySearchBot, "normal": SearchBot,
                                      "hard": HardSearchBot}
