"""The game service's module (kind "belle_alliance") and the computer players."""

from __future__ import annotations

import json
import random
import time

from belle_alliance import engine as e
from belle_alliance.bots import SearchBot, evaluate, get_bot
from belle_alliance.loader import edition
from belle_alliance.module import GAME, BelleAlliance
from play.protocol import Bot, GameModule


def test_module_is_the_services_protocol_type() -> None:
    assert isinstance(GAME, GameModule) and isinstance(BelleAlliance(), GameModule)
    assert GAME.kind == "belle_alliance" and GAME.sides == ("french", "allied")
    for name in ("random", "greedy", "expectimax"):
        assert isinstance(GAME.bot(name, edition()), Bot)


def test_dice_are_a_seeded_stream() -> None:
    a = [next(iter(GAME.dice(7, 3))) for _ in range(1)]
    d1, d2 = GAME.dice(7, 3), GAME.dice(7, 3)
    assert [next(iter(d1)) for _ in range(20)] == [next(iter(d2)) for _ in range(20)]
    assert a[0] in range(1, 7)
    assert list(zip(range(20), GAME.dice(7, 4), strict=False)) != list(
        zip(range(20), GAME.dice(7, 3), strict=False))
    assert GAME.bot_rng(1, 2).random() == GAME.bot_rng(1, 2).random()


def test_a_game_through_the_module_replays_exactly_from_its_actions() -> None:
    cards = edition()
    s = GAME.setup(11, {}, cards)
    log = []
    n = 0
    while GAME.to_move(s) is not None:
        side = GAME.to_move(s)
        assert side is not None
        legal = GAME.legal_actions(s, side)
        a = GAME.bot("random", cards).choose(GAME.view(s, side), legal, GAME.bot_rng(11, n))
        events = GAME.apply(s, a, GAME.dice(11, n), legal=legal)
        log.append((a, events))
        n += 1
    replay = GAME.setup(11, {}, cards)
    for i, (a, events) in enumerate(log):
        assert GAME.apply(replay, a, GAME.dice(11, i), check=False) == events
    assert GAME.to_json(replay) == GAME.to_json(s) and GAME.outcome(s) is not None
    doc = json.loads(json.dumps(GAME.to_json(s)))
    assert GAME.to_json(GAME.from_json(doc, cards)) == doc


def test_view_shows_everything_and_events_for_everyone() -> None:
    s = GAME.setup(1, {}, edition())
    events = GAME.apply(s, GAME.legal_actions(s, "french")[0], [4])
    for viewer in ("french", "allied", None):
        v = GAME.view(s, viewer)
        assert v["position"] == GAME.to_json(s) and v["publisher"] is False
        assert GAME.events_for(events, viewer) == events
    assert GAME.view(s, "allied")["legal"] == GAME.legal_actions(s, "allied")
    assert GAME.shown_cards(events, "allied") == set()


def test_turns_ended_one_per_player_phase() -> None:
    s = GAME.setup(1, {}, edition())
    before = GAME.to_json(s)
    GAME.apply(s, GAME.legal_actions(s, "french")[0], [4, 1])
    mid = GAME.to_json(s)
    GAME.apply(s, GAME.legal_actions(s, "allied")[0], [4, 1])
    assert GAME.turns_ended(before, mid) == ["french"]
    assert GAME.turns_ended(mid, GAME.to_json(s)) == ["allied"]
    assert GAME.turns_ended(before, GAME.to_json(s)) == ["french", "allied"]


def test_undo_refused_once_a_die_is_rolled_or_the_phase_ends() -> None:
    s = GAME.setup(1, {}, edition())
    a = GAME.legal_actions(s, "french")[0]
    events = GAME.apply(s, a, [4])
    assert GAME.undo_refusal(a, events, "french", None, GAME.to_json(s)) == "it rolled a die"
    assert GAME.undo_turn_refusal(GAME.to_json(s), "french") == "it is not your turn"
    assert GAME.undo_turn_refusal(GAME.to_json(s), "allied") is None
    choice = {"type": "casualty", "card": "hill"}
    assert GAME.undo_refusal(choice, [{"type": "chosen"}, {"type": "casualty"}], "allied",
                             None, GAME.to_json(s)) is None


def test_normalise_and_forced_actions() -> None:
    a = {"type": "act", "card": "I", "action": "assault", "target": "orange"}
    assert GAME.normalise_action(a, "french") == {**a, "napoleon": False}
    assert GAME.normalise_action(a, "allied") == a
    assert GAME.forced_action([{"type": "pass"}], False) == {"type": "pass"}
    assert GAME.forced_action([{"type": "pass"}], True) is None
    assert GAME.forced_action([a, a], False) is None


def test_bots_choose_legal_actions_within_a_second() -> None:
    cards = edition()
    rng = random.Random(5)
    s = e.new_game(cards)
    dice = e.SeededDice(5)
    bots = {"french": SearchBot(cards), "allied": get_bot("greedy", cards)}
    while s.to_move() is not None:
        side = s.to_move()
        assert side is not None
        legal = e.legal_actions(s, side)
        t = time.process_time()
        a = bots[side].choose(e.view(s, side), legal, rng)
        assert time.process_time() - t < 1.5  # the budget is 1 s of CPU, checked between nodes
        assert a in legal
        e.apply(s, a, dice)


def test_greedy_takes_a_winning_action() -> None:
    cards = edition()
    s = e.new_game(cards)
    s.morale["allied"] = 1  # any Allied morale loss breaks them
    a = get_bot("greedy", cards).choose_state(s, e.legal_actions(s, "french"),
                                              random.Random(1))
    best = max(e.legal_actions(s, "french"),
               key=lambda x: sum(p for p, t in e.chances(s, x) if t.winner == "french"))
    won = sum(p for p, t in e.chances(s, a) if t.winner == "french")
    assert won >= sum(p for p, t in e.chances(s, best) if t.winner == "french") - 0.2


def test_evaluate_favours_the_side_closer_to_victory() -> None:
    s = e.new_game(edition())
    assert abs(evaluate(s)) < 0.2
    s.morale["allied"] = 3
    assert evaluate(s) > 0.3
