"""The computer players of Stratego: Waterloo. A bot sees only its side's ``view`` and the
published piece table (the armies' make-up is printed in the rules, 001 §4), never the state.

- ``random``: any legal action but the draw offers, uniformly.
- ``greedy``: one ply. It scores each legal action by what it expects from it: attacks and
  fire by the chance of winning against what the target may be (the enemy pieces not yet
  seen, of that back), moves by the ground gained towards the enemy's back row (where his
  lines of retreat are), less the risk next to stronger enemies; commanders keep back.
"""

from __future__ import annotations

import random
from typing import Any

from .engine.board import BACK_ROW, FORWARD, HOME_ROWS, other
from .engine.pieces import BACK, PieceSpec, PieceTable

Action = dict[str, Any]

VALUE = {"light_infantry": 1.0, "line_infantry": 3.0, "light_cavalry": 2.5,
         "heavy_cavalry": 4.5, "artillery": 4.0, "commander": 9.0, "commander_in_chief": 14.0}


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

    def __init__(self, table: PieceTable) -> None:
        self.table = table
        self.current_goals: list[tuple[int, int]] = []  # this choice's (``goals``)

    # --- what the bot believes -------------------------------------------------------------

    def unseen(self, view: dict[str, Any], me: str) -> dict[str, list[PieceSpec]]:
        """The enemy pieces it has not seen, by back: what an unrevealed enemy may be."""
        enemy = other(me)
        armies = ("french",) if enemy == "french" else ("allied", "prussian")
        known = {p["id"] for p in view["board"] if "id" in p and p["side"] == enemy}
        for where in ("withdrawn", "resting", "eliminated"):
            known.update(p["id"] for p in view["sides"][enemy][where])
        out: dict[str, list[PieceSpec]] = {"infantry": [], "cavalry": [], "artillery": []}
        for spec in self.table.specs.values():
            if spec.army in armies and spec.id not in known:
                out[BACK[spec.type]].append(spec)
        return out

    def choose(self, view: dict[str, Any] | None, legal: list[Action], rng: random.Random
               ) -> Action:
        assert view is not None
        me = str(view["viewer"])
        if legal and legal[0]["type"] == "deploy":
            return self.deploy(view, me, rng)
        board = {tuple(p["square"]): p for p in view["board"]}
        unseen = self.unseen(view, me)
        self.current_goals = self.goals(me, board, BACK_ROW[other(me)])
        best: list[Action] = []
        top = -1e9
        for a in legal:
            score = self.score(a, me, board, unseen, view)
            if score > top + 1e-9:
                best, top = [a], score
            elif abs(score - top) <= 1e-9:
                best.append(a)
        return rng.choice(best)

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
        if kind == "rest":
            return 0.8
        if kind == "enter":
            return 0.6
        mine = board[tuple(a["from"])]
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
        goals = self.current_goals
        score = 0.6 * (self.distance(fr, goals) - self.distance(to, goals))
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
        """All on the board: guns and line infantry in front, cavalry behind them, the
        commanders in the middle of the back rows, light infantry on the back row."""
        pieces = view["sides"][me]["reserve"]
        rows = list(HOME_ROWS[me])
        if FORWARD[me] < 0:
            rows.reverse()  # back row first
        order = {"commander_in_chief": 0, "commander": 1, "light_infantry": 2,
                 "light_cavalry": 3, "heavy_cavalry": 4, "line_infantry": 5, "artillery": 6}
        ranked = sorted(pieces, key=lambda p: (order[p["type"]], rng.random()))
        squares: list[list[int]] = []
        for row in rows:  # back row first: fill the back rows with the first pieces
            cols = list(range(12))
            rng.shuffle(cols)
            cols.sort(key=lambda c: abs(c - 5.5))
            squares.extend([c, row] for c in cols)
        # the front row is the last in ``squares``; the last ranked pieces go there
        placement: dict[str, list[int]] = {}
        for p, s in zip(ranked, squares[len(squares) - len(ranked):], strict=True):
            placement[p["id"]] = s
        return {"type": "deploy", "side": me, "placement": placement}


def make_bot(name: str, table: PieceTable) -> RandomBot | GreedyBot:
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot(table)
    raise ValueError(f"no Stratego bot named {name!r}")
