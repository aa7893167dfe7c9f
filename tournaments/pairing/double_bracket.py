"""Double elimination played round by round from results (pure: no Django).

The bracket is ``elimination.double_elimination(seeds)`` (winners' bracket ``W``, losers'
bracket ``L``, grand final ``GF``) plus a **bracket reset**: when the losers' bracket champion
wins the grand final, both finalists have one loss, so a second final (``GF2``) is played.
Every player but the champion is therefore eliminated after exactly two losses (unless they
drop, or an organiser gives a double loss).

Rounds (of the event, not of the bracket) are scheduled greedily: round ``k`` plays every
bracket match whose two players are known once rounds ``1..k-1`` are over. A player is in at
most one open bracket match at a time, so a round never holds a player twice.

* Byes: the top seeds get the byes of winners' round 1 (non-powers of two). They are round-1
  byes (``byes`` of round 1: a win, like single elimination); a bye "loser" is nobody, so its
  losers'-bracket opponent advances without playing (a walkover, which takes no round).
* Drops: a player dropped after round ``d`` is absent from round ``d + 1`` on; an open match
  against them is a walkover for the opponent, and they are out.
* A double loss (organiser, or two no-shows): both players are out; nobody advances from it.

``double_elimination_round(seeds, games, round_no, dropped_after)`` replays the results of the
earlier rounds and returns round ``round_no``'s matches; ``double_elimination_state`` returns
where everyone stands (losses, who is out and where, champion, finishing places).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .elimination import double_elimination


@dataclass(frozen=True)
class Game:
    """A played match: ``round`` of the event, the two players, and the winner
    (``None``: a double loss)."""

    round: int
    french: str
    allied: str
    winner: str | None


# a Game or its fields as a tuple: (round, french, allied, winner)
GameLike = Game | tuple[int, str, str, str | None]


@dataclass(frozen=True)
class BracketPairing:
    french: str
    allied: str
    match: int  # bracket match id (``double_elimination`` numbering; the reset is the last)
    label: str  # "W2" (winners' round 2), "L3" (losers' round 3), "GF", "GF2" (reset)


@dataclass
class DoubleEliminationState:
    round: int  # the round these pairings are for
    pairings: list[BracketPairing] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)  # round 1 only: winners' round-1 byes
    losses: dict[str, int] = field(default_factory=dict)
    out: dict[str, str] = field(default_factory=dict)  # player -> label of the match
    champion: str | None = None
    runner_up: str | None = None
    finished: bool = False
    matches: list[dict] = field(default_factory=list)  # the bracket with what happened
    places: dict[str, int] = field(default_factory=dict)  # finishing place (shared)


def _label(m: dict) -> str:
    if m["bracket"] == "GF":
        return "GF" if m["round"] == 1 else "GF2"
    return f"{m['bracket']}{m['round']}"


class _Replay:
    def __init__(self, seeds: list[str], dropped_after: dict[str, int] | None):
        if len(seeds) < 2:
            raise ValueError("a double elimination needs at least 2 players")
        if len(set(seeds)) != len(seeds):
            raise ValueError("seeds must be distinct")
        self.seeds = list(seeds)
        self.seed_of = {p: k for k, p in enumerate(seeds)}
        self.dropped_after = dict(dropped_after or {})
        self.matches = [dict(m) for m in double_elimination(seeds)]
        for m in self.matches:
            m.update(label=_label(m), players=None, winner=None, loser=None, time=None,
                     played=False, bye=False)
        self.by_id = {m["id"]: m for m in self.matches}
        self.gf = self.matches[-1]
        self.reset: dict | None = None
        self.losses: Counter = Counter()
        self.french: Counter = Counter()
        self.allied: Counter = Counter()
        self.out: dict[str, str] = {}
        self.out_stage: dict[str, int] = {}

    # -- sources -------------------------------------------------------------------------
    def _sources(self, m: dict) -> list:
        if m["bracket"] == "W" and m["round"] == 1:
            return []
        return [s for s in (m["a"], m["b"]) if s is not None]

    def _ready_by(self, m: dict, k: int) -> bool:
        """Both sources resolved by the end of round ``k - 1``."""
        for s in self._sources(m):
            src = self.by_id[int(s[1:])]
            if src["time"] is None or src["time"] > k - 1:
                return False
        return True

    def _player(self, m: dict, side: str) -> str | None:
        s = m[side]
        if s is None:
            return None
        if m["bracket"] == "W" and m["round"] == 1:
            return s
        src = self.by_id[int(s[1:])]
        return src["winner"] if s[0] == "W" else src["loser"]

    def _present(self, p: str | None, k: int) -> bool:
        return p is not None and (p not in self.dropped_after or self.dropped_after[p] >= k)

    def _eliminate(self, p: str, m: dict) -> None:
        self.out[p] = m["label"]
        self.out_stage[p] = self._stage(m)

    @staticmethod
    def _stage(m: dict) -> int:
        """How far a match is into the event (for finishing places): winners' bracket 0
        (only a drop or a double loss ends a run there), losers' round r: r, finals: 1000."""
        return {"W": 0, "L": m["round"]}.get(m["bracket"], 1000)

    # -- one round -----------------------------------------------------------------------
    def prepare(self, k: int) -> list[dict]:
        """Resolve byes and walkovers known before round ``k``; return its open matches."""
        changed = True
        while changed:
            changed = False
            for m in self._all():
                if m["time"] is not None or not self._ready_by(m, k):
                    continue
                a, b = self._player(m, "a"), self._player(m, "b")
                m["players"] = (a, b)
                if self._present(a, k) and self._present(b, k):
                    continue  # to be played
                first_round_bye = m["bracket"] == "W" and m["round"] == 1 and k == 1 and (
                    (a is None) != (b is None))
                winner = a if self._present(a, k) else b if self._present(b, k) else None
                for p in (a, b):
                    if p is not None and p != winner:
                        self._eliminate(p, m)  # absent: out
                m.update(winner=winner, loser=None, time=1 if first_round_bye else k - 1,
                         bye=first_round_bye)
                self._after(m)
                changed = True
        return [m for m in self._all() if m["time"] is None and m["players"] is not None
                and self._ready_by(m, k)]

    def _all(self) -> list[dict]:
        return self.matches + ([self.reset] if self.reset else [])

    def _after(self, m: dict) -> None:
        """A match is over: a grand final won by the losers' bracket champion adds a reset."""
        if m is self.gf and m["played"] and m["winner"] == m["players"][1]:
            self.reset = {"id": len(self.matches) + 1, "bracket": "GF", "round": 2,
                          "a": f"L{m['id']}", "b": f"W{m['id']}", "label": "GF2",
                          "players": None, "winner": None, "loser": None, "time": None,
                          "played": False, "bye": False}
            self.by_id[self.reset["id"]] = self.reset

    def orient(self, a: str, b: str) -> tuple[str, str]:
        """French: the player who has been French less often (net of Allied games), then the
        better seed."""
        def key(p: str) -> tuple[int, int]:
            return (self.french[p] - self.allied[p], self.seed_of[p])
        return (a, b) if key(a) <= key(b) else (b, a)

    def play(self, k: int, games: list[Game], open_matches: list[dict]) -> None:
        where: dict[str, dict] = {}  # player -> open match
        for open_match in open_matches:
            for p in open_match["players"]:
                where[p] = open_match
        for g in games:
            m = where.get(g.french)
            if m is None or where.get(g.allied) is not m:
                raise ValueError(f"round {k}: {g.french} v {g.allied} is not an open match "
                                 "of the bracket")
            if m["time"] is not None:
                raise ValueError(f"round {k}: {g.french} v {g.allied} played twice")
            if g.winner not in (None, g.french, g.allied):
                raise ValueError(f"round {k}: winner {g.winner} did not play")
            self.french[g.french] += 1
            self.allied[g.allied] += 1
            m.update(time=k, played=True)
            if g.winner is None:  # double loss: both out
                for p in (g.french, g.allied):
                    self.losses[p] += 1
                    self._eliminate(p, m)
                m.update(winner=None, loser=None)
                continue
            loser = g.allied if g.winner == g.french else g.french
            self.losses[loser] += 1
            m.update(winner=g.winner, loser=loser)
            if m["bracket"] == "L" or m is self.reset or (
                    m is self.gf and loser == m["players"][1]):
                self._eliminate(loser, m)
            self._after(m)

    def finished(self) -> bool:
        if self.gf["time"] is None:
            return False
        return self.reset is None or self.reset["time"] is not None

    def champion(self) -> str | None:
        if not self.finished():
            return None
        last = self.reset or self.gf
        return last["winner"]

    def places(self) -> dict[str, int]:
        """Finishing places of the players who are out (the champion: 1): later stage =
        better; players out at the same stage share the place."""
        champion = self.champion()
        ranked = sorted(self.out_stage.items(), key=lambda kv: -kv[1])
        places = {champion: 1} if champion else {}
        better = len(places)
        k = 0
        while k < len(ranked):
            stage = ranked[k][1]
            group = [p for p, s in ranked[k:] if s == stage]
            for p in group:
                places[p] = better + 1
            better += len(group)
            k += len(group)
        return places


def _replay(seeds: Iterable[str], games: Iterable[GameLike], upto: int,
            dropped_after: dict[str, int] | None) -> tuple[_Replay, list[dict]]:
    """Replay rounds 1..upto; returns the replay and the open matches of round upto + 1."""
    r = _Replay([str(s) for s in seeds], dropped_after)
    by_round: dict[int, list[Game]] = {}
    for g in games:
        if not isinstance(g, Game):
            g = Game(*g)
        if g.round < 1:
            raise ValueError(f"round {g.round}: rounds start at 1")
        by_round.setdefault(g.round, []).append(g)
    for k in range(1, upto + 1):
        open_matches = r.prepare(k)
        r.play(k, by_round.get(k, []), open_matches)
    return r, r.prepare(upto + 1)


def double_elimination_round(seeds: list[str], games: Iterable[GameLike], round_no: int,
                             dropped_after: dict[str, int] | None = None
                             ) -> DoubleEliminationState:
    """The matches of round ``round_no`` given the games of rounds ``1..round_no-1``.

    ``seeds``: player ids, best seed first. ``games``: ``Game`` (or ``(round, french, allied,
    winner)`` tuples). ``dropped_after``: player -> the last round they were paired in.
    Raises ``ValueError`` when a game is not an open match of the bracket in its round.
    An empty ``pairings`` with ``finished`` means the event is over."""
    if round_no < 1:
        raise ValueError("rounds start at 1")
    r, open_matches = _replay(seeds, [g for g in games if _round_of(g) < round_no],
                              round_no - 1, dropped_after)
    state = _state(r, round_no)
    for m in open_matches:
        french, allied = r.orient(*m["players"])
        state.pairings.append(BracketPairing(french, allied, m["id"], m["label"]))
    if round_no == 1:
        state.byes = [m["winner"] for m in r.matches if m["bye"] and m["winner"]]
    return state


def double_elimination_state(seeds: list[str], games: Iterable[GameLike],
                             through_round: int | None = None,
                             dropped_after: dict[str, int] | None = None
                             ) -> DoubleEliminationState:
    """Where everyone stands after ``through_round`` (default: every game given)."""
    games = list(games)
    if through_round is None:
        through_round = max((_round_of(g) for g in games), default=0)
    r, _open = _replay(seeds, [g for g in games if _round_of(g) <= through_round],
                       through_round, dropped_after)
    return _state(r, through_round + 1)


def _round_of(g: GameLike) -> int:
    return g.round if isinstance(g, Game) else g[0]


def _state(r: _Replay, round_no: int) -> DoubleEliminationState:
    champion = r.champion()
    runner_up = None
    if champion is not None:
        last = r.reset or r.gf
        runner_up = last["loser"] if last["played"] else None
    return DoubleEliminationState(
        round=round_no, losses=dict(r.losses), out=dict(r.out), champion=champion,
        runner_up=runner_up, finished=r.finished(), places=r.places(),
        matches=[{k: m[k] for k in ("id", "bracket", "round", "label", "a", "b", "players",
                                    "winner", "loser", "time", "played", "bye")}
                 for m in r._all()])


def double_elimination_max_rounds(players: int) -> int:
    """Rounds of the event in the longest case (the grand final needs a reset)."""
    seeds = [str(k) for k in range(players)]
    games: list[Game] = []
    k = 1
    while True:
        state = double_elimination_round(seeds, games, k)
        if state.finished:
            return k - 1
        for p in state.pairings:
            if p.label == "GF":  # the losers' bracket champion wins: reset
                m = next(m for m in state.matches if m["id"] == p.match)
                winner = m["players"][1]
            else:
                winner = min(p.french, p.allied, key=int)
            games.append(Game(k, p.french, p.allied, winner))
        k += 1
