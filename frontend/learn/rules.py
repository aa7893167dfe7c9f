"""Where each rule is told on the how-to-play page (``/learn/``): rule number -> the anchor
of its section, and each action type's rule number, so the battle page links an action to
its rule. One home for these links (the battle page and the tutorial read them here)."""

from __future__ import annotations

from django.urls import reverse

# The section of the how-to-play page that tells each rule (rule number -> anchor id).
SECTIONS = {
    "1.0": "cards", "2.0": "decks", "3.0": "decks", "4.0": "battlefield", "4.1": "deployment",
    "4.2": "deployment", "4.3": "victory", "5.0": "turn", "6.0": "morale", "7.0": "combat",
    "7.1": "combat", "7.2": "combat", "7.21": "combat", "7.22": "combat", "7.23": "artillery",
    "7.24": "artillery", "7.3": "shock", "7.31": "shock", "7.32": "shock", "7.33": "shock",
    "7.34": "shock", "7.4": "targeting", "8.0": "moves", "8.1": "engaging",
    "8.2": "engaging", "8.3": "moves", "8.4": "moves", "9.0": "formations",
    "9.1": "formations", "9.2": "formations", "9.3": "formations", "10.0": "reinforcements",
    "11.0": "terrain", "11.5": "terrain", "12.0": "generals", "12.1": "generals",
    "12.4": "generals", "13.0": "specials", "14.0": "decoys",
}
# The rule behind each action type of the battle page.
ACTION_RULES = {
    "deploy": "4.1", "deployment_done": "4.1", "play_terrain": "11.0", "decoy": "14.0",
    "move": "8.0", "change_formation": "9.0", "occupy": "11.5", "fire": "7.0",
    "shock": "7.3", "play_special": "13.0", "roll_morale": "6.0", "pass": "13.0",
    "end_phase": "10.0", "end_turn": "10.0",
}


def rule_link(number: str) -> dict[str, str]:
    """``{"number", "url"}``: the rule and its place on the how-to-play page."""
    return {"number": number, "url": f"{reverse('learn')}#{SECTIONS.get(number, 'turn')}"}


def rule_links(action_types: list[str]) -> list[dict[str, str]]:
    """The rules of these action types, each once, in order."""
    seen: list[str] = []
    for t in action_types:
        number = ACTION_RULES.get(t)
        if number and number not in seen:
            seen.append(number)
    return [rule_link(n) for n in seen]
