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


# --- "A card in two places" (issue 29): positions where an army has no card at a battle ----

# (name, battle, army, allied pool without this army, retreats): each empties ``army`` at
# ``battle``: by the split (the side sends all its free cards of that army elsewhere) or by a
# collection without that army. Retreats steer the campaign to the battle's phase.
EMPTY_ARMY = {
    "quatre-bras-french": ("quatre-bras", "french", None, ()),
    "ligny-french": ("ligny", "french", None, ()),
    "quatre-bras-british": ("quatre-bras", "british", "british", ()),
    "ligny-prussian": ("ligny", "prussian", "prussian", ()),
    "waterloo-french": ("waterloo", "french", None, (("quatre-bras", "allied"),
                                                     ("ligny", "allied"))),
    "waterloo-british": ("waterloo", "british", "british", (("ligny", "allied"),)),
    "waterloo-prussian": ("waterloo", "prussian", None, (("quatre-bras", "allied"),
                                                         ("ligny", "allied"))),
    "wavre-french": ("wavre", "french", None, (("quatre-bras", "allied"),
                                               ("ligny", "allied"))),
    "wavre-prussian": ("wavre", "prussian", None, (("quatre-bras", "allied"),
                                                   ("ligny", "allied"))),
    "charleroi-british": ("charleroi", "british", "british", (("ligny", "french"),)),
    "charleroi-prussian": ("charleroi", "prussian", "prussian", (("quatre-bras", "french"),)),
}


def empty_army_pools(name: str) -> dict[str, list[int]]:
    """``small_pools`` less the allied army the scenario leaves out of the collection."""
    _, _, missing, _ = EMPTY_ARMY[name]
    pools = small_pools()
    pools["allied"] = [n for n in pools["allied"] if TABLE[n].army != missing]
    return pools


def empty_army_split(c, side: str, name: str) -> dict | None:
    """The split that sends every free card of the scenario's army away from its battle
    (None: not this phase's battles, or not this side's army)."""
    from battles.campaign import split_plan
    from battles.campaign.core import ORDER
    from game import ARMY_SIDE

    battle, army, _, _ = EMPTY_ARMY[name]
    battles = ORDER[c.phase]
    if battle not in battles or ARMY_SIDE[army] != ("french", "allied").index(side):
        return None
    other = next(b for b in battles if b != battle)
    free, _ = split_plan(c, side)
    away = [n for n in free if TABLE[n].army == army]
    return {"type": "split", "side": side,
            "decks": {battle: [n for n in free if n not in away], other: away}}


def empty_army_action(c, side: str, legal: list[dict], name: str) -> dict:
    """The scenario's policy: its split, its retreats at the first chance, keep, else
    passive."""
    _, _, _, retreats = EMPTY_ARMY[name]
    if legal[0]["type"] == "split":
        return empty_army_split(c, side, name) or legal[0]
    if legal[0]["type"] == "reinforce":
        return legal[1]  # keep
    board = legal[0].get("board")
    if (board, side) in retreats:
        pick = next((a for a in legal if a["type"] == "retreat"), None)
        if pick is not None:
            return pick
    return passive(legal)


def army_cards_at(st, army: str) -> list[int]:
    """Every card of ``army`` at a battle: field, Reserve, its deck, specials, discards."""
    from battles.campaign import board_cards
    from game import ARMY_SIDE

    return [n for n in board_cards(st, ARMY_SIDE[army]) if TABLE[n].army == army] + \
        list(st.decks.get(army, []))


def conserved(c, cards: set[int]) -> None:
    """Every card of the collection in exactly one place, and no other card anywhere
    (``places`` raises on a card in two places)."""
    from battles.campaign import places

    where = places(c)
    assert set(where) == cards, (sorted(set(where) - cards), sorted(cards - set(where)))
