"""La Belle Alliance in words (pure: the stdlib and ``game``): the legal actions as button
labels, each log event as a line, an outcome table's row, the end of a game. The card and
place names come from the card data the match plays with (``names_of``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game import other_side

HOUSE_NOTE = "house edition (ours, not the publisher's)"
ARMY = {"french": "French", "allied": "Anglo-Allied"}
WINNERS = {"french": "French", "allied": "Anglo-Allies"}
TIME_REASONS = {"prussians": "the fifth Prussian division marker is on the battlefield",
                "casualties": "ten or more division markers are on the casualty tracks"}
REASONS = {"resigned": "the other side resigned", "time": "the other side ran out of time",
           "absent": "the other side was away too long"}


def names_of(doc: Mapping[str, Any]) -> dict[str, str]:
    """Card id or place id -> its name ("I Corps (d'Erlon)", "La Haye Sainte")."""
    out = {}
    for c in doc.get("cards") or ():
        name, commander = str(c.get("name", c["id"])), c.get("commander")
        out[c["id"]] = f"{name} ({commander})" if commander and commander not in name \
            else name
    for place, p in ((doc.get("map") or {}).get("places") or {}).items():
        out[place] = str(p.get("name", place))
    return out


def _name(names: Mapping[str, str], key: Any) -> str:
    return names.get(str(key), str(key))


def effect_text(effect: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One row of an outcome table: "FC 1, AM 2, takes La Haye Sainte" ("no effect")."""
    parts = [f"{k} {effect[k]}" for k in ("FC", "AC", "FM", "AM") if effect.get(k)]
    if effect.get("capture"):
        parts.append(f"takes {_name(names, effect['capture'])}")
    if effect.get("enter"):
        parts.append(f"{effect['enter']} Prussian marker{'s' if effect['enter'] > 1 else ''} "
                     "enter")
    if effect.get("battery"):
        parts.append(f"Grand Battery loses {effect['battery']}")
    return ", ".join(parts) or "no effect"


def action_label(action: Mapping[str, Any], names: Mapping[str, str],
                 action_names: Mapping[tuple[str, str], str]) -> str:
    t = action.get("type")
    if t == "casualty":
        return f"Take the casualty from {_name(names, action.get('card'))}"
    if t == "pass":
        return "Pass (no action is possible)"
    card = _name(names, action.get("card"))
    what = action_names.get((str(action.get("card")), str(action.get("action"))),
                            str(action.get("action")))
    target = f" against {_name(names, action['target'])}" if action.get("target") else ""
    napoleon = ", with Napoleon" if action.get("napoleon") else ""
    return f"{card}: {what}{target}{napoleon}"


def _dice(e: Mapping[str, Any]) -> str:
    dice = [int(d) for d in e.get("dice") or ()]
    rolled = " and ".join(str(d) for d in dice)
    if len(dice) > 1:
        rolled += f" (the higher, {max(dice)}, counts)"
    mod = int(e.get("modifier") or 0)
    return rolled + (f", {mod:+d}" if mod else "")


def event_text(e: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One log line (an event as ``events_for`` lets it through)."""
    t = e.get("type")
    side = ARMY.get(str(e.get("side")), str(e.get("side") or ""))
    if t == "action":
        target = f" against {_name(names, e['target'])}" if e.get("target") else ""
        extra = " (a counter-attack)" if e.get("counter") else ""
        napoleon = "; Napoleon makes it more effective" if e.get("napoleon") else ""
        return f"{side}: {_name(names, e.get('card'))}, {e.get('name')}{target}{extra}" \
               f"{napoleon}."
    if t == "roll":
        return f"Rolled {_dice(e)}: row {e.get('result')}, " \
               f"{effect_text(e.get('outcome') or {}, names)}."
    if t == "morale":
        why = str(e.get("why") or "")
        why = _name(names, why.split(" ")[0]) + why[len(why.split(" ")[0]):] if why else ""
        return f"{side} morale -{e.get('loss')}, now {e.get('morale')}" + \
            (f" ({why})" if why else "") + "."
    if t == "capture":
        return f"The {side} take {_name(names, e.get('place'))}."
    if t == "enter":
        return f"{e.get('n')} Prussian division marker{'s' if e.get('n') != 1 else ''} " \
               f"enter{'s' if e.get('n') == 1 else ''} ({e.get('on_map')} on the " \
               f"battlefield, {e.get('entered')} so far)."
    if t == "battery":
        return f"The Grand Battery loses {e.get('lost')} marker" \
               f"{'s' if e.get('lost') != 1 else ''} ({e.get('left')} left)."
    if t == "casualty":
        label = f" ({e['label']})" if e.get("label") else ""
        return f"{side} casualty from {_name(names, e.get('card'))}: casualty box " \
               f"{e.get('box')}{label}."
    if t == "choose_casualty":
        return f"The {side} player chooses which corps takes a casualty " \
               f"({_name(names, e.get('from')) if e.get('from') else 'none left'} " \
               "cannot)."
    if t == "chosen":
        return f"The {side} player gives it from {_name(names, e.get('card'))}."
    if t == "no_marker":
        return f"No {side} division marker is left to take the casualty."
    if t == "rout_test":
        total = sum(int(d) for d in e.get("dice") or ()) + int(e.get("modifier") or 0)
        result = "the army routs!" if e.get("routed") else "it holds"
        return f"{side} rout test: rolled {_dice(e)} = {total} against morale " \
               f"{e.get('morale')}: {result}."
    if t == "pass":
        return f"The {side} pass."
    if t == "phase":
        return f"Turn {e.get('turn')}: the {side} phase."
    if t == "time":
        why = TIME_REASONS.get(str(e.get("reason")), str(e.get("reason")))
        return f"Time moves on to {e.get('label')}: {why}."
    if t == "game_over":
        return outcome_text(e) or "The game is over."
    if t == "undone":
        return f"The {side} took back action {e.get('undoes')}."
    if t == "auto_played":
        return f"Played for the {side}: the only possible action."
    return str(t)


def outcome_text(outcome: Mapping[str, Any] | None) -> str:
    """"The French win: the Anglo-Allied army routs (rout test failed), turn 6."."""
    if not outcome or not outcome.get("winner"):
        return ""
    winner = str(outcome["winner"])
    loser = other_side(winner)
    reason = str(outcome.get("reason") or "")
    why = REASONS.get(reason) or f"the {ARMY[loser]} army routs ({reason})"
    turn = f", turn {outcome['turn']}" if outcome.get("turn") else ""
    return f"The {WINNERS[winner]} win: {why}{turn}."
