"""Type-level plan of a Swiss round: an exact lower bound, and the pairing it describes.

A pair's objective levels 2-4 -- (score difference)^2, unmet side preferences, unmet strong
ones -- depend only on the two players' *types*: score and side facts (allowed sides,
preferred side, strength).  Players of one type are interchangeable for the objective, so a
pairing is worth exactly what its counts of pairs per type pair are worth.

:meth:`TypeProgram.plan` solves the type-level problem exactly as an integer program: choose
``x[t, u]`` pairs between types ``t`` and ``u`` (``2 x[t, t] + sum x[t, u] = n_t`` for every
type), minimising the levels lexicographically (three integer programs, each fixing the
optimum of the one before).  Rematches and keep-apart pairs are individual, so they are
relaxed, except where they can be counted cheaply: a type pair none of whose players may
meet is removed, and ``x[t, u]`` is capped by the number of players of ``t`` with at least one
allowed partner in ``u`` (and the other way round).  Small score groups (where rematches
bind: the top and bottom of a field after many rounds) are split into one type per player,
so there the rematch rule is exact.

Every valid pairing gives a feasible type-level solution of the same value, so the plan's
value is a **lower bound** of the optimum.  :func:`realize` turns a plan into real pairs (swaps
between players of one type repair rematches, keeping every count); when it succeeds its
pairing is worth exactly the bound and is therefore **optimal** (proved, not hoped).

The integer programs are tiny (a few dozen types) and solved by HiGHS through SciPy with a
zero optimality gap; the result is checked in exact integer arithmetic before use.
:meth:`TypeProgram.lp_bound` is the fast first check: the LP relaxation with odd-set cuts
(an odd set of players sends at least one pair out: the players above each score
threshold, each score group, each type), rounded up level by level.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_array

from .sides import orient

if TYPE_CHECKING:
    from .swiss import _Field

# score groups of at most this many players get one type per player
SMALL_GROUP = 24
# exact caps (members with an allowed partner) are computed for types up to this size
CAP_CHECK = 64


@dataclass
class TypePlan:
    types: list[list[int]]  # players (field indices, rank order) of each type
    counts: dict[tuple[int, int], int]  # (type a, type b), a <= b -> number of pairs
    objective: tuple[int, int, int]  # (sum d^2, unmet, unmet strong): the lower bound


def _types(fld: _Field, members: list[int], small_group: int) -> list[list[int]]:
    by_key: dict[tuple[Any, ...], list[int]] = {}
    group_size: dict[int, int] = {}
    for i in members:
        group_size[fld.score[i]] = group_size.get(fld.score[i], 0) + 1
    for i in members:
        info = fld.info[i]
        key: tuple[Any, ...]
        if group_size[fld.score[i]] <= small_group:
            key = (fld.score[i], "player", i)
        else:
            key = (fld.score[i], tuple(sorted(info.allowed)), info.pref or "", info.strength)
        by_key.setdefault(key, []).append(i)
    # order: score descending, then first member's rank
    return sorted(by_key.values(), key=lambda ms: ms[0])


def _cap(fld: _Field, a: list[int], b: list[int], same: bool) -> int:
    """Upper bound of the number of pairs between the players of ``a`` and ``b``."""
    if same:
        if len(a) > CAP_CHECK:
            return len(a) // 2
        return _able(fld, a, a) // 2
    if len(a) > CAP_CHECK and len(b) > CAP_CHECK:
        return min(len(a), len(b))
    return min(_able(fld, a, b), _able(fld, b, a))


def _able(fld: _Field, a: list[int], b: list[int]) -> int:
    """How many players of ``a`` may meet at least one (other) player of ``b``."""
    able = 0
    for i in a:
        # more candidates than players ``i`` has met: one of them is new (no keep-apart)
        if not fld.ka[i] and len(b) > len(fld.met[i]) + 1:
            able += 1
        elif any(j != i and not fld.forbidden(i, j) for j in b):
            able += 1
    return able


class TypeProgram:
    """The type-level problem of pairing ``members`` (an even number of field indices, the
    bye already removed): types, the allowed type pairs with their costs and caps."""

    def __init__(self, fld: _Field, members: list[int], small_group: int = SMALL_GROUP,
                 max_d2: int | None = None) -> None:
        """``small_group=0``: class types only (coarser, smaller: a quick feasibility
        check).  ``max_d2``: leave out pairs whose squared score difference exceeds it -- no
        pairing with a sum of squares <= ``max_d2`` can use them, so bounds and plans stay
        exact for every pairing at least as good as one of that value."""
        self.fld = fld
        self.members = members
        self.types = types = _types(fld, members, small_group)
        nt = len(types)
        self.keys: list[tuple[int, int]] = []
        self.costs: list[tuple[int, int, int]] = []
        caps: list[int] = []
        for a in range(nt):
            ra = types[a][0]
            for b in range(a, nt):
                same = a == b
                if same and len(types[a]) < 2:
                    continue
                rb = types[b][0] if not same else types[a][1]
                d = fld.score[ra] - fld.score[rb]
                if max_d2 is not None and d * d > max_d2:
                    continue
                o = orient(fld.info[ra], fld.info[rb], True)
                if o is None:
                    continue
                cap = _cap(fld, types[a], types[b], same)
                if cap <= 0:
                    continue
                self.keys.append((a, b))
                self.costs.append((d * d, o[1], o[2]))
                caps.append(cap)
        nv = len(self.keys)
        rows_, cols_ = [], []
        for k, (a, b) in enumerate(self.keys):
            rows_ += [a, b]
            cols_ += [k, k]
        # duplicates (a == b) add up: coefficient 2 for pairs inside a type
        self.matrix = coo_array((np.ones(len(rows_)), (rows_, cols_)), shape=(nt, nv)).tocsr()
        self.need = np.array([len(t) for t in types], dtype=float)
        self.bounds = Bounds(np.zeros(nv), np.array(caps, dtype=float)) if nv else None

    def _cuts(self) -> LinearConstraint | None:
        """Odd-set inequalities the integer problem obeys and its LP relaxation need not:
        a set of an odd number of players sends at least one pair out.  Sets: the players
        above each score threshold, each score group, each type."""
        sets: list[set[int]] = []
        scores = [self.fld.score[t[0]] for t in self.types]
        levels = sorted(set(scores), reverse=True)
        for level in levels:
            sets.append({a for a, s in enumerate(scores) if s > level})
            sets.append({a for a, s in enumerate(scores) if s == level})
        sets.extend({a} for a in range(len(self.types)))
        rows, cols = [], []
        r = 0
        for members in sets:
            if not members or sum(len(self.types[a]) for a in members) % 2 == 0:
                continue
            for k, (a, b) in enumerate(self.keys):
                if (a in members) != (b in members):
                    rows.append(r)
                    cols.append(k)
            r += 1
        if not r:
            return None
        shape = (r, len(self.keys))
        matrix = coo_array((np.ones(len(rows)), (rows, cols)), shape=shape).tocsr()
        return LinearConstraint(matrix, 1.0, np.inf)

    def lp_bound(self, target: tuple[int, int, int]) -> tuple[int, int, int] | None:
        """Lexicographic lower bound from the LP relaxation with odd-set cuts, level by
        level while it meets ``target`` (a known pairing's value): ``(b2, 0, 0)`` if level
        2 differs from the target's, etc.  ``None`` when even the relaxation is infeasible."""
        if not self.keys:
            return (0, 0, 0) if not self.members else None
        rows = [LinearConstraint(self.matrix, self.need, self.need)]
        cuts = self._cuts()
        if cuts is not None:
            rows.append(cuts)
        bound = [0, 0, 0]
        for level in range(3):
            c = np.array([cost[level] for cost in self.costs], dtype=float)
            res = milp(c, constraints=rows, bounds=self.bounds, integrality=None)
            if res.status == 2:
                return None
            if res.status != 0:
                raise RuntimeError(f"type-level LP failed: {res.message}")
            # costs are small integers: the LP optimum is a fraction with a small
            # denominator, so the tolerance cannot round a true value up past an integer
            bound[level] = math.ceil(res.fun - 1e-6)
            if bound[level] != target[level]:
                break  # short of the target: the lower levels are unbounded
            rows.append(LinearConstraint(c.reshape(1, -1), -np.inf, target[level] + 1e-9))
        return bound[0], bound[1], bound[2]

    def plan(self) -> TypePlan | None:
        """Optimal type-level plan (integer programs, one per level); ``None`` when even
        the relaxation has no perfect pairing (then no valid pairing exists)."""
        types, keys, costs = self.types, self.keys, self.costs
        if not keys:
            return None if self.members else TypePlan(types, {}, (0, 0, 0))
        rows = [LinearConstraint(self.matrix, self.need, self.need)]
        integrality = np.ones(len(keys))
        x = None
        best: list[int] = []
        for level in range(3):
            c = np.array([cost[level] for cost in costs], dtype=float)
            res = milp(c, constraints=rows, bounds=self.bounds, integrality=integrality,
                       options={"mip_rel_gap": 0.0})
            if res.status != 0 or res.x is None:
                if level == 0 and res.status == 2:  # infeasible
                    return None
                raise RuntimeError(f"type-level pairing program failed: {res.message}")
            x = np.rint(res.x).astype(int)
            value = int(sum(int(cost[level]) * int(v) for cost, v in zip(costs, x, strict=True)))
            best.append(value)
            rows.append(LinearConstraint(c.reshape(1, -1), -np.inf, value + 0.5))
        assert x is not None  # set by each of the three levels
        counts = {keys[k]: int(v) for k, v in enumerate(x) if v}
        # exact re-check of what HiGHS returned
        used = [0] * len(types)
        for (a, b), v in counts.items():
            if v < 0:
                raise RuntimeError("type-level pairing program returned a negative count")
            used[a] += v
            used[b] += v
        if used != [len(t) for t in types]:
            raise RuntimeError("type-level pairing program returned an infeasible plan")
        cost_of = dict(zip(keys, costs, strict=True))
        total = [sum(cost_of[k][level] * v for k, v in counts.items()) for level in range(3)]
        if total != best:
            raise RuntimeError("type-level pairing program: inconsistent objective")
        return TypePlan(types, counts, (total[0], total[1], total[2]))


def realize(fld: _Field, plan: TypePlan) -> list[tuple[int, int]] | None:
    """Real pairs (i, j), i < j, with exactly the plan's counts per type pair and no
    forbidden pair; ``None`` when the swaps cannot remove every forbidden pair."""
    types = plan.types
    type_of: dict[int, int] = {}
    for t, ms in enumerate(types):
        for i in ms:
            type_of[i] = t
    # hand each type's players to its partner types: floats down take the lowest-ranked,
    # floats up the highest-ranked, pairs inside the score group the rest in rank order
    slots: dict[int, list[tuple[int, int, int]]] = {t: [] for t in range(len(types))}
    for (a, b), v in plan.counts.items():
        for t, u in ((a, b), (b, a)) if a != b else ((a, a),):
            share = 2 * v if a == b else v
            ds = fld.score[types[t][0]] - fld.score[types[u][0]]
            order = 0 if ds < 0 else (2 if ds > 0 else 1)  # up first, down last
            slots[t].append((order, u, share))
    taken: dict[tuple[int, int], list[int]] = {}
    for t, wanted in slots.items():
        queue = list(types[t])
        pos = 0
        for _order, u, share in sorted(wanted):
            taken[(t, u)] = queue[pos:pos + share]
            pos += share
    pairs: list[list[int]] = []
    for a, b in plan.counts:
        if a == b:
            ms = taken[(a, a)]
            half = len(ms) // 2
            pairs.extend([ms[k], ms[k + half]] for k in range(half))
        else:
            xs, ys = taken[(a, b)], taken[(b, a)]
            shift = len(xs) // 2 if fld.score[xs[0]] == fld.score[ys[0]] else 0
            pairs.extend([xs[k], ys[(k + shift) % len(ys)]] for k in range(len(xs)))
    if not _repair(fld, pairs, type_of, types):
        return None
    return [(min(p), max(p)) for p in pairs]


def _repair(fld: _Field, pairs: list[list[int]], type_of: dict[int, int],
            types: list[list[int]]) -> bool:
    """Remove forbidden pairs by exchanging a player with another of the same type in a
    different pair: every count per type pair, hence the objective, is unchanged."""
    where: dict[int, int] = {}
    for k, (i, j) in enumerate(pairs):
        where[i] = k
        where[j] = k
    for k in range(len(pairs)):
        if not fld.forbidden(*pairs[k]):
            continue
        fixed = False
        for side in (0, 1):
            u, v = pairs[k][side], pairs[k][1 - side]
            for u2 in sorted(types[type_of[u]], key=lambda m: abs(m - u)):
                if u2 in (u, v):
                    continue
                k2 = where[u2]
                w = pairs[k2][1] if pairs[k2][0] == u2 else pairs[k2][0]
                if w in (u, v) or fld.forbidden(u2, v) or fld.forbidden(u, w):
                    continue
                pairs[k][side] = u2
                pairs[k2][pairs[k2].index(u2)] = u
                where[u2], where[u] = k, k2
                fixed = True
                break
            if fixed:
                break
        if not fixed:
            return False
    return True
