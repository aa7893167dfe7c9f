"""The battle board (SVG) and the words for actions and events (frontend/battle/board_svg.py,
frontend/battle/words.py).

Seeded random battles of all four battles are played; at many steps, for both sides, the
board must be well-formed XML with one piece element per piece in the view, every legal action
must get a label and every event a log line, and nothing produced for a side may name a card
that side cannot see (face-down enemy pieces, the enemy Reserve and decks). Hidden cards are
caught by rendering with a card table whose names carry a unique token per card number.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest

from battles.engine import (
    SIDES,
    SeededDice,
    apply,
    events_for,
    legal_actions,
    load_cards,
    new_battle,
    view,
)
from cards.catalogue.file import catalogue_records
from frontend.battle.board_svg import board_svg
from frontend.battle.words import (
    describe_action,
    describe_actions,
    describe_event,
    describe_events,
    place_label,
)

RECORDS = catalogue_records()  # the card records the engine is given

SVG = "{http://www.w3.org/2000/svg}"
CARDS = load_cards(RECORDS)
# Each card's name carries a token unique to its number: "Old Guard Zq49Q".
TOKENS = {n: c._replace(name=f"{c.name} Zq{n}Q") for n, c in CARDS.items()}
TOKEN = re.compile(r"Zq(\d+)Q")

# (battle, seed): seeds chosen so that, together, the games offer every action type of the
# engine README and most event types (captures, rallies, cancelled specials, the Prussians
# arriving); odd seeds play with decoys.
GAMES = {
    "quatre-bras": (1, 3, 5),
    "ligny": (2, 5),
    "wavre": (1, 5, 7),
    "waterloo": (4, 5),
}
ACTION_TYPES = {"deploy", "deployment_done", "play_terrain", "decoy", "move",
                "change_formation", "occupy", "fire", "shock", "play_special", "roll_morale",
                "pass", "end_phase", "end_turn"}
KIND_WORDS = ("infantry", "cavalry", "artillery", "general", "terrain", "special", "decoy",
              "hill", "woods", "building", "river")


def all_text(svg: str) -> str:
    """Every text node and attribute value of the document, unescaped."""
    root = ET.fromstring(svg)
    bits = []
    for el in root.iter():
        bits.extend(el.attrib.values())
        if el.text:
            bits.append(el.text)
        if el.tail:
            bits.append(el.tail)
    return "\n".join(bits)


def hidden_cards(st, side: str, v: dict) -> set[int]:
    """Every enemy card `side` may not see now: face-down enemy pieces, the enemy Reserve and
    the enemy Reinforcement decks, less any card number the view shows (decks may hold two
    copies of a card, one of them face-up)."""
    s = SIDES.index(side)
    hidden = {p.num for p in st.pieces.values() if p.side != s and not p.up}
    hidden |= set(st.reserve[1 - s])
    for army, deck in st.decks.items():
        if (army == "french") != (side == "french"):
            hidden |= set(deck)
    return hidden - shown_cards(v)


def shown_cards(v: dict) -> set[int]:
    """Every card number a view shows."""
    shown = {p["card"] for p in v["pieces"] if "card" in p}
    shown |= set(v["reserves"][v["viewer"]].get("cards") or ()) if v["viewer"] else set()
    for side_name in SIDES:
        shown |= set(v["eliminated"][side_name]) | set(v["discarded"][side_name])
    shown |= {e["card"] for e in v["specials"]}
    return shown


def assert_hides(text: str, hidden: set[int], where: str) -> None:
    leaked = {int(n) for n in TOKEN.findall(text)} & hidden
    assert not leaked, f"{where} names hidden cards {sorted(leaked)}: {text[:300]}"


def check_board(st, side: str, v: dict, hidden: set[int], real_names: bool) -> None:
    svg = board_svg(v, side, TOKENS)
    root = ET.fromstring(svg)  # raises on malformed XML
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("viewBox", "").startswith("0 0 420 ")
    assert root.find(f"{SVG}title").text and root.find(f"{SVG}desc").text
    pieces = [g for g in root.iter(f"{SVG}g") if g.get("data-piece") is not None]
    assert sorted(int(g.get("data-piece")) for g in pieces) == sorted(
        p["piece"] for p in v["pieces"])
    by_id = {p["piece"]: p for p in v["pieces"]}
    for g in pieces:
        p = by_id[int(g.get("data-piece"))]
        assert g.find(f"{SVG}title").text, "every piece has a tooltip"
        assert g.get("data-place") == p["place"] and g.get("data-side") == p["side"]
        if p["side"] != side and not p["face_up"]:
            # a card back: no card number, no type, no name, only the view's markers
            assert g.get("data-card") is None and "type-" not in g.get("class")
            words = " ".join(g.itertext()) + " " + " ".join(g.attrib.values())
            named = {int(n) for n in TOKEN.findall(words)}
            # only face-up cards may be named on it (the Terrain it occupies)
            assert named <= {q["card"] for q in v["pieces"] if q["face_up"]}, words
            for n in named:
                words = words.replace(TOKENS[n].name, "")
            assert not [w for w in KIND_WORDS if w in words.lower()], words
        elif "card" in p:
            assert g.get("data-card") == str(p["card"])
            assert CARDS[p["card"]].name in g.find(f"{SVG}title").text
    cards_shown = {int(g.get("data-card")) for g in pieces if g.get("data-card")}
    assert not cards_shown & hidden
    assert_hides(svg, hidden, f"board for {side}")
    # Reserves are counts only: the viewer's own Reserve is listed in the page.
    reserves = {g.get("data-place"): g for g in root.iter(f"{SVG}g")
                if "reserve" in (g.get("class") or "")}
    for name in SIDES:
        assert reserves[f"{name}_reserve"].get("data-count") == str(v["reserves"][name]["count"])
    own_reserve_only = set(v["reserves"][side]["cards"]) - {p.get("card") for p in v["pieces"]}
    own_reserve_only -= set(v["eliminated"][side]) | set(v["discarded"][side])
    own_reserve_only -= {e["card"] for e in v["specials"]}
    assert_hides(svg, own_reserve_only, "the own Reserve on the board")
    if real_names:  # the real names too, where no visible card's name contains them
        text = all_text(board_svg(v, side, cards=CARDS))
        shown = " ".join(CARDS[n].name for n in shown_cards(v))  # e.g. "Wellington's Staff"
        for n in hidden:
            name = CARDS[n].name
            if len(name) >= 5 and name not in shown:
                assert name not in text, f"hidden card {n} {name!r} on {side}'s board"


def check_actions(acts: list[dict], v: dict, hidden: set[int]) -> set[str]:
    labels = describe_actions(acts, v, TOKENS)
    assert len(labels) == len(acts)
    for a, label in zip(acts, labels, strict=True):
        assert isinstance(label, str) and label.strip(), a
        assert "{" not in label and "None" not in label, label
        assert_hides(label, hidden, f"label of {a}")
    assert len(set(labels)) == len(labels), "two legal actions share a label"
    if acts:
        assert describe_action(acts[0], v, TOKENS) == labels[0]
    return {a["type"] for a in acts}


def check_events(st, ev: list[dict], before: dict, event_types: set[str]) -> None:
    for side in SIDES:
        v = view(st, side)
        seen = events_for(ev, side)
        # Lines may name only the cards the side's views (before and after) or its events
        # show: a face-up card withdrawing, a Prussian General drawn at Waterloo (10.0).
        allowed = shown_cards(before[side]) | shown_cards(v)
        for e in seen:
            allowed |= {e[k] for k in ("card", "by") if k in e} | set(e.get("cards") or ())
        hidden = hidden_cards(st, side, v) - allowed
        lines = describe_events(seen, side, TOKENS, view=v, before=before[side])
        assert len(lines) == len(seen)
        for e, line in zip(seen, lines, strict=True):
            assert isinstance(line, str) and line.strip(), e
            assert "{" not in line and "None" not in line, line
            assert_hides(line, hidden, f"log line of {e}")
            assert {int(n) for n in TOKEN.findall(line)} <= allowed, line
            one = describe_event(e, side, TOKENS, view=v, before=before[side])
            assert one.strip()
            assert {int(n) for n in TOKEN.findall(one)} <= allowed, one
            event_types.add(e["type"])
        # events meant for the other side only: a line, but no card named at all
        for e in ev:
            if e["visibility"] not in ("all", side):
                line = describe_event(e, side, TOKENS, view=v)
                assert line.strip() and not TOKEN.search(line), line


@cache
def play(battle: str) -> tuple[frozenset, frozenset, int]:
    """Play the battle's seeded games, checking at many steps; returns the action types
    offered, the event types seen and the number of boards checked."""
    action_types: set[str] = set()
    event_types: set[str] = set()
    boards = 0
    for seed in GAMES[battle]:
        st = new_battle(battle, seed, settings={"decoys": seed % 2 == 1}, cards=RECORDS)
        rng = random.Random(f"t:{seed}")
        dice = SeededDice(seed)
        step = 0
        while st.outcome is None:
            mover = SIDES[st.priority]
            acts = legal_actions(st, mover)
            views = {side: view(st, side) for side in SIDES}
            full = step < 30 or step % 8 == 0
            for side in SIDES:
                if full or side == mover:
                    hidden = hidden_cards(st, side, views[side])
                    if side == mover:
                        action_types |= check_actions(acts, views[side], hidden)
                    if full:
                        check_board(st, side, views[side], hidden, real_names=step % 40 == 0)
                        boards += 1
            ev = apply(st, acts[rng.randrange(len(acts))], dice, check=False)
            check_events(st, ev, views, event_types)
            step += 1
        for side in SIDES:  # the final board, with the outcome
            v = view(st, side)
            check_board(st, side, v, hidden_cards(st, side, v), real_names=True)
    return frozenset(action_types), frozenset(event_types), boards


@pytest.mark.parametrize("battle", list(GAMES))
def test_random_battles_render_and_describe_without_leaks(battle):
    action_types, event_types, boards = play(battle)
    assert boards > 50
    assert {"deploy", "deployment_done", "move", "fire", "end_phase"} <= action_types
    assert {"deploy", "move", "reveal", "turn", "battle_over"} <= event_types


def test_random_play_offers_every_action_type():
    offered = set()
    for battle in GAMES:
        offered |= play(battle)[0]
    assert offered == ACTION_TYPES


# -- by hand -------------------------------------------------------------------------------


def midgame(battle: str = "waterloo", seed: int = 5, steps: int = 120):
    st = new_battle(battle, seed, settings={"decoys": True}, cards=RECORDS)
    rng = random.Random(f"t:{seed}")
    dice = SeededDice(seed)
    for _ in range(steps):
        acts = legal_actions(st, SIDES[st.priority])
        apply(st, acts[rng.randrange(len(acts))], dice)
        if st.outcome is not None:
            break
    return st


def test_orientation_own_side_at_the_bottom():
    st = midgame()
    for side, bottom, top in (
            ("french", ["french_left", "french_center", "french_right"],
             ["allied_right", "allied_center", "allied_left"]),
            ("allied", ["allied_left", "allied_center", "allied_right"],
             ["french_right", "french_center", "french_left"])):
        root = ET.fromstring(board_svg(view(st, side), side, cards=CARDS))
        boxes = []
        for g in root.iter(f"{SVG}g"):
            if "position" in (g.get("class") or "").split():
                rect = g.find(f"{SVG}rect")
                boxes.append((float(rect.get("y")), float(rect.get("x")), g.get("data-place")))
        boxes.sort()
        assert [b[2] for b in boxes[:3]] == top
        assert [b[2] for b in boxes[3:]] == bottom
        assert boxes[0][0] < boxes[3][0]


def test_labels_read_like_the_examples():
    st = new_battle("quatre-bras", 7, cards=RECORDS)
    v = view(st, "allied")
    num = next(n for n in v["reserves"]["allied"]["cards"]
               if CARDS[n].kind in ("infantry", "cavalry", "general"))
    label = describe_action({"type": "deploy", "side": "allied", "card": num,
                             "to": "allied_center"}, v, cards=CARDS)
    assert label == f"Deploy {CARDS[num].name} ({CARDS[num].kind}) to your Centre"
    assert describe_action({"type": "end_phase", "side": "allied"}, v, cards=CARDS) == \
        "End the Combat Phase"
    assert describe_action({"type": "roll_morale", "side": "allied"}, v, cards=CARDS) == \
        "Roll for morale"
    assert place_label("front_left", "allied") == "the Middle Ground before your Right"
    assert place_label("allied_right", "french") == "enemy Right"
    assert place_label("french_left", None) == "French Left"


def test_fire_at_a_face_down_card_names_only_its_army_and_place():
    st = midgame("waterloo", 3, 200)  # a random battle with hidden Allied cards then
    v = view(st, "french")
    hidden = [p for p in v["pieces"] if p["side"] == "allied" and not p["face_up"]]
    mine = [p for p in v["pieces"] if p["side"] == "french" and p["face_up"]
            and CARDS[p["card"]].troop]
    assert hidden and mine
    target, shooter = hidden[0], mine[0]
    label = describe_action({"type": "fire", "side": "french", "piece": shooter["piece"],
                             "target": target["piece"]}, v, cards=CARDS)
    assert label.startswith(f"Fire: {CARDS[shooter['card']].name} at the face-down ")
    army = {"british": "British", "prussian": "Prussian"}[target["army"]]
    where = place_label(target["place"], "french")
    assert f"{army} card" in label and label.endswith(f" in {where}")
    true_name = CARDS[st.pieces[target["piece"]].num].name
    assert true_name not in label


def test_every_action_type_and_unknown_ones_get_a_label():
    st = midgame()
    v = view(st, "french")
    pieces = [p for p in v["pieces"] if p["side"] == "french"]
    enemy = [p for p in v["pieces"] if p["side"] == "allied"]
    card = (v["reserves"]["french"]["cards"] or [1])[0]
    pid, tid = pieces[0]["piece"], enemy[0]["piece"]
    actions = [
        {"type": "deploy", "card": card, "to": "french_left"},
        {"type": "deploy", "card": card, "to": "french_left", "occupy": pid},
        {"type": "deployment_done"},
        {"type": "play_terrain", "card": card},
        {"type": "decoy", "card": card, "to": "french_right"},
        {"type": "move", "piece": pid, "to": "allied_center", "formation": "column"},
        {"type": "move", "card": card, "to": "french_center"},
        {"type": "move", "piece": pid, "to": "french_reserve"},
        {"type": "change_formation", "piece": pid, "formation": "square"},
        {"type": "occupy", "piece": pid, "terrain": tid},
        {"type": "fire", "piece": pid, "target": tid},
        {"type": "shock", "piece": pid, "target": tid},
        {"type": "play_special", "card": card, "at": "french_center"},
        {"type": "play_special", "card": card, "at": "allied_left", "cancel": 1},
        {"type": "play_special", "card": card, "at": "french_left", "formation": "square",
         "pieces": [pid, pid]},
        {"type": "roll_morale"},
        {"type": "pass"},
        {"type": "end_phase"},
        {"type": "end_turn"},
        {"type": "teleport", "piece": pid},
        {"type": "<script>"},
        {},
    ]
    covered = set()
    for a in actions:
        for side in SIDES:
            label = describe_action({**a, "side": side}, v, cards=CARDS)
            assert label.strip() and "None" not in label, a
        covered.add(a.get("type"))
    assert ACTION_TYPES <= covered
    assert "<" not in describe_action({"type": "<script>", "side": "french"}, v, cards=CARDS)
    # the enemy's own moves from its hidden Reserve name no card
    enemy_card = st.reserve[1][0] if st.reserve[1] else 111
    label = describe_action({"type": "deploy", "side": "allied", "card": enemy_card,
                             "to": "allied_left"}, v, TOKENS)
    assert not TOKEN.search(label)


EVENTS = [
    {"type": "deploy", "side": "allied", "piece": 900, "to": "allied_left", "army": "british"},
    {"type": "deploy_card", "side": "allied", "piece": 900, "card": 129},
    {"type": "enter", "side": "french", "piece": 901, "to": "french_left", "army": "french",
     "card": 1},
    {"type": "enter_card", "side": "french", "piece": 902, "card": 15},
    {"type": "decoy_card", "side": "french", "piece": 903, "card": 97},
    {"type": "move", "side": "french", "piece": 901, "from": "french_left",
     "to": "allied_right"},
    {"type": "reveal", "piece": 900, "card": 129},
    {"type": "declare", "side": "french", "attack": "fire", "piece": 902, "target": 900},
    {"type": "fire", "side": "french", "piece": 902, "target": 900, "dice": [4, 2],
     "power": 2, "hits": 0},
    {"type": "shock", "side": "french", "piece": 902, "target": 900, "dice": [6],
     "power": 3, "hits": 1},
    {"type": "attack_void", "piece": 902, "target": 900},
    {"type": "general_hits", "piece": 901, "hits": 2},
    {"type": "blown", "piece": 902},
    {"type": "recovered", "piece": 902},
    {"type": "formation", "piece": 902, "formation": "square"},
    {"type": "occupy", "piece": 902, "terrain": 904},
    {"type": "terrain", "side": "allied", "piece": 904, "card": 180, "at": "allied_left"},
    {"type": "special", "side": "french", "card": 102, "at": "french_right",
     "pieces": [902, 902]},
    {"type": "cancelled", "card": 102, "by": 294},
    {"type": "morale", "piece": 902, "value": 3, "dice": [4], "routed": True},
    {"type": "general_morale", "piece": 901, "dice": [6], "killed": True},
    {"type": "hit_removed", "piece": 902},
    {"type": "rallied", "side": "french", "piece": 902, "card": 15},
    {"type": "eliminated", "side": "french", "piece": 901, "card": 1, "reason": "killed"},
    {"type": "captured", "terrain": 904, "by": "french", "occupants": [902]},
    {"type": "draw", "side": "french", "army": "french", "count": 2},
    {"type": "drawn", "side": "french", "cards": [28, 29]},
    {"type": "prussians_arrive", "card": 204},
    {"type": "specials_discarded", "cards": [102]},
    {"type": "turn", "turn": 3, "side": "allied"},
    {"type": "deployment_done", "side": "allied"},
    {"type": "battle_over", "winner": "french", "reason": "occupation", "turn": 9,
     "position": "allied_center"},
    {"type": "battle_over", "winner": None, "reason": "turn_cap", "turn": 40,
     "lost_bp": {"french": 30, "allied": 30}},
    {"type": "mystery", "card": 129},
]
PRIVATE = {"deploy_card": "allied", "enter_card": "french", "decoy_card": "french",
           "drawn": "french"}


def test_every_event_type_gets_a_line_and_private_ones_stay_private():
    readme_public = {"deploy", "enter", "move", "reveal", "declare", "fire", "shock",
                     "general_hits", "blown", "recovered", "formation", "occupy", "terrain",
                     "special", "cancelled", "morale", "general_morale", "hit_removed",
                     "rallied", "eliminated", "captured", "draw", "prussians_arrive",
                     "specials_discarded", "turn", "deployment_done", "attack_void",
                     "battle_over"}
    assert readme_public | set(PRIVATE) <= {e["type"] for e in EVENTS}
    for e in EVENTS:
        e = {**e, "visibility": PRIVATE.get(e["type"], "all")}
        for side in (*SIDES, None):
            line = describe_event(e, side, TOKENS)
            assert line.strip() and "None" not in line and "{" not in line, (e, line)
            if e["visibility"] not in ("all", side):
                assert not TOKEN.search(line), line
    lines = describe_events([{**e, "visibility": PRIVATE.get(e["type"], "all")}
                             for e in EVENTS], "french", TOKENS)
    assert len(lines) == len(EVENTS) - 1  # the Allied deploy_card is not the French's
    # the Allied deploy is anonymous to the French; once revealed, the piece is named
    assert not TOKEN.search(lines[0])
    revealed = next(i for i, line in enumerate(lines) if line.startswith("Revealed"))
    assert "Zq129Q" in lines[revealed] and "Zq129Q" in lines[revealed + 1]


def test_names_with_markup_are_escaped():
    st = midgame("quatre-bras", 3, 60)
    odd = 'Ney & <Staff> "l\'Empereur"\x01'
    cards = {n: c._replace(name=f"{odd} {n}") for n, c in CARDS.items()}
    for side in SIDES:
        v = view(st, side)
        svg = board_svg(v, side, cards)
        root = ET.fromstring(svg)  # well-formed despite the name
        shown = [p for p in v["pieces"] if "card" in p]
        assert shown
        titles = [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g")
                  if g.get("data-card")]
        assert any('Ney & <Staff> "l\'Empereur"' in t for t in titles)
        assert "\x01" not in svg and "<Staff>" not in svg
        label = describe_action({"type": "deploy", "side": side,
                                 "card": v["reserves"][side]["cards"][0] if
                                 v["reserves"][side]["cards"] else shown[0]["card"],
                                 "to": f"{side}_left"}, v, cards)
        assert "\x01" not in label  # plain text, escaped by the page's template


def test_spectator_sees_no_face_down_card():
    st = midgame("ligny", 5, 150)
    v = view(st, None)
    svg = board_svg(v, "french", TOKENS)
    ET.fromstring(svg)
    down = {p.num for p in st.pieces.values() if not p.up}
    shown = {p["card"] for p in v["pieces"] if "card" in p}
    assert_hides(svg, down - shown, "spectator board")
    assert "your" not in all_text(svg).lower()


def test_a_view_for_the_other_side_does_not_unmask_its_cards():
    """Defence in depth: face-down pieces are named only for their owner."""
    st = midgame()
    v = view(st, "allied")  # wrongly drawn for the French
    svg = board_svg({**v, "viewer": "french"}, "french", TOKENS)
    down = {p.num for p in st.pieces.values() if p.side == 1 and not p.up}
    shown = {p["card"] for p in v["pieces"] if p["face_up"]}
    assert_hides(svg, down - shown, "mismatched view")
