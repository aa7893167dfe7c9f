"""Single and double elimination brackets (seeded, byes for non-powers of two), and the
seeding of a top cut from Swiss standings."""

from __future__ import annotations


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket slot order for a power-of-two ``size``:
    1 v size, and seeds 1 and 2 can only meet in the final."""
    order = [1]
    while len(order) < size:
        m = 2 * len(order) + 1
        order = [x for s in order for x in (s, m - s)]
    return order


def _size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def first_round(seeds: list[str]) -> list[tuple[str, str | None]]:
    """Round-1 matches in bracket order; ``(player, None)`` is a bye (top seeds get them)."""
    size = _size(len(seeds))
    order = bracket_order(size)
    # the first of a pair is the better seed, at most size / 2 < len(seeds): never a bye
    return [(seeds[order[k] - 1], seeds[order[k + 1] - 1] if order[k + 1] <= len(seeds) else None)
            for k in range(0, size, 2)]


def elimination_round(seeds: list[str], alive: set[str], round_no: int
                      ) -> tuple[list[tuple[str, str]], list[str]]:
    """Matches of round ``round_no`` of a single-elimination bracket: the players still in
    (``alive``) meet within their bracket block of 2**round_no slots.  A block with one
    player left gives it a walkover.  Returns (pairs in bracket order, walkovers)."""
    size = _size(len(seeds))
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in bracket_order(size)]
    block = 2**round_no
    if block > size:
        raise ValueError(f"round {round_no} is beyond the final for {len(seeds)} players")
    seed_of = {pid: k for k, pid in enumerate(seeds)}
    pairs: list[tuple[str, str]] = []
    walkovers: list[str] = []
    for start in range(0, size, block):
        inside = [p for p in slots[start : start + block] if p is not None and p in alive]
        inside.sort(key=seed_of.__getitem__)
        if len(inside) == 2:
            pairs.append((inside[0], inside[1]))
        elif len(inside) == 1:
            walkovers.append(inside[0])
        elif len(inside) > 2:
            raise ValueError(
                f"more than two players still in one bracket block in round {round_no}: "
                + ", ".join(inside)
            )
    return pairs, walkovers


def top_cut(standings: list[str], cut: int) -> list[tuple[str, str | None]]:
    """Seed the first ``cut`` players of the Swiss standings into a single elimination."""
    if cut < 2:
        raise ValueError("a top cut needs at least 2 players")
    return first_round(standings[:cut])


def double_elimination(seeds: list[str]) -> list[dict]:
    """Whole double-elimination bracket as a list of matches.

    Each match is ``{"id", "bracket": "W"|"L"|"GF", "round", "a", "b"}`` where ``a``/``b``
    is a seed id (winners' round 1), ``"W<id>"`` (winner of match id), ``"L<id>"`` (loser
    of match id) or ``None`` (a bye: the other side advances; the "loser" of a bye match
    is itself a bye).  Losers of winners' round r
    drop into the losers' bracket in reverse order, which keeps early rematches apart.
    """
    matches: list[dict] = []

    def add(bracket: str, rnd: int, a: str | None, b: str | None) -> int:
        mid = len(matches) + 1
        matches.append({"id": mid, "bracket": bracket, "round": rnd, "a": a, "b": b})
        return mid

    wb = [add("W", 1, a, b) for a, b in first_round(seeds)]
    rounds_w = [wb]
    while len(rounds_w[-1]) > 1:
        prev = rounds_w[-1]
        rounds_w.append(
            [
                add("W", len(rounds_w) + 1, f"W{prev[k]}", f"W{prev[k + 1]}")
                for k in range(0, len(prev), 2)
            ]
        )
    # losers' bracket
    lr = 1
    lb = [add("L", lr, f"L{wb[k]}", f"L{wb[k + 1]}") for k in range(0, len(wb) - 1, 2)]
    for r in range(1, len(rounds_w)):
        lr += 1
        drop = [f"L{m}" for m in reversed(rounds_w[r])]
        lb = [add("L", lr, f"W{lb[k]}", drop[k]) for k in range(len(lb))]
        if len(lb) > 1:
            lr += 1
            lb = [add("L", lr, f"W{lb[k]}", f"W{lb[k + 1]}") for k in range(0, len(lb), 2)]
    if not lb:  # two players: the loser of the final goes straight to the grand final
        add("GF", 1, f"W{rounds_w[-1][0]}", f"L{rounds_w[-1][0]}")
    else:
        add("GF", 1, f"W{rounds_w[-1][0]}", f"W{lb[0]}")
    return matches
