"""Small campaigns for fast tests: small collections, a passive policy, scripted retreats."""

from __future__ import annotations

from battles.campaign import apply, legal_actions, new_campaign, to_move
from battles.engine import SeededDice, card_table
from cards.catalogue.file import catalogue_records

TABLE = card_table(catalogue_records())
PASSIVE = ("deploy", "deployment_done", "roll_morale", "pass", "end_phase", "end_turn")


def cards_of(army: str, battle: str, kinds=("infantry", "cavalry", "general", "artillery")):
    return sorted(n for n, c in TABLE.items()
                  if c.army == army and battle in c.battles and c.kind in kinds)


def mix(army: str, battle: str, skip=()) -> list[int]:
    """Five Infantry, a Cavalry, an Artillery and a General (not in ``skip``)."""
    out: list[int] = []
    for kind, k in (("infantry", 5), ("cavalry", 1), ("artillery", 1), ("general", 1)):
        out += [n for n in cards_of(army, battle, (kind,)) if n not in skip][:k]
    return out


def small_pools(n: int = 8) -> dict[str, list[int]]:
    """A small collection per side: troops and Generals of the first two battles, plus cards
    of Wavre/Waterloo only (set aside) and the Hal cards."""
    qb = mix("french", "quatre-bras")
    french = qb + mix("french", "ligny", skip=cards_of("french", "quatre-bras"))
    french += [c for c in cards_of("french", "waterloo") if not
               {"quatre-bras", "ligny"} & set(TABLE[c].battles)][:4]
    allied = mix("british", "quatre-bras") + mix("prussian", "ligny")
    allied += [c for c in cards_of("prussian", "wavre") if "ligny" not in TABLE[c].battles][:2]
    allied += [n for n, c in TABLE.items() if not c.battles][:2]  # Hal
    return {"french": sorted(set(french)), "allied": sorted(set(allied))}


def small_campaign(seed=1, **settings):
    return new_campaign(seed, TABLE, small_pools(), settings or None)


def passive(legal: list[dict]) -> dict:
    for kind in PASSIVE:
        for a in legal:
            if a["type"] == kind:
                return a
    return legal[0]


def drive(c, retreat=(), reinforce=True, until=None, limit=5000, dice_seed=0,
          proposal=1):
    """Play passively; ``retreat``: (board, side) pairs that retreat at the first chance;
    ``proposal``: which listed split each side picks (1: one card in two to the smaller battle);
    stop when ``until(c)`` is true or the campaign is over."""
    dice = SeededDice(dice_seed)
    for _ in range(limit):
        if until is not None and until(c):
            return c
        tm = to_move(c)
        if tm is None:
            return c
        legal = legal_actions(c, tm["side"])
        pick = None
        if tm["step"] == "split":
            pick = legal[min(proposal, len(legal) - 1)]
        elif tm["step"] == "reinforce":
            pick = legal[0] if reinforce else legal[1]
        elif tm["step"] == "play" and (tm["board"], tm["side"]) in retreat:
            pick = next((a for a in legal if a["type"] == "retreat"), None)
        apply(c, pick or passive(legal), dice)
    raise AssertionError("campaign did not stop")
