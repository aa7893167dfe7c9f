"""The ``search`` bot (issue 26): a search over the hidden identities, from its side's view
only.

At each decision of the battle it takes the greedy bot's best few actions as candidates and
plays each out on several *determinizations*: states built from its view alone, where every
enemy piece it has not seen is given an identity drawn from the pieces it may still be (by
back, the Prussians by colour, the enemy commanders on the board: 001 §6 'Commanders and
Commanders in Chief must ALWAYS be placed on the board!'), the rest into the enemy reserve,
the Prussian pool shuffled, the enemy's Line of Retreat card and hand of cards drawn from
what is left. Each candidate is applied with the same sampled dice, the game goes on with
the greedy policy to the end of the opponent's next turn, and the position is scored
(victory, material, the greedy score of the first action as a prior). The best average wins.

The true state is never read: ``choose`` is handed a view (``needs_view``). The CPU time of
one decision (``time.process_time``) stays under ``budget`` seconds (0.9 by default: issue
26 asks for at most 1 s): a sample is started only while the slowest one so far still fits.
The first sample is always played, so a budget smaller than one sample (some 20-40 ms: six
candidates played out) means one sample per decision."""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Iterator
from typing import Any

from .bots import GreedyBot, in_battle, value
from .engine import rules
from .engine.board import ALLIED, FRENCH, SECTORS, from_pair, other
from .engine.cards import CARDS, PER_CARD
from .engine.pieces import BACK, PieceTable
from .engine.state import Piece, State
from .engine.view import view as make_view

Action = dict[str, Any]

WIN = 200.0


class Impossible(ValueError):
    """No assignment fits the view (it should not happen: then the bot plays greedy)."""


def half_of(view: dict[str, Any]) -> int:
    """The half-turns played, from the turn and who is active (rules.end_turn)."""
    turn, active = int(view["turn"]), view["active"]
    if view.get("options", {}).get("early_start"):
        return 2 * (turn + rules.EARLY_TURNS - 1) + (1 if active == ALLIED else 0)
    return 2 * (turn - 1) + (1 if active == FRENCH else 0)


def determinize(view: dict[str, Any], table: PieceTable, rng: random.Random) -> State:
    """A full state consistent with ``view`` (its viewer's), hidden parts drawn with ``rng``."""
    me = str(view["viewer"])
    enemy = other(me)
    mode = str(view["mode"])
    half = half_of(view)
    pieces: dict[str, Piece] = {}
    for spec in in_battle(table, view):
        pieces[spec.id] = Piece(spec, FRENCH if spec.army == "french" else ALLIED, "pool")
    placed: set[str] = set()

    def locate(pid: str, where: str, square: int | None = None, revealed: bool = False,
               weakened: int = 0, charged_at: int | None = None) -> None:
        p = pieces[pid]
        p.where, p.square, p.revealed, p.weakened = where, square, revealed, weakened
        if where in ("withdrawn", "resting"):
            p.back_from = half
        if weakened:
            # the view shows when a piece on the board charged; off the board it matters not
            p.charged_at = half - 2 if charged_at is None else charged_at
        placed.add(pid)

    hidden: list[tuple[int, str, bool]] = []  # enemy squares to fill: (square, back, prussian)
    spirited: set[int] = set()  # squares with a Fighting spirit on them
    for pv in view["board"]:
        square = from_pair(pv["square"])
        if "id" in pv:
            locate(pv["id"], "board", square, bool(pv.get("revealed")), int(pv.get("weakened", 0)),
                   pv.get("charged_at"))
            p = pieces[pv["id"]]
            if pv.get("scouted"):
                p.scouted = True
            if pv.get("fighting_spirit"):
                p.spirit_half = half
        else:
            hidden.append((square, pv["back"], pv.get("army") == "prussian"))
            if pv.get("fighting_spirit"):
                spirited.add(square)
    for side in (FRENCH, ALLIED):
        entry = view["sides"][side]
        for where in ("withdrawn", "resting", "eliminated"):
            for pv in entry[where]:
                # a heavy cavalry piece keeps its lost strength (shown in the view)
                printed, now = table[pv["id"]].strength, pv.get("strength")
                lost = printed - now if printed is not None and now is not None else 0
                locate(pv["id"], where, revealed=True, weakened=max(0, lost))
        for pv in entry.get("reserve", ()):
            locate(pv["id"], "reserve")
    # My own pieces not seen anywhere: Prussians still to come, or French held back.
    for p in pieces.values():
        if p.side == me and p.id not in placed:
            p.where = "pool" if p.spec.army == "prussian" else "delayed"
            placed.add(p.id)
    # The enemy's unseen pieces.
    unseen = [pid for pid, p in pieces.items() if p.side == enemy and pid not in placed]
    rng.shuffle(unseen)
    delayed_count = int(view["sides"][enemy].get("delayed_count", 0))
    if delayed_count:
        held = [sp.id for typ, strength, n in rules.EARLY_HELD_BACK
                for sp in [s for s in table.army("french") if s.type == typ
                           and s.strength == strength and s.id in pieces][:n]]
        for pid in held:
            if pid in unseen:
                unseen.remove(pid)
                locate(pid, "delayed")
    pools: dict[tuple[str, bool], list[str]] = {}
    for pid in unseen:
        spec = table[pid]
        pools.setdefault((BACK[spec.type], spec.army == "prussian"), []).append(pid)
    # the enemy commanders (not Von Bulow, who may be still to come) are on the board
    rng.shuffle(hidden)
    hidden.sort(key=lambda h: h[1] != "cavalry")
    for key, ids in pools.items():
        ids.sort(key=lambda pid: (table[pid].type not in rules.COMMANDERS or key[1]))
    for square, back, prussian in hidden:
        ids = pools.get((back, prussian), [])
        if not ids:
            raise Impossible(f"nothing unseen with a {back} back for {square}")
        locate(ids.pop(0), "board", square)
        if square in spirited:
            pieces[pieces_at(pieces, square)].spirit_half = half
    rest = [pid for ids in pools.values() for pid in ids]
    for pid in rest:
        spec = table[pid]
        if spec.army == "prussian":
            continue
        if spec.type in rules.COMMANDERS:
            raise Impossible("an enemy commander off the board")
        locate(pid, "reserve")
    pool = [pid for pid in rest if table[pid].army == "prussian"]
    pool += [p.id for p in pieces.values() if p.side == me and p.where == "pool"]
    rng.shuffle(pool)
    lines: dict[str, str] = {}
    if mode != "expert":
        mine = view["sides"][me].get("lines_of_retreat")
        lines[me] = mine["sector"] if mine else rng.choice(SECTORS)
        lines[enemy] = rng.choice(SECTORS)
    st = State(table, 0, mode, pieces, lines, pool, phase=str(view["phase"]),
               active=str(view["active"]), turn=int(view["turn"]), half=half,
               actions_left=int(view["actions_left"]), used=dict(view["used"]),
               draw_offer=view["draw_offer"], turn_cap=view["turn_cap"])
    st.refund = [p.id for p in pieces.values() if p.side == st.active and p.where == "withdrawn"
                 and p.type in rules.COMMANDERS]
    if mode != "basic":
        st.options = dict(view.get("options", {}))
        st.due = list(view.get("due", ()))
        st.buildings = {t["name"]: {"damage": t["damage"], "owner": t["owner"]}
                        for t in view["terrain"] if "damage" in t}
        st.cards = cards_of(view, me, half, rng)
    st.rebuild_board()
    return st


def pieces_at(pieces: dict[str, Piece], square: int) -> str:
    return next(pid for pid, p in pieces.items() if p.where == "board" and p.square == square)


def cards_of(view: dict[str, Any], me: str, half: int, rng: random.Random) -> dict[str, Any]:
    """The manoeuvre cards: the enemy's hand and unseen discards drawn from what is left."""
    enemy = other(me)
    c = view["cards"]
    left = [k for k in CARDS for _ in range(PER_CARD)]
    known = [*c["pile"], *c["hand"], *c["played"][FRENCH], *c["played"][ALLIED]]
    for ds in c["discards"].values():
        known += ds
    for k in known:
        if k in left:
            left.remove(k)
    rng.shuffle(left)
    n_hand = int(c["hand_count"][enemy])
    hand, left = left[:n_hand], left[n_hand:]
    discards = {me: list(c["discards"].get(me, [])),
                enemy: list(c["discards"].get(enemy, left[:int(c["discard_count"][enemy])]))}
    return {"pile": list(c["pile"]), "hands": {me: sorted(c["hand"]), enemy: sorted(hand)},
            "discards": discards,
            "played": {s: list(c["played"][s]) for s in (FRENCH, ALLIED)},
            "turn_card": {s: half if c["card_played_this_turn"][s] else -1
                          for s in (FRENCH, ALLIED)},
            "seen_discards": [me] if enemy in c["discards"] else []}


def clone(st: State) -> State:
    """A copy to play on (cheaper than the JSON round trip)."""
    pieces = {pid: Piece(p.spec, p.side, p.where, p.square, p.revealed, p.weakened,
                         p.charged_at, p.back_from, p.scouted, p.spirit_half)
              for pid, p in st.pieces.items()}
    out = State(st.table, st.seed, st.mode, pieces, dict(st.lines), list(st.prussian_pool),
                st.phase, st.active, st.turn, st.half, st.actions_left, dict(st.used),
                list(st.refund), st.draw_offer, st.turn_cap,
                None if st.outcome is None else dict(st.outcome),
                dict(st.options), copy.deepcopy(st.buildings), copy.deepcopy(st.cards),
                copy.deepcopy(st.card), copy.deepcopy(st.pending), list(st.due),
                copy.deepcopy(st.pursuit))
    out.board = dict(st.board)
    return out


def dice(rng: random.Random) -> Iterator[int]:
    while True:
        yield rng.randint(1, 6)


class SearchBot:
    needs_view = True

    def __init__(self, table: PieceTable, budget: float = 0.9, samples: int = 64,
                 candidates: int = 6, prior: float = 0.5, max_steps: int = 12,
                 setup: str = "plan") -> None:
        self.table = table
        self.budget = budget  # CPU seconds per decision (time.process_time)
        self.samples = samples  # at most this many determinizations
        self.candidates = candidates
        self.prior = prior  # weight of the greedy score of the first action
        self.max_steps = max_steps  # actions played out after the candidate
        self.greedy = GreedyBot(table, setup)  # its set-up (and the other phases') policy
        self.policy = GreedyBot(table)  # for both sides inside the play-outs
        self.last: dict[str, Any] = {}  # what the last choice did (samples, seconds)

    def choose(self, view: dict[str, Any] | None, legal: list[Action], rng: random.Random
               ) -> Action:
        assert view is not None
        started = time.process_time()
        kind = legal[0]["type"] if legal else ""
        self.last = {"samples": 0, "seconds": 0.0}
        if (kind in ("deploy", "draft", "take_cards", "fighting_spirit", "decline", "rampage",
                     "roll_for_prussians") or view.get("phase") != "play"
                or view.get("card_in_play") or view.get("pending") or view.get("due")
                or view.get("pursuit") or len(legal) == 1):
            return self.greedy.choose(view, legal, rng)
        me = str(view["viewer"])
        board = {tuple(p["square"]): p for p in view["board"]}
        g = self.greedy
        g.current_goals = g.goals(me, board, rules.BACK_ROW[other(me)])
        g.goal_distance = g.distances(g.current_goals)
        unseen = g.unseen(view, me)
        g.card_scores = g.card_values(legal, me, board, unseen, view)
        scored = [(g.card_scores[i] if i in g.card_scores else
                   g.score(a, me, board, unseen, view), i) for i, a in enumerate(legal)
                  if a["type"] not in ("offer_draw", "accept_draw")]
        scored.sort(key=lambda t: -t[0])
        top = scored[:self.candidates]
        cands = [legal[i] for _, i in top]
        priors = [sc for sc, _ in top]
        totals = [0.0] * len(cands)
        n = 0
        slowest = 0.0
        while n < self.samples:
            t0 = time.process_time()
            if t0 - started + slowest > self.budget:
                break
            try:
                st0 = determinize(view, self.table, rng)
            except Impossible:
                break
            seed = rng.getrandbits(32)
            results = []
            for a in cands:
                st = clone(st0)
                results.append(self.play_out(st, a, me, seed))
            for i, r in enumerate(results):
                totals[i] += r
            n += 1
            slowest = max(slowest, time.process_time() - t0)
        self.last = {"samples": n, "seconds": time.process_time() - started}
        if n == 0:
            return rng.choice([a for sc, i in scored if sc >= scored[0][0] - 1e-9
                               for a in [legal[i]]])
        best = max(range(len(cands)),
                   key=lambda i: (totals[i] / n + self.prior * priors[i], -i))
        return cands[best]

    def play_out(self, st: State, action: Action, me: str, seed: int) -> float:
        rng = random.Random(seed)
        roll = dice(rng)
        try:
            rules.apply(st, action, roll, check=False)
            # to the end of the opponent's next turn
            stop = st.half + (2 if st.active == me else 1)
            steps = 0
            while st.phase == "play" and st.half < stop and steps < self.max_steps:
                side = rules.to_move(st)
                assert side is not None
                legal = rules.legal_actions(st, side)
                if not legal:
                    break
                if st.phase == "play" and st.pending is None and st.card is None \
                        and not st.due:
                    legal = [a for a in legal if a["type"] not in ("offer_draw",
                                                                   "accept_draw")]
                a = self.policy.choose(make_view(st, side), legal, rng)
                rules.apply(st, a, roll, check=False)
                steps += 1
        except (rules.IllegalAction, KeyError, AssertionError, ValueError):
            pass  # a play-out the sampled state could not go on with: scored as it stands
        return evaluate(st, me)


def evaluate(st: State, me: str) -> float:
    """The position for ``me``: victory, else the material left on both sides."""
    if st.outcome is not None:
        w = st.outcome.get("winner")
        return 0.0 if w is None else WIN if w == me else -WIN
    score = 0.0
    for p in st.pieces.values():
        if p.where in ("eliminated", "pool", "delayed"):
            continue
        v = value(p)
        score += v if p.side == me else -v
    return score
