"""Building small positions by hand for clause tests (no database)."""

from __future__ import annotations

from battles.engine import apply, legal_actions, load_cards, new_battle
from battles.engine.board import ARMY_SIDE, PLACE_INDEX, SIDE_INDEX
from battles.engine.state import COLUMN, LINE, SQUARE, Piece, State
from cards.catalogue.file import catalogue_records

RECORDS = catalogue_records()  # the card records the engine is given

CARDS = load_cards(RECORDS)
FORMS = {"line": LINE, "column": COLUMN, "square": SQUARE}

# Representative cards (numbers from cards/data/catalogue.json)
FR_INF = 15  # Brigade, I Corps, cv3 C F2 S3
FR_INF_II = 25  # II Corps, cv4 C F2 S3
FR_GUARD = 49  # Guard infantry, cv3 A F2 S4
FR_CAV = 63  # III Cav, cv4 B S4
FR_CAV_III = 57  # III Corps cavalry, cv3 C S3
FR_FOOT = 71  # II Corps foot artillery cv3 B F1/F3
FR_FOOT_12 = 72  # II foot artillery F2/F3 cv2
FR_HORSE = 82  # III Cavalry Corps horse artillery cv2 F1/F2 (Piré's #73 is one battery, cv1)
NAPOLEON, SOULT, NEY, DERLON, REILLE = 1, 2, 3, 5, 6
BR_INF = 129  # British I Corps cv3 B F3 S2
BR_INF_D = 145  # Hanoverian Landwehr cv3 D F1 S2
BR_CAV = 155  # British cavalry cv3 B S3
BR_FOOT = 165  # British foot artillery cv2 B F1/F3
WELLINGTON, UXBRIDGE, COOKE = 111, 112, 116
PR_INF = 207  # Prussian I Corps cv3 B F2 S3
PR_CAV = 252
BLUCHER, GNEISENAU, ZIETEN = 201, 202, 203


def blank(battle: str = "waterloo", active: str = "french", phase: str = "combat") -> State:
    """An empty field in ``active``'s Combat Phase: no cards anywhere."""
    st = new_battle(battle, 0, cards=RECORDS)
    st.pieces = {}
    st.reserve, st.fresh = [[], []], [[], []]
    st.decks = {a: [] for a in st.armies}
    st.turn = 1
    st.active = st.priority = SIDE_INDEX[active]
    st.phase, st.step = phase, ("main" if phase != "morale" else "specials")
    if phase == "deploy":
        st.step = "deploy"
    st.prussians = True
    return st


def put(st: State, num: int, place: str, up: bool = True, **kw) -> Piece:
    side = ARMY_SIDE[CARDS[num].army]
    p = Piece(st.next_pid, num, side, PLACE_INDEX[place], up)
    st.next_pid += 1
    for k, v in kw.items():
        setattr(p, k, FORMS[v] if k == "form" and isinstance(v, str) else v)
    st.pieces[p.pid] = p
    st.cache = None
    return p


def act(st: State, side: str, type_: str, **kw) -> dict:
    return {"type": type_, "side": side, **kw}


def legal(st: State, side: str, type_: str | None = None) -> list[dict]:
    acts = legal_actions(st, side)
    return [a for a in acts if type_ is None or a["type"] == type_]


def do(st: State, action: dict, dice=()) -> list[dict]:
    return apply(st, action, list(dice))


def fire(st: State, p: Piece, t: Piece, dice=(), kind: str = "fire") -> list[dict]:
    side = "french" if p.side == 0 else "allied"
    return do(st, {"type": kind, "side": side, "piece": p.pid, "target": t.pid}, dice)


def move(st: State, p: Piece, to: str, **kw) -> list[dict]:
    side = "french" if p.side == 0 else "allied"
    a = {"type": "move", "side": side, "piece": p.pid, "to": to, **kw}
    if "formation" not in kw and CARDS[p.num].kind == "infantry" and not to.endswith("reserve"):
        forms = [x for x in legal_actions(st, side) if x.get("piece") == p.pid
                 and x["type"] == "move" and x["to"] == to and "occupy" not in x
                 and "occupy" not in kw]
        if forms:
            a["formation"] = {0: "line", 1: "column", 2: "square"}[p.form]
    return do(st, a)


def event(events: list[dict], type_: str) -> dict:
    found = [e for e in events if e["type"] == type_]
    assert found, f"no {type_} event in {events}"
    return found[0]


def side_of(num: int) -> int:
    return ARMY_SIDE[CARDS[num].army]


__all__ = ["PLACE_INDEX", "SIDE_INDEX"]
