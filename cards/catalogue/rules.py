"""Rules of the card catalogue (cards/data/catalogue.json): pure Python, no Django.

Holds the one Battle Points formula (15.0), the closed vocabulary of special-card effects
(13.0), their timings and restrictions, and ``validate_catalogue``, which lists every problem
in a catalogue file. Rule numbers refer to the EAGLES: Waterloo rules, version 1.0.
cards/data/README.md explains every value; keep the two in step.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from game import ARMIES, BATTLES, BATTLES_CHART

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
CARD_TYPES = ("general", "infantry", "cavalry", "artillery", "terrain", "special")
TROOP_TYPES = ("infantry", "cavalry", "artillery")
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


def army_battles(army: str) -> tuple[str, ...]:
    return tuple(b for b in BATTLES if army in BATTLE_DECK[b])


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _battles(card: dict[str, Any]) -> list:
    battles = card.get("battles")
    return battles if isinstance(battles, list) else []


def _sound(card: Any) -> bool:
    """Whole-catalogue checks only read cards whose structure is sound."""
    return (isinstance(card, dict) and all(k in card for k in ALL_KEYS)
            and card["army"] in ARMIES and card["type"] in CARD_TYPES
            and isinstance(card["battles"], list))


def _check_int(errors: list[str], where: str, key: str, value: Any, lo: int, hi: int) -> bool:
    if not _is_int(value) or not lo <= value <= hi:
        errors.append(f"{where}: {key} must be an int {lo}-{hi}, got {value!r}")
        return False
    return True


def _check_enum(errors: list[str], where: str, key: str, value: Any, choices) -> bool:
    if not isinstance(value, str) or value not in choices:
        errors.append(f"{where}: {key} must be one of {sorted(choices)}, got {value!r}")
        return False
    return True


def _morale_policy(card: dict[str, Any]) -> str | None:
    if card["army"] == "french":
        return "french_guard" if card.get("ob_corps") == "Guard" else "french"
    if card["army"] == "prussian":
        return "prussian"
    nationality = card.get("nationality")
    return nationality if isinstance(nationality, str) else None


def _validate_troop(errors: list[str], where: str, card: dict[str, Any]) -> None:
    kind = card["type"]
    ok = _check_int(errors, where, "cv", card["cv"], CV_MIN, CV_MAX)
    if _check_enum(errors, where, "morale", card["morale"], MORALE_VALUE):
        policy = _morale_policy(card)
        allowed = MORALE_ALLOWED.get(policy or "")
        if allowed is not None and card["morale"] not in allowed:
            errors.append(f"{where}: morale {card['morale']!r} breaks the 17.2 rule for"
                          f" {policy} troops (allowed: {''.join(sorted(allowed))})")
    else:
        ok = False
    if kind == "artillery":
        ok &= _check_enum(errors, where, "artillery_kind", card["artillery_kind"],
                          ARTILLERY_KINDS)
        ok &= _check_int(errors, where, "fire_long", card["fire_long"], 1, 4)
        ok &= _check_int(errors, where, "fire_short", card["fire_short"], 1, 4)
        if ok and card["fire_long"] > card["fire_short"]:
            errors.append(f"{where}: fire_long {card['fire_long']} exceeds fire_short"
                          f" {card['fire_short']} (7.23)")
        ok &= _check_int(errors, where, "guns", card["guns"], 1, 400)
    else:
        if kind == "cavalry":
            if card["firepower"] != 1:
                errors.append(f"{where}: firepower of cavalry must be 1 (7.22),"
                              f" got {card['firepower']!r}")
                ok = False
        else:
            ok &= _check_int(errors, where, "firepower", card["firepower"], 1, 4)
        ok &= _check_int(errors, where, "shock", card["shock"], 2, 4)
        ok &= _check_int(errors, where, "men", card["men"], 1, 20000)
    if ok and card["cv"] != cv_from_strength(card):
        basis = "guns" if kind == "artillery" else "men"
        errors.append(f"{where}: cv {card['cv']} does not follow the 17.1 rule from"
                      f" {basis}={card[basis]} (expected {cv_from_strength(card)})")


def _validate_general(errors: list[str], where: str, card: dict[str, Any]) -> None:
    _check_int(errors, where, "offense", card["offense"], 0, 3)
    _check_int(errors, where, "defense", card["defense"], 0, 3)
    if not isinstance(card["corps"], str) or not card["corps"]:
        errors.append(f"{where}: corps must be a non-empty string, got {card['corps']!r}")
    for key in ("chief_of_staff", "second_in_command"):
        if not isinstance(card[key], bool):
            errors.append(f"{where}: {key} must be true or false, got {card[key]!r}")


def _validate_terrain(errors: list[str], where: str, card: dict[str, Any]) -> None:
    battle_ok = _check_enum(errors, where, "terrain_battle", card["terrain_battle"], BATTLES)
    _check_enum(errors, where, "terrain_position", card["terrain_position"], POSITIONS)
    if _check_enum(errors, where, "terrain_class", card["terrain_class"], TERRAIN_CLASSES):
        if card["terrain_class"] == "river":
            _check_int(errors, where, "move_limit", card["move_limit"], 1, 2)
        elif card["move_limit"] is not None:
            errors.append(f"{where}: move_limit must be null for a"
                          f" {card['terrain_class']} (11.3: rivers only)")
    if battle_ok:
        if card["battles"] != [card["terrain_battle"]]:
            errors.append(f"{where}: battles must be exactly [{card['terrain_battle']!r}] for"
                          f" terrain (11.0), got {card['battles']!r}")
        if card["army"] not in BATTLE_DECK[card["terrain_battle"]]:
            errors.append(f"{where}: terrain_battle {card['terrain_battle']!r} is a battle the"
                          f" {card['army']} army did not fight")
        elif (card["army"] == "prussian" and card["terrain_battle"] == "waterloo"
              and card["terrain_position"] != "l"):
            errors.append(f"{where}: terrain_position must be 'l' for Prussian terrain at"
                          " Waterloo (10.0: Prussians only on the British Left)")


def _validate_special(errors: list[str], where: str, card: dict[str, Any]) -> None:
    if not isinstance(card["special_text"], str) or not card["special_text"].strip():
        errors.append(f"{where}: special_text must be non-empty text")
    _check_enum(errors, where, "special_timing", card["special_timing"], TIMINGS)
    restrictions = card["special_restrictions"]
    if not isinstance(restrictions, list):
        errors.append(f"{where}: special_restrictions must be a list, got {restrictions!r}")
        restrictions = []
    for item in restrictions:
        _check_enum(errors, where, "special_restrictions item", item, RESTRICTIONS)
    if len(set(map(str, restrictions))) != len(restrictions):
        errors.append(f"{where}: special_restrictions has duplicates")
    if sum(r in TYPE_RESTRICTIONS for r in restrictions) > 1:
        errors.append(f"{where}: special_restrictions may name at most one troop type")
    if card["army"] == "british" and "own_nationals_only" not in restrictions:
        errors.append(f"{where}: special_restrictions must include 'own_nationals_only' for a"
                      " British special (13.0)")
    if card["army"] == "prussian" and "waterloo" in _battles(card):
        for needed in ("prussians_arrived", "own_nationals_only"):
            if needed not in restrictions:
                errors.append(f"{where}: special_restrictions must include {needed!r} for a"
                              " Prussian special usable at Waterloo (13.0)")
    effect = card["effect"]
    if not isinstance(effect, dict):
        errors.append(f"{where}: effect must be an object with a 'kind', got {effect!r}")
        return
    kind = effect.get("kind")
    if not isinstance(kind, str) or kind not in EFFECT_KINDS:
        errors.append(f"{where}: effect.kind {kind!r} is not in EFFECT_KINDS")
        return
    spec = EFFECT_KINDS[kind]
    for name in sorted(set(effect) - {"kind"} - set(spec.params)):
        errors.append(f"{where}: effect param {name!r} is not allowed for {kind}")
    for name, param in spec.params.items():
        if name not in effect:
            errors.append(f"{where}: effect param {name!r} is missing for {kind}")
        elif isinstance(param, IntParam):
            _check_int(errors, where, f"effect.{name}", effect[name], param.lo, param.hi)
        else:
            _check_enum(errors, where, f"effect.{name}", effect[name], param.choices)
    timing = card["special_timing"] if isinstance(card["special_timing"], str) else None
    if timing in TIMINGS and timing not in spec.timings:
        errors.append(f"{where}: special_timing {timing!r} is not allowed for {kind}"
                      f" (allowed: {sorted(spec.timings)})")
    if kind in TARGETED_KINDS and timing in TIMINGS and effect.get("target") in TARGET.choices:
        side = "own" if effect["target"] == "friendly" else "enemy"
        if not timing.startswith(side):
            errors.append(f"{where}: effect target {effect['target']!r} needs a {side}_*"
                          f" timing, got {timing!r}")
    if kind == "ignore_river_limit" and "river_present" not in restrictions:
        errors.append(f"{where}: special_restrictions must include 'river_present' for"
                      " ignore_river_limit (11.3)")


def _validate_card(errors: list[str], card: Any, index: int) -> None:
    if not isinstance(card, dict):
        errors.append(f"cards[{index}]: must be an object")
        return
    number = card.get("number")
    where = f"card #{number}" if _is_int(number) else f"cards[{index}]"
    missing = [k for k in ALL_KEYS if k not in card]
    extra = sorted(set(card) - set(ALL_KEYS))
    for key in missing:
        errors.append(f"{where}: missing field {key!r}")
    for key in extra:
        errors.append(f"{where}: unknown field {key!r}")
    if missing:
        return
    _check_int(errors, where, "number", number, 1, 300)
    if not isinstance(card["name"], str) or not card["name"].strip():
        errors.append(f"{where}: name must be non-empty text")
    for key, limit in MAX_LEN.items():
        if isinstance(card[key], str) and len(card[key]) > limit:
            errors.append(f"{where}: {key} is longer than {limit} characters")
    army_ok = _check_enum(errors, where, "army", card["army"], ARMIES)
    if army_ok and _is_int(number) and number not in ARMY_NUMBERS[card["army"]]:
        span = ARMY_NUMBERS[card["army"]]
        errors.append(f"{where}: number {number} is outside the {card['army']} range"
                      f" {span.start}-{span.stop - 1}")
    if not _check_enum(errors, where, "type", card["type"], CARD_TYPES):
        return
    kind = card["type"]
    # Nationality: Wellington's army only; required on its troops and generals.
    if card["nationality"] is not None:
        _check_enum(errors, where, "nationality", card["nationality"], NATIONALITIES)
        if card["army"] != "british":
            errors.append(f"{where}: nationality must be null for a {card['army']} card")
    elif card["army"] == "british" and kind in (*TROOP_TYPES, "general"):
        errors.append(f"{where}: nationality is required for a British {kind}")
    # Battles.
    battles = card["battles"]
    if not isinstance(battles, list) or any(b not in BATTLES for b in battles):
        errors.append(f"{where}: battles must be a list of {list(BATTLES)}, got {battles!r}")
    else:
        if battles != [b for b in BATTLES if b in battles]:
            errors.append(f"{where}: battles must be unique and in the order {list(BATTLES)}")
        if army_ok:
            for b in battles:
                if card["army"] not in BATTLE_DECK[b]:
                    errors.append(f"{where}: battles lists {b!r}, which the {card['army']}"
                                  " army did not fight")
        if kind == "special" and not battles:
            errors.append(f"{where}: battles must name at least one battle for a special")
    # O/B reference (17.4).
    for key in ("ob_corps", "ob_division", "ob_brigade"):
        value = card[key]
        if kind in ("terrain", "special"):
            if value is not None:
                errors.append(f"{where}: {key} must be null for {kind} cards")
        elif value is not None and (not isinstance(value, str) or not value):
            errors.append(f"{where}: {key} must be a non-empty string or null")
    if kind not in ("terrain", "special") and not card["ob_corps"]:
        errors.append(f"{where}: ob_corps is required for {kind} cards (17.4)")
    # Type-specific fields present, all others null.
    required = TYPE_KEYS[kind] + (("move_limit",) if card.get("terrain_class") == "river"
                                  else ())
    for key in ALL_KEYS:
        if key in SHARED_KEYS or key in required:
            continue
        if card[key] is not None:
            errors.append(f"{where}: {key} must be null for {kind} cards, got {card[key]!r}")
    if kind in TROOP_TYPES:
        _validate_troop(errors, where, card)
    elif kind == "general":
        _validate_general(errors, where, card)
    elif kind == "terrain":
        _validate_terrain(errors, where, card)
    else:
        _validate_special(errors, where, card)
    if not isinstance(card["source"], str) or not card["source"].strip():
        errors.append(f"{where}: source must be non-empty text")
    # Battle Points last: only when the fields it reads are sound.
    if not any(e.startswith(where + ":") for e in errors):
        expected = bp_formula(card)
        if card["bp"] != expected:
            errors.append(f"{where}: bp {card['bp']!r} does not equal bp_formula ({expected})")


def _validate_whole(errors: list[str], cards: list[dict[str, Any]]) -> None:
    numbers = [c["number"] for c in cards if _is_int(c.get("number"))]
    for number, n in sorted(Counter(numbers).items()):
        if n > 1:
            errors.append(f"card #{number}: number used {n} times")
    absent = sorted(set(range(1, 301)) - set(numbers))
    if absent:
        errors.append(f"catalogue: card numbers missing: {absent}")
    if numbers != sorted(numbers):
        errors.append("catalogue: cards must be sorted by number")
    names = Counter(c.get("name") for c in cards if isinstance(c.get("name"), str))
    for c in cards:
        if isinstance(c.get("name"), str) and names[c["name"]] > 1:
            errors.append(f"card #{c.get('number')}: name {c.get('name')!r} is not unique")
    per_army = Counter(c.get("army") for c in cards if isinstance(c.get("army"), str))
    for army, span in ARMY_NUMBERS.items():
        if per_army[army] != len(span):
            errors.append(f"catalogue: {army} has {per_army[army]} cards, expected {len(span)}"
                          " (18.0)")
    sound = [c for c in cards if _sound(c)]
    for army in ARMIES:
        mine = [c for c in sound if c["army"] == army]
        for kind in CARD_TYPES:
            if kind == "artillery":
                for art in ARTILLERY_KINDS:
                    if not any(c["type"] == kind and c["artillery_kind"] == art for c in mine):
                        errors.append(f"catalogue: {army} has no {art} artillery card")
            elif not any(c["type"] == kind for c in mine):
                errors.append(f"catalogue: {army} has no {kind} card")
    # 12.3: one chief of staff each for the French (Soult) and Prussians (Gneisenau); one
    # British second in command (Uxbridge).
    generals = [c for c in sound if c["type"] == "general"]
    for army, key, want in (("french", "chief_of_staff", 1), ("prussian", "chief_of_staff", 1),
                            ("british", "chief_of_staff", 0), ("british", "second_in_command", 1),
                            ("french", "second_in_command", 0),
                            ("prussian", "second_in_command", 0)):
        have = [c["number"] for c in generals if c["army"] == army and c[key] is True]
        if len(have) != want:
            errors.append(f"catalogue: {army} must have {want} general(s) with {key} true,"
                          f" found {len(have)} {have}")
    # 12.2: a general commands "A" (any corps) or a corps that troop cards of his army carry.
    corps_ids = {(c["army"], c["ob_corps"]) for c in sound
                 if c["type"] in TROOP_TYPES and isinstance(c["ob_corps"], str)}
    for c in generals:
        if not isinstance(c["corps"], str):
            continue  # reported by the card check
        if c["corps"] != "A" and (c["army"], c["corps"]) not in corps_ids:
            errors.append(f"card #{c['number']}: corps {c['corps']!r} matches no {c['army']}"
                          " troop card's ob_corps (12.2)")
    # 2.0: a historical Battle Deck must be possible; terrain always historical (>= 2 each).
    for battle, decks in BATTLE_DECK.items():
        for army, size in decks.items():
            played = [c for c in sound if c["army"] == army and battle in c["battles"]]
            history = [c for c in played if c["type"] != "terrain"]
            terrain = [c for c in played if c["type"] == "terrain"]
            if len(history) < size:
                errors.append(f"catalogue: {battle} has {len(history)} historical {army} cards"
                              f" (not terrain), fewer than its Battle Deck D{size} (2.0)")
            if len(terrain) < MIN_TERRAIN_PER_BATTLE:
                errors.append(f"catalogue: {battle} has {len(terrain)} {army} terrain cards,"
                              f" expected at least {MIN_TERRAIN_PER_BATTLE}")


def validate_catalogue(data: Any) -> list[str]:
    """Every problem in a catalogue document, as messages naming the card and field."""
    errors: list[str] = []
    if not isinstance(data, dict):
        return ["catalogue: the document must be an object with 'version' and 'cards'"]
    extra = sorted(set(data) - {"version", "cards"})
    if extra:
        errors.append(f"catalogue: unknown top-level keys {extra}")
    if not isinstance(data.get("version"), str) or not data["version"]:
        errors.append("catalogue: version must be a non-empty string")
    cards = data.get("cards")
    if not isinstance(cards, list):
        return [*errors, "catalogue: cards must be a list"]
    for index, card in enumerate(cards):
        _validate_card(errors, card, index)
    _validate_whole(errors, [c for c in cards if isinstance(c, dict)])
    return errors
