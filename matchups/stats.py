"""A matchup's statistics (pure: the stdlib only, no Django).

The input is the list of per-game records the lab stores (``matchups/lab.py``)::

    {"game": i, "seed": "S:i", "a_side": "french", "winner": "a" | "b" | None,
     "reason": "...", "turns": t, "cards_a": [card numbers of deck A's dealt deck]}

``summarize(games, names)`` gives the results the API and the page show: each deck's (and the
draws') win rate with its 95 % Wilson interval, the average turns, the cumulative win rate of
deck A after each game (how the estimate settles as N grows) and the cards of deck A most
often present in its wins and in its losses, and ``differences``: the cards whose presence
goes with a higher or lower win rate of deck A (what differs between its won and lost games;
a custom deck holds the same cards in every game, so then nothing does).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

Z95 = 1.959964  # the normal quantile of 97.5 %
OUTCOMES = ("a", "b", "draw")
TOP_CARDS = 10


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % Wilson score interval of k successes in n trials ((0, 1) for none)."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= k <= n:
        raise ValueError(f"{k} successes in {n} trials")
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (0.0 if k == 0 else max(0.0, mid - half), 1.0 if k == n else min(1.0, mid + half))


def outcome(game: Mapping[str, Any]) -> str:
    return game.get("winner") or "draw"


def cumulative(games: Sequence[Mapping[str, Any]], who: str = "a") -> list[list[float]]:
    """``[[n, rate, low, high], ...]``: ``who``'s win rate and its interval after n games."""
    out, wins = [], 0
    for n, game in enumerate(games, start=1):
        wins += outcome(game) == who
        low, high = wilson(wins, n)
        out.append([n, round(wins / n, 4), round(low, 4), round(high, 4)])
    return out


def card_counts(games: Sequence[Mapping[str, Any]], names: Mapping[int, str] | None = None,
                top: int = TOP_CARDS) -> dict[str, list[dict[str, Any]]]:
    """Deck A's cards most often present in its wins and in its losses (draws in neither):
    ``{"wins": [{"number", "name", "games", "present"}...], "losses": [...]}``, where
    ``games`` counts the wins (losses) with the card in deck A and ``present`` every game with
    it. Ties: the lower card number first."""
    present: Counter = Counter()
    by: dict[str, Counter] = {"a": Counter(), "b": Counter()}
    for game in games:
        cards = set(game.get("cards_a") or ())
        present.update(cards)
        who = outcome(game)
        if who in by:
            by[who].update(cards)

    def rows(counter: Counter) -> list[dict[str, Any]]:
        ranked = sorted(counter.items(), key=lambda item: (-item[1], item[0]))[:top]
        return [{"number": num, "name": (names or {}).get(num, f"#{num}"), "games": n,
                 "present": present[num]} for num, n in ranked]

    return {"wins": rows(by["a"]), "losses": rows(by["b"])}


def differences(games: Sequence[Mapping[str, Any]], names: Mapping[int, str] | None = None,
                top: int = TOP_CARDS) -> dict[str, Any]:
    """What differs between deck A's won and lost games: for each card in some of its dealt
    decks but not in all, deck A's win rate in the games with it and in those without it.
    ``{"same_cards": bool, "better": [...], "worse": [...]}``: ``better`` the cards with
    which it won more often (the largest gap first), ``worse`` those with which it won less
    often; each row ``{"number", "name", "with", "without", "games_with", "games_without",
    "gap"}`` (rates 0..1, ``gap`` = with - without). ``same_cards``: every game had the same
    cards (a custom deck), so no card can tell a win from a loss. Ties: the lower number."""
    decks = [set(g.get("cards_a") or ()) for g in games]
    wins = [outcome(g) == "a" for g in games]
    n = len(games)
    seen: set[int] = set().union(*decks) if decks else set()
    rows: list[dict[str, Any]] = []
    for num in sorted(seen):
        with_card = [w for d, w in zip(decks, wins, strict=True) if num in d]
        without = [w for d, w in zip(decks, wins, strict=True) if num not in d]
        if not without:
            continue  # in every game: it cannot tell a win from a loss
        rate_with = sum(with_card) / len(with_card)
        rate_without = sum(without) / len(without)
        rows.append({"number": num, "name": (names or {}).get(num, f"#{num}"),
                     "with": round(rate_with, 4), "without": round(rate_without, 4),
                     "games_with": len(with_card), "games_without": len(without),
                     "gap": round(rate_with - rate_without, 4)})
    better = sorted((r for r in rows if r["gap"] > 0), key=lambda r: (-r["gap"], r["number"]))
    worse = sorted((r for r in rows if r["gap"] < 0), key=lambda r: (r["gap"], r["number"]))
    return {"same_cards": n > 0 and all(d == decks[0] for d in decks),
            "better": better[:top], "worse": worse[:top]}


def digest(games: Sequence[Mapping[str, Any]]) -> str:
    """sha256 of the ordered games as canonical JSON lines: equal digests, equal answers."""
    h = hashlib.sha256()
    for game in games:
        h.update(json.dumps(game, sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()


def summarize(games: Sequence[Mapping[str, Any]],
              names: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The results of a matchup from its games (in game order)."""
    games = sorted(games, key=lambda g: g["game"])
    n = len(games)
    counts = Counter(outcome(g) for g in games)
    wins = {k: counts.get(k, 0) for k in OUTCOMES}
    sides: dict[str, dict[str, int]] = {}
    for g in games:
        row = sides.setdefault(g["a_side"], {"games": 0, "a": 0, "b": 0, "draw": 0})
        row["games"] += 1
        row[outcome(g)] += 1
    reasons = Counter(g.get("reason") or "" for g in games)
    return {
        "games": n,
        "wins": wins,
        "win_rate": {k: round(v / n, 4) if n else 0.0 for k, v in wins.items()},
        "ci95": {k: [round(x, 4) for x in wilson(v, n)] for k, v in wins.items()},
        "by_side": dict(sorted(sides.items())),
        "average_turns": round(sum(g["turns"] for g in games) / n, 3) if n else 0.0,
        "reasons": dict(sorted(reasons.items())),
        "series": cumulative(games),
        "cards": card_counts(games, names),
        "differences": differences(games, names),
        "digest": digest(games),
    }
