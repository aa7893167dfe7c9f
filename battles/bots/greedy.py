# Over 500 lines on purpose: one idea, the greedy bot's scoring heuristics, read together.
"""The ``greedy`` bot: scores every legal action with rule-of-thumb heuristics and plays the
best one (ties broken by the rng). It reads only the view and the legal actions; card
statistics come from the public catalogue (``battles.engine.cards``). See README.md."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, cast

from battles.engine.cards import Card, CardTable
from battles.engine.state import card_table
from game import ENDING_ACTIONS, SIDES, other_side

from .base import Bot

POSITIONS = {s: (f"{s}_left", f"{s}_center", f"{s}_right") for s in SIDES}
RESERVE = {s: f"{s}_reserve" for s in SIDES}
FACING = {"french_left": "allied_right", "french_center": "allied_center",
          "french_right": "allied_left"}
FACING.update({v: k for k, v in FACING.items()})
OWNER = {p: s for s in SIDES for p in (*POSITIONS[s], RESERVE[s])}
STACK = 4
ENDING: Final = frozenset(ENDING_ACTIONS)  # scored 0: never better than doing something

WIN = 1000.0
NEVER = -100.0


@dataclass(frozen=True, slots=True)
class Weights:
    """The heuristic's tunable numbers; the defaults are ``greedy``'s (README.md, "Tuning
    the weights": ``bench/greedy_tuning.py`` found no set measurably better)."""

    engage_at: float = 1.3  # force ratio to engage an enemy Position (8.1)
    engage_again: float = 1.0  # ... to send more cards where ours already fight
    attack: float = 45.0  # an engaging move's base score
    attack_ratio: float = 4.0  # ... plus this per unit of force ratio (up to 4)
    reinforce: float = 30.0  # a move from the Reserve into our own Position
    reinforce_room: float = 8.0  # ... plus this per free slot of the stack
    support: float = 20.0  # ... into an engaged one: plus this
    support_need: float = 10.0  # ... plus this per unit of their strength over ours (to 3)
    lone: float = 30.0  # ... plus this when a lone defender holds it (4.3)
    empty: float = 40.0  # ... plus this when it is empty
    keep_cavalry: float = -40.0  # the last cavalry card in the Reserve, unengaged target
    fire_cap: float = 40.0  # a fire's score over 100 is at most this
    fire_gain: float = 12.0  # ... and this times expected routs times target value
    last_one: float = 3.0  # target value when it is the last enemy troop card here
    last_two: float = 1.6  # ... one of the last two
    deploy_base: float = 60.0
    deploy_stack: float = 10.0  # less per card already deployed there
    deploy_strength: float = 0.5  # less per unit of our strength already there
    deploy_facing: float = 2.0  # more per enemy card facing it (the French adjust last, 4.1)
    square_morale: float = 3.0  # infantry of this morale or less forms square against cavalry


DEFAULT = Weights()


def pass_chance(morale: float) -> float:
    """6.0: a roll passes if <= morale value; a natural 1 always passes, a 6 always routs."""
    return min(max(morale, 1.0), 5.0) / 6.0


def durability(morale: float) -> float:
    """Expected hits a card absorbs before it routs."""
    return 1.0 / (1.0 - pass_chance(morale))


def power(c: Card) -> float:
    """Expected hits per combat turn in the card's best mode (7.1-7.3)."""
    if c.kind == "infantry":
        return c.cv * max(c.fp, c.shock) / 6.0
    if c.kind == "cavalry":
        return c.cv * max(c.shock, 1) / 6.0
    if c.kind == "artillery":
        return c.cv * max(c.long, c.short) / 6.0
    return 0.0


def strength(c: Card, bonus_cv: int = 0, bonus_morale: int = 0) -> float:
    if not c.troop:
        return 0.0
    return (power(c) + bonus_cv * max(c.fp, c.shock, c.short, 1) / 6.0) * \
        durability(c.morale + bonus_morale)


def prior(cards: CardTable, battle: str, army: str) -> tuple[float, float]:
    """(mean strength, mean morale) of the troop cards of ``army`` that fought ``battle``:
    the estimate for a face-down enemy card (public catalogue data, never its identity).
    Kept on the card table, so each table computes it once."""
    memo = cards.__dict__.setdefault("greedy_priors", {})
    if (battle, army) not in memo:
        troops = [c for c in cards.values()
                  if c.army == army and c.troop and battle in c.battles]
        if not troops:
            troops = [c for c in cards.values() if c.army == army and c.troop]
        n = max(1, len(troops))
        memo[battle, army] = (sum(strength(c) for c in troops) / n,
                              sum(c.morale for c in troops) / n)
    return memo[battle, army]


class Ctx:
    """The view, indexed once per decision."""

    __slots__ = ("cards", "me", "foe", "battle", "pieces", "at", "legal", "own_reserve",
                 "fresh", "_plans", "_refill", "fire_best", "pending", "_card", "_memo",
                 "strengths", "w")

    def __init__(self, view: dict[str, Any], legal: list[dict], cards: CardTable,
                 w: Weights = DEFAULT) -> None:
        self.cards = cards
        self.w = w
        self.me = view["viewer"]
        self.foe = other_side(self.me)
        self.battle = view["battle"]
        self.pieces: dict[int, dict] = {}
        self.at: dict[str, list[dict]] = {}
        self._card: dict[int, Card | None] = {}
        self._memo: dict[tuple, Any] = {}
        self.strengths: dict[tuple[int, int], float] = \
            cards.__dict__.setdefault("greedy_strengths", {})
        pieces, at, known = self.pieces, self.at, self._card
        for p in view["pieces"]:
            pid = p["piece"]
            pieces[pid] = p
            here = at.get(p["place"])
            if here is None:
                at[p["place"]] = [p]
            else:
                here.append(p)
            n = p.get("card")
            known[pid] = cards[n] if n is not None else None
        mine = view["reserves"][self.me]
        self.own_reserve = mine.get("cards", [])
        self.fresh = mine.get("drawn_this_turn", [])
        self.legal = legal
        self.pending = view.get("pending")
        self._plans: dict[str, float] = {}
        self._refill: set[str] | None = None
        self.fire_best: dict[int, float] = {}

    @property
    def refill(self) -> set[str]:
        """Positions a troop card can still reach from the Reserve this turn."""
        if self._refill is None:
            self._refill = {a["to"] for a in self.legal if a["type"] == "move" and "card" in a
                            and self.cards[a["card"]].troop}
        return self._refill

    # -- what is where -------------------------------------------------------------------
    def card(self, p: dict) -> Card | None:
        return self._card[p["piece"]]

    def known(self, p: dict) -> Card:
        """The card of a piece whose identity this side sees (its own, or face up)."""
        return cast(Card, self._card[p["piece"]])

    def is_terrain(self, p: dict) -> bool:
        c = self.card(p)
        return p["face_up"] and c is not None and c.kind == "terrain"

    def troops(self, place: str, side: str) -> list[dict]:
        """Troop cards (and face-down cards, which look like troops) of a side at a place."""
        key = ("troops", place, side)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        out = []
        for p in self.at.get(place, ()):
            if p["side"] != side:
                continue
            c = self.card(p)
            if c is None or not p["face_up"] or c.troop:
                out.append(p)
        self._memo[key] = out
        return out

    def present(self, place: str, side: str) -> bool:
        key = ("present", place, side)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._present(place, side)
        return hit

    def _present(self, place: str, side: str) -> bool:
        return any(p["side"] == side and not self.is_terrain(p) for p in self.at.get(place, ()))

    def engaged(self, place: str) -> bool:
        return self.present(place, "french") and self.present(place, "allied")

    def general(self, place: str, side: str) -> dict | None:
        key = ("gen", place, side)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = g = self._general(place, side)
        return g

    def _general(self, place: str, side: str) -> dict | None:
        for p in self.at.get(place, ()):
            if p["side"] == side and p["face_up"]:
                c = self.card(p)
                if c is not None and c.kind == "general":
                    return p
        return None

    def terrain_class(self, p: dict) -> str | None:
        t = p.get("occupies")
        if t:
            tp = self.pieces.get(t)
            if tp is not None:
                c = self.card(tp)
                if c is not None:
                    return c.tclass
        return None

    # -- estimates ------------------------------------------------------------------------
    def morale(self, p: dict) -> float:
        key = ("mor", p["piece"])
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._morale(p)
        return hit

    def _morale(self, p: dict) -> float:
        c = self.card(p)
        if c is None:
            return prior(self.cards, self.battle, p["army"])[1]
        v = float(c.morale)
        if c.kind == "infantry" and p.get("formation") == "square":
            v += 1
        if self.terrain_class(p) in ("hill", "woods", "building"):
            v += 1
        g = self.general(p["place"], p["side"])
        if g is not None:
            gc = self.known(g)
            if gc.army == c.army and (gc.corps == "A" or gc.corps == c.ob_corps):
                v += gc.off if OWNER.get(p["place"]) != p["side"] else gc.dfn
        return v

    def strength_of(self, p: dict) -> float:
        key = ("str", p["piece"])
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._strength_of(p)
        return hit

    def _strength_of(self, p: dict) -> float:
        c = self.card(p)
        if c is None:
            return prior(self.cards, self.battle, p["army"])[0]
        bonus = 1 if self.terrain_class(p) == "hill" else 0
        return self.card_strength(c, bonus) * durability(self.morale(p)) / durability(c.morale)

    def card_strength(self, c: Card, bonus_cv: int = 0) -> float:
        """``strength(c, bonus_cv)``, memoised on the card table (a pure function)."""
        memo = self.strengths
        key = (c.num, bonus_cv)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = strength(c, bonus_cv)
        return hit

    def side_strength(self, place: str, side: str) -> float:
        return sum(self.strength_of(p) for p in self.troops(place, side))

    def attack(self, att: dict, tgt: dict, shock: bool) -> tuple[int, int]:
        """(dice, F/S) of ``att`` attacking ``tgt`` (7.1-7.4, 9.x, 11.x; specials ignored)."""
        c = self.known(att)
        tc = self.card(tgt)
        n = c.cv
        if self.terrain_class(att) == "hill":
            n += 1
        if self.terrain_class(tgt) == "woods" and c.kind == "infantry":
            n -= 1
        n = max(1, n)
        form = att.get("formation")
        if shock:
            f = c.shock
        elif c.kind == "infantry":
            f = c.fp if form == "line" else 1
        elif c.kind == "cavalry":
            f = 1
        else:
            f = c.short if att["place"] == tgt["place"] else c.long
        if c.kind == "artillery" and tgt.get("formation", "line") != "line":
            f += 1
        if c.kind == "infantry" and tc is not None and tgt["face_up"] and \
                tc.kind == "artillery":
            f += 1
        return n, min(4, max(2 if shock else 1, f))

    def target_value(self, tgt: dict) -> float:
        """What routing this card is worth: its strength, more when it is one of the last
        troops holding (or taking) a Position."""
        val = 1.0 + self.strength_of(tgt)
        place = tgt["place"]
        left = len(self.troops(place, self.foe))
        if left <= 2:
            mine_here = [p for p in self.troops(place, self.me)
                         if ((pc := self.card(p)) is not None and pc.kind in
                             ("infantry", "cavalry"))]
            if mine_here or OWNER.get(place) == self.me:
                val *= self.w.last_one if left == 1 else self.w.last_two
        return val

    def fire_score(self, a: dict) -> float:
        # memoised: context() scores every fire and shock first, then choose() again
        key = (a["type"], a["piece"], a["target"])
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._fire_score(a)
        return hit

    def _fire_score(self, a: dict) -> float:
        att = self.pieces[a["piece"]]
        tgt = self.pieces[a["target"]]
        n, f = self.attack(att, tgt, a["type"] == "shock")
        p = f / 6.0
        q = pass_chance(self.morale(tgt))
        h0 = tgt.get("hits", 0) or 0
        gain = q ** h0 * (1.0 - (1.0 - p * (1.0 - q)) ** n)
        score = 100.0 + min(self.w.fire_cap, self.w.fire_gain * gain * self.target_value(tgt))
        if a["type"] == "shock" and self.known(att).kind == "cavalry":
            score -= 1.0  # blown afterwards (7.31): a small price
        return score

    # -- attacks --------------------------------------------------------------------------
    def winnable(self, place: str) -> bool:
        """An enemy Position with no enemy card but (face-up) Generals: entering it with
        Infantry or Cavalry wins (4.3, 12.4 NOTE)."""
        key = ("winnable", place)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._winnable(place)
        return hit

    def _winnable(self, place: str) -> bool:
        for p in self.at.get(place, ()):
            if p["side"] != self.foe or self.is_terrain(p):
                continue
            c = self.card(p)
            if c is None or not p["face_up"] or c.kind != "general":
                return False
        return True

    def plan(self, target: str) -> float:
        """Force ratio of an attack on enemy Position ``target``: our cards already there
        plus those that can still move in from the Position facing it, against the
        estimated strength of its defenders."""
        if target in self._plans:
            return self._plans[target]
        src = FACING[target]
        movers = self.movers().get(target, [])
        forces = sorted((self.strength_of(self.pieces[m]) for m in movers), reverse=True)
        here = len(self.troops(src, self.me))
        if src not in self.refill and here - len(forces) < 1 and not self.engaged(src):
            forces = forces[:max(0, here - 1)]  # keep one card holding our Position
        room = STACK - len(self.troops(target, self.me))
        ours = self.side_strength(target, self.me) + sum(forces[:max(0, room)])
        theirs = self.side_strength(target, self.foe)
        if ours <= 0:
            ratio = 0.0
        else:
            ratio = ours / theirs if theirs > 0 else 10.0
        self._plans[target] = ratio
        return ratio

    def movers(self) -> dict[str, list[int]]:
        """Enemy Position -> our troop pieces (in legal order, once each) that can move in
        from the Position facing it: one pass over the legal actions for every plan()."""
        out = self._memo.get(("movers",))
        if out is not None:
            return out
        out = {}
        for a in self.legal:
            if a["type"] == "move" and "piece" in a:
                target = a.get("to")
                if target not in FACING:
                    continue
                p = self.pieces[a["piece"]]
                if p["place"] == FACING[target]:
                    got = out.setdefault(target, [])
                    if a["piece"] not in got:
                        c = self.card(p)
                        if c is not None and c.troop:
                            got.append(a["piece"])
        self._memo[("movers",)] = out
        return out

    def desired_formation(self, c: Card, dest: str) -> str:
        key = ("form", c.num, dest)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._desired_formation(c, dest)
        return hit

    def _desired_formation(self, c: Card, dest: str) -> str:
        foe_cav = False
        for place in (dest, FACING.get(dest, dest)):
            for p in self.troops(place, self.foe):
                tc = self.card(p)
                if tc is not None and p["face_up"] and tc.kind == "cavalry" and \
                        not p.get("blown"):
                    foe_cav = True
        if foe_cav and c.morale <= self.w.square_morale:
            return "square"
        if OWNER.get(dest) == self.foe and c.shock > c.fp and not foe_cav:
            return "column"
        return "line"


class GreedyBot(Bot):
    """``cards``: the public catalogue (records or a table), for the cards it sees and its
    estimate of a face-down enemy card; the bot reads no file."""

    name = "greedy"
    needs_view = True
    view_if_forced = False  # choose() returns a lone legal action at once
    needs_cards = True

    def __init__(self, cards: CardTable | Iterable[Mapping[str, Any]],
                 weights: Weights = DEFAULT) -> None:
        self.cards = card_table(cards)
        self.w = weights

    def choose(self, view: dict[str, Any] | None, legal: list[dict], rng: random.Random
               ) -> dict:
        if len(legal) == 1:
            return legal[0]
        assert view is not None, "greedy reads the view to choose between actions"
        ctx = self.context(view, legal)
        phase = view["phase"]
        best: list[dict] = []
        top = float("-inf")
        for a in legal:
            s = self.score(ctx, phase, a)
            if s > top:
                top, best = s, [a]
            elif s == top:
                best.append(a)
        return best[0] if len(best) == 1 else best[rng.randrange(len(best))]

    def context(self, view: dict[str, Any], legal: list[dict]) -> Ctx:
        """The view indexed for one decision (the search bot scores its candidates with it);
        in the combat phase's main step, each piece's best fire or shock score is noted first
        (a move is weighed against the fire it gives up)."""
        ctx = Ctx(view, legal, self.cards, self.w)
        if view["phase"] == "combat" and view["step"] == "main":
            for a in legal:
                if a["type"] in ("fire", "shock"):
                    s = ctx.fire_score(a)
                    a_id = a["piece"]
                    if s > ctx.fire_best.get(a_id, 0.0):
                        ctx.fire_best[a_id] = s
        return ctx

    # -- scoring --------------------------------------------------------------------------
    def score(self, ctx: Ctx, phase: str, a: dict) -> float:
        t = a["type"]
        if t == "move":  # the most frequent by far (the types are distinct: order is free)
            return self.move_score(ctx, a)
        if t in ENDING:
            return 0.0
        if t == "deploy":
            return self.deploy_score(ctx, a)
        if t == "play_terrain":
            return 100.0  # 11.0: terrain only helps its holder
        if t == "play_special":
            return self.special_score(ctx, a)
        if t in ("fire", "shock"):
            return ctx.fire_score(a)
        if t == "change_formation":
            return self.formation_score(ctx, a)
        if t == "occupy":
            c = ctx.known(ctx.pieces[a["piece"]])
            return 35.0 + self.occupy_bonus(ctx, c, a["terrain"])
        return NEVER  # decoys and anything unknown

    def occupy_bonus(self, ctx: Ctx, c: Card, terrain: int) -> float:
        tc = ctx.card(ctx.pieces[terrain])
        if tc is None:
            return 0.0
        if tc.tclass in ("building", "woods"):
            return 6.0 if c.kind == "infantry" else 0.0
        if tc.tclass == "hill":
            return 5.0 if c.kind in ("artillery", "infantry") else 3.0
        return 1.0

    def deploy_score(self, ctx: Ctx, a: dict) -> float:
        c = ctx.cards[a["card"]]
        dest = a["to"]
        if c.kind == "general":
            supported = sum(1 for p in ctx.troops(dest, ctx.me)
                            if (pc := ctx.card(p)) is not None and pc.army == c.army
                            and (c.corps == "A" or pc.ob_corps == c.corps))
            return 10.0 + 4.0 * supported
        if not c.troop:
            return NEVER
        mine = ctx.troops(dest, ctx.me)
        n = len(mine)
        # keep one cavalry card in the Reserve (two moves: it can seize an empty Position)
        cav_left = sum(1 for num in ctx.own_reserve if ctx.cards[num].kind == "cavalry")
        if c.kind == "cavalry" and cav_left == 1 and all(
                len(ctx.troops(p, ctx.me)) >= 2 for p in POSITIONS[ctx.me]):
            return -5.0
        w = self.w
        s = w.deploy_base - w.deploy_stack * n - w.deploy_strength * \
            ctx.side_strength(dest, ctx.me) + c.cv * 0.1
        s += w.deploy_facing * len(ctx.troops(FACING[dest], ctx.foe))
        if "occupy" in a:
            s += self.occupy_bonus(ctx, c, a["occupy"])
        return s

    def special_score(self, ctx: Ctx, a: dict) -> float:
        sc = ctx.cards[a["card"]]
        eff = sc.effect or {}
        kind = eff.get("kind")
        enemy = eff.get("target") == "enemy"
        timing = sc.timing or ""
        if timing.startswith("enemy"):
            pend = ctx.pending.get("type") if ctx.pending else None
            if kind in ("cv_modifier", "firepower_modifier", "shock_modifier",
                        "morale_modifier") and enemy:
                if pend == "move":
                    return NEVER  # a card that moved cannot fire this turn (7.0): wasted
                # scarce: spend it where a Position hangs on one or two defenders
                return 10.0 + 5.0 * max(0, 3 - len(ctx.troops(a["at"], ctx.me)))
            if kind == "change_formation" and pend == "shock":
                return 10.0 if a.get("formation") == "square" else NEVER
            return NEVER
        if timing == "own_morale":
            if kind in ("remove_hits", "rally_routed") or (kind == "morale_modifier"
                                                           and not enemy):
                # where a rout would cost the Position: the fewest defenders
                return 10.0 + 5.0 * max(0, 3 - len(ctx.troops(a["at"], ctx.me)))
            return NEVER
        if kind == "draw_reinforcements":
            return 3.0
        if kind == "reveal_enemy":
            return 4.0
        if kind == "recover_blown":
            return 130.0 if ctx.engaged(a["at"]) else 2.0
        if kind in ("cv_modifier", "firepower_modifier", "shock_modifier") and not enemy:
            types = {"cv_modifier": ("fire", "shock"), "firepower_modifier": ("fire",),
                     "shock_modifier": ("shock",)}[kind]
            shooters = {b["piece"] for b in ctx.legal if b["type"] in types
                        and ctx.pieces[b["piece"]]["place"] == a["at"]}
            return 130.0 if len(shooters) >= 2 else NEVER
        return NEVER

    def formation_score(self, ctx: Ctx, a: dict) -> float:
        p = ctx.pieces[a["piece"]]
        c = ctx.known(p)
        want = ctx.desired_formation(c, p["place"])
        if a["formation"] != want:
            return NEVER
        if not ctx.engaged(p["place"]):
            return 60.0  # free once a turn when unengaged (9.0)
        # engaged: costs the Move (no fire this turn); only against cavalry
        if want == "square" and (OWNER.get(p["place"]) == ctx.me
                                 or ctx.fire_best.get(p["piece"], 0.0) < 115.0):
            return 141.0  # defending against cavalry: the square stops their Shock (9.3)
        return NEVER

    def move_score(self, ctx: Ctx, a: dict) -> float:
        """Moves that differ only by ``formation``/``occupy`` share a base score (memoised
        per card, destination and origin); the bonus is added as the original single
        expression added it, so the float result is the same to the last bit."""
        dest = a["to"]
        me = ctx.me
        if "card" in a:
            c = ctx.cards[a["card"]]
            from_board = False
        else:
            piece = ctx.pieces[a["piece"]]
            c = ctx.known(piece)
            from_board = piece["place"] != RESERVE[me]
        key = ("move", c.num, dest, from_board)
        parts = ctx._memo.get(key)
        if parts is None:
            parts = ctx._memo[key] = self._move_parts(ctx, c, dest, from_board)
        head, tail = parts
        if tail is None:
            return head  # no bonus: a fixed score
        bonus = 0.0
        if c.kind == "infantry" and "formation" in a:
            bonus += 2.0 if a["formation"] == ctx.desired_formation(c, dest) else 0.0
        if "occupy" in a:
            bonus += self.occupy_bonus(ctx, c, a["occupy"])
        s = head + bonus
        for t in tail:
            s += t
        return s

    def _move_parts(self, ctx: Ctx, c: Card, dest: str, from_board: bool
                    ) -> tuple[float, tuple[float, ...] | None]:
        """A move's score as (head, tail): head + bonus, then each term of tail added in
        order; tail None: the score is head, whatever the bonus."""
        me = ctx.me
        w = self.w
        if dest == RESERVE[me]:
            return NEVER, None
        owner = OWNER[dest]
        if owner == ctx.foe:
            # into an enemy Position: engaging (8.1)
            if c.kind in ("infantry", "cavalry") and ctx.winnable(dest):
                return WIN, ()
            if c.kind == "general":
                n_ours = len(ctx.troops(dest, me))
                if n_ours >= 2 and ctx.general(dest, me) is None and ctx.plan(dest) >= 1.0:
                    return 30.0, ()
                return NEVER, None
            if not c.troop or not ctx.troops(dest, ctx.foe):
                return NEVER, None  # only Infantry and Cavalry take an empty Position (4.3)
            ratio = ctx.plan(dest)
            already = ctx.present(dest, me)
            if ratio >= (w.engage_again if already else w.engage_at):
                return w.attack + w.attack_ratio * min(ratio, 4.0) + 0.2 * ctx.card_strength(c), ()
            return NEVER, None
        # into one of our own Positions
        if from_board:
            return NEVER, None  # disengaging: not worth it in this heuristic
        n = len(ctx.troops(dest, me))
        engaged = ctx.engaged(dest)
        if c.kind == "general":
            if ctx.general(dest, me) is not None:
                return NEVER, None
            supported = sum(1 for p in ctx.troops(dest, me)
                            if (pc := ctx.card(p)) is not None and pc.army == c.army
                            and (c.corps == "A" or pc.ob_corps == c.corps))
            return (20.0 + 4.0 * supported, ()) if supported else (NEVER, None)
        if not c.troop:
            return NEVER, None
        if c.kind == "cavalry" and ctx.winnable(FACING[dest]) and not engaged:
            return WIN - 1.0, None  # the first of two moves (8.3) into an empty enemy Position
        head = w.reinforce + w.reinforce_room * (STACK - n)
        tail: list[float] = []
        if engaged:
            theirs = ctx.side_strength(dest, ctx.foe)
            ours = ctx.side_strength(dest, me)
            tail.append(w.support + w.support_need * min(3.0, theirs / (ours + 0.5)))
            if n == 1:
                tail.append(w.lone)  # a lone defender's rout loses the battle (4.3)
        if n == 0:
            tail.append(w.empty)
        if c.kind == "cavalry" and not engaged and n > 0:
            cav_left = sum(1 for num in ctx.own_reserve if ctx.cards[num].kind == "cavalry")
            if cav_left <= 1:
                # keep one cavalry card back to exploit an empty Position (x - 40 == x + -40
                # exactly in IEEE arithmetic)
                tail.append(w.keep_cavalry)
        if c.kind == "artillery" and not engaged:
            tail.append(2.0 * len(ctx.troops(FACING[dest], ctx.foe)))
        return head, tuple(tail)
