"""A newcomer's first battle, step by step (issue 28, "Learning the game"): a small Quatre
Bras on the REAL engine (``battles.engine``: every action checked by ``legal_actions`` and
played by ``apply``), the newcomer as the French, the computer's actions and every die
scripted, so that it always goes the same way: deployment, a move that engages, a fire, a
morale roll and a win by occupation (4.3). Pure: the engine and the stdlib, no Django.

The set-up is ours (named as such, not a historical deal): four cards a side in the
Reserves, two in each Reinforcement deck, no Specials (so nobody can answer a window).

``SCRIPT`` is the whole battle in order: each ``Step`` names its side, its action with card
NUMBERS (``piece`` and ``target`` are the cards of pieces on the field: piece ids are handed
out as the cards come on, ``resolve`` finds them), the dice the action rolls, and, for the
newcomer's steps, what to read and the rule numbers behind it. Steps with no ``say`` are
played for the newcomer or by the computer (``advance``): the response windows in which the
side that could answer holds nothing, and the Allied turns.

A tutorial is kept as ``{"at": <index of the next step>, "position": to_json(state)}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from game import SIDES

from .engine import apply, from_json, legal_actions, new_battle, outcome, to_json
from .engine.state import State

BATTLE = "quatre-bras"
PLAYER = "french"
# Ours: the Reserves and Reinforcement decks of the tutorial (card numbers of the catalogue).
RESERVES = {"french": [3, 15, 25, 71], "allied": [129, 131, 145, 165]}
DECKS = {"french": [17, 26], "british": [132, 133]}
CHARLET, BAUDUIN, REILLE_GUNS = 15, 25, 71  # the French cards the newcomer plays
VINCKE, HALKETT, LLOYD = 145, 129, 165  # the Allied cards deployed against them


class Step(NamedTuple):
    side: str
    action: dict[str, Any]
    dice: tuple[int, ...] = ()
    say: str = ""  # the newcomer's steps: what to do and why
    rules: tuple[str, ...] = ()  # rule numbers of 002 EAGLES behind the step
    title: str = ""


def _a(type_: str, side: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "side": side, **fields}


F, A = SIDES
SCRIPT: tuple[Step, ...] = (
    # The Allied side deploys first (4.1): one card face-down in each of its Positions.
    Step(A, _a("deploy", A, card=VINCKE, to="allied_right")),
    Step(A, _a("deploy", A, card=HALKETT, to="allied_center")),
    Step(A, _a("deploy", A, card=LLOYD, to="allied_left")),
    Step(A, _a("deployment_done", A)),
    Step(F, _a("deploy", F, card=CHARLET, to="french_left"), title="Deployment",
         say="The Allies have deployed: one face-down card in each of their three Positions. "
             "Now you: every Position must get one to four cards, face-down. Put Charlet's "
             "infantry brigade in your Left.", rules=("4.0", "4.1")),
    Step(F, _a("deploy", F, card=BAUDUIN, to="french_center"), title="Deployment",
         say="Bauduin's brigade goes to your Centre.", rules=("4.1",)),
    Step(F, _a("deploy", F, card=REILLE_GUNS, to="french_right"), title="Deployment",
         say="And Reille's foot artillery to your Right. Artillery fires from where it stands; "
             "it can never move into the enemy.", rules=("4.1", "7.23", "8.1")),
    Step(F, _a("deployment_done", F), title="Deployment",
         say="Every Position holds a card; Ney (a General) stays in your Reserve for now. The "
             "French adjust last, so finishing deployment starts the battle: the French play "
             "the first turn.", rules=("4.1", "5.0")),
    Step(F, _a("move", F, piece=CHARLET, to="allied_right", formation="line"), title="A move",
         say="Your Combat Phase. Each card may move or fire once. A move goes to an adjacent "
             "Position: your Left faces the Allied Right across the Middle Ground. Moving "
             "into a Position that holds enemy cards ENGAGES them, and both are turned "
             "face-up. Move Charlet into the Allied Right, in Line.",
         rules=("7.0", "8.0", "8.1", "9.1")),
    Step(A, _a("pass", A)),  # the engaged side may answer an engaging move: nothing held
    Step(F, _a("fire", F, piece=REILLE_GUNS, target=LLOYD), (6, 4, 2), title="A fire",
         say="Artillery may fire at long range across the Middle Ground into the Position "
             "facing it. Fire rolls one die per combat value (cv); Reille's guns are F1 at "
             "long range, so only a 6 hits. Fire at the card in the Allied Left.",
         rules=("7.1", "7.2", "7.23", "7.4")),
    Step(A, _a("pass", A), (6, 4, 2)),  # the dice roll once the target's window closes
    Step(F, _a("end_phase", F), title="Ending the Combat Phase",
         say="Charlet has moved and the guns have fired: nothing else to do. End the Combat "
             "Phase; you then draw your reinforcements (one card at Quatre Bras).",
         rules=("5.0", "10.0")),
    Step(F, _a("end_turn", F), title="Reinforcements",
         say="The card drawn joins your Reserve (it may be played from your next turn). End "
             "your turn: the Allies play theirs.", rules=("10.0",)),
    # The Allied turn: the hit guns pass their morale roll; Vincke fires at Charlet.
    Step(A, _a("roll_morale", A)),
    Step(F, _a("pass", F), (2,)),
    Step(A, _a("fire", A, piece=VINCKE, target=CHARLET)),
    Step(F, _a("pass", F), (6, 2, 3)),
    Step(A, _a("end_phase", A)),
    Step(A, _a("end_turn", A)),
    Step(F, _a("roll_morale", F), title="A morale roll",
         say="The Allies fired back: Vincke's Landwehr hit Charlet once. A turn starts with "
             "the Morale Phase: one die per hit; equal to or under the card's morale value "
             "(A 4, B 3, C 2, D 1) and the hit is removed; over it and the card routs. A "
             "natural 6 always routs, a 1 always holds. Charlet is C (2): roll.",
         rules=("6.0", "12.1")),
    Step(A, _a("pass", A), (2,)),
    Step(F, _a("fire", F, piece=CHARLET, target=VINCKE), (5, 6, 1), title="Fire from the "
         "engagement",
         say="A 2: the hit is removed. Infantry fire only once engaged, and Charlet engaged "
             "last turn: now fire at Vincke's brigade, the only enemy card in that Position. "
             "Charlet is cv3 F2: three dice, a 5 or a 6 hits.",
         rules=("7.21", "7.2", "7.4")),
    Step(A, _a("pass", A), (5, 6, 1)),
    Step(F, _a("end_phase", F), title="Ending the Combat Phase",
         say="Two hits on Vincke's Landwehr (morale D: 1). End the Combat Phase.",
         rules=("5.0", "10.0")),
    Step(F, _a("end_turn", F), title="Reinforcements",
         say="End your turn. The Allies must roll for Vincke's two hits in their Morale "
             "Phase; any roll over 1 routs it.", rules=("6.0", "10.0")),
    Step(A, _a("roll_morale", A)),
    Step(F, _a("pass", F), (4, 1)),
)


class TutorialError(Exception):
    """A step that is not the tutorial's next one (a stale page, a second tab)."""


def start(cards: Any) -> dict[str, Any]:
    """A new tutorial, played up to the newcomer's first step."""
    st = new_battle(BATTLE, 0, cards=cards)
    st.reserve = [sorted(RESERVES["french"]), sorted(RESERVES["allied"])]
    st.decks = {army: list(deck) for army, deck in DECKS.items()}
    st.cache = None  # the engine's index of the field (queries.index): rebuilt
    return _advance(st, 0, [])[0]


def _pieces_of(st: State) -> dict[int, int]:
    """Card number -> piece id of the cards on the field."""
    return {p.num: p.pid for p in st.pieces.values()}


def resolve(st: State, step: Step) -> dict[str, Any]:
    """The step's action as the engine takes it (piece ids for the cards named)."""
    action = dict(step.action)
    pids = _pieces_of(st)
    for key in ("piece", "target"):
        if key in action:
            action[key] = pids[action[key]]
    return action


def _apply(st: State, step: Step, events: list[dict[str, Any]]) -> None:
    action = resolve(st, step)
    if action not in legal_actions(st, step.side):  # the engine decides, never the script
        raise TutorialError(f"the script's step is not legal: {action}")
    events.extend(apply(st, action, list(step.dice)))


def _advance(st: State, at: int, events: list[dict[str, Any]]
             ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play the steps that are not the newcomer's from ``at`` on."""
    while at < len(SCRIPT) and not SCRIPT[at].say and outcome(st) is None:
        _apply(st, SCRIPT[at], events)
        at += 1
    return {"at": at, "position": to_json(st)}, events


def state_of(doc: Mapping[str, Any], cards: Any) -> State:
    return from_json(dict(doc["position"]), cards)


def current(doc: Mapping[str, Any]) -> Step | None:
    """The newcomer's next step, None once the battle is over."""
    at = doc.get("at")
    if not isinstance(at, int) or not 0 <= at < len(SCRIPT):
        return None
    return SCRIPT[at]


def play(doc: Mapping[str, Any], at: int, cards: Any
         ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The newcomer plays step ``at`` (it must be the current one); the steps that follow up
    to their next one are played too. Returns the new tutorial and every event."""
    step = current(doc)
    if step is None or at != doc["at"]:
        raise TutorialError("this step has already been played")
    st = state_of(doc, cards)
    events: list[dict[str, Any]] = []
    _apply(st, step, events)
    return _advance(st, at + 1, events)


def player_steps() -> Iterable[int]:
    """The indices of the newcomer's steps (the tests play them in order)."""
    return (i for i, s in enumerate(SCRIPT) if s.say)
