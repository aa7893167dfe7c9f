"""Standings and tiebreakers (pure: no Django). Formulas in tournaments/README.md.

Magic Tournament Rules, Appendix C, adapted to sides:
* match points: win 3, draw 1, loss 0; a bye is a win (3); a double loss is a loss for both;
* MW% = match points / (3 x rounds with a match or bye), at least 1/3;
* GW% = game points / (3 x games), game win 3, game draw 1, at least 1/3; a bye counts as
  winning every game of the match;
* OMW% / OGW% = mean of the opponents' MW% / GW% (byes are no opponent), each opponent's
  figure floored at 1/3; no opponent: 1/3 (the floor);
* French / Allied: games won on that side (two-game matches: game 1 is played by the "french"
  player as French, game 2 with sides swapped; ``MatchRecord.games`` says who won each game,
  so every game counts on the side its winner, loser or drawer actually played).

Every figure comes with ``how``: the terms it was computed from, for a "how computed" page.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

FLOOR = Fraction(1, 3)
TIEBREAKER_NAMES = {
    "omw": "Opponents' match-win %",
    "gw": "Game-win %",
    "ogw": "Opponents' game-win %",
    "french": "Games won as French",
    "allied": "Games won as Allied",
}


GAME_OUTCOMES = ("french", "allied", "draw")


@dataclass(frozen=True)
class MatchRecord:
    """A settled match. ``games``: two-game matches, the outcome of game 1 and game 2, each
    ``"french"`` (won by the player listed as ``french``), ``"allied"`` or ``"draw"``; it
    must agree with the totals. None: one-game match, double loss, or an old two-game result
    stored as totals only."""

    round: int
    french: str
    allied: str | None  # None: a bye for ``french``
    french_games: int
    allied_games: int
    draws: int
    double_loss: bool = False
    games: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.games is None:
            return
        if any(g not in GAME_OUTCOMES for g in self.games):
            raise ValueError(f"game outcomes must be french, allied or draw: {self.games!r}")
        totals = tuple(self.games.count(g) for g in GAME_OUTCOMES)
        if not self.double_loss and totals != (self.french_games, self.allied_games,
                                               self.draws):
            raise ValueError(f"game outcomes {self.games!r} contradict the totals "
                             f"{self.french_games}-{self.allied_games}-{self.draws}")


@dataclass
class _Tally:
    mp: int = 0
    rounds: int = 0
    gp: int = 0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    french: tuple = (0, 0, 0)  # games won, drawn, lost as French
    allied: tuple = (0, 0, 0)


def _add(side: tuple, won: int, drawn: int, lost: int) -> tuple:
    return (side[0] + won, side[1] + drawn, side[2] + lost)


def _pct(value: Fraction) -> float:
    return round(float(value), 4)


def compute(players: list[dict], matches: list[MatchRecord], tiebreakers: list[str],
            games_per_match: int = 1, through_round: int | None = None) -> list[dict]:
    """Standings rows, best first. ``players``: dicts with ``id``, ``name`` and optionally
    ``dropped`` (bool) and ``seed`` (int, the last tie-break: lower first)."""
    unknown = [t for t in tiebreakers if t not in TIEBREAKER_NAMES]
    if unknown:
        raise ValueError(f"unknown tiebreaker(s): {', '.join(unknown)}")
    tally = {p["id"]: _Tally() for p in players}
    opponents: dict[str, list[tuple[int, str]]] = {p["id"]: [] for p in players}
    for m in matches:
        if through_round is not None and m.round > through_round:
            continue
        f = tally[m.french]
        if m.allied is None:  # bye: a match win, every game won
            f.mp += 3
            f.rounds += 1
            f.wins += 1
            f.byes += 1
            f.gp += 3 * games_per_match
            f.games += games_per_match
            continue
        a = tally[m.allied]
        opponents[m.french].append((m.round, m.allied))
        opponents[m.allied].append((m.round, m.french))
        games = max(m.french_games + m.allied_games + m.draws, games_per_match)
        for t, won, lost in ((f, m.french_games, m.allied_games),
                             (a, m.allied_games, m.french_games)):
            t.rounds += 1
            t.games += games
            if m.double_loss:
                t.losses += 1
                continue
            t.gp += 3 * won + m.draws
            if won > lost:
                t.mp += 3
                t.wins += 1
            elif won == lost:
                t.mp += 1
                t.draws += 1
            else:
                t.losses += 1
        if m.double_loss:  # every game lost, each on the side the player had in it
            f.french = _add(f.french, 0, 0, 1)
            a.allied = _add(a.allied, 0, 0, 1)
            if games_per_match == 2:
                f.allied = _add(f.allied, 0, 0, 1)
                a.french = _add(a.french, 0, 0, 1)
            continue
        if games_per_match == 2:
            # game 1: the "french" player is French; game 2: sides swapped
            _two_game_sides(f, a, m)
        else:
            f.french = _add(f.french, m.french_games, m.draws, m.allied_games)
            a.allied = _add(a.allied, m.allied_games, m.draws, m.french_games)

    def mw(pid: str) -> Fraction:
        t = tally[pid]
        return max(FLOOR, Fraction(t.mp, 3 * t.rounds)) if t.rounds else FLOOR

    def gw(pid: str) -> Fraction:
        t = tally[pid]
        return max(FLOOR, Fraction(t.gp, 3 * t.games)) if t.games else FLOOR

    rows = []
    for p in players:
        pid = p["id"]
        t = tally[pid]
        opps = opponents[pid]
        omw = sum((mw(o) for _, o in opps), Fraction(0)) / len(opps) if opps else FLOOR
        ogw = sum((gw(o) for _, o in opps), Fraction(0)) / len(opps) if opps else FLOOR
        values = {"omw": omw, "gw": gw(pid), "ogw": ogw, "french": Fraction(t.french[0]),
                  "allied": Fraction(t.allied[0])}
        how = {
            "match_points": {
                "formula": "3 x wins (byes included) + 1 x draws",
                "terms": {"wins": t.wins, "byes": t.byes, "draws": t.draws, "losses": t.losses},
                "value": t.mp,
            },
            "mw": {
                "formula": "max(1/3, match points / (3 x rounds played))",
                "terms": {"match_points": t.mp, "rounds": t.rounds},
                "value": _pct(mw(pid)),
            },
            "gw": {
                "formula": "max(1/3, game points / (3 x games)); game win 3, game draw 1",
                "terms": {"game_points": t.gp, "games": t.games},
                "value": _pct(gw(pid)),
            },
            "omw": {
                "formula": "mean over opponents (byes excluded) of max(1/3, opponent's MW%)",
                "terms": [{"round": r, "opponent": o, "value": _pct(mw(o))} for r, o in opps],
                "value": _pct(omw),
            },
            "ogw": {
                "formula": "mean over opponents (byes excluded) of max(1/3, opponent's GW%)",
                "terms": [{"round": r, "opponent": o, "value": _pct(gw(o))} for r, o in opps],
                "value": _pct(ogw),
            },
            "french": {"formula": "games won as French", "terms": _record(t.french),
                       "value": t.french[0]},
            "allied": {"formula": "games won as Allied", "terms": _record(t.allied),
                       "value": t.allied[0]},
        }
        rows.append({
            "player": pid,
            "name": p.get("name", pid),
            "seed": p.get("seed", 0),
            "dropped": bool(p.get("dropped", False)),
            "match_points": t.mp,
            "record": {"wins": t.wins, "draws": t.draws, "losses": t.losses, "byes": t.byes},
            "played": t.rounds,
            "french_record": _record(t.french),
            "allied_record": _record(t.allied),
            "tiebreaks": {k: (_pct(values[k]) if k in ("omw", "gw", "ogw") else int(values[k]))
                          for k in tiebreakers},
            "how": how,
            "_key": (-t.mp, *(-values[k] for k in tiebreakers), p.get("seed", 0), pid),
        })
    rows.sort(key=lambda r: r["_key"])
    for rank, row in enumerate(rows, start=1):
        del row["_key"]
        row["rank"] = rank
    return rows


def apply_finish(rows: list[dict], places: dict[str, int], losses: dict[str, int],
                 out: dict[str, str]) -> list[dict]:
    """Elimination standings: players still in first (in the order of ``rows``), then the
    players who are out by finishing place (the champion first; a later exit is a better
    place; players out in the same losers' round share the place). Adds ``finish`` (the
    place, None while still in), ``losses``, ``out_in`` (the bracket match) and ``how``."""
    def key(item: tuple[int, dict]) -> tuple[int, int, int]:
        k, row = item
        place = places.get(row["player"])
        return (0 if place is None or place == 1 else 1, place or 0, k)

    ranked = [row for _k, row in sorted(enumerate(rows), key=key)]
    for rank, row in enumerate(ranked, start=1):
        pid = row["player"]
        row["rank"] = rank
        row["finish"] = places.get(pid)
        row["losses"] = losses.get(pid, 0)
        row["out_in"] = out.get(pid)
        row["how"]["finish"] = {
            "formula": "champion 1; then by the bracket match of elimination, later first "
                       "(grand final, then losers' rounds from the last); same round: same "
                       "place; players still in are listed first, by match points",
            "terms": {"losses": row["losses"], "out_in": row["out_in"]},
            "value": row["finish"]}
    return ranked


def _record(side: tuple) -> dict:
    return {"won": side[0], "drawn": side[1], "lost": side[2]}


# a game's outcome -> (won, drawn, lost) for the player listed as French, and for the other
_FOR_FRENCH = {"french": (1, 0, 0), "allied": (0, 0, 1), "draw": (0, 1, 0)}
_FOR_ALLIED = {"french": (0, 0, 1), "allied": (1, 0, 0), "draw": (0, 1, 0)}


def _two_game_sides(f: _Tally, a: _Tally, m: MatchRecord) -> None:
    """Two-game match: each player plays one game per side, the "french" player French in
    game 1 and Allied in game 2. With ``m.games`` each game counts on the side each player
    actually played in it (a 1-1 split where each won as French: one French win each, one
    Allied loss each). Without (an old result stored as totals only) only totals that say how
    each game went count: a sweep is a win (loss) per side, two draws a draw per side; a 1-1
    split or a win and a draw counts on neither side."""
    games = m.games
    if games is None:
        games = {(2, 0, 0): ("french", "french"), (0, 2, 0): ("allied", "allied"),
                 (0, 0, 2): ("draw", "draw")}.get((m.french_games, m.allied_games, m.draws))
        if games is None:
            return
    for number, outcome in enumerate(games, start=1):
        fr, al = _FOR_FRENCH[outcome], _FOR_ALLIED[outcome]
        if number % 2:  # game 1: listed French plays French
            f.french, a.allied = _add(f.french, *fr), _add(a.allied, *al)
        else:  # game 2: sides swapped
            f.allied, a.french = _add(f.allied, *fr), _add(a.french, *al)
