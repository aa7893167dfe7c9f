"""Rules of the card catalogue (cards/data/catalogue.json): pure Python, no Django.

Holds the one Battle Points formula (15.0), the closed vocabulary of special-card effects
(13.0), their timings and restrictions; ``validation.py`` (``validate_catalogue``) lists
every problem in a catalogue file against them. Rule numbers refer to the EAGLES: Waterloo
rules, version 1.0. cards/data/README.md explains every value; keep the two in step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from game import BATTLES_CHART, TROOP_TYPES

# ---------------------------------------------------------------------------------------------
# Enumerations
# ---------------------------------------------------------------------------------------------

# 1.0 / 18.0: 110 French (1-110), 90 British (111-200), 100 Prussian (201-300).
ARMY_NUMBERS: dict[str, range] = {
    "french": range(1, 111),
    "british": range(111, 201),
    "prussian": range(201, 301),
}
NATIONALITIES = ("british", "kgl", "hanoverian", "brunswick", "nassau", "netherlands")
# Battles Chart (game.chart): which armies fought where, and the Battle Deck size D (2.0).
BATTLE_DECK: dict[str, dict[str, int]] = {
    battle: {army: entry.deck for army, entry in row.items()}
    for battle, row in BATTLES_CHART.items()
}
# Minimum number of terrain cards each army owns in each battle it fought (project rule).
MIN_TERRAIN_PER_BATTLE = 2

MORALE_VALUE = {"a": 4, "b": 3, "c": 2, "d": 1}  # 6.0
POSITIONS = ("l", "c", "r")  # 4.0, 4.2
TERRAIN_CLASSES = ("hill", "woods", "river", "building")  # 11.1-11.4
ARTILLERY_KINDS = ("foot", "horse")  # 7.23, 7.24

# 17.1: 1 cv is about 800 infantry, 400 cavalry or 6-8 guns (we use 7); cv is 1..5.
MEN_PER_CV = {"infantry": 800, "cavalry": 400}
GUNS_PER_CV = 7
CV_MIN, CV_MAX = 1, 5

# 17.2 morale policy, by army (French and Prussians) or by nationality (Wellington's army).
MORALE_ALLOWED: dict[str, frozenset[str]] = {
    "french_guard": frozenset("a"),  # the Imperial Guard is A
    "french": frozenset("bc"),  # line: C (fragile), veterans B
    "prussian": frozenset("bcd"),  # line B, Landwehr C (some D)
    "british": frozenset("ab"),  # regulars B, Guards/Household A
    "kgl": frozenset("b"),
    "hanoverian": frozenset("bcd"),
    "brunswick": frozenset("bcd"),
    "nassau": frozenset("cd"),
    "netherlands": frozenset("cd"),
}

ALL_KEYS = (
    "number", "name", "army", "nationality", "type", "ob_corps", "ob_division", "ob_brigade",
    "battles", "bp", "cv", "firepower", "shock", "fire_long", "fire_short", "artillery_kind",
    "morale", "offense", "defense", "corps", "chief_of_staff", "second_in_command",
    "terrain_battle", "terrain_position", "terrain_class", "move_limit", "special_text",
    "special_timing", "special_restrictions", "effect", "men", "guns", "source",
)
# Fields that must be non-null for each type; every other field of ALL_KEYS must be null
# (except the shared ones below).
SHARED_KEYS = ("number", "name", "army", "nationality", "type", "battles", "bp", "source",
               "ob_corps", "ob_division", "ob_brigade")
TYPE_KEYS: dict[str, tuple[str, ...]] = {
    "infantry": ("cv", "morale", "firepower", "shock", "men"),
    "cavalry": ("cv", "morale", "firepower", "shock", "men"),
    "artillery": ("cv", "morale", "artillery_kind", "fire_long", "fire_short", "guns"),
    "general": ("offense", "defense", "corps", "chief_of_staff", "second_in_command"),
    "terrain": ("terrain_battle", "terrain_position", "terrain_class"),  # + move_limit (river)
    "special": ("special_text", "special_timing", "special_restrictions", "effect"),
}
MAX_LEN = {"name": 80, "ob_corps": 30, "ob_division": 30, "ob_brigade": 40,
           "corps": 30, "special_timing": 20}

# ---------------------------------------------------------------------------------------------
# Special cards (13.0): timings, restrictions and the closed effect vocabulary
# ---------------------------------------------------------------------------------------------

# When a special is played. "own_*" = during the owner's Battle Turn phase (5.0);
# "enemy_*" = during the opponent's phase (10.0 allows specials playable on an enemy turn).
TIMINGS: dict[str, str] = {
    "deployment": "during Battle Deployment, before the first turn (4.1)",
    "own_morale": "own Morale Phase, before any roll is made (5.0, 6.0)",
    "own_combat": "own Combat Phase, before a card moves or fires (5.0, 7.0)",
    "own_reinforce": "own Reinforce Phase, instead of or after the normal draw (10.0)",
    "enemy_morale": "the enemy's Morale Phase, before the enemy rolls (6.0)",
    "enemy_combat": "the enemy's Combat Phase, when an enemy card fires, shocks or moves (7.0)",
}

# Conditions on where/whom a special may be played. Type/elite/nationality restrictions narrow
# the cards the effect touches (friendly or enemy, as the effect's target says).
RESTRICTIONS: dict[str, str] = {
    "prussians_arrived": "Waterloo: only after a Prussian General is revealed (10.0, 13.0)",
    "own_nationals_only": "only in a Position holding cards of the owning army (and of the card's"
                          " nationality, if set), and only aids those cards (13.0)",
    "one_per_position": "at most one copy of this card in effect on a Position (13.0, 15.0)",
    "infantry_only": "the effect applies only to Infantry cards",
    "cavalry_only": "the effect applies only to Cavalry cards",
    "artillery_only": "the effect applies only to Artillery cards",
    "elite_only": "the effect applies only to Morale A troop cards (Guard/Elite, 6.0)",
    "requires_general": "a friendly General must be in the Position (12.0)",
    "engaged_only": "the Position must be engaged (8.1)",
    "unengaged_only": "the Position must be unengaged (8.2, 11.0)",
    "river_present": "a River terrain card must lie in front of the Position (11.3)",
}
TYPE_RESTRICTIONS = ("infantry_only", "cavalry_only", "artillery_only")
# Restrictions rule 13.0 imposes on every card of a kind: they do not lower Battle Points.
RULE_RESTRICTIONS = ("prussians_arrived", "own_nationals_only")


@dataclass(frozen=True)
class IntParam:
    lo: int
    hi: int


@dataclass(frozen=True)
class EnumParam:
    choices: tuple[str, ...]


TARGET = EnumParam(("friendly", "enemy"))


@dataclass(frozen=True)
class EffectKind:
    """One executable effect. Scope: the Position the special is played on, for the phase
    (or turn) named by its timing (13.0). ``magnitude`` names the int param priced by BP."""

    meaning: str
    rule: str
    timings: frozenset[str]
    params: dict[str, IntParam | EnumParam] = field(default_factory=dict)
    magnitude: str | None = None
    bp_base: int = 1
    bp_per: int = 0


def _t(*names: str) -> frozenset[str]:
    return frozenset(names)


EFFECT_KINDS: dict[str, EffectKind] = {
    "morale_modifier": EffectKind(
        "friendly: +amount to the Morale Value of friendly troop cards for their Morale rolls;"
        " enemy: -amount to enemy troop cards' Morale Value (a 6 still routs, a 1 passes)",
        "6.0", _t("own_morale", "enemy_morale"),
        {"amount": IntParam(1, 2), "target": TARGET}, "amount", 3, 2),
    "cv_modifier": EffectKind(
        "friendly: +amount cv (dice) when friendly troop cards fire or shock; enemy: -amount cv"
        " to enemy cards firing or shocking at the Position (never below 1 die)",
        "7.1", _t("own_combat", "enemy_combat"),
        {"amount": IntParam(1, 1), "target": TARGET}, "amount", 4, 2),
    "firepower_modifier": EffectKind(
        "friendly: +amount F to friendly cards' Fire; enemy: -amount F to enemy Fire at the"
        " Position (F stays within F1-F4)",
        "7.2", _t("own_combat", "enemy_combat"),
        {"amount": IntParam(1, 1), "target": TARGET}, "amount", 3, 3),
    "shock_modifier": EffectKind(
        "friendly: +amount S to friendly Shock; enemy: -amount S to enemy Shock at the Position"
        " (S stays within S2-S4)",
        "7.3", _t("own_combat", "enemy_combat"),
        {"amount": IntParam(1, 1), "target": TARGET}, "amount", 3, 2),
    "remove_hits": EffectKind(
        "remove up to count hits from friendly troop cards in the Position before Morale rolls",
        "6.0", _t("own_morale"), {"count": IntParam(1, 2)}, "count", 3, 2),
    "rally_routed": EffectKind(
        "up to count friendly troop cards that Rout in the Position this Morale Phase go to the"
        " Reserve with no hits instead of being eliminated",
        "6.0", _t("own_morale"), {"count": IntParam(1, 1)}, "count", 4, 2),
    "extra_move": EffectKind(
        "up to count friendly cards in the Position may make one more Battle Move this Combat"
        " Phase (never engage and disengage in one turn)",
        "8.0, 8.3", _t("own_combat"), {"count": IntParam(1, 2)}, "count", 3, 1),
    "change_formation": EffectKind(
        "up to count friendly Infantry cards in the Position change formation without spending"
        " a Move, even when engaged",
        "9.0", _t("own_combat", "enemy_combat"), {"count": IntParam(1, 2)}, "count", 3, 1),
    "recover_blown": EffectKind(
        "all blown friendly Cavalry in the Position recover at once and may use Shock again",
        "7.31", _t("own_combat"), {}, None, 5, 0),
    "ignore_river_limit": EffectKind(
        "friendly cards crossing the River in front of the Position ignore its Move Limit this"
        " turn",
        "11.3", _t("own_combat"), {}, None, 5, 0),
    "draw_reinforcements": EffectKind(
        "draw count extra cards from the Reinforcement deck into the Reserve",
        "10.0", _t("own_reinforce"), {"count": IntParam(1, 2)}, "count", 3, 2),
    "reveal_enemy": EffectKind(
        "turn face-up up to count face-down enemy cards in the opposing Position",
        "4.1, 14.0", _t("deployment", "own_combat"), {"count": IntParam(1, 4)}, "count", 2, 1),
    "cancel_special": EffectKind(
        "cancel one enemy Special card just played on the Position or its opposing Position;"
        " both cards are discarded",
        "13.0", _t("enemy_morale", "enemy_combat"), {}, None, 6, 0),
}

# Effects whose friendly/enemy target must match the timing side (own_* / enemy_*).
TARGETED_KINDS = ("morale_modifier", "cv_modifier", "firepower_modifier", "shock_modifier")

# ---------------------------------------------------------------------------------------------
# Battle Points (15.0): the one formula
# ---------------------------------------------------------------------------------------------

TERRAIN_BP = {"building": 4, "hill": 3, "woods": 2}  # river: 6 - 2 * move_limit


def bp_formula(card: dict[str, Any]) -> int:
    """Battle Points of a card (15.0). Stated identically in cards/data/README.md.

    troops:    2*cv + morale_value + power - 3, where power = firepower + shock (infantry,
               cavalry) or fire_long + fire_short + (1 if horse) (artillery, 7.23-7.24)
    general:   3*(offense + defense) + (3 if corps == "A")                    (12.1-12.2)
    terrain:   building 4, hill 3, woods 2, river 6 - 2*move_limit          (11.1-11.4)
    special:   max(1, bp_base + bp_per*magnitude - narrowing restrictions)  (13.0), where
               narrowing = restrictions other than RULE_RESTRICTIONS
    """
    kind = card["type"]
    if kind in TROOP_TYPES:
        if kind == "artillery":
            power = card["fire_long"] + card["fire_short"] + (card["artillery_kind"] == "horse")
        else:
            power = card["firepower"] + card["shock"]
        return 2 * card["cv"] + MORALE_VALUE[card["morale"]] + power - 3
    if kind == "general":
        return 3 * (card["offense"] + card["defense"]) + (3 if card["corps"] == "A" else 0)
    if kind == "terrain":
        if card["terrain_class"] == "river":
            return 6 - 2 * card["move_limit"]
        return TERRAIN_BP[card["terrain_class"]]
    if kind == "special":
        effect = EFFECT_KINDS[card["effect"]["kind"]]
        magnitude = card["effect"][effect.magnitude] if effect.magnitude else 0
        narrowing = [r for r in card["special_restrictions"] if r not in RULE_RESTRICTIONS]
        return max(1, effect.bp_base + effect.bp_per * magnitude - len(narrowing))
    raise ValueError(f"unknown card type {kind!r}")


def cv_from_strength(card: dict[str, Any]) -> int:
    """17.1: cv = men/800 (infantry), men/400 (cavalry) or guns/7 (artillery), rounded half
    up, then held within 1..5."""
    if card["type"] == "artillery":
        ratio = Decimal(card["guns"]) / GUNS_PER_CV
    else:
        ratio = Decimal(card["men"]) / MEN_PER_CV[card["type"]]
    value = int(ratio.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return min(CV_MAX, max(CV_MIN, value))
