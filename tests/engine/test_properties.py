"""Property tests over random legal play on all four battles (hypothesis)."""

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from battles.engine import (
    SeededDice,
    apply,
    events_for,
    from_json,
    historical_deck,
    new_battle,
    play_random,
    to_json,
    view,
)
from battles.engine.board import POSITIONS, SIDES
from battles.engine.legal import legal_actions
from battles.engine.moves import over_limits
from battles.engine.queries import index, stack
from battles.engine.state import State
from cards.catalogue.file import catalogue_records

RECORDS = catalogue_records()  # the card records the engine is given

BATTLES = st_.sampled_from(["quatre-bras", "ligny", "wavre", "waterloo"])
SEEDS = st_.integers(min_value=0, max_value=10**6)
FAST = settings(max_examples=24, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


def all_cards(st: State) -> Counter:
    c = Counter()
    for s in (0, 1):
        c.update(st.reserve[s])
        c.update(st.elim[s])
        c.update(st.discard[s])
    for deck in st.decks.values():
        c.update(deck)
    c.update(p.num for p in st.pieces.values())
    c.update(e["card"] for e in st.effects)
    return c


def hidden_from(st: State, s: int) -> set[int]:
    """Card numbers side s may not know (historical decks have no duplicates)."""
    out = set(st.reserve[1 - s])
    for deck in st.decks.values():
        out.update(deck)
    out.update(p.num for p in st.pieces.values() if p.side != s and not p.up)
    return out


def shown_cards(obj) -> set[int]:
    found: set[int] = set()

    def walk(x, key=None):
        if isinstance(x, dict):
            for k, v in x.items():
                if k not in ("decks", "rates", "lost_bp", "deck_bp"):  # counts per army
                    walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, int) and not isinstance(x, bool) and key in (
                "card", "cards", "french", "allied", "by"):
            found.add(x)

    walk(obj)
    return found


class Checker:
    def __init__(self, battle: str, seed: int):
        self.expected = Counter()
        for army in new_battle(battle, seed, cards=RECORDS).armies:
            self.expected.update(historical_deck(battle, army, seed, cards=RECORDS))
        self.n = 0

    def __call__(self, st: State, action: dict, events: list[dict]) -> None:
        self.n += 1
        assert all_cards(st) == self.expected  # every card in exactly one place
        idx = index(st)
        if st.outcome is None and st.phase == "combat" and over_limits(st, idx, st.active):
            # RULINGS 8.4-a: over a limit while moving, with a move back always listed
            acts = legal_actions(st, SIDES[st.priority])
            assert acts and (st.priority != st.active or
                             all(a["type"] == "move" for a in acts))
        elif action["type"] != "move":
            for s in (0, 1):  # 8.4 and 12.0 hold once movement is completed
                assert not over_limits(st, idx, s)
                for pos in POSITIONS:
                    assert stack(st, idx[pos], s) <= 4
        if self.n % 5 == 0 or st.outcome is not None:
            for s, name in enumerate(("french", "allied")):
                secret = hidden_from(st, s)
                v = view(st, name)
                assert not (shown_cards(v) & secret), name
                seen = shown_cards([e for e in events_for(events, name)
                                    if e["type"] not in ("rallied", "prussians_arrive")])
                assert not (seen & secret), (name, events)
            assert not (shown_cards(view(st, None)) & (hidden_from(st, 0) | hidden_from(st, 1)))


@FAST
@given(battle=BATTLES, seed=SEEDS, decoys=st_.booleans())
def test_random_play_invariants(battle, seed, decoys):
    check = Checker(battle, seed)
    cap = 30
    game = play_random(battle, seed, settings={"decoys": decoys, "turn_cap": cap},
                       on_step=check, cards=RECORDS)
    assert game.state.outcome is not None and game.state.turn <= cap


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(battle=BATTLES, seed=SEEDS, cut=st_.floats(min_value=0.05, max_value=0.95))
def test_save_and_restore_mid_battle_changes_nothing(battle, seed, cut):
    game = play_random(battle, seed, record=True, cards=RECORDS)
    k = int(len(game.actions) * cut)
    st = new_battle(battle, seed, cards=RECORDS)
    dice = SeededDice(seed)
    events = []
    for a in game.actions[:k]:
        events.extend(apply(st, a, dice))
    st = from_json(json.loads(json.dumps(to_json(st))), cards=RECORDS)
    for a in game.actions[k:]:
        events.extend(apply(st, a, dice, check=True))
    assert json.dumps(events) == json.dumps(game.events)
    assert st.outcome == game.state.outcome


def test_hidden_identities_swapped_leave_the_view_unchanged():
    """Permuting the identities of a side's hidden cards changes nothing the enemy sees."""
    game_states = []
    for seed in (4, 5, 6):
        play_random("waterloo", seed, on_step=lambda st, a, ev: game_states.append(st.copy())
                    if len(game_states) < 400 and st.turn else None, cards=RECORDS)
    assert len(game_states) > 100
    for st in game_states[::25]:
        for s in (0, 1):
            enemy = 1 - s
            other = st.copy()
            hidden = [p for p in other.pieces.values() if p.side == enemy and not p.up]
            by_army: dict[str, list] = {}
            for p in hidden:
                by_army.setdefault(other.cards[p.num].army, []).append(p)
            for ps in by_army.values():
                nums = [p.num for p in ps]
                for p, n in zip(ps, nums[1:] + nums[:1], strict=True):
                    p.num = n
            other.reserve[enemy] = list(reversed(other.reserve[enemy]))
            name = ("french", "allied")[s]
            assert view(other, name) == view(st, name)
