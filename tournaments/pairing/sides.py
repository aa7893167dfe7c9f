"""Side (French/Allied) rules adapted from FIDE C.04.1 colour rules (French = white).

Hard rules (a pairing breaking them is invalid):
  * after the round, a player's French and Allied counts differ by at most 2;
  * nobody plays the same side in three consecutive *played* games (rounds without a
    game -- byes, absence -- are skipped, as in FIDE).
Last round (FIDE C.04.3 A.7 / C.3): a *topscorer* (more than half the maximum possible score
when the final round is paired) is released from both hard rules; the side the rules would
have forced stays an ABSOLUTE preference, so breaking it counts as an unmet strong one.
Preference (soft, minimised by the pairing):
  * ABSOLUTE: only one side is allowed by the hard rules;
  * STRONG: counts differ -> the side played less;
  * MILD: counts equal -> the other side than in the last played game;
  * none: no game played yet.
"""

from __future__ import annotations

from .model import ALLIED, FRENCH, Player

NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3


def other(side: str) -> str:
    return ALLIED if side == FRENCH else FRENCH


def played(sides: list[str | None]) -> list[str]:
    return [s for s in sides if s is not None]


def allowed_sides(sides: list[str | None]) -> frozenset[str]:
    seq = played(sides)
    f, a = seq.count(FRENCH), seq.count(ALLIED)
    allowed = {FRENCH, ALLIED}
    if f - a >= 2 or seq[-2:] == [FRENCH, FRENCH]:
        allowed.discard(FRENCH)
    if a - f >= 2 or seq[-2:] == [ALLIED, ALLIED]:
        allowed.discard(ALLIED)
    return frozenset(allowed)


def preference(sides: list[str | None]) -> tuple[str | None, int]:
    """(preferred side or None, strength)."""
    allowed = allowed_sides(sides)
    if len(allowed) == 1:
        return next(iter(allowed)), ABSOLUTE
    if not allowed:
        return None, ABSOLUTE  # cannot play at all (only from inconsistent histories)
    seq = played(sides)
    f, a = seq.count(FRENCH), seq.count(ALLIED)
    if f != a:
        return (FRENCH if f < a else ALLIED), STRONG
    if seq:
        return other(seq[-1]), MILD
    return None, NONE


class SideInfo:
    """Pre-computed side facts of one player."""

    __slots__ = ("allowed", "pref", "strength", "cls")

    def __init__(self, player: Player, use_sides: bool = True, relaxed: bool = False):
        if use_sides:
            self.allowed = allowed_sides(player.sides)
            self.pref, self.strength = preference(player.sides)
            if relaxed:  # last-round topscorer: the hard rules become a preference
                self.allowed = frozenset((FRENCH, ALLIED))
        else:
            self.allowed, self.pref, self.strength = frozenset((FRENCH, ALLIED)), None, NONE
        # class used by the large-field construction: (preferred side, strength)
        self.cls = (self.pref, self.strength)


def orient(a: SideInfo, b: SideInfo, a_higher: bool = True) -> tuple[bool, int, int] | None:
    """Best side assignment for a pair.

    Returns ``(a_is_french, unmet, unmet_strong)`` or ``None`` when no assignment keeps the
    hard rules.  Among valid assignments: fewest unmet preferences, then fewest unmet strong
    preferences, then the stronger preference is granted, then the higher-ranked player's
    preference, then the higher-ranked player plays French (FIDE E.1-E.5, simplified).
    """
    best = None
    for a_french in (True, False):
        sa, sb = (FRENCH, ALLIED) if a_french else (ALLIED, FRENCH)
        if sa not in a.allowed or sb not in b.allowed:
            continue
        unmet_a = a.pref is not None and a.pref != sa
        unmet_b = b.pref is not None and b.pref != sb
        unmet = unmet_a + unmet_b
        strong = (unmet_a and a.strength >= STRONG) + (unmet_b and b.strength >= STRONG)
        # tie-breaks: grant the stronger preference, then the higher-ranked player's
        if a.strength != b.strength:
            stronger_granted = not (unmet_a if a.strength > b.strength else unmet_b)
        else:
            stronger_granted = True
        higher_granted = not (unmet_a if a_higher else unmet_b)
        higher_french = a_french == a_higher
        key = (unmet, strong, not stronger_granted, not higher_granted, not higher_french)
        if best is None or key < best[0]:
            best = (key, a_french, unmet, strong)
    if best is None:
        return None
    return best[1], best[2], best[3]
