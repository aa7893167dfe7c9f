"""The EAGLES game modules of the game service (``play.protocol.GameModule``): the battle
(rules 4-14, ``battles.engine``) and the Campaign Game (16.0, ``battles.campaign``). Pure:
no Django; the ``battles`` and ``campaigns`` apps register them (``play.registry``).

Each module keeps its own dice and tie-break streams (``dice``, ``bot_rng``): every stored
battle and campaign was played with them, and their replays must stay exact.

What closes an undo window is the same rule for both (``undo_refusal``): an action that
rolled a die, revealed, drew or showed a card to the opponent, ended a turn, a deployment or
a battle, cannot be taken back (play/undo.py tells the whole rule).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from game import ENDING_ACTIONS as GAME_ENDING_ACTIONS
from game import other_side

from . import campaign as core
from . import engine
from . import fire_order as orders
from .bots import get_bot
from .campaign.bots import CampaignBot

# The actions that end a phase, a turn or a deployment (game.ENDING_ACTIONS): the computer
# falls back on them after BOT_PATIENCE actions in a row (play.turns), a guard against a loop,
# never a rule.
ENDING_ACTIONS = frozenset(GAME_ENDING_ACTIONS)


def shown_cards(events: Iterable[Mapping[str, Any]], viewer: str) -> set[int]:
    """The card numbers these events name to ``viewer`` (``events_for``)."""
    out: set[int] = set()
    for e in engine.events_for([dict(e) for e in events], viewer):
        for key in ("card", "by"):
            if isinstance(e.get(key), int) and not isinstance(e.get(key), bool):
                out.add(e[key])
        out.update(n for n in e.get("cards") or () if isinstance(n, int))
    return out


def undo_refusal(events: Iterable[Mapping[str, Any]], side: str,
                 known: set[int] | None = None) -> str | None:
    """Why an action of ``side`` with these (unfiltered) events cannot be taken back, or
    None if it can. ``known``: the cards the opponent was shown before (by earlier
    actions' events); None: count every card named to them as new."""
    events = list(events)
    for e in events:
        t = e.get("type")
        if t == "battle_over":
            return "it ended the battle"
        if "dice" in e:
            return "it rolled dice"
        if t == "reveal":
            return "it revealed a card"
        if t == "drawn":
            return "it drew cards"
        if t == "turn":
            return "it ended your turn"
        if t == "deployment_done":
            return "it ended your deployment"
    if shown_cards(events, other_side(side)) - (known or set()):
        return "it showed a card to your opponent"
    return None


# One's own end of phase or turn stays a click: the player reviews the board first (and may
# undo); a campaign decision is always the player's.
KEPT_AS_CLICK = frozenset({"end_phase", "end_turn"})
DECISIONS = frozenset({"split", "reinforce", "keep", "retreat"})


def forced_action(legal: list[dict], always_ask: bool) -> dict | None:
    """The action to play for the player, or None (they choose): a lone pass (a response
    window where they hold no special that could answer) unless ``always_ask``, or any other
    lone action (``roll_morale``, ``deployment_done``, a forced move) but the end of one's own
    phase or turn and the campaign's decisions."""
    if len(legal) != 1:
        return None
    action = legal[0]
    kind = action.get("type")
    if kind in KEPT_AS_CLICK or kind in DECISIONS:
        return None
    if kind == "pass" and always_ask:
        return None
    return action


# A player's standing choices to pass (play.protocol.PassChoices; Match.pass_choices[side]):
# the kinds of response window (the enemy's answer before a fire's or a shock's dice, after
# an engaging move, before a morale roll: RULINGS 13.0) they may choose not to be asked in,
# and "pass for the rest of this enemy turn" (``enemy_turn``'s key).
RESPONSE_KINDS = ("fire", "shock", "engage", "morale")
_PENDING_KINDS = {"fire": "fire", "shock": "shock", "move": "engage"}


def response_kind(st: engine.State, side: str) -> str | None:
    """The kind of response window ``side`` must answer now on this board, or None."""
    if st.outcome is not None or st.step != "response" or engine.SIDES[st.priority] != side:
        return None
    if st.phase == "morale":
        return "morale"
    return _PENDING_KINDS.get(str((st.pending or {}).get("type")))


def enemy_turn(st: engine.State, side: str, board: str = "") -> str | None:
    """The key of the enemy turn being played on this board (None: it is ``side``'s own)."""
    if engine.SIDES[st.active] == side:
        return None
    return f"{board}:{st.turn}:{engine.SIDES[st.active]}"


def chosen_pass(kind: str | None, turn: str | None, legal: list[dict],
                choices: Mapping[str, Any]) -> tuple[dict, str] | None:
    """The pass a player's standing ``choices`` play in a response window of ``kind`` during
    the enemy ``turn`` ("turn": they chose to pass for the rest of it; "skip:<kind>": not
    to be asked in that kind of window), or None: they are asked."""
    if kind is None or turn is None:
        return None
    action = next((a for a in legal if a.get("type") == "pass"), None)
    if action is None:
        return None
    if choices.get("turn") == turn:
        return action, "turn"
    if kind in (choices.get("skip") or ()):
        return action, f"skip:{kind}"
    return None


def ordered(st: engine.State, side: str, legal: list[dict], choices: Mapping[str, Any],
            board: str = "") -> tuple[dict, str] | None:
    """The fire a player's standing order "Fire with every ready card" plays now on this
    board (``battles.fire_order``; the order is kept in ``choices["fire"]``), or None."""
    action = orders.ordered_fire(st, side, legal, choices.get(orders.ORDER_KEY), board)
    return (action, orders.REASON) if action is not None else None


def on_board(legal: list[dict], board: str) -> list[dict]:
    """A campaign's legal actions played on ``board``."""
    return [a for a in legal if a.get("board") == board]


# Several placements from one submit (play.turns.act_many): a side's deployment (4.1) is
# played by that side alone, card after card, with no window for the enemy in between (the
# Allies first, then the French adjusting last: RULINGS 4.1-a), so one form may place several
# cards, each checked by the engine in the position left by the one before.
BATCH_ACTIONS = frozenset({"deploy", "deployment_done"})


def name_action(action: Mapping[str, Any], cards: Any) -> str:
    """An action as a 400 names it: the card's name and number and where it goes."""
    num = action.get("card")
    card = cards.get(num) if isinstance(num, int) and isinstance(cards, Mapping) else None
    what = f"{card.name} (card {num})" if card is not None else \
        (f"card {num}" if num is not None else str(action.get("type")))
    where = str(action.get("to") or "").replace("_", " ")
    return f"{what} to {where}" if where else what


# One's own end of phase or turn played for the player who asked for it (``accounts``
# ``Preferences.end_for_me``, read by play.autoplay): only when it is their lone action.
OWN_ENDINGS = KEPT_AS_CLICK


# Events only a campaign decision or a battle's end makes: past them there is no undo.
CAMPAIGN_EVENTS = {
    "campaign_battle_over": "it ended a battle",
    "battle_start": "it started a battle",
    "campaign_phase": "it opened a new phase of the campaign",
    "campaign_over": "it ended the campaign",
    "retreat_check": "it rolled dice",
}


def _turn_refusal(board: Mapping[str, Any], side: str) -> str | None:
    """A board position (``engine.to_json``'s): whose turn it is is the active side; during
    deployment the side deploying."""
    phasing = board.get("priority") if board.get("phase") == "deploy" else board.get("active")
    return None if phasing == side else "it is not your turn"


def _board_doc(doc: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]] | None:
    """The board being played in a campaign's ``to_json`` (``core.current_board``, read from
    the document: RULINGS 16-b), or None during a campaign decision."""
    boards = doc.get("boards") or {}
    if doc.get("step") != "play" or not boards:
        return None
    order = core.ORDER[doc["phase"]]
    name = min(boards, key=lambda b: (boards[b]["turn"], order.index(b)))
    return name, boards[name]


def _plain(value: Any) -> Any:
    """``value`` as it reads back from a JSON column."""
    return json.loads(json.dumps(value))


def _battle_turns_ended(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
                        ) -> list[str]:
    """A board's turn number went up (5.0: each side's Battle Turn is one): the side whose turn
    ended is the one not starting the new turn. From deployment (turn 0), or into the end of
    the battle, nothing counts."""
    if not before or not after or after.get("outcome") is not None:
        return []
    old, new = before.get("turn") or 0, after.get("turn") or 0
    active = after.get("active")
    if not old or new <= old or active not in engine.SIDES:
        return []
    return [other_side(active)]


def _campaign_turns_ended(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
                          ) -> list[str]:
    """RULINGS 16-o: on each board running in both positions, the turn number went up by k,
    so the side active before ended its turn, then the sides alternate (5.0); one entry per
    turn ended. From deployment (turn 0) nothing counts; campaign decisions end no turn."""
    if not before or not after:
        return []
    out: list[str] = []
    for b, old in (before.get("boards") or {}).items():
        new = (after.get("boards") or {}).get(b)
        if new is None or not old.get("turn"):
            continue
        side = old.get("active")
        for _ in range(max(0, int(new.get("turn") or 0) - int(old["turn"]))):
            if side not in engine.SIDES:
                break
            out.append(side)
            side = other_side(side)
    return out


def merged_board_view(french: Mapping[str, Any], allied: Mapping[str, Any]) -> dict[str, Any]:
    """One board with every card, from its French and Allied views (``engine.view``'s): the
    French view, with the Allied view's own cards added (the match is over and the seed
    public, so nothing is secret any more). Every piece is shown face up so that the
    renderers name it (they never name another side's face-down card); ``face_down`` says
    which were face down on the table."""
    theirs = {p["piece"]: p for p in allied["pieces"]}
    pieces = []
    for p in french["pieces"]:
        other = theirs.get(p["piece"], {})
        pieces.append({**p, **({"card": other["card"]} if "card" in other else {}),
                       "face_up": True, "face_down": not p["face_up"]})
    return {**french, "viewer": None, "pieces": pieces,
            "reserves": {"french": french["reserves"]["french"],
                         "allied": allied["reserves"]["allied"]}}


def merged_view(state: engine.State) -> dict[str, Any]:
    """A battle's position with every card (``merged_board_view`` of its two sides' views)."""
    return merged_board_view(engine.view(state, "french"), engine.view(state, "allied"))


def revealed_campaign_view(c: core.Campaign) -> dict[str, Any]:
    """A campaign with every card: the French view, each board merged
    (``merged_board_view``), each side's own pool, set-aside cards and decision, and the
    whole history (both sides' splits)."""
    french, allied = core.view(c, "french"), core.view(c, "allied")
    own = {"french": french, "allied": allied}
    decision = french["decision"]
    if decision is not None and decision.get("side") in own:
        decision = own[decision["side"]]["decision"]
    return {**french, "viewer": None, "can_retreat": False,
            "boards": {b: merged_board_view(bv, allied["boards"][b])
                       for b, bv in french["boards"].items()},
            "pools": {s: own[s]["pools"][s] for s in engine.SIDES},
            "set_aside": {s: own[s]["set_aside"][s] for s in engine.SIDES},
            "decision": decision,
            "history": [_plain(h) for h in c.history]}


class EaglesBattle:
    """One EAGLES battle (rules 4-14). ``setup`` options: ``battle`` (its name), ``decks``
    (army -> card numbers), ``settings``, ``deck_kinds``; ``cards``: the ``CardTable``."""

    kind = "battle"
    title = "EAGLES battle"
    sides: tuple[str, ...] = engine.SIDES
    ending_actions = ENDING_ACTIONS
    IllegalAction = engine.IllegalAction
    batch_actions = BATCH_ACTIONS
    own_endings = OWN_ENDINGS

    def name_action(self, action: Mapping[str, Any], cards: Any) -> str:
        return name_action(action, cards)

    def setup(self, seed: int, options: Mapping[str, Any], cards: Any) -> engine.State:
        return engine.new_battle(options["battle"], seed, options["decks"],
                                 options.get("settings"), cards=cards,
                                 deck_kinds=options.get("deck_kinds") or None)

    def legal_actions(self, state: engine.State, side: str) -> list[dict]:
        return engine.legal_actions(state, side)

    def apply(self, state: engine.State, action: dict, dice: Iterable[int],
              legal: list[dict] | None = None, check: bool = True) -> list[dict]:
        """With ``legal`` (this position's legal actions, already listed) the action is
        checked against them and not listed again: listing is the costly part."""
        if legal is None:
            return engine.apply(state, action, dice, check=check)
        engine.check_action(state, action, legal)
        return engine.apply(state, action, dice, check=False)

    def normalise_action(self, action: dict, side: str) -> dict:
        return action  # the engine names what is wrong with an action as sent

    def forced_action(self, legal: list[dict], always_ask: bool) -> dict | None:
        return forced_action(legal, always_ask)

    response_kinds = RESPONSE_KINDS

    def response_kind(self, state: engine.State, side: str) -> str | None:
        return response_kind(state, side)

    def enemy_turn(self, state: engine.State, side: str) -> str | None:
        return enemy_turn(state, side)

    def chosen_action(self, state: engine.State, side: str, legal: list[dict],
                      choices: Mapping[str, Any]) -> tuple[dict, str] | None:
        return chosen_pass(response_kind(state, side), enemy_turn(state, side), legal,
                           choices) or ordered(state, side, legal, choices)

    # "Fire with every ready card" (battles.fire_order; play.passing.fire_order).

    def fire_order_key(self, state: engine.State, side: str) -> str | None:
        return orders.combat_key(state, side)

    def suggested_fires(self, state: engine.State, side: str, legal: list[dict]
                        ) -> list[dict]:
        return orders.suggested_fires(state, side, legal)

    def to_move(self, state: engine.State) -> str | None:
        return engine.SIDES[state.priority] if state.outcome is None else None

    def outcome(self, state: engine.State) -> dict | None:
        return engine.outcome(state)

    def view(self, state: engine.State, viewer: str | None) -> dict[str, Any]:
        return engine.view(state, viewer)

    def events_for(self, events: Sequence[dict], viewer: str | None) -> list[dict]:
        return engine.events_for(list(events), viewer)

    def to_json(self, state: engine.State) -> dict[str, Any]:
        return engine.to_json(state)

    def from_json(self, doc: Mapping[str, Any], cards: Any) -> engine.State:
        return engine.from_json(dict(doc), cards)

    def turns_ended(self, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
                    ) -> list[str]:
        return _battle_turns_ended(before, after)

    def undo_turn_refusal(self, doc: Mapping[str, Any], side: str) -> str | None:
        return _turn_refusal(doc, side)

    def undo_refusal(self, action: dict, events: Sequence[dict], side: str,
                     known: set[int] | None, doc: Mapping[str, Any]) -> str | None:
        return undo_refusal(events, side, known)

    def shown_cards(self, events: Sequence[dict], viewer: str) -> set[int]:
        return shown_cards(events, viewer)

    def dice(self, seed: int, seq: int) -> engine.SeededDice:
        return engine.SeededDice(f"{seed}:{seq}")

    def bot_rng(self, seed: int, seq: int) -> random.Random:
        return random.Random(f"eagles-bot:{seed}:{seq}")

    def bot(self, name: str, cards: Any) -> Any:
        return get_bot(name, cards)

    # The replays' optional members (play.protocol.Replays).

    def revealed_view(self, state: engine.State) -> dict[str, Any]:
        return merged_view(state)

    def copy_state(self, state: engine.State) -> engine.State:
        return state.copy()

    def turn_of(self, state: engine.State) -> int:
        return state.turn


class EaglesCampaign:
    """The Campaign Game (16.0) over several battle boards. ``setup`` options: ``pools``
    (side -> card numbers), ``settings``; ``cards``: the ``CardTable``. Its actions and
    events are stored as they read back from JSON (``apply`` returns them so)."""

    kind = "campaign"
    title = "EAGLES Campaign Game"
    sides: tuple[str, ...] = engine.SIDES
    ending_actions = ENDING_ACTIONS
    IllegalAction = engine.IllegalAction
    batch_actions = BATCH_ACTIONS
    own_endings = OWN_ENDINGS

    def name_action(self, action: Mapping[str, Any], cards: Any) -> str:
        return name_action(action, cards)

    def setup(self, seed: int, options: Mapping[str, Any], cards: Any) -> core.Campaign:
        return core.new_campaign(seed, cards, {s: options["pools"][s] for s in self.sides},
                                 options.get("settings"))

    def legal_actions(self, state: core.Campaign, side: str) -> list[dict]:
        return core.legal_actions(state, side)

    def apply(self, state: core.Campaign, action: dict, dice: Iterable[int],
              legal: list[dict] | None = None, check: bool = True) -> list[dict]:
        # Any partition of the free cards is a legal split, listed or not (16-a): the core
        # checks every action itself, so ``legal`` only spares nothing here.
        return _plain(core.apply(state, action, dice))

    def normalise_action(self, action: dict, side: str) -> dict:
        return {**action, "side": side}  # the side that acts is the one the player plays

    def forced_action(self, legal: list[dict], always_ask: bool) -> dict | None:
        return forced_action(legal, always_ask)

    response_kinds = RESPONSE_KINDS

    def response_kind(self, state: core.Campaign, side: str) -> str | None:
        b = core.current_board(state)
        return response_kind(state.boards[b], side) if b is not None else None

    def enemy_turn(self, state: core.Campaign, side: str) -> str | None:
        b = core.current_board(state)
        return enemy_turn(state.boards[b], side, b) if b is not None else None

    def chosen_action(self, state: core.Campaign, side: str, legal: list[dict],
                      choices: Mapping[str, Any]) -> tuple[dict, str] | None:
        b = core.current_board(state)
        return chosen_pass(self.response_kind(state, side), self.enemy_turn(state, side),
                           legal, choices) or (
            ordered(state.boards[b], side, on_board(legal, b), choices, b)
            if b is not None else None)

    # "Fire with every ready card" (battles.fire_order; play.passing.fire_order): on the
    # board being played.

    def fire_order_key(self, state: core.Campaign, side: str) -> str | None:
        b = core.current_board(state)
        return orders.combat_key(state.boards[b], side, b) if b is not None else None

    def suggested_fires(self, state: core.Campaign, side: str, legal: list[dict]
                        ) -> list[dict]:
        b = core.current_board(state)
        return orders.suggested_fires(state.boards[b], side, on_board(legal, b)) \
            if b is not None else []

    def to_move(self, state: core.Campaign) -> str | None:
        turn = core.to_move(state)
        return turn["side"] if turn else None

    def outcome(self, state: core.Campaign) -> dict | None:
        return core.outcome(state)

    def view(self, state: core.Campaign, viewer: str | None) -> dict[str, Any]:
        return core.view(state, viewer)

    def events_for(self, events: Sequence[dict], viewer: str | None) -> list[dict]:
        return engine.events_for(list(events), viewer)

    def to_json(self, state: core.Campaign) -> dict[str, Any]:
        return _plain(core.to_json(state))

    def from_json(self, doc: Mapping[str, Any], cards: Any) -> core.Campaign:
        return core.from_json(doc, cards)

    def turns_ended(self, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
                    ) -> list[str]:
        return _campaign_turns_ended(before, after)

    def undo_turn_refusal(self, doc: Mapping[str, Any], side: str) -> str | None:
        board = _board_doc(doc)
        if board is None:
            return "this is a campaign decision, not a move on a board"
        return _turn_refusal(board[1], side)

    def undo_refusal(self, action: dict, events: Sequence[dict], side: str,
                     known: set[int] | None, doc: Mapping[str, Any]) -> str | None:
        if action.get("type") in DECISIONS:
            return "it was a campaign decision"
        board = _board_doc(doc)
        if board is None or action.get("board") != board[0]:
            return "it was on another battle"
        why = next((CAMPAIGN_EVENTS[e["type"]] for e in events
                    if e.get("type") in CAMPAIGN_EVENTS), None)
        return why if why is not None else undo_refusal(events, side, known)

    def shown_cards(self, events: Sequence[dict], viewer: str) -> set[int]:
        return shown_cards(events, viewer)

    def dice(self, seed: int, seq: int) -> engine.SeededDice:
        return engine.SeededDice(f"campaign:{seed}:{seq}")

    def bot_rng(self, seed: int, seq: int) -> random.Random:
        return random.Random(f"eagles-campaign-bot:{seed}:{seq}")

    def bot(self, name: str, cards: Any) -> Any:
        return CampaignBot(name, cards)

    # The replays' optional members (play.protocol.Replays; no turn: each board has its own).

    def revealed_view(self, state: core.Campaign) -> dict[str, Any]:
        return revealed_campaign_view(state)

    def copy_state(self, state: core.Campaign) -> core.Campaign:
        return state.copy()


BATTLE = EaglesBattle()
CAMPAIGN = EaglesCampaign()
