"""Round robin by Berger tables (circle method, as in FIDE C.05 Annex 1)."""

from __future__ import annotations

Pair = tuple[str | None, str | None]


def berger_rounds(ids: list[str], double: bool = False) -> list[list[Pair]]:
    """All rounds; each round is a list of (french, allied) pairs; ``None`` stands for the
    bye when the field is odd.  Every pair meets once (twice with sides swapped when
    ``double``); each player's French and Allied counts differ by at most one."""
    players: list[str | None] = list(ids)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if n == 0:
        return []
    rounds = []
    fixed, ring = players[-1], players[:-1]
    step = n // 2  # coprime with n - 1: every rotation once, sides alternate (Berger)
    for r in range(n - 1):
        off = (r * step) % (n - 1)
        rot = ring[off:] + ring[:off]
        # the fixed player alternates sides; in the other pairs the left one is French:
        # every player visits each position once, so French/Allied differ by at most one
        pairs = [(rot[0], fixed) if r % 2 == 0 else (fixed, rot[0])]
        for k in range(1, n // 2):
            pairs.append((rot[k], rot[n - 1 - k]))
        rounds.append(pairs)
    if double:
        rounds += [[(b, a) for a, b in rnd] for rnd in rounds]
    return rounds


def round_robin_round(ids: list[str], round_no: int, double: bool = False
                      ) -> tuple[list[tuple[str, str]], str | None]:
    """Pairs of round ``round_no`` (1-based) and the player with the bye (or None)."""
    rounds = berger_rounds(ids, double)
    if not 1 <= round_no <= len(rounds):
        raise ValueError(f"round {round_no} out of range 1..{len(rounds)}")
    pairs: list[tuple[str, str]] = []
    bye = None
    for f, a in rounds[round_no - 1]:
        if f is None or a is None:
            bye = f if a is None else a
        else:
            pairs.append((f, a))
    return pairs, bye
