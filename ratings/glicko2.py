"""Glicko-2, as published: Mark E. Glickman, "Example of the Glicko-2 system" (2013).

Pure Python (no Django). Ratings are on the Glicko scale (1500 / 350 / 0.06 for a newcomer);
the computation runs on the Glicko-2 scale (``mu = (r - 1500) / 173.7178``,
``phi = RD / 173.7178``), step by step as in the paper:

1. ``g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)`` and ``E = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))``;
2. the estimated variance ``v`` and improvement ``delta`` from the period's results;
3. the new volatility ``sigma'`` by the Illinois algorithm (regula falsi) on ``f(x)``;
4. ``phi* = sqrt(phi^2 + sigma'^2)``, ``phi' = 1 / sqrt(1 / phi*^2 + 1 / v)``,
   ``mu' = mu + phi'^2 sum g(phi_j) (s_j - E_j)``.

A player without games in a period only has ``phi' = phi*`` (their RD grows: ``inactive``).
The system constant ``tau`` bounds how fast volatility may change (the paper suggests 0.3 to
1.2; its example uses 0.5, our default).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # 400 / ln(10): the Glicko to Glicko-2 scale factor
BASE = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5
EPSILON = 0.000001  # convergence tolerance of the volatility iteration (the paper's)
MAX_RD = DEFAULT_RD  # an RD never grows past a newcomer's


@dataclass(frozen=True)
class Rating:
    """A player's rating, rating deviation (RD) and volatility, on the Glicko scale."""

    rating: float = BASE
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def _mu(r: Rating) -> float:
    return (r.rating - BASE) / SCALE


def _phi(r: Rating) -> float:
    return r.rd / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The paper's ``E``: the player's expected score against ``opponent`` (0 to 1)."""
    return _e(_mu(player), _mu(opponent), _phi(opponent))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Iterable[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player`` after one rating period with ``results``: (opponent as they were at the
    start of the period, score 1 win / 0.5 draw / 0 loss). No results: ``inactive(player)``."""
    results = list(results)
    for _opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is from 0 to 1, not {score!r}")
    if not results:
        return inactive(player)
    mu, phi, sigma = _mu(player), _phi(player), player.volatility
    inv_v = 0.0
    total = 0.0
    for opponent, score in results:
        mu_j, phi_j = _mu(opponent), _phi(opponent)
        g, e = _g(phi_j), _e(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    new_sigma = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Rating(rating=SCALE * new_mu + BASE, rd=min(SCALE * new_phi, MAX_RD),
                  volatility=new_sigma)


def inactive(player: Rating, periods: int = 1) -> Rating:
    """``player`` after ``periods`` rating periods without a game: only the RD grows
    (``phi* = sqrt(phi^2 + sigma^2)`` per period), never past a newcomer's 350."""
    if periods <= 0:
        return player
    phi = _phi(player)
    phi = math.sqrt(phi * phi + periods * player.volatility * player.volatility)
    return Rating(player.rating, min(SCALE * phi, MAX_RD), player.volatility)


def rate_game(a: Rating, b: Rating, score_a: float,
              tau: float = TAU) -> tuple[Rating, Rating]:
    """Both players after one game between them, as its own rating period: ``score_a`` is
    ``a``'s score (1, 0.5 or 0), ``b`` scores ``1 - score_a``."""
    return rate(a, [(b, score_a)], tau), rate(b, [(a, 1.0 - score_a)], tau)
