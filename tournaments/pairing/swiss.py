# Over 500 lines on purpose: one idea, the Swiss pairing search (exact and by brackets).
"""Swiss pairing: optimal (exact) for small fields, bracket decomposition for large ones.

Objective (lexicographic, smaller is better), over *valid* pairings only -- valid means
every active player is paired exactly once or gets the bye, no rematch, no keep-apart
pair, side hard rules held (see :mod:`.sides`), bye only to a player without one:

  1. the bye goes to the lowest-ranked eligible player for whom the rest can be paired;
  2. sum over pairs of (score difference)^2   -- score groups first, few and short floats;
  3. number of unmet side preferences;
  4. number of unmet strong/absolute side preferences;
  5. tie-break (not part of the optimality claim): inside a score group, partners about
     half a group apart (top half meets bottom half); across groups, closest ranks.

``exact`` path (``n <= exact_limit``): one min-cost perfect matching over every valid
edge, the bye being a dummy vertex -> the optimum of 1-5, proven against brute force.
Large path: see README (brackets, construction + blossom, widening fallback).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from game import other_side

from .matching import min_cost_perfect_matching
from .model import ALLIED, FRENCH, SIDES, NoValidPairing, Player, keep_apart_index, ranked
from .sides import STRONG, SideInfo, orient

EXACT_LIMIT = 64
# a large-path pairing that misses the type-level bound is re-solved exactly up to this size
EXACT_FALLBACK = 160
FAST_MIN = 48
CHUNK = 64

# a valid pair's objective levels 2..5: (score difference^2, unmet, unmet strong, tie-break)
Levels = tuple[int, int, int, int]
# (side, count): the next score group needs ``count`` players able to play ``side`` from above
Need = tuple[str | None, int]
Bracket = tuple[list[tuple[int, int]], list[int]]  # (pairs (french, allied), floaters)


@dataclass
class SwissResult:
    pairings: list[tuple[str, str]]  # (french, allied)
    bye: str | None
    # True when levels 1-4 of the objective are proved optimal: by the exact solver, or by
    # meeting the type-level lower bound (:mod:`.plan`)
    optimal: bool = False
    # (sum of squared point differences, unmet, unmet strong) the pairing reaches, and the
    # proved lower bound
    objective: tuple[Fraction, int, int] | None = None
    lower_bound: tuple[Fraction, int, int] | None = None


class _Field:
    def __init__(self, players: list[Player], keep_apart: list[list[str]] | None,
                 use_sides: bool, last_round: bool = False) -> None:
        self.players = ranked([p for p in players if not p.dropped])
        n = self.n = len(self.players)
        den = 1
        for p in self.players:
            den = math.lcm(den, Fraction(p.points).denominator)
        self.den = den
        self.score = [int(Fraction(p.points) * den) for p in self.players]
        # last round: topscorers (more than half the maximum possible score) are released
        # from the hard side rules (FIDE C.04.3 A.7)
        played = max((len(p.opponents) for p in players), default=0)
        self.info = [
            SideInfo(p, use_sides, last_round and 2 * Fraction(p.points) > played)
            for p in self.players
        ]
        pos = {p.id: i for i, p in enumerate(self.players)}
        self.met = [{pos[o] for o in p.met if o in pos} for p in self.players]
        ka = keep_apart_index(keep_apart)
        self.ka = [ka.get(p.id, set()) for p in self.players]
        # score groups: consecutive runs of equal score
        self.groups: list[list[int]] = []
        for i in range(n):
            if i and self.score[i] == self.score[i - 1]:
                self.groups[-1].append(i)
            else:
                self.groups.append([i])
        self.group_of = [0] * n
        for g, members in enumerate(self.groups):
            for i in members:
                self.group_of[i] = g

    def forbidden(self, i: int, j: int) -> bool:
        return j in self.met[i] or bool(self.ka[i] & self.ka[j])

    def pair(self, i: int, j: int) -> tuple[Levels, int, int] | None:
        """(levels 2..5 tuple, french index, allied index) or None if invalid.  i < j."""
        if self.forbidden(i, j):
            return None
        o = orient(self.info[i], self.info[j], True)
        if o is None:
            return None
        a_french, unmet, strong = o
        d = self.score[i] - self.score[j]
        if self.score[i] == self.score[j]:
            tie = abs((j - i) - len(self.groups[self.group_of[i]]) // 2)
        else:
            tie = j - i
        f, a = (i, j) if a_french else (j, i)
        return (d * d, unmet, strong, tie), f, a


def pair_swiss(
    players: list[Player],
    keep_apart: list[list[str]] | None = None,
    use_sides: bool = True,
    exact_limit: int = EXACT_LIMIT,
    last_round: bool = False,
) -> SwissResult:
    """Pair one Swiss round.  ``use_sides=False`` for two-game matches (one game on each
    side): no side rules, the higher-ranked player is listed as French for game 1.
    ``last_round``: the tournament's final round, where topscorers (more than half the
    maximum possible score) may break the hard side rules (counted as unmet strong)."""
    fld = _Field(players, keep_apart, use_sides, last_round)
    if fld.n == 0:
        return SwissResult([], None, True, (Fraction(0), 0, 0), (Fraction(0), 0, 0))
    if fld.n <= exact_limit:
        pairs, _, bye = _exact(fld, list(range(fld.n)), fld.n % 2 == 1)
        value = _objective(fld, pairs)
        optimal, bound = True, value
    else:
        pairs, bye, bound = _large(fld)
        value = _objective(fld, pairs)
        optimal = value == bound
    out: list[tuple[str, str]] = []
    for f, a in sorted(pairs, key=lambda fa: min(fa)):
        out.append((fld.players[f].id, fld.players[a].id))

    def in_points(v: tuple[int, int, int]) -> tuple[Fraction, int, int]:
        # score units are points x den
        return (Fraction(v[0], fld.den * fld.den), v[1], v[2])

    bye_id = None if bye is None else fld.players[bye].id
    return SwissResult(out, bye_id, optimal, in_points(value), in_points(bound))


def _objective(fld: _Field, pairs: Iterable[tuple[int, int]]) -> tuple[int, int, int]:
    """Levels 2-4 of the objective (in the field's integer score units)."""
    total = [0, 0, 0]
    for f, a in pairs:
        r = fld.pair(min(f, a), max(f, a))
        assert r is not None  # every pair of a pairing is valid
        levels = r[0]
        for k in range(3):
            total[k] += levels[k]
    return total[0], total[1], total[2]


def _encode(levels: list[tuple[int, ...]], n: int) -> list[int]:
    """Turn lexicographic level tuples into integers with the same order for any sum of at
    most ``n`` of them."""
    width = len(levels[0])
    maxima = [max(lv[k] for lv in levels) for k in range(width)]
    out = []
    bases = [1] * width
    for k in range(width - 2, -1, -1):
        bases[k] = bases[k + 1] * (n + 1) * (maxima[k + 1] + 1)
    for lv in levels:
        out.append(sum(v * b for v, b in zip(lv, bases, strict=True)))
    return out


def _exact(
    fld: _Field,
    members: list[int],
    with_bye: bool,
    floats: int = 0,
    next_score: int | None = None,
    float_side: str | None = None,
) -> tuple[list[tuple[int, int]], list[int], int | None]:
    """Min-cost perfect matching over ``members`` (+ a bye vertex, + ``floats`` float
    vertices).  Returns (pairs as (french, allied) indices, floaters, bye index).  Raises
    NoValidPairing when impossible."""
    m = len(members)
    extra = (1 if with_bye else 0) + floats
    # (vertex, vertex, (french, allied) or None for the bye and float vertices)
    keys: list[tuple[int, int, tuple[int, int] | None]] = []
    levels: list[tuple[int, ...]] = []
    for x in range(m):
        i = members[x]
        for y in range(x + 1, m):
            r = fld.pair(i, members[y])
            if r is not None:
                keys.append((x, y, (r[1], r[2])))
                levels.append((0,) + r[0])
        if with_bye and not fld.players[i].had_bye:
            keys.append((x, m, None))
            levels.append((fld.n - i, 0, 0, 0, 0))
        for k in range(floats):
            assert next_score is not None  # floaters go down to the next score group
            d = fld.score[i] - next_score
            keys.append((x, m + (1 if with_bye else 0) + k, None))
            lacks = float_side is not None and float_side not in fld.info[i].allowed
            levels.append((0, d * d, int(lacks), 0, fld.n - i))
    if not keys:
        if m == 0:
            return [], [], None
        raise NoValidPairing(_no_pairing_message(fld, members))
    weights = _encode(levels, m + extra)
    costs: dict[tuple[int, int], int] = {}
    edge_of: dict[tuple[int, int], tuple[int, int, tuple[int, int] | None]] = {}
    for key, w in zip(keys, weights, strict=True):
        costs[(key[0], key[1])] = w
        edge_of[(key[0], key[1])] = key
    total = m + extra
    if total % 2:
        raise NoValidPairing(_no_pairing_message(fld, members))
    result = min_cost_perfect_matching(total, costs)
    if result is None:
        raise NoValidPairing(_no_pairing_message(fld, members))
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    bye = None
    for u, v in result:
        fa = edge_of[(u, v)][2]
        if fa is not None:
            pairs.append(fa)
        elif v == m and with_bye:
            bye = members[u]
        else:
            floaters.append(members[u])
    return pairs, floaters, bye


def _no_pairing_message(fld: _Field, members: list[int]) -> str:
    ids = ", ".join(fld.players[i].id for i in members[:20])
    more = "" if len(members) <= 20 else f" (+{len(members) - 20} more)"
    return (
        "no valid pairing exists: the players "
        f"{ids}{more} cannot all be paired without a rematch, a keep-apart pair, "
        "a second bye or breaking a side rule"
    )


# ---------------------------------------------------------------------------------------
# Large fields


def _large(fld: _Field) -> tuple[list[tuple[int, int]], int | None, tuple[int, int, int]]:
    """(pairs, bye, proved lower bound of levels 2-4 for that bye).

    For each bye candidate, lowest-ranked first (level 1): the type-level relaxation
    (:mod:`.plan`) proves the candidate impossible or bounds the objective; the bracket
    method pairs the field (complete: it widens up to the exact solver); when its value
    is above the LP bound, the exact type-level integer program decides -- equal value:
    proved optimal; lower: its plan is realised (optimal when that succeeds), and on fields
    up to ``EXACT_FALLBACK`` players the exact solver settles what is left."""
    if fld.n % 2 == 0:
        candidates: list[int | None] = [None]
    else:
        candidates = [i for i in range(fld.n - 1, -1, -1) if not fld.players[i].had_bye]
        if not candidates:
            raise NoValidPairing("no valid pairing exists: every player has already had a bye")
    # here, not at the top: SciPy's import (HiGHS) is ~0.6 s of CPU that every process
    # setting Django up (web, worker, beat, each command) would pay before its first pairing
    from .plan import TypeProgram, realize

    last_error: NoValidPairing | None = None
    for bye in candidates:
        members = [i for i in range(fld.n) if i != bye]
        coarse = TypeProgram(fld, members, small_group=0)
        if coarse.lp_bound((0, 0, 0)) is None:  # even the relaxation cannot pair the rest
            last_error = NoValidPairing(_no_pairing_message(fld, members))
            continue
        try:
            pairs = _brackets(fld, bye)
        except NoValidPairing as exc:
            last_error = exc
            continue
        value = _objective(fld, pairs)
        program = TypeProgram(fld, members, max_d2=value[0])
        bound = program.lp_bound(value)
        if bound == value:
            return pairs, bye, value
        plan = program.plan()
        assert plan is not None  # ``pairs`` is a pairing of the program (d^2 <= max_d2)
        if plan.objective == value:
            return pairs, bye, value
        real = realize(fld, plan)
        if real is not None:
            return [_oriented(fld, i, j) for i, j in real], bye, plan.objective
        if len(members) <= EXACT_FALLBACK:
            pairs, _, _ = _exact(fld, members, False)
            return pairs, bye, _objective(fld, pairs)  # the exact optimum
        return pairs, bye, plan.objective
    assert last_error is not None  # each candidate returned or failed with one
    raise last_error


def _oriented(fld: _Field, i: int, j: int) -> tuple[int, int]:
    r = fld.pair(i, j)
    assert r is not None  # a realised plan holds valid pairs only
    return r[1], r[2]


def _deficit(fld: _Field, group: list[int]) -> Need:
    """(side, count): how many extra players able to play ``side`` the group needs from
    above so that its players with an absolute preference can all be given their side."""
    n = len(group)
    for side in SIDES:
        other = other_side(side)
        forced = sum(1 for i in group if fld.info[i].allowed == frozenset((other,)))
        if 2 * forced > n:
            return side, 2 * forced - n
    return None, 0


def _brackets(fld: _Field, bye: int | None) -> list[tuple[int, int]]:
    groups = [[i for i in g if i != bye] for g in fld.groups]
    groups = [g for g in groups if g]
    stack: list[tuple[list[int], list[tuple[int, int]], list[int]]] = []
    carry: list[int] = []
    gi = 0
    while gi < len(groups):
        members = carry + groups[gi]
        last = gi + 1 >= len(groups)
        nxt = None if last else fld.score[groups[gi + 1][0]]
        need: Need = (None, 0) if last else _deficit(fld, groups[gi + 1])
        while True:
            sol = _solve_bracket(fld, members, nxt, need)
            if sol is not None:
                break
            if not stack:
                raise NoValidPairing(_no_pairing_message(fld, members))
            prev_members, _, _ = stack.pop()  # widen the window upwards
            members = sorted(set(prev_members) | set(members))
            need = (None, 0)
        pairs, floaters = sol
        stack.append((members, pairs, floaters))
        carry = floaters
        gi += 1
    if carry:
        raise NoValidPairing(_no_pairing_message(fld, carry))
    return [p for _, pairs, _ in stack for p in pairs]


def _solve_bracket(fld: _Field, members: list[int], next_score: int | None,
                   need: Need = (None, 0)) -> Bracket | None:
    """Pair a bracket; returns (pairs, floaters) or None if it cannot be paired with any
    number of floaters (or none allowed for the last bracket)."""
    if len(members) >= FAST_MIN:
        sol = _construct(fld, members, next_score, need)
        if sol is not None:
            return sol
    if len(members) > CHUNK:
        return _chunked(fld, members, next_score, need)
    floats = len(members) % 2
    if need[1] and next_score is not None:
        floats = max(floats, need[1] + (need[1] - floats) % 2)
        if floats > len(members):
            floats = len(members)
    while True:
        if floats and next_score is None:
            return None
        if floats > len(members):
            return None
        try:
            pairs, floaters, _ = _exact(fld, members, False, floats, next_score, need[0])
        except NoValidPairing:
            floats += 2
            continue
        return pairs, sorted(floaters)


def _chunked(fld: _Field, members: list[int], next_score: int | None, need: Need
             ) -> Bracket | None:
    """Exact pairing of a large bracket in interleaved chunks of about CHUNK players
    (used only when the fast construction fails)."""
    c = -(-len(members) // CHUNK)
    chunks: list[list[int]] = [[] for _ in range(c)]
    for k, i in enumerate(members):
        chunks[(k // 2) % c].append(i)  # deal pairs of neighbours: chunks stay even
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    for k, chunk in enumerate(chunks):
        sub_need = need if k == c - 1 else (None, 0)
        sub_next = next_score if k == c - 1 else None
        sol = _solve_bracket(fld, sorted(chunk), sub_next, sub_need)
        if sol is None:
            return None
        pairs.extend(sol[0])
        floaters.extend(sol[1])
    return pairs, sorted(floaters)


def _construct(fld: _Field, members: list[int], next_score: int | None,
               need: Need = (None, 0)) -> Bracket | None:
    """Fast pairing of a large bracket meeting the bracket's count lower bound on unmet
    side preferences; None when it cannot (then the exact solver takes over)."""
    base = min(fld.score[i] for i in members)
    natives = [i for i in members if fld.score[i] == base]
    carried = [i for i in members if fld.score[i] != base]
    if len(carried) * 4 > len(natives):
        return None
    info = fld.info
    used: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for c in carried:
        best: tuple[tuple[int, int, int, int], tuple[Levels, int, int], int] | None = None
        for j in natives:
            if j in used:
                continue
            r = fld.pair(c, j)
            if r is None:
                continue
            # fewest unmet preferences, then the partner most constrained on sides
            key = (r[0][1], r[0][2], -info[j].strength, j)
            if best is None or key < best[0]:
                best = (key, r, j)
        if best is None:
            return None
        used.add(best[2])
        pairs.append((best[1][1], best[1][2]))
    rest = [i for i in natives if i not in used]
    floaters: list[int] = []
    side, count = need
    if count and next_score is not None:
        # the next group has too many players forced to one side: send it partners
        able = [i for i in rest if side in info[i].allowed and len(info[i].allowed) == 2]
        able.sort(key=lambda i: (info[i].pref != side, -i))
        if len(able) < count:
            return None
        floaters.extend(able[:count])
        rest = [i for i in rest if i not in set(floaters)]
    if len(rest) % 2:
        if next_score is None:
            return None
        nf = sum(1 for i in rest if info[i].pref == FRENCH)
        na = sum(1 for i in rest if info[i].pref is not None and info[i].pref != FRENCH)
        want: str | None
        if nf == na:
            want = None
        else:
            want = FRENCH if nf > na else ALLIED
        cand = [i for i in rest if info[i].pref == want] or rest
        # the lowest-ranked of the surplus preference, weakest preference first
        fl = min(cand, key=lambda i: (info[i].strength, -i))
        floaters.append(fl)
        rest.remove(fl)
    built = _construct_group(fld, rest)
    if built is None:
        return None
    return pairs + built, floaters


def _construct_group(fld: _Field, rest: list[int]) -> list[tuple[int, int]] | None:
    info = fld.info
    sf = sorted((i for i in rest if info[i].pref == FRENCH), key=lambda i: (-info[i].strength, i))
    sa = sorted(
        (i for i in rest if info[i].pref not in (None, FRENCH)),
        key=lambda i: (-info[i].strength, i),
    )
    sn = [i for i in rest if info[i].pref is None]
    k = min(len(sf), len(sa))
    zf, za = sorted(sf[:k]), sorted(sa[:k])
    excess = sf[k:] if len(sf) > k else sa[k:]
    raw: list[tuple[int, int]] = []
    shift = k // 2
    for x in range(k):
        raw.append((zf[x], za[(x + shift) % k]))
    t = min(len(sn), len(excess))
    raw.extend(zip(sn[:t], excess[:t], strict=True))
    sn, excess = sn[t:], excess[t:]
    for lst in (sn, excess):
        h = len(lst) // 2
        raw.extend(zip(lst[:h], lst[h:], strict=True))
    # validate, repair forbidden pairs by swapping partners with another pair
    pairs = [tuple(sorted(p)) for p in raw]

    def side_cost(i: int, j: int) -> tuple[int, int] | None:
        a, b = min(i, j), max(i, j)
        o = orient(info[a], info[b], True)
        return None if o is None else (o[1], o[2])

    bad = [x for x, (i, j) in enumerate(pairs) if fld.pair(i, j) is None]
    for x in bad:
        i, j = pairs[x]
        if fld.pair(i, j) is not None:
            continue
        old = side_cost(i, j) or (2, 2)
        fixed = False
        npairs = len(pairs)
        for step in range(1, npairs):
            for y in ((x + step) % npairs, (x - step) % npairs):
                u, v = pairs[y]
                oy = side_cost(u, v)
                if oy is None:
                    continue
                for (p1, p2), (p3, p4) in (((i, u), (j, v)), ((i, v), (j, u))):
                    a1 = (min(p1, p2), max(p1, p2))
                    a2 = (min(p3, p4), max(p3, p4))
                    r1, r2 = fld.pair(*a1), fld.pair(*a2)
                    if r1 is None or r2 is None:
                        continue
                    new = (r1[0][1] + r2[0][1], r1[0][2] + r2[0][2])
                    if new <= (old[0] + oy[0], old[1] + oy[1]):
                        pairs[x], pairs[y] = a1, a2
                        fixed = True
                        break
                if fixed:
                    break
            if fixed or step > 64:
                break
        if not fixed:
            return None
    out: list[tuple[int, int]] = []
    for i, j in pairs:
        r = fld.pair(i, j)
        if r is None:
            return None
        out.append((r[1], r[2]))
    return out


# ---------------------------------------------------------------------------------------
# Quality figures (bench and tests)


def quality(players: list[Player], result: SwissResult) -> dict:
    """Objective figures of a result: floats, score-difference sums, side preferences."""
    active = {p.id: p for p in players if not p.dropped}
    info = {pid: SideInfo(p) for pid, p in active.items()}
    floats = unmet = strong = rematches = 0
    sq = diff = Fraction(0)
    for f, a in result.pairings:
        pf, pa = active[f], active[a]
        d = abs(Fraction(pf.points) - Fraction(pa.points))
        floats += d != 0
        diff += d
        sq += d * d
        rematches += a in pf.met
        for pid, side in ((f, FRENCH), (a, ALLIED)):
            si = info[pid]
            if si.pref is not None and si.pref != side:
                unmet += 1
                strong += si.strength >= STRONG
    # lower bound of level 2: adjacent pairing of the sorted scores (ignores every rule)
    scores = sorted(
        (Fraction(p.points) for pid, p in active.items() if pid != result.bye), reverse=True
    )
    lb = sum((scores[k] - scores[k + 1]) ** 2 for k in range(0, len(scores) - 1, 2))
    return {
        "pairs": len(result.pairings),
        "floats": floats,
        "score_diff_sum": float(diff),
        "score_sq_sum": float(sq),
        "score_sq_lower_bound": float(lb),
        "unmet": unmet,
        "unmet_strong": strong,
        "rematches": rematches,
    }
