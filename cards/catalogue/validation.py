"""``validate_catalogue``: every problem in a catalogue file (cards/data/catalogue.json),
checked against the catalogue's rules (``rules.py``: the vocabulary, the Battle Points
formula 15.0, the effect kinds 13.0). Pure Python, no Django.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from typing import Any

from game import ARMIES, BATTLES, CARD_TYPES, TROOP_TYPES

from .rules import (
    ALL_KEYS,
    ARMY_NUMBERS,
    ARTILLERY_KINDS,
    BATTLE_DECK,
    CV_MAX,
    CV_MIN,
    EFFECT_KINDS,
    MAX_LEN,
    MIN_TERRAIN_PER_BATTLE,
    MORALE_ALLOWED,
    MORALE_VALUE,
    NATIONALITIES,
    POSITIONS,
    RESTRICTIONS,
    SHARED_KEYS,
    TARGET,
    TARGETED_KINDS,
    TERRAIN_CLASSES,
    TIMINGS,
    TYPE_KEYS,
    TYPE_RESTRICTIONS,
    IntParam,
    bp_formula,
    cv_from_strength,
)


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


def _check_enum(errors: list[str], where: str, key: str, value: Any, choices: Collection[str]
                ) -> bool:
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
