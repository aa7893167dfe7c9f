"""Exact minimum-cost perfect matching on a general graph (Edmonds' blossom algorithm).

Primal-dual weighted blossom algorithm, O(n^3), written for this project: vertex and
blossom dual labels, tight-edge search from every exposed vertex, blossom shrinking and
expansion.  It computes a maximum-weight matching; :func:`min_cost_perfect_matching`
turns costs into weights ``C - cost`` with ``C > n * max_cost`` so that every larger
matching outweighs every smaller one: the result is a maximum-cardinality matching and,
among those, one of minimum total cost.  All arithmetic is on Python integers, so the
optimum is exact (no floating point ties).
"""

from __future__ import annotations

from collections import deque


class _Blossom:
    """Weighted matching on vertices 1..n with an adjacency matrix (0 = no edge)."""

    def __init__(self, n: int, weights: dict[tuple[int, int], int]):
        self.n = n
        size = 2 * n + 2
        self.size = size
        # g[u][v] = [eu, ev, w]: the real edge that represents (u, v) between (super)vertices
        self.g = [[[u, v, 0] for v in range(size)] for u in range(size)]
        for (u, v), w in weights.items():
            self.g[u][v][2] = w
            self.g[v][u][2] = w
        self.lab = [0] * size
        self.match = [0] * size
        self.slack = [0] * size
        self.st = list(range(size))
        self.pa = [0] * size
        self.flower_from = [[0] * (n + 1) for _ in range(size)]
        self.S = [-1] * size
        self.vis = [0] * size
        self.flower: list[list[int]] = [[] for _ in range(size)]
        self.queue: deque[int] = deque()
        self.n_x = n
        self.stamp = 0
        # adjacency lists of real vertices, to scan only existing edges
        self.adj: list[list[int]] = [[] for _ in range(n + 1)]
        for (u, v), w in weights.items():
            if w > 0:
                self.adj[u].append(v)
                self.adj[v].append(u)

    def e_delta(self, e: list[int]) -> int:
        return self.lab[e[0]] + self.lab[e[1]] - self.g[e[0]][e[1]][2] * 2

    def update_slack(self, u: int, x: int) -> None:
        s = self.slack[x]
        if not s or self.e_delta(self.g[u][x]) < self.e_delta(self.g[s][x]):
            self.slack[x] = u

    def set_slack(self, x: int) -> None:
        self.slack[x] = 0
        g, st, S = self.g, self.st, self.S
        for u in range(1, self.n + 1):
            if g[u][x][2] > 0 and st[u] != x and S[st[u]] == 0:
                self.update_slack(u, x)

    def q_push(self, x: int) -> None:
        if x <= self.n:
            self.queue.append(x)
        else:
            for y in self.flower[x]:
                self.q_push(y)

    def set_st(self, x: int, b: int) -> None:
        self.st[x] = b
        if x > self.n:
            for y in self.flower[x]:
                self.set_st(y, b)

    def get_pr(self, b: int, xr: int) -> int:
        fl = self.flower[b]
        pr = fl.index(xr)
        if pr % 2 == 1:
            fl[1:] = fl[1:][::-1]
            return len(fl) - pr
        return pr

    def set_match(self, u: int, v: int) -> None:
        e = self.g[u][v]
        self.match[u] = e[1]
        if u > self.n:
            xr = self.flower_from[u][e[0]]
            pr = self.get_pr(u, xr)
            fl = self.flower[u]
            for i in range(pr):
                self.set_match(fl[i], fl[i ^ 1])
            self.set_match(xr, v)
            self.flower[u] = fl[pr:] + fl[:pr]

    def augment(self, u: int, v: int) -> None:
        st = self.st
        while True:
            xnv = st[self.match[u]]
            self.set_match(u, v)
            if not xnv:
                return
            self.set_match(xnv, st[self.pa[xnv]])
            u, v = st[self.pa[xnv]], xnv

    def get_lca(self, u: int, v: int) -> int:
        self.stamp += 1
        t = self.stamp
        st, vis = self.st, self.vis
        while u or v:
            if u:
                if vis[u] == t:
                    return u
                vis[u] = t
                u = st[self.match[u]]
                if u:
                    u = st[self.pa[u]]
            u, v = v, u
        return 0

    def add_blossom(self, u: int, lca: int, v: int) -> None:
        n, st, g = self.n, self.st, self.g
        b = n + 1
        while b <= self.n_x and st[b]:
            b += 1
        if b > self.n_x:
            self.n_x += 1
        self.lab[b] = 0
        self.S[b] = 0
        self.match[b] = self.match[lca]
        fl = [lca]
        x = u
        while x != lca:
            y = st[self.match[x]]
            fl.append(x)
            fl.append(y)
            self.q_push(y)
            x = st[self.pa[y]]
        fl[1:] = fl[1:][::-1]
        x = v
        while x != lca:
            y = st[self.match[x]]
            fl.append(x)
            fl.append(y)
            self.q_push(y)
            x = st[self.pa[y]]
        self.flower[b] = fl
        self.set_st(b, b)
        gb = g[b]
        for x in range(1, self.n_x + 1):
            gb[x][2] = 0
            g[x][b][2] = 0
        ffb = self.flower_from[b]
        for x in range(1, n + 1):
            ffb[x] = 0
        for xs in fl:
            gxs = g[xs]
            for x in range(1, self.n_x + 1):
                if gb[x][2] == 0 or self.e_delta(gxs[x]) < self.e_delta(gb[x]):
                    gb[x] = list(gxs[x])
                    g[x][b] = list(g[x][xs])
            ffx = self.flower_from[xs]
            for x in range(1, n + 1):
                if ffx[x]:
                    ffb[x] = xs
        self.set_slack(b)

    def expand_blossom(self, b: int) -> None:
        g = self.g
        for y in self.flower[b]:
            self.set_st(y, y)
        xr = self.flower_from[b][g[b][self.pa[b]][0]]
        pr = self.get_pr(b, xr)
        fl = self.flower[b]
        for i in range(0, pr, 2):
            xs, xns = fl[i], fl[i + 1]
            self.pa[xs] = g[xns][xs][0]
            self.S[xs] = 1
            self.S[xns] = 0
            self.slack[xs] = 0
            self.set_slack(xns)
            self.q_push(xns)
        self.S[xr] = 1
        self.pa[xr] = self.pa[b]
        for i in range(pr + 1, len(fl)):
            xs = fl[i]
            self.S[xs] = -1
            self.set_slack(xs)
        self.st[b] = 0

    def on_found_edge(self, e: list[int]) -> bool:
        st = self.st
        u, v = st[e[0]], st[e[1]]
        if self.S[v] == -1:
            self.pa[v] = e[0]
            self.S[v] = 1
            nu = st[self.match[v]]
            self.slack[v] = 0
            self.slack[nu] = 0
            self.S[nu] = 0
            self.q_push(nu)
        elif self.S[v] == 0:
            lca = self.get_lca(u, v)
            if not lca:
                self.augment(u, v)
                self.augment(v, u)
                return True
            self.add_blossom(u, lca, v)
        return False

    def phase(self) -> bool:
        n, st, S, g, lab = self.n, self.st, self.S, self.g, self.lab
        for x in range(1, self.n_x + 1):
            S[x] = -1
            self.slack[x] = 0
        self.queue = deque()
        for x in range(1, self.n_x + 1):
            if st[x] == x and not self.match[x]:
                self.pa[x] = 0
                S[x] = 0
                self.q_push(x)
        if not self.queue:
            return False
        while True:
            while self.queue:
                u = self.queue.popleft()
                if S[st[u]] == 1:
                    continue
                gu = g[u]
                for v in self.adj[u]:
                    if st[u] != st[v]:
                        e = gu[v]
                        if lab[e[0]] + lab[e[1]] - 2 * g[e[0]][e[1]][2] == 0:
                            if self.on_found_edge(e):
                                return True
                        else:
                            self.update_slack(u, st[v])
            d = None
            for b in range(n + 1, self.n_x + 1):
                if st[b] == b and S[b] == 1:
                    c = lab[b] // 2
                    if d is None or c < d:
                        d = c
            for x in range(1, self.n_x + 1):
                if st[x] == x and self.slack[x]:
                    if S[x] == -1:
                        c = self.e_delta(g[self.slack[x]][x])
                    elif S[x] == 0:
                        c = self.e_delta(g[self.slack[x]][x]) // 2
                    else:
                        continue
                    if d is None or c < d:
                        d = c
            if d is None:
                return False
            for u in range(1, n + 1):
                s = S[st[u]]
                if s == 0:
                    if lab[u] <= d:
                        return False
                    lab[u] -= d
                elif s == 1:
                    lab[u] += d
            for b in range(n + 1, self.n_x + 1):
                if st[b] == b:
                    if S[b] == 0:
                        lab[b] += 2 * d
                    elif S[b] == 1:
                        lab[b] -= 2 * d
            self.queue = deque()
            for x in range(1, self.n_x + 1):
                s = self.slack[x]
                if st[x] == x and s and st[s] != x and self.e_delta(g[s][x]) == 0:
                    if self.on_found_edge(g[s][x]):
                        return True
            for b in range(n + 1, self.n_x + 1):
                if st[b] == b and S[b] == 1 and lab[b] == 0:
                    self.expand_blossom(b)

    def solve(self) -> list[int]:
        n = self.n
        w_max = 0
        for u in range(1, n + 1):
            self.flower_from[u][u] = u
            for v in self.adj[u]:
                w_max = max(w_max, self.g[u][v][2])
        for u in range(1, n + 1):
            self.lab[u] = w_max
        while self.phase():
            pass
        return self.match[: n + 1]


def max_weight_matching(n: int, edges: dict[tuple[int, int], int]) -> dict[int, int]:
    """Maximum-weight matching of vertices ``0..n-1``; ``edges`` maps ``(u, v)`` to a
    positive integer weight.  Returns ``{u: v}`` for every matched vertex (both ways)."""
    weights: dict[tuple[int, int], int] = {}
    for (u, v), w in edges.items():
        if u == v:
            raise ValueError("self-loop")
        if w <= 0:
            raise ValueError("weights must be positive integers")
        key = (u + 1, v + 1)
        if weights.get(key, 0) < w:
            weights[key] = w
            weights[(v + 1, u + 1)] = w
    # keep one orientation per edge for the matrix
    solver = _Blossom(n, {k: w for k, w in weights.items() if k[0] < k[1]})
    mate = solver.solve()
    return {u - 1: mate[u] - 1 for u in range(1, n + 1) if mate[u]}


def min_cost_perfect_matching(
    n: int, costs: dict[tuple[int, int], int]
) -> list[tuple[int, int]] | None:
    """Minimum-cost perfect matching of vertices ``0..n-1`` over the given edges
    (non-negative integer costs).  Returns the pairs ``(u, v)`` with ``u < v``, or
    ``None`` when the graph has no perfect matching."""
    if n % 2:
        return None
    if n == 0:
        return []
    max_cost = max(costs.values(), default=0)
    big = n * (max_cost + 1) + 1
    mate = max_weight_matching(n, {e: big - c for e, c in costs.items()})
    if len(mate) != n:
        return None
    return sorted((u, v) for u, v in mate.items() if u < v)
