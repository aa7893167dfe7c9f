"""Special-card effects in play (13.0): who they aid and the modifiers they give."""

from __future__ import annotations

from .cards import Card
from .state import State

TYPE_ONLY = {"infantry_only": "infantry", "cavalry_only": "cavalry",
             "artillery_only": "artillery"}


def type_ok(sc: Card, c: Card) -> bool:
    """Type and elite restrictions: the cards the effect touches."""
    for r in sc.restrictions:
        want = TYPE_ONLY.get(r)
        if want is not None and c.kind != want:
            return False
        if r == "elite_only" and c.morale != 4:
            return False
    return True


def nationals_only(sc: Card, battle: str) -> bool:
    """13.0: "British Specials may only be played in a Position containing British cards and
    only to aid British cards"; Prussian Specials in *Waterloo* likewise (and only after the
    Prussians arrive, 10.0). Other Specials where the catalogue says so (own_nationals_only,
    e.g. a card printed for one nationality). RULINGS 13.0-d/e."""
    return "own_nationals_only" in sc.restrictions or sc.army == "british" or \
        (sc.army == "prussian" and battle == "waterloo")


def nation_ok(sc: Card, c: Card, battle: str) -> bool:
    """13.0: whether the special may aid card c (its army and nationality, if it must)."""
    if not nationals_only(sc, battle):
        return True
    return c.army == sc.army and (sc.nat is None or c.nat == sc.nat)


def modifier(st: State, kind: str, side: int, place: int, c: Card, enemy_place: int,
             enemy_card: Card | None) -> int:
    """Sum of ``kind`` modifiers for card c of ``side`` at ``place``.

    Friendly effects of ``side`` at ``place`` that aid c add; enemy effects (target: enemy)
    played at ``enemy_place`` by the other side subtract when they touch c and aid
    ``enemy_card`` (the card they protect, None for morale)."""
    total = 0
    for e in st.effects:
        sc = st.cards[e["card"]]
        eff = sc.effect
        if eff["kind"] != kind:
            continue
        if eff.get("target") == "friendly":
            if e["side"] == side and e["place"] == place and type_ok(sc, c) and \
                    nation_ok(sc, c, st.battle):
                total += eff["amount"]
        elif e["side"] != side and e["place"] == enemy_place and type_ok(sc, c):
            if enemy_card is None or nation_ok(sc, enemy_card, st.battle):
                total -= eff["amount"]
    return total
