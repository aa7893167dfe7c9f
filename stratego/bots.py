"""The computer players of Stratego: Waterloo. A bot sees only its side's ``view`` and the
published piece table (the armies' make-up is printed in the rules, 001 §4), never the state.

- ``random``: any legal action but the draw offers, uniformly.
- ``greedy``: one ply. It scores each legal action by what it expects from it: attacks and
  fire by the chance of winning against what the target may be (the enemy pieces not yet
  seen, of that back), moves by the ground gained towards the enemy's back row (where his
  lines of retreat are), less the risk next to stronger enemies; commanders keep back.
  Its set-up is its own (``setup_policy``: lanes, guns with a field of fire, strong pieces
  forward, commanders protected, the overflow in reserve).
"""

from __future__ import annotations

import random
from typing import Any

from . import setup_policy
from .engine.board import BACK_ROW, FORWARD, other
from .engine.pieces import BACK, PieceSpec, PieceTable

Action = dict[str, Any]
SETUPS = ("plan", "random")  # the greedy bot's set-up: its own plan, or the random one

# How much the greedy bot wants each manoeuvre card (001 §11).
CARD_RANK = {"combined_attack": 5, "initiative": 4, "fighting_spirit": 3, "grand_battery": 2,
             "reconnaissance": 1}

VALUE = {"light_infantry": 1.0, "line_infantry": 3.0, "light_cavalry": 2.5,
         "heavy_cavalry": 4.5, "artillery": 4.0, "commander": 9.0, "commander_in_chief": 14.0}


def in_battle(table: PieceTable, view: dict[str, Any]) -> list[PieceSpec]:
    """The pieces of this battle: the table's, or the armies the players agreed (R43, shown
    in every view as ``options["armies"]``)."""
    armies = (view.get("options") or {}).get("armies")
    if armies is None:
        return list(table.specs.values())
    ids = {pid for army in armies.values() for pid in army}
    return [spec for spec in table.specs.values() if spec.id in ids]


def value(p: Any) -> float:
    """A piece's worth (a ``public`` view dict or a ``PieceSpec``)."""
    typ = p["type"] if isinstance(p, dict) else p.type
    strength = p["strength"] if isinstance(p, dict) else p.strength
    return VALUE[typ] + 0.5 * (strength or 0)


class RandomBot:
    needs_view = False  # it chooses blindly

    def choose(self, view: dict[str, Any] | None, legal: list[Action], rng: random.Random
               ) -> Action:
        options = [a for a in legal if a["type"] not in ("offer_draw", "accept_draw")] or legal
        return rng.choice(options)


class GreedyBot:
    needs_view = True

    def __init__(self, table: PieceTable, setup: str = "plan") -> None:
        """``setup``: "plan" (its own, ``setup_policy``) or "random" (the listed one)."""
        if setup not in SETUPS:
            raise ValueError(f"setup: one of {', '.join(SETUPS)}")
        self.table = table
        self.setup = setup
        self.current_goals: list[tuple[int, int]] = []  # this choice's (``goals``)
        self.goal_distance: list[list[int]] = []  # from each square to them

    # --- what the bot believes -------------------------------------------------------------

    def unseen(self, view: dict[str, Any], me: str) -> dict[str, list[PieceSpec]]:
        """The enemy pieces it has not seen, by back: what an unrevealed enemy may be."""
        enemy = other(me)
        armies = ("french",) if enemy == "french" else ("allied", "prussian")
        known = {p["id"] for p in view["board"] if "id" in p and p["side"] == enemy}
        for where in ("withdrawn", "resting", "eliminated"):
            known.update(p["id"] for p in view["sides"][enemy][where])
        out: dict[str, list[PieceSpec]] = {"infantry": [], "cavalry": [], "artillery": []}
        for spec in in_battle(self.table, view):
            if spec.army in armies and spec.id not in known:
                out[BACK[spec.type]].append(spec)
        return out

    def choose(self, view: dict[str, Any] | None, legal: list[Action], rng: random.Random
               ) -> Action:
        assert view is not None
        me = str(view["viewer"])
        if legal and legal[0]["type"] == "deploy":
            return self.deploy(view, me, rng)
        if view.get("pursuit"):
            return self.pursue(view, legal, rng)
        board = {tuple(p["square"]): p for p in view["board"]}
        unseen = self.unseen(view, me)
        self.current_goals = self.goals(me, board, BACK_ROW[other(me)])
        self.goal_distance = self.distances(self.current_goals)
        kind = legal[0]["type"] if legal else ""
        if kind == "draft":
            return self.draft(legal)
        if kind == "take_cards":
            return max(legal, key=lambda a: sum(CARD_RANK[c] for c in a["cards"]))
        if kind in ("fighting_spirit", "decline", "rampage"):
            return self.respond(legal, board, unseen, me)
        self.card_scores = self.card_values(legal, me, board, unseen, view)
        best: list[Action] = []
        top = -1e9
        for i, a in enumerate(legal):
            score = self.card_scores[i] if i in self.card_scores else \
                self.score(a, me, board, unseen, view)
            if score > top + 1e-9:
                best, top = [a], score
            elif abs(score - top) <= 1e-9:
                best.append(a)
        return rng.choice(best)

    # --- the Pursuit (Expert: 001 §13) ------------------------------------------------------

    def pursue(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """Each fleeing piece taken or saved is one in the count: take them with the light
        cavalry first; fight cavalry only when likely to win; end the turn otherwise."""
        pv = view["pursuit"]
        me = str(view["viewer"])
        enemy = other(me)
        victor = pv["victor"] == me
        mine = {e["id"]: e for e in pv["aside"][me]}
        theirs = {e["slot"]: e for e in pv["aside"][enemy]}
        pool = [spec for spec in in_battle(self.table, view)
                if (spec.army == "french") == (enemy == "french")
                and BACK[spec.type] == "cavalry" and spec.type != "commander_in_chief"]

        def score(a: Action) -> float:
            if a["type"] == "end_turn":
                return 0.0
            if a["type"] == "save":
                if "square" in a:
                    return 1.0
                p = mine[a["piece"]]
                return 0.2 if p["type"] == "heavy_cavalry" and p["strength"] <= 1 else -1.0
            p = mine[a["piece"]]
            cost = 0.1 * (p["type"] == "heavy_cavalry") + 0.5 * (p["type"] == "commander")
            if "target" in a:
                return 1.2 - cost
            t = theirs[a["slot"]]
            ms = p["strength"] or 0
            cands = [t["strength"]] if "strength" in t else [s.strength for s in pool]
            win = sum(1.0 if ms > (s or 0) or (ms == s and victor) else 0.0
                      for s in cands) / max(1, len(cands))
            return win * 1.0 - (1 - win) * (1.0 + value(p) / 10) - cost
        top = max(score(a) for a in legal)
        return rng.choice([a for a in legal if score(a) >= top - 1e-9])

    # --- the manoeuvre cards (Standard, Expert) ----------------------------------------------

    card_scores: dict[int, float] = {}  # noqa: RUF012 (set per choice)

    @staticmethod
    def draft(legal: list[Action]) -> Action:
        """Keep the card it values most; discard the best of the rest (the opponent's pick)."""
        return max(legal, key=lambda a: (CARD_RANK[a["keep"]],
                                         CARD_RANK.get(a["discard"] or "", 0)))

    def respond(self, legal: list[Action], board: dict[tuple[int, ...], dict[str, Any]],
                unseen: dict[str, list[PieceSpec]], me: str) -> Action:
        if legal[0]["type"] == "rampage":
            def gain(a: Action) -> float:
                t = board.get(tuple(a["target"]))
                if t is None:
                    return 0.0
                v = self.expected_value(t, unseen)
                return -v if t["side"] == me else v
            return max(legal, key=gain)
        spirit = [a for a in legal if a["type"] == "fighting_spirit"]
        if spirit:
            mine = board.get(tuple(spirit[0]["square"]))
            if mine is not None and "type" in mine and value(mine) >= 4.5:
                return spirit[0]
        return next(a for a in legal if a["type"] == "decline")

    def card_values(self, legal: list[Action], me: str,
                    board: dict[tuple[int, ...], dict[str, Any]],
                    unseen: dict[str, list[PieceSpec]], view: dict[str, Any]) -> dict[int, float]:
        """What playing each card listed is worth: the best actions it would allow, less the
        action it costs."""
        plays = [i for i, a in enumerate(legal) if a["type"] == "card"]
        if not plays:
            return {}
        singles = [(a, self.score(a, me, board, unseen, view)) for a in legal
                   if a["type"] in ("move", "attack", "fire")]
        best_single = max((sc for _, sc in singles), default=0.0)
        out: dict[int, float] = {}
        for i in plays:
            a = legal[i]
            card = a["card"]
            if card == "initiative":
                gains = self.best_per_piece(singles, ("move",))
                total = sum(sorted(gains, reverse=True)[:3])
            elif card == "combined_attack":
                kinds: dict[str, float] = {}
                for b, sc in singles:
                    if b["type"] in ("attack", "fire") and sc > 0:
                        k = board[tuple(b["from"])]["type"]
                        kind = "infantry" if "infantry" in k else (
                            "artillery" if k == "artillery" else "cavalry")
                        kinds[kind] = max(kinds.get(kind, 0.0), sc)
                total = sum(kinds.values())
            elif card == "grand_battery":
                group = self.battery(a["from"], board, me)
                gains = self.best_per_piece([(b, sc) for b, sc in singles if b["type"] == "fire"
                                             and tuple(b["from"]) in group], ("fire",))
                total = sum(gains)
            elif card == "fighting_spirit":
                total = self.spirit_gain(a["square"], legal, me, board, unseen) + best_single
            else:  # reconnaissance
                hidden = sum(1 for p in board.values() if p["side"] != me and "type" not in p)
                total = 1.0 if hidden >= 8 else 0.0
            out[i] = total - 0.3
        return out

    @staticmethod
    def best_per_piece(scored: list[tuple[Action, float]], types: tuple[str, ...]
                       ) -> list[float]:
        best: dict[tuple[int, ...], float] = {}
        for a, sc in scored:
            if a["type"] in types and sc > 0:
                k = tuple(a["from"])
                best[k] = max(best.get(k, 0.0), sc)
        return list(best.values())

    @staticmethod
    def battery(start: list[int], board: dict[tuple[int, ...], dict[str, Any]], me: str
                ) -> set[tuple[int, ...]]:
        seen = {tuple(start)}
        todo = [tuple(start)]
        while todo:
            c, r = todo.pop()
            for n in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
                p = board.get(n)
                if n not in seen and p is not None and p["side"] == me \
                        and p.get("type") == "artillery":
                    seen.add(n)
                    todo.append(n)
        return seen

    def spirit_gain(self, square: list[int], legal: list[Action], me: str,
                    board: dict[tuple[int, ...], dict[str, Any]],
                    unseen: dict[str, list[PieceSpec]]) -> float:
        mine = board[tuple(square)]
        if mine.get("strength") is None:
            return -1.0
        stronger = {**mine, "strength": min(6, mine["strength"] + 1)}
        best = -1.0
        for a in legal:
            if a["type"] == "attack" and a["from"] == square:
                target = board[tuple(a["target"])]
                direction = a["target"][1] - a["via"][1]
                p1 = self.win_chance(mine, target, direction, unseen)
                p2 = self.win_chance(stronger, target, direction, unseen)
                best = max(best, (p2 - p1) * (self.expected_value(target, unseen)
                                              + value(mine)) - 1.0)
        return best

    # --- scoring ---------------------------------------------------------------------------

    def win_chance(self, mine: dict[str, Any], target: dict[str, Any], direction: int,
                   unseen: dict[str, list[PieceSpec]]) -> float:
        """The chance that ``mine`` beats ``target`` (direction: the attack's row step)."""
        cands: list[Any] = [target] if "type" in target else unseen[target["back"]]
        if not cands:
            return 0.5
        total = 0.0
        for c in cands:
            typ = c["type"] if isinstance(c, dict) else c.type
            s = c["strength"] if isinstance(c, dict) else c.strength
            if typ == "commander_in_chief":
                total += 1
            elif typ == "artillery":
                # from its front an attacker dies (001 §4): the enemy faces the other way
                total += 0.0 if direction == FORWARD[mine["side"]] else 1.0
            elif mine["type"] == "commander_in_chief":
                total += 1
            else:
                ms = mine["strength"] or 0
                total += 1.0 if ms > (s or 0) else 0.5 if ms == s else 0.0
        return total / len(cands)

    def expected_value(self, target: dict[str, Any], unseen: dict[str, list[PieceSpec]]
                       ) -> float:
        if "type" in target:
            return value(target)
        cands = unseen[target["back"]]
        return sum(value(c) for c in cands) / len(cands) if cands else 2.0

    def score(self, a: Action, me: str, board: dict[tuple[int, ...], dict[str, Any]],
              unseen: dict[str, list[PieceSpec]], view: dict[str, Any]) -> float:
        kind = a["type"]
        enemy_back = BACK_ROW[other(me)]
        if kind in ("end_turn", "offer_draw"):
            return -0.5 if kind == "end_turn" else -5.0
        if kind == "accept_draw":
            return -3.0
        if kind == "end_card":
            return 0.0
        if kind == "look":
            seen_p = board.get(tuple(a["square"]))
            return 1.0 if seen_p is not None and "type" not in seen_p else 0.1
        if kind in ("roll_for_prussians", "card"):
            return 0.0
        if kind == "rest":
            return 0.8
        if kind == "enter":
            return 0.6
        mine = board[tuple(a["from"])]
        if kind == "fire" and "building" in a:
            held = [p for sq, p in board.items() if p["side"] != me
                    and self.in_building(view, a["building"], sq)]
            return 1.0 + 0.6 * len(held)
        if kind == "fire":
            target = board[tuple(a["target"])]
            if "type" in target:
                return 0.0 if target["type"] == "light_infantry" else 2 + value(target)
            cands = unseen[target["back"]]
            hit = [c for c in cands if c.type != "light_infantry"]
            return 2 + (sum(value(c) for c in hit) / len(cands) if cands else 0.0)
        if kind == "attack":
            target = board[tuple(a["target"])]
            direction = a["target"][1] - a["via"][1]
            p = self.win_chance(mine, target, direction, unseen)
            gain = p * self.expected_value(target, unseen) - (1 - p) * value(mine)
            if p > 0.5 and a["target"][1] == enemy_back:
                gain += p * self.back_row_bonus(a["target"][0], me, board, enemy_back)
            return gain + 0.5
        # a move: ground gained towards the enemy's back row, less the danger where it ends
        fr, to = a["from"], a["to"]
        gained = (to[1] - fr[1]) * FORWARD[me]
        near = self.goal_distance
        score = 0.6 * (near[fr[0]][fr[1]] - near[to[0]][to[1]])
        if to[1] == enemy_back:
            score += self.back_row_bonus(to[0], me, board, enemy_back)
        if fr[1] == enemy_back and self.back_row_bonus(fr[0], me, board, enemy_back) >= 1:
            score -= 6.0  # it holds a square that may be on his lines
        if mine["type"] in ("commander", "commander_in_chief"):
            score = -0.2 * abs(gained) - 0.5
        danger = 0.0
        for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            n = board.get((to[0] + dc, to[1] + dr))
            if n is None or n["side"] == me or tuple(a["from"]) == (to[0] + dc, to[1] + dr):
                continue
            p = self.win_chance(mine, n, -dr if dr else 0, unseen)
            danger = max(danger, (1 - p) * value(mine))
        return score - 0.6 * danger

    @staticmethod
    def in_building(view: dict[str, Any], name: str, square: tuple[int, ...]) -> bool:
        return any(t["name"] == name and list(square) in t["squares"]
                   for t in view.get("terrain", ()))

    @staticmethod
    def goals(me: str, board: dict[tuple[int, ...], dict[str, Any]], enemy_back: int
              ) -> list[tuple[int, int]]:
        """The enemy back-row squares that may still be on his lines and are not ours."""
        out = []
        for col in range(12):
            sector = col // 4
            friends = sum(1 for sq, p in board.items() if sq[1] == enemy_back
                          and p["side"] == me and sq[0] // 4 == sector)
            mine = board.get((col, enemy_back))
            if friends < 2 and (mine is None or mine["side"] != me):
                out.append((col, enemy_back))
        return out

    @staticmethod
    def distances(goals: list[tuple[int, int]]) -> list[list[int]]:
        """``distance`` from every square (col, row), computed once per choice (speed)."""
        return [[min((abs(c - gc) + abs(r - gr) for gc, gr in goals), default=0)
                 for r in range(10)] for c in range(12)]

    @staticmethod
    def distance(square: list[int], goals: list[tuple[int, int]]) -> int:
        return min((abs(square[0] - c) + abs(square[1] - r) for c, r in goals), default=0)

    @staticmethod
    def back_row_bonus(col: int, me: str, board: dict[tuple[int, ...], dict[str, Any]],
                       enemy_back: int) -> float:
        """A unit on the enemy's back row may be on his lines of retreat (one sector of four
        columns, 001 §3): worth most as the second in a sector, nothing more as a third (two
        there and no victory: not his lines)."""
        sector = col // 4
        friends = sum(1 for sq, p in board.items() if sq[1] == enemy_back
                      and p["side"] == me and sq[0] // 4 == sector)
        return (4.0, 9.0)[friends] if friends < 2 else 0.5

    # --- set-up ----------------------------------------------------------------------------

    def deploy(self, view: dict[str, Any], me: str, rng: random.Random) -> Action:
        """The bot's own set-up (``setup_policy.plan``), or the listed random one."""
        if self.setup == "random":
            return {"type": "deploy", "side": me, "random": True}
        return {"type": "deploy", "side": me, "placement": setup_policy.plan(view, rng)}
