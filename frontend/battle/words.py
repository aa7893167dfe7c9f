"""A battle in words (pure: the stdlib and ``game``): labels for actions and log lines for
events, naming only what the viewer's view shows.

* ``describe_action(action, view, cards)``: a plain-English label for a legal action.
* ``describe_event(event, view_side, cards, view=)``: one battle-log line for an event;
  ``describe_events`` does a list, naming pieces revealed along the way.

A face-down enemy card is never named: only the view (already redacted by the engine) and
the card table are read, through ``Ctx``. Plain text: escape it for HTML (templates do).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from frontend.svg import clean
from game import ARMY_NAMES, SIDE_NAMES, SIDES, other_side

from .view_context import (
    ELIMINATION_REASONS,
    FORMATION_NAMES,
    SIDE_PEOPLE,
    SIDE_THE,
    Ctx,
    cap,
    is_terrain,
    place_label,
    terrain_place,
)

__all__ = ["describe_action", "describe_actions", "describe_event", "describe_events",
           "place_label"]


def _card_for_action(ctx: Ctx, action: Mapping, fallback: str = "a card",
                     kind: bool = True, public: bool = False) -> str:
    """The action's card, named only if the viewer holds it (own Reserve), or, for a card
    played face up (`public`: terrain, specials), once it shows in the view."""
    num = action.get("card")
    known = action.get("side") == ctx.viewer and ctx.viewer is not None and \
        num in ctx.own_reserve
    if not known and public:
        known = any(ctx.card_of(p) == num and p.get("face_up") for p in ctx.pieces.values()) \
            or any(e.get("card") == num for e in ctx.specials.values())
    if not known:
        return fallback
    return ctx.named(num, fallback) if kind else ctx.name(num, fallback)


def _formation_words(form: Any) -> str:
    return f"in {form}" if form else ""


def _pieces_list(ctx: Ctx, pids: Iterable) -> str:
    counts: dict[Any, int] = {}
    for pid in pids or ():
        counts[pid] = counts.get(pid, 0) + 1
    bits = []
    for pid, n in counts.items():
        label = ctx.piece_label(pid)
        bits.append(label + (f" ×{n}" if n > 1 else ""))
    if len(bits) <= 1:
        return "".join(bits)
    return ", ".join(bits[:-1]) + " and " + bits[-1]


def _special_targets(ctx: Ctx, played: Mapping) -> str:
    """What a special is played for, in an action label and its event line alike."""
    text = ""
    if played.get("formation"):
        text += f", forming {str(played['formation']).lower()}"
    if played.get("pieces"):
        text += f" for {_pieces_list(ctx, played['pieces'])}"
    return text


def _safe_word(value: Any) -> str:
    return re.sub(r"[^a-z_]", "", str(value or "").lower())[:30].replace("_", " ")


def describe_action(action: dict, view: dict, cards: Mapping | None = None) -> str:
    """A plain-English label for an action, e.g. "Deploy Old Guard (infantry) to your Centre",
    "Fire: 1st Foot Guards at the face-down British card in enemy Left". Only what `view`
    shows is named. Plain text: escape it for HTML (Django templates do)."""
    return clean(_action_label(action, Ctx(view, cards)))


def describe_actions(actions: Iterable[dict], view: dict, cards: Mapping | None = None
                     ) -> list[str]:
    """``describe_action`` for a list of actions (say all the legal ones), reading the view
    once."""
    ctx = Ctx(view, cards)
    return [clean(_action_label(a, ctx)) for a in actions]


def _action_label(action: Mapping, ctx: Ctx) -> str:
    if not isinstance(action, Mapping):
        return "Unrecognised action"
    t = action.get("type")
    side = action.get("side")
    own = side == ctx.viewer and ctx.viewer is not None
    subject = "" if own or side not in SIDES else f"{SIDE_NAMES[side]}: "
    to = action.get("to")
    occupy = action.get("occupy")
    occ = f", occupying {ctx.terrain_label(occupy)}" if occupy else ""
    if t == "deploy":
        form = action.get("formation")  # MagWeb Q&A 4.1: Infantry in any formation
        fw = f" {_formation_words(form)}" if form else ""
        return (f"{subject}Deploy {_card_for_action(ctx, action)} to {ctx.where(to)}{fw}{occ}")
    if t == "decoy":
        card = _card_for_action(ctx, action)
        verb = "Deploy" if ctx.view.get("phase") == "deploy" else "Send"
        return f"{subject}{verb} {card} face down as a decoy to {ctx.where(to)}"
    if t == "deployment_done":
        return f"{subject}Finish deployment"
    if t == "play_terrain":
        card = _card_for_action(ctx, action, "a terrain card", public=True)
        info = ctx.info(action.get("card"))
        where = ""
        if info is not None and card != "a terrain card" and side in SIDES:
            place = terrain_place(info, side)
            if place:
                where = (" on " if place.startswith("front") else " in ") + ctx.where(place)
        return f"{subject}Place terrain: {card}{where}"
    if t == "move":
        form = action.get("formation")
        fw = f" {_formation_words(form)}" if form else ""
        engaging = ""
        if to and side in SIDES and not str(to).endswith("reserve") and any(
                p.get("side") != side and not is_terrain(p, ctx)
                for p in ctx.pieces.values() if p.get("place") == to):
            engaging = " (engaging)"
        if "card" in action and "piece" not in action:
            card = _card_for_action(ctx, action)
            src = place_label(f"{side}_reserve", ctx.viewer) if side in SIDES else "the Reserve"
            return f"{subject}Move {card} from {src} to {ctx.where(to)}{fw}{occ}{engaging}"
        pid = action.get("piece")
        p = ctx.pieces.get(pid)
        src = f" from {ctx.where(p.get('place'))}" if p is not None else ""
        if to and str(to).endswith("reserve"):
            return f"{subject}Withdraw {ctx.piece_label(pid)}{src} to {ctx.where(to)}"
        return f"{subject}Move {ctx.piece_label(pid)}{src} to {ctx.where(to)}{fw}{occ}{engaging}"
    if t == "change_formation":
        pid = action.get("piece")
        form = FORMATION_NAMES.get(str(action.get("formation")), "another formation").lower()
        return f"{subject}Form {form}: {ctx.piece_label(pid, with_place=True)}"
    if t == "occupy":
        return (f"{subject}Occupy {ctx.terrain_label(action.get('terrain'))} with "
                f"{ctx.piece_label(action.get('piece'), with_place=True)}")
    if t in ("fire", "shock"):
        verb = "Fire" if t == "fire" else "Shock"
        return (f"{subject}{verb}: {ctx.piece_label(action.get('piece'))} at "
                f"{ctx.piece_label(action.get('target'), with_place=True)}")
    if t == "play_special":
        card = _card_for_action(ctx, action, "a special card", kind=False, public=True)
        text = f"{subject}Play {card} on {ctx.where(action.get('at'))}"
        if "cancel" in action:
            e = ctx.specials.get(action.get("cancel"))
            target = ctx.name(e.get("card"), "a special") if e else "a special"
            text += f", cancelling {target}"
            if e and e.get("at") and e.get("at") != action.get("at"):
                text += f" (on {ctx.where(e.get('at'))})"
        return text + _special_targets(ctx, action)
    if t == "roll_morale":
        return f"{subject}Roll for morale"
    if t == "pass":
        pend = ctx.view.get("pending") or {}
        if ctx.view.get("phase") == "morale":
            return f"{subject}Pass: play no special before the enemy's Morale rolls"
        if isinstance(pend, Mapping) and pend.get("type") in ("fire", "shock"):
            return (f"{subject}Pass: let the {pend['type']} of "
                    f"{ctx.piece_label(pend.get('piece'))} on "
                    f"{ctx.piece_label(pend.get('target'))} go ahead")
        if isinstance(pend, Mapping) and pend.get("type") == "move":
            return f"{subject}Pass: no answer to {ctx.piece_label(pend.get('piece'))} engaging"
        return f"{subject}Pass"
    if t == "end_phase":
        return f"{subject}End the Combat Phase"
    if t == "end_turn":
        return f"{subject}End your turn" if own else f"{subject}End the turn"
    word = _safe_word(t)
    return f"{subject}Other action" + (f" ({word})" if word else "")


# -- events in words ----------------------------------------------------------------------------


# An action auto-play made (battles.selectors.log_entries: "auto_played"), in the log.
AUTO_PASS = "passed automatically: {pronoun} held no card that could answer"
AUTO_FORCED = "{verb} automatically: it was the only thing {pronoun} could do"
# A pass auto-play made by the player's own standing choice (play/passing.py; the entry's
# ``why``): said as theirs, never as "no card could answer" (that would tell nothing true).
AUTO_CHOSEN_TURN = "chose to pass for the rest of this turn"
RESPONSE_WORDS = {"fire": "enemy fire", "shock": "enemy shock attacks",
                  "engage": "enemy moves into contact", "morale": "enemy morale rolls"}
AUTO_VERBS = {"pass": "passed", "roll_morale": "rolled for morale",
              "deployment_done": "finished deploying", "move": "made the only move",
              "deploy": "deployed the only card"}


def _who(side: Any, view_side: str | None) -> str:
    """The subject of a plural verb: "You", "The French", "The Allies"."""
    if side == view_side and side in SIDES:
        return "You"
    return SIDE_PEOPLE.get(str(side), "Someone")


def _hits_words(n: int) -> str:
    return "no hits" if not n else f"{n} hit" + ("s" if n != 1 else "")


# A morale roll's modifiers (battles/engine/morale.py ``morale_parts``), as a player says them.
MORALE_MODIFIERS = {"general": "its general", "square": "square", "terrain": "terrain",
                    "special": "special cards"}
MORALE_GRADES = {4: "A", 3: "B", 2: "C", 1: "D"}  # the card grades' values (6.0)


def _morale_words(event: Mapping) -> str:
    """"5 (grade B 3, its general +1, square +1; 5 or less holds, a 6 always routs)", or
    without the modifiers (a face-down card was part of it) "5 (5 or less holds...)"."""
    value = event.get("value")
    rule = f"{value} or less holds, a 6 always routs"
    mods = event.get("modifiers")
    if not isinstance(mods, list) or not isinstance(value, int):
        return f"{value} ({rule})"
    parts, total = [], 0
    for why, n in mods:
        parts.append(f"{MORALE_MODIFIERS.get(why, why)} {n:+d}")
        total += n
    grade = value - total
    letter = MORALE_GRADES.get(grade)
    base = f"grade {letter} {grade}" if letter else f"{grade}"
    return f"{value} ({', '.join([base, *parts])}; {rule})"


def _dice_words(dice: Any) -> str:
    if not isinstance(dice, list | tuple) or not dice:
        return "no dice"
    return ", ".join(str(d) for d in dice)


def describe_event(event: dict, view_side: str | None, cards: Mapping | None = None, *,
                   view: Mapping | None = None, before: Mapping | None = None) -> str:
    """One battle-log line for an event `view_side` may see (``events_for``), e.g. "Old Guard
    fires at the face-down British card in enemy Left: rolls 5, 2, hitting on 4+: 1 hit".

    Pieces are named from `view` (`view_side`'s view after the action) and `before` (its view
    before it, for pieces that have since left the field), and from the event itself. An event
    meant for the other side only gets a line that gives nothing away. Plain text: escape it
    for HTML (Django templates do)."""
    ctx = Ctx(view, cards, viewer=view_side, before=before)
    return clean(_event_line(event, ctx))


def _event_line(event: Mapping, ctx: Ctx) -> str:
    if not isinstance(event, Mapping):
        return "Something happened"
    vis = event.get("visibility", "all")
    t = event.get("type")
    side = event.get("side")
    who = _who(side, ctx.viewer)
    if vis != "all" and vis != ctx.viewer:
        if t == "drawn":
            return f"{who} look at the cards drawn"
        return f"{who} note a hidden card"

    enemy = other_side(side) if side in SIDES else None

    def piece(key: str = "piece", **kw: Any) -> str:
        kw.setdefault("side", enemy if key == "target" else side)
        return ctx.piece_label(event.get(key), **kw)

    def card(key: str = "card", fallback: str = "a card") -> str:
        return ctx.name(event.get(key), fallback)

    def place(key: str) -> str:
        return ctx.where(event.get(key))

    if t in ("deploy", "enter"):
        pid = event.get("piece")
        if "card" in event:
            ctx.learned[pid] = event["card"]
            what = ctx.named(event["card"])
        else:
            known = ctx.card_of(ctx.pieces.get(pid)) or ctx.learned.get(pid)
            what = (f"{ctx.name(known)} face down" if known is not None and side == ctx.viewer
                    else f"a face-down {ARMY_NAMES.get(str(event.get('army')), '')} card"
                    .replace("  ", " "))
        verb = "deploy" if t == "deploy" else "bring"
        tail = "" if t == "deploy" else " from the Reserve"
        occ = (f", occupying {ctx.terrain_label(event['occupy'])}"
               if event.get("occupy") else "")
        form = f" in {event['formation']}" if event.get("formation") else ""
        return f"{who} {verb} {what}{tail} to {place('to')}{form}{occ}"
    if t in ("deploy_card", "enter_card", "decoy_card"):
        ctx.learned[event.get("piece")] = event.get("card")
        what = "decoy" if t == "decoy_card" else "face-down card"
        return f"Your {what} is {ctx.named(event.get('card'))} (the enemy cannot see it)"
    if t == "deployment_done":
        return f"{who} finish deploying"
    if t == "terrain":
        ctx.learned[event.get("piece")] = event.get("card")
        at = event.get("at")
        prep = "on" if str(at).startswith("front") else "in"
        return f"{who} place terrain: {card()} {prep} {place('at')}"
    if t == "move":
        src, dst = place("from"), place("to")
        if str(event.get("to", "")).endswith("reserve"):
            return f"{cap(piece())} withdraws from {src} to {dst}"
        return f"{cap(piece())} moves from {src} to {dst}"
    if t == "reveal":
        pid = event.get("piece")
        ctx.learned[pid] = event.get("card")
        p = ctx.pieces.get(pid)
        where = f" in {ctx.where(p.get('place'))}" if p is not None else ""
        return f"Revealed{where}: {ctx.named(event.get('card'))}"
    if t == "declare":
        verb = "fire at" if event.get("attack") == "fire" else "a shock on"
        return f"{cap(piece())} declares {verb} {piece('target', with_place=True)}"
    if t in ("fire", "shock"):
        power = event.get("power")
        need = f", hitting on {7 - power}+" if isinstance(power, int) else ""
        verb = "fires at" if t == "fire" else "shocks"
        return (f"{cap(piece())} {verb} {piece('target')}: rolls {_dice_words(event.get('dice'))}"
                f"{need}: {_hits_words(int(event.get('hits') or 0))}")
    if t == "attack_void":
        return f"The attack of {piece()} on {piece('target')} is void"
    if t == "general_hits":
        n = int(event.get("hits") or 0)
        return f"{cap(piece())} takes {n} general hit" + ("s" if n != 1 else "")
    if t == "blown":
        return f"{cap(piece())} is blown"
    if t == "recovered":
        return f"{cap(piece())} recovers from being blown"
    if t == "formation":
        return f"{cap(piece())} forms {str(event.get('formation', '')).lower()}"
    if t == "occupy":
        return f"{cap(piece())} occupies {ctx.terrain_label(event.get('terrain'))}"
    if t == "special":
        text = f"{who} play {card(fallback='a special')} on {place('at')}"
        return text + _special_targets(ctx, event)
    if t == "cancelled":
        return f"{card(fallback='A special')} is cancelled by {card('by', 'a special')}"
    if t == "specials_discarded":
        names = [ctx.name(n, "a special") for n in event.get("cards") or ()]
        return "Specials discarded: " + (", ".join(names) if names else "none")
    if t == "morale":
        verdict = "routs" if event.get("routed") else "holds"
        return (f"{cap(piece())} rolls {_dice_words(event.get('dice'))} against morale "
                f"{_morale_words(event)}: {verdict}")
    if t == "general_morale":
        verdict = "is killed" if event.get("killed") else "survives"
        return (f"{cap(piece())} rolls {_dice_words(event.get('dice'))} for his general hits "
                f"and {verdict}")
    if t == "hit_removed":
        return f"A hit is removed from {piece()}"
    if t == "rallied":
        ctx.learned[event.get("piece")] = event.get("card")
        return f"{ctx.named(event.get('card'))} routs but rallies to the Reserve"
    if t == "eliminated":
        ctx.learned[event.get("piece")] = event.get("card")
        reason = ELIMINATION_REASONS.get(str(event.get("reason")), "eliminated")
        if side == ctx.viewer and side in SIDES:
            whose = "Your "
        elif ctx.viewer in SIDES:
            whose = "Enemy "
        else:
            whose = f"{SIDE_NAMES[side]} " if side in SIDES else ""
        return f"{whose}{ctx.named(event.get('card'))} is eliminated ({reason})"
    if t == "captured":
        by = event.get("by")
        return f"{_who(by, ctx.viewer)} capture {ctx.terrain_label(event.get('terrain'))}" + (
            f" with {_pieces_list(ctx, event.get('occupants'))}" if event.get("occupants")
            else "")
    if t == "draw":
        n = int(event.get("count") or 0)
        army = ARMY_NAMES.get(str(event.get("army")), "")
        return (f"{who} draw {n} card{'s' if n != 1 else ''} from the {army} deck"
                .replace("  ", " "))
    if t == "drawn":
        names = [ctx.named(n) for n in event.get("cards") or ()]
        return "You drew: " + (", ".join(names) if names else "nothing")
    if t == "prussians_arrive":
        return f"The Prussians arrive: {card(fallback='a Prussian General')} is drawn"
    if t == "auto_played" and event.get("why") == "end":  # Preferences.end_for_me
        ended = "the turn" if event.get("action") == "end_turn" else "the phase"
        return f"{who} ended {ended}: ended for {'you' if who == 'You' else 'them'}, " \
               f"{'your' if who == 'You' else 'their'} setting (nothing else was left to do)"
    if t == "auto_played" and event.get("why") == "order":  # battles.fire_order
        return f"{who} fired: fired for {'you' if who == 'You' else 'them'}, " \
               f"{'your' if who == 'You' else 'their'} order to fire with every ready card"
    if t == "auto_played" and event.get("why"):  # the player's own choice (play/passing.py)
        pronoun = "you" if who == "You" else "they"
        why = str(event["why"])
        chose = AUTO_CHOSEN_TURN if why == "turn" else \
            f"chose not to be asked about {RESPONSE_WORDS.get(why[5:], 'that kind of action')}"
        return f"{who} passed automatically: {pronoun} {chose}"
    if t == "auto_played":  # play/autoplay.py: a pass or forced move made for the player
        pronoun = "you" if who == "You" else "they"
        words = AUTO_PASS if event.get("action") == "pass" else AUTO_FORCED
        verb = AUTO_VERBS.get(str(event.get("action")), "played")
        return f"{who} " + words.format(pronoun=pronoun, verb=verb)
    if t == "undone":  # battles/undo.py: what was taken back stays as the viewer saw it
        return (f"{who} took back {'your' if who == 'You' else 'their'} last action "
                f"(#{event.get('undoes')})")
    if t == "turn":
        whose = "your turn" if side == ctx.viewer else \
            f"the {SIDE_NAMES.get(str(side), '?')} turn"
        return f"Turn {event.get('turn')}: {whose}"
    if t == "battle_over":
        winner = event.get("winner")
        if winner is None:
            result = "a draw"
        elif winner == ctx.viewer:
            result = "you win"
        else:
            result = f"{SIDE_THE.get(str(winner), 'the winners')} win"
        reason = event.get("reason")
        if reason == "occupation":
            how = f" by holding {ctx.where(event.get('position'))} alone"
        elif reason == "turn_cap":
            lost = event.get("lost_bp") or {}
            how = (" on the turn limit (BP lost: French "
                   f"{lost.get('french', '?')}, Allied {lost.get('allied', '?')})")
        else:
            how = f" ({_safe_word(reason)})" if reason else ""
        return f"The battle is over: {result}{how}"
    word = _safe_word(t)
    return "Something happened" + (f" ({word})" if word else "")


def describe_events(events: Iterable[Mapping], view_side: str | None,
                    cards: Mapping | None = None, *, view: Mapping | None = None,
                    before: Mapping | None = None) -> list[str]:
    """Log lines for the events of one action, as `view_side` sees them: events meant for the
    other side are dropped (as ``events_for``), and pieces revealed or named on the way are
    named in the lines after."""
    ctx = Ctx(view, cards, viewer=view_side, before=before)
    out = []
    for e in events:
        vis = e.get("visibility", "all") if isinstance(e, Mapping) else "all"
        if vis != "all" and vis != view_side:
            continue
        out.append(clean(_event_line(e, ctx)))
    return out
