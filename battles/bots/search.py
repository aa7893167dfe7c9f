"""The ``search`` bot: determinised Monte-Carlo search over its side's information set.

Per decision with two or more legal actions, in the ``phases`` it searches (README.md,
"search"; elsewhere it plays greedy's choice):

1. ``greedy`` scores the legal actions; greedy's own choice (ties broken as greedy breaks
   them) and the next best, distinct scores first, up to ``width`` candidates.
2. For each of up to ``samples`` determinisations (``determinise.Determiniser``: the hidden
   cards dealt at random from the cards the view does not account for, never the true
   state), each candidate is applied to a copy of the sampled State and played on by
   ``greedy`` for both sides until ``horizon`` side-turns have ended (or the battle), with
   keyed dice (``keyed_dice``), then scored by ``evaluation.evaluate_threats`` (the outcome,
   else material, held Positions, Positions about to fall, an open enemy Position).
3. Greedy's choice stands unless a challenger beats it on the paired differences by
   ``prior`` plus ``confidence`` standard errors (``pick``); from ``min_samples`` on,
   hopeless challengers stop drawing samples (racing).

This is "perfect-information Monte Carlo" over information-set samples (the flat form of
determinised ISMCTS): the tree is one level deep and the rollout policy is greedy. The budget
is ``samples`` (deterministic for an rng state) and ``max_ms`` (CPU milliseconds per
decision, for the service; whole samples only).

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
from .evaluation import EVALUATIONS, evaluate_threats
from .greedy import NEVER, WIN, GreedyBot

ROLLOUT_STEPS = 600  # a runaway rollout is cut here and scored as it stands
CLOCK_EVERY = 2  # rollout steps between two looks at the clock (max_ms; a look is ~0.6 µs)
# CPU milliseconds of max_ms kept back for what follows the last look at the clock (up to
# CLOCK_EVERY rollout steps, then the choice), so that a decision ends within max_ms: with a
# look every 8 steps and no margin, decisions of the compiled build ran up to 2.5 ms past
# 1 s (issue 14 session 7)
MARGIN_MS = 5.0


class Late(Exception):
    """A rollout ran past the decision's CPU deadline (``max_ms``)."""


def evaluate(st: State, me: int) -> float:
    """The default leaf evaluation (``evaluation.evaluate_threats``)."""
    return evaluate_threats(st, me)


def keyed_dice(seed: str, st: State, action: dict) -> SeededDice:
    """The dice of one action in a rollout, keyed by the sample, the turn and what acts on
    what: the same fire (or Morale roll) in the rollouts of two candidates rolls the same
    dice even when the candidates used different numbers of dice before it, so the paired
    difference between candidates measures the actions more than the luck."""
    key = action.get("piece", action.get("card"))
    return LazyDice(f"{seed}:{st.turn}:{action['type']}:{key}:{action.get('target')}")


class LazyDice(SeededDice):
    """``SeededDice(seed)``, its ``Random`` seeded only when the first die is drawn: most
    rollout actions (moves, the end of a phase) roll none, and seeding a ``Random`` from a
    string (sha512) was ~5 % of a rollout. The same dice in the same order (a subclass, so
    ``apply`` still takes no snapshot of the state)."""

    __slots__ = ()

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._rng = None  # type: ignore[assignment]
        self.used = 0

    def __next__(self) -> int:
        if self._rng is None:
            SeededDice.__init__(self, self.seed)
        return SeededDice.__next__(self)


class SearchBot(Bot):
    """``cards``: the public catalogue (records or a table). Budget: ``samples``
    determinisations per decision, ``width`` candidate actions, ``horizon`` side-turns of
    rollout (the default plays each rollout to the battle's end), ``max_ms`` CPU cap per
    decision (None: none). The normal level; README.md, "Full-game rollouts"."""

    name = "search"
    needs_view = True
    view_if_forced = False  # choose() returns a lone legal action at once
    needs_cards = True
    level = "normal"
    samples = 12  # at most; racing (min_samples) stops early when greedy's choice is clear
    min_samples: int | None = 4
    # greedy's best 8 (session 8: 241/400 against greedy, README "Width 8"); 3 until then
    width = 8
    # under the cap, the candidates kept when the first sample shows that min_samples of
    # every candidate would not fit (see choose())
    narrow_to = 3
    horizon = 200  # side-turns: in effect to the battle's end (its turn cap comes first)
    max_ms: float | None = 1000.0  # CPU milliseconds per decision
    # greedy's own choice keeps this edge: the search overrules it only on a clear difference
    prior = 0.02
    confidence = 2.0  # standard errors a challenger must win by (see pick())
    # paired samples a challenger needs before it may overrule (0: any; n = 1 never can, its
    # standard error is unknown). Under the CPU cap a long battle's decision may end with
    # 2-3 samples, whose standard error is often underestimated (session 5's lead, README)
    min_overrule = 0
    race = 2.0  # racing: a challenger below greedy's by this many standard errors stops
    keyed_dice = True  # rollouts draw each action's dice from its own stream (keyed_dice)
    prune = True  # see candidates()
    evaluation = "threats"  # a key of evaluation.EVALUATIONS
    # CPU seconds of the deciding thread (tests fake it): the worker plays computer moves in a
    # thread pool (Procfile: --pool threads), where the process's CPU time would charge the
    # searches of the other threads to this decision's budget
    clock = staticmethod(time.thread_time)
    # phases searched; elsewhere greedy's choice is played at once. Deployment too since
    # session 7: the samples know least there (the enemy's whole Muster is hidden), but with
    # rollouts to the battle's end searching it measured better in a screen (README)
    phases: tuple[str, ...] = ("deploy", "morale", "combat", "reinforce")

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
        self.stats = {"decisions": 0, "searched": 0, "samples": 0, "rollouts": 0,
                      "failed": 0}

    # -- candidates ------------------------------------------------------------------------
    def candidates(self, view: dict[str, Any], legal: list[dict],
                   rng: random.Random | None = None) -> list[dict]:
        """Greedy's best ``width`` actions, best first: with ``prune``, a sure win (4.3) is
        the only candidate, actions greedy rules out (``NEVER``) are dropped unless nothing
        else is left, and distinct scores come before ties (equal scores are often the
        same move by twin cards: one of them is enough to search)."""
        g = self.greedy
        ctx = g.context(view, legal)
        phase = view["phase"]
        scores = [g.score(ctx, phase, a) for a in legal]
        order = sorted(range(len(legal)), key=lambda i: -scores[i])
        if rng is not None:
            # greedy's own choice first, its ties broken as greedy breaks them (one draw
            # from the same rng): with width 1 this bot plays exactly as greedy does
            top = scores[order[0]]
            ties = [i for i in order if scores[i] == top]
            if len(ties) > 1:
                pick = ties[rng.randrange(len(ties))]
                order.remove(pick)
                order.insert(0, pick)
        if not self.prune:
            return [legal[i] for i in order[:self.width]]
        if scores[order[0]] >= WIN - 1.0:
            return [legal[order[0]]]
        kept = [i for i in order if scores[i] > NEVER] or order[:1]
        first: list[int] = []
        rest: list[int] = []
        seen: set[float] = set()
        for i in kept:
            (rest if scores[i] in seen else first).append(i)
            seen.add(scores[i])
        return [legal[i] for i in (first + rest)[:self.width]]

    # -- the decision ----------------------------------------------------------------------
    def choose(self, view: dict[str, Any] | None, legal: list[dict], rng: random.Random
               ) -> dict:
        start = self.clock()  # the cap counts the candidates and the samples' set-up too
        self.stats["decisions"] += 1
        if len(legal) == 1:
            return legal[0]
        assert view is not None, "the search reads the view to choose between actions"
        if view["phase"] not in self.phases:
            return self.greedy.choose(view, legal, rng)
        cands = self.candidates(view, legal, rng)
        if len(cands) == 1:
            return cands[0]
        self.stats["searched"] += 1
        me = SIDES.index(view["viewer"])
        det = Determiniser(view, legal, self.cards)
        # the samples' seed: the rng's state (not advanced: the rng breaks greedy's ties only,
        # so a search that never overrules greedy plays greedy's very battle; session 6) and
        # the decision's public coordinates (the same for a fresh bot or a used one). A string:
        # hash() of a tuple of ints is the same in every process, of a str it is not
        base = f"{hash(rng.getstate()[1])}:{view['turn']}:{view['phase']}:{view['step']}:" \
            f"{len(legal)}"
        values: list[list[float | None]] = [[] for _ in cands]
        dropped: set[int] = set()
        deadline = None if self.max_ms is None else \
            start + max(0.0, self.max_ms - MARGIN_MS) / 1000.0
        for i in range(self.samples):
            # the cap is CPU time of this thread (one core), so a busy machine slows the
            # answer but does not weaken it; no sample is begun that would (at the mean cost
            # so far) end past the cap, and one that runs past it anyway is dropped whole
            # (every candidate's value of a sample, or none: the test is paired)
            if i and deadline is not None and \
                    start + (self.clock() - start) * (i + 1) / i > deadline:
                break
            world = det.sample(random.Random(f"{base}:{i}:deal"))
            self.stats["samples"] += 1
            try:
                for k, a in enumerate(cands):
                    if k and k in dropped:
                        values[k].append(None)
                        continue
                    value = self.rollout(world, a, me, f"{base}:{i}", deadline)
                    if value is None:
                        self.stats["failed"] += 1
                    values[k].append(value)
            except Late:
                for vs in values:
                    del vs[i:]
                self.stats["late"] = self.stats.get("late", 0) + 1
                break
            if i == 0 and deadline is not None and len(cands) > self.narrow_to and \
                    start + (self.clock() - start) * (self.min_samples or 1) > deadline:
                # too little time for this many candidates (long rollouts): the first
                # narrow_to go on, the others stop here, as if hopeless
                dropped.update(range(self.narrow_to, len(cands)))
                self.stats["narrowed"] = self.stats.get("narrowed", 0) + 1
            if self.min_samples is not None and i + 1 >= self.min_samples:
                # racing: a challenger that cannot plausibly beat greedy's choice stops
                # drawing samples; with none left the decision is made
                for k in range(1, len(cands)):
                    if k not in dropped and self.hopeless(values[0], values[k]):
                        dropped.add(k)
                if len(dropped) == len(cands) - 1:
                    self.stats["early"] = self.stats.get("early", 0) + 1
                    break
        best = self.pick(values)
        if best:
            key = f"overruled:{view['phase']}"
            self.stats[key] = self.stats.get(key, 0) + 1
        return cands[best]

    @staticmethod
    def paired(first: list[float | None], other: list[float | None]
               ) -> tuple[int, float, float]:
        """(n, mean, standard error) of ``other`` − ``first`` over the samples both have."""
        diffs = [b - a for a, b in zip(first, other, strict=True)
                 if a is not None and b is not None]
        n = len(diffs)
        if n == 0:
            return 0, 0.0, float("inf")
        mean = sum(diffs) / n
        if n == 1:
            return 1, mean, float("inf")
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return n, mean, (var / n) ** 0.5

    def hopeless(self, first: list[float | None], other: list[float | None]) -> bool:
        n, mean, se = self.paired(first, other)
        return n >= 2 and mean + self.race * se < self.prior

    def pick(self, values: list[list[float | None]]) -> int:
        """The candidate to play: greedy's own (0) unless another beats it on the paired
        differences (same sample, same dice) by more than ``prior`` plus ``confidence``
        standard errors. The mean of a few noisy rollouts is a poor judge, and the max of
        several noisy means is biased upwards: without this test the search overrules greedy
        on noise and plays worse than greedy itself."""
        best, top = 0, 0.0
        for k in range(1, len(values)):
            n, mean, se = self.paired(values[0], values[k])
            if n == 0 or n < self.min_overrule or (se == float("inf") and self.confidence > 0):
                continue
            score = mean - self.confidence * (0.0 if se == float("inf") else se) - self.prior
            if score > top:
                best, top = k, score
        return best

    def rollout(self, world: State, action: dict, me: int, seed: str,
                deadline: float | None = None) -> float | None:
        """``action`` in a copy of ``world``, then greedy for both sides to the horizon; None
        if the sample could not be played. Raises ``Late`` past ``deadline`` (``clock``)."""
        st = world.copy()
        stream = SeededDice(seed)
        keyed = self.keyed_dice
        rng = random.Random(seed)
        try:
            apply(st, action, keyed_dice(seed, st, action) if keyed else stream, check=False)
            stop = st.turn + self.horizon
            steps = 0
            greedy = self.greedy
            while st.outcome is None and st.turn < stop and steps < ROLLOUT_STEPS:
                side = SIDES[st.priority]
                legal = legal_actions(st, side)
                a = legal[0] if len(legal) == 1 else greedy.choose(view(st, side), legal, rng)
                apply(st, a, keyed_dice(seed, st, a) if keyed else stream, check=False)
                steps += 1
                if deadline is not None and steps % CLOCK_EVERY == 0 and \
                        self.clock() > deadline:
                    raise Late
        except Late:
            raise
        except Exception:  # a sample the view could not pin down exactly: skip it
            return None
        self.stats["rollouts"] += 1
        return EVALUATIONS[self.evaluation](st, me)


class EasySearchBot(SearchBot):
    name = "search-easy"
    level = "easy"
    samples = 4
    min_samples = None
    width = 2
    horizon = 1
    confidence = 1.0  # trusts thin evidence: overrules greedy more often, and worse
    max_ms = 250.0
    # a one-side-turn rollout says nothing of a deployment: greedy deploys
    phases = ("morale", "combat", "reinforce")


class HardSearchBot(SearchBot):
    """The normal level with twice the samples for a contested decision (racing still stops
    a clear one after 4) and up to 3 s of CPU a decision."""

    name = "search-hard"
    level = "hard"
    samples = 24
    max_ms = 3000.0


LEVELS: dict[str, type[SearchBot]] = {"easy": EasySearchBot, "normal": SearchBot,
                                      "hard": HardSearchBot}
