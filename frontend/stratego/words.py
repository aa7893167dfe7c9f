"""Stratego: Waterloo in words (pure: the stdlib and ``game``): squares, pieces, legal
actions and the log's events. Everything worded comes from a viewer's view and the events
``events_for`` let through: an unrevealed enemy piece is named by its back only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from game import SIDE_NAMES

COLS, ROWS = 12, 10
LETTERS = "abcdefghijkl"
TYPE_NAMES = {"light_infantry": "light infantry", "line_infantry": "line infantry",
              "light_cavalry": "light cavalry", "heavy_cavalry": "heavy cavalry",
              "artillery": "artillery", "commander": "commander",
              "commander_in_chief": "commander-in-chief"}
SHORT = {"light_infantry": "LI", "line_infantry": "Inf", "light_cavalry": "LC",
         "heavy_cavalry": "HC", "artillery": "Art", "commander": "Cdr",
         "commander_in_chief": "CiC"}
BACK_NAMES = {"infantry": "infantry", "cavalry": "cavalry", "artillery": "artillery"}
REASONS = {"lines_of_retreat": "two units on the enemy's lines of retreat",
           "commanders_lost": "the enemy lost his commander and commander-in-chief",
           "commander_in_chief": "the enemy commander-in-chief was captured",
           "agreement": "a draw by agreement", "turn_cap": "the turn limit",
           "resigned": "resignation", "time": "time", "absent": "the opponent's absence"}
WHY = {"strength": "by strength", "die": "by the battle die", "die_friendly": "by the die",
       "artillery_front": "artillery attacked from the front",
       "artillery_flank": "artillery attacked from a flank or the rear",
       "friendly_artillery": "artillery",
       "commander_in_chief_attacked": "a commander-in-chief dies to any attack",
       "commander_in_chief_attacks": "a commander-in-chief destroys what it attacks"}


CARD_NAMES = {"combined_attack": "Combined attack", "fighting_spirit": "Fighting spirit",
              "grand_battery": "Grand battery", "initiative": "Initiative",
              "reconnaissance": "Reconnaissance"}
TILE_NAMES = {"hougoumont": "Hougoumont", "la_haye_sainte": "La Haye Sainte",
              "mont_st_jean": "Mont St Jean", "plancenoit": "Plancenoit"}


def card_name(card: Any) -> str:
    return CARD_NAMES.get(str(card), str(card or "?").replace("_", " ").capitalize())


def tile_name(name: Any) -> str:
    return TILE_NAMES.get(str(name), str(name or "?").replace("_", " ").title())


def square(pair: Any) -> str:
    """[col, row] as 'e4' (columns a-l from the French left, rows 1-10 from the French back
    row)."""
    if isinstance(pair, Sequence) and len(pair) == 2 and all(isinstance(v, int) for v in pair):
        col, row = pair
        if 0 <= col < COLS:
            return f"{LETTERS[col]}{row + 1}"
    return "?"


def piece_name(p: Mapping[str, Any] | None) -> str:
    """A piece as the viewer knows it: its name and strength when seen, else its back."""
    if not p:
        return "a piece"
    if p.get("type"):
        strength = p.get("strength")
        kind = TYPE_NAMES.get(str(p["type"]), str(p["type"]))
        name = str(p.get("name") or kind)
        return f"{name} ({kind}{f', {strength}' if strength is not None else ''})"
    back = BACK_NAMES.get(str(p.get("back")), "piece")
    army = " Prussian" if p.get("army") == "prussian" else ""
    return f"an unknown{army} {back}"


def side_name(side: Any) -> str:
    return SIDE_NAMES.get(str(side), str(side or "?"))


def action_label(a: Mapping[str, Any], at: Mapping[tuple[int, int], Mapping[str, Any]],
                 offboard: Mapping[str, Mapping[str, Any]]) -> str:
    """A legal action in words; ``at``: the viewer's board by square, ``offboard``: their
    pieces off the board by id. An action of a type not known here is still worded."""
    t = a.get("type")
    here = at.get(tuple(a["from"])) if isinstance(a.get("from"), list) else None
    if t == "move":
        return f"Move to {square(a.get('to'))}"
    if t == "attack":
        target = at.get(tuple(a["target"])) if isinstance(a.get("target"), list) else None
        via = "" if a.get("via") == a.get("from") else f" from {square(a.get('via'))}"
        return f"Attack {piece_name(target)} at {square(a.get('target'))}{via}"
    if t == "fire":
        target = at.get(tuple(a["target"])) if isinstance(a.get("target"), list) else None
        return f"Fire at {piece_name(target)} on {square(a.get('target'))}"
    if t == "rest":
        return f"Take {piece_name(here)} off to rest (no action)"
    if t == "enter":
        return f"Enter {piece_name(offboard.get(str(a.get('piece'))))} at {square(a.get('to'))}"
    if t == "end_turn":
        return "End my turn"
    if t == "offer_draw":
        return "Offer a draw"
    if t == "accept_draw":
        return "Accept the draw"
    if t == "deploy":
        return "Random set-up" if a.get("random") else "Deploy"
    if t == "card":
        where = a.get("square") or a.get("from")
        return f"Play {card_name(a.get('card'))}" + (
            f" on {piece_name(at.get(tuple(where)))} at {square(where)}"
            if isinstance(where, list) else "")
    if t == "draft":
        return f"Keep {card_name(a.get('keep'))}" + (
            f", discard {card_name(a['discard'])}" if a.get("discard") else "")
    if t == "take_cards":
        return "Take " + " and ".join(card_name(c) for c in a.get("cards") or ())
    if t == "fighting_spirit":
        return f"Play Fighting spirit on the attacked piece at {square(a.get('square'))}"
    if t == "decline":
        return "No Fighting spirit: let the attack go ahead"
    if t == "look":
        looked = at.get(tuple(a["square"])) if isinstance(a.get("square"), list) else None
        return f"Look at {piece_name(looked)} at {square(a.get('square'))}"
    if t == "end_card":
        return "Finish the card"
    if t == "rampage":
        return f"Attack on to {square(a.get('target'))}"
    if t == "roll_for_prussians":
        return "Roll for the Prussians"
    if t == "pursue":
        if "slot" in a:
            return f"Pursue the enemy cavalry set aside (slot {int(a['slot']) + 1})"
        target = at.get(tuple(a["target"])) if isinstance(a.get("target"), list) else None
        return f"Pursue {piece_name(target)} at {square(a.get('target'))}"
    if t == "save":
        if isinstance(a.get("square"), list):
            return f"Save {piece_name(at.get(tuple(a['square'])))} at {square(a['square'])}"
        return f"Take {piece_name(offboard.get(str(a.get('piece'))))} off for good (saved)"
    rest = ", ".join(f"{k} {square(v) if isinstance(v, list) else v}" for k, v in a.items()
                     if k not in ("type", "side"))
    return f"{str(t).replace('_', ' ').capitalize()}{f' ({rest})' if rest else ''}"


def event_text(e: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str:
    """One event of a viewer's log (``events_for``'s), in words; ``names``: the pieces the
    viewer may know, by id."""
    names = names or {}
    t = e.get("type")
    who = side_name(e.get("side") or e.get("by"))
    secret = e.get("secret") or {}
    if t == "deployed":
        placed = len(e.get("backs") or ())
        return f"The {who} set up: {placed} pieces on the board, {e.get('reserve', 0)} in reserve."
    if t == "turn":
        return f"Turn {e.get('turn')} ({e.get('time')}): the {who}, {e.get('actions')} actions."
    if t == "move":
        mine = secret.get("piece") or e.get("piece")
        what = f" {names.get(mine, mine)}" if mine else ""
        return f"The {who} moved{what} {square(e.get('from'))} → {square(e.get('to'))}."
    if t == "enter":
        mine = secret.get("piece") or e.get("piece")
        what = names.get(mine, mine) if mine else f"a {e.get('back', 'piece')}"
        return f"The {who} entered {what} at {square(e.get('to'))}."
    if t == "attack":
        return f"The {who} attacked {square(e.get('target'))} from {square(e.get('via'))}."
    if t == "combat":
        att, dfn = e.get("attacker") or {}, e.get("defender") or {}
        die = f" Die: {e['face']}." if e.get("face") else ""
        won = "the attacker" if e.get("winner") == "attacker" else "the defender"
        plus = "Rampage: " if e.get("rampage") else ""
        return (f"{plus}{piece_name(att)} attacked {piece_name(dfn)} at {square(e.get('at'))}."
                f"{die} {won.capitalize()} won ({WHY.get(str(e.get('why')), e.get('why'))}).")
    if t == "fire":
        art = piece_name(e.get("artillery"))
        result = e.get("result")
        victim = piece_name(e.get("victim")) if e.get("victim") else "the target"
        end = " (immune)" if result == "immune" else ""
        return f"{art} fired at {square(e.get('target'))}: {victim}{end}."
    if t == "eliminated":
        return f"{piece_name(e.get('piece'))} was eliminated."
    if t == "withdrawn":
        return f"{piece_name(e.get('piece'))} withdrew off the board."
    if t == "weakened":
        return f"{piece_name(e.get('piece'))} lost strength charging."
    if t == "rest":
        return f"The {who} took heavy cavalry off to rest."
    if t == "rampage_ends":
        return f"The rampage ended at {square(e.get('at'))}."
    if t == "prussians_arrive":
        return f"{len(e.get('squares') or ())} Prussians arrived on the Prussian flag."
    if t == "draw_offered":
        return f"The {who} offered a draw."
    if t == "draw_accepted":
        return f"The {who} accepted the draw."
    if t == "game_over":
        winner = e.get("winner")
        return (f"The game is over: the {side_name(winner)} win ("
                f"{REASONS.get(str(e.get('reason')), e.get('reason'))})." if winner else
                f"The game is over: a draw ({REASONS.get(str(e.get('reason')), e.get('reason'))}).")
    if t == "draft":
        kept = secret.get("keep")
        return f"The {who} drafted a card" + (f": kept {card_name(kept)}" + (
            f", discarded {card_name(secret['discard'])}" if secret.get("discard") else "")
            if kept else "") + "."
    if t == "take_cards":
        taken = secret.get("cards")
        return f"The {who} took {e.get('count', 2)} cards from the discards" + (
            f": {', '.join(card_name(c) for c in taken)}" if taken else "") + "."
    if t == "card":
        where = e.get("square") or e.get("from")
        return f"The {who} played {card_name(e.get('card'))}" + (
            f" at {square(where)}" if where else "") + "."
    if t == "card_done":
        return f"{card_name(e.get('card'))} is done."
    if t == "look":
        seen = secret.get("piece")
        return f"The {who} looked at {square(e.get('square'))}" + (
            f": {piece_name(seen)}" if seen else "") + "."
    if t == "building_hit":
        return f"{tile_name(e.get('building'))} was hit ({e.get('damage')} of 4)."
    if t == "building_destroyed":
        return f"{tile_name(e.get('building'))} was destroyed."
    if t == "flag":
        return f"The {side_name(e.get('owner'))} flag flies over {tile_name(e.get('building'))}."
    if t == "pursuit":
        return f"The Pursuit begins: the {side_name(e.get('victor'))} pursue."
    if t == "pursued":
        return f"{piece_name(e.get('piece'))} was pursued."
    if t == "saved":
        return f"The {who} saved an {e.get('back', 'piece')}."
    if t == "undone":
        return f"The {who} took back an action."
    if t == "auto_played":
        return "Played automatically."
    return f"{str(t).replace('_', ' ').capitalize()}."


def outcome_text(outcome: Mapping[str, Any] | None) -> str:
    if not outcome:
        return ""
    reason = REASONS.get(str(outcome.get("reason")), str(outcome.get("reason")))
    if outcome.get("winner"):
        return f"The {side_name(outcome['winner'])} win: {reason}."
    return f"A draw: {reason}."
