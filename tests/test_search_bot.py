"""The search bot (battles/bots/search.py, determinise.py): legal choices only, deterministic
for a seed, blind to hidden identities, reads nothing but the view, beats random, its levels,
and a battle against it through the computer's task."""

from __future__ import annotations

import copy
import json
import random
import threading
import time

import pytest

from battles import services
from battles.bots import BOTS, GreedyBot, RandomBot, get_bot
from battles.bots.determinise import Determiniser
from battles.bots.search import LEVELS, EasySearchBot, HardSearchBot, SearchBot, evaluate
from battles.engine import (
    SIDES,
    SeededDice,
    apply,
    legal_actions,
    load_cards,
    new_battle,
    view,
)
from battles.models import Battle, BotName, Status
from cards.catalogue.file import catalogue_records

from .kinds import battle_tasks as tasks
from .test_bots import _swap_hidden

CARDS = load_cards(catalogue_records())


def small(**kw) -> SearchBot:
    """A cheap search bot for tests: few samples, no clock (deterministic)."""
    return SearchBot(CARDS, **{"samples": 2, "width": 3, "horizon": 2, "max_ms": None, **kw})


def play(battle: str, seed: str, bots: dict, turn_cap: int = 12, check=None) -> tuple:
    st = new_battle(battle, seed, settings={"turn_cap": turn_cap}, cards=CARDS)
    dice = SeededDice(seed)
    rngs = {s: random.Random(f"{seed}:{s}") for s in SIDES}
    actions = []
    while st.outcome is None:
        side = SIDES[st.priority]
        legal = legal_actions(st, side)
        a = bots[side].choose(view(st, side), legal, rngs[side])
        assert a in legal
        if check is not None:
            check(st, side, legal, a)
        actions.append(a)
        apply(st, a, dice, check=False)
        assert len(actions) < 5000
    return st, actions


def test_levels_registered_with_growing_budgets():
    assert {"search-easy", "search", "search-hard"} <= set(BOTS)
    assert isinstance(get_bot("search", CARDS), SearchBot)
    assert type(get_bot("search-easy", CARDS)) is EasySearchBot
    assert type(get_bot("search-hard", CARDS)) is HardSearchBot
    assert LEVELS["normal"] is SearchBot
    easy, normal, hard = (LEVELS[k] for k in ("easy", "normal", "hard"))
    def work(level):  # rollout side-turns a decision may play at most
        return level.samples * level.width * level.horizon

    assert work(easy) < work(normal) < work(hard)
    assert easy.max_ms < normal.max_ms < hard.max_ms
    assert normal.max_ms is not None and normal.max_ms <= 1000
    # the service and the new-battle page accept every registered bot
    assert {name for name in BOTS} <= {c for c, _ in BotName.choices}
    assert max(len(n) for n in BOTS) <= Battle._meta.get_field("bot").max_length
    from frontend.battle.views import BOT_LABELS
    assert set(BOT_LABELS) == set(BOTS)


def test_search_plays_only_legal_actions_and_is_deterministic_for_a_seed():
    bots = {"french": small(), "allied": RandomBot()}
    st1, a1 = play("quatre-bras", "det", bots, turn_cap=8)
    bots = {"french": small(), "allied": RandomBot()}
    st2, a2 = play("quatre-bras", "det", bots, turn_cap=8)
    assert a1 == a2 and st1.outcome == st2.outcome
    assert bots["french"].stats["searched"] > 5 and bots["french"].stats["rollouts"] > 20


def test_determinisations_agree_with_the_view():
    """Every sample shows its side exactly the view it was drawn from, and (almost always)
    offers the same legal actions: the search explores the real decision."""
    seen = {"n": 0, "same_legal": 0}

    def check(st, side, legal, a):
        if seen["n"] >= 40 or len(legal) == 1:
            return
        v = view(st, side)
        det = Determiniser(v, legal, CARDS)
        for i in range(2):
            world = det.sample(random.Random(i))
            w = view(world, side)
            for key in ("pieces", "reserves", "decks", "eliminated", "discarded", "turn",
                        "phase", "step", "active", "pending", "specials"):
                assert w[key] == v[key], key
            seen["same_legal"] += legal_actions(world, side) == legal
            seen["n"] += 1

    play("wavre", "agree", {"french": RandomBot(), "allied": RandomBot()}, turn_cap=10,
         check=check)
    assert seen["n"] >= 40
    assert seen["same_legal"] >= 0.9 * seen["n"], seen


def test_search_reads_only_the_view():
    """Handed a copy of the view (plain JSON, no State anywhere), it chooses as it does from
    the engine's own view object; the view never names the opponent's hidden cards."""
    st = new_battle("ligny", "blind", settings={"turn_cap": 10}, cards=CARDS)
    dice = SeededDice("blind")
    bot = small()
    rng = random.Random(3)
    checked = 0
    for _ in range(60):
        side = SIDES[st.priority]
        legal = legal_actions(st, side)
        v = view(st, side)
        plain = json.loads(json.dumps(v))
        if len(legal) > 1:
            state_rng = rng.getstate()
            a = bot.choose(copy.deepcopy(plain), copy.deepcopy(legal), rng)
            other = random.Random()
            other.setstate(state_rng)
            assert small().choose(v, legal, other) == a
            checked += 1
        else:
            a = legal[0]
        foe = 1 - st.priority
        hidden = {p.pid for p in st.pieces.values() if p.side == foe and not p.up}
        assert all("card" not in p for p in plain["pieces"] if p["piece"] in hidden)
        apply(st, a, dice, check=False)
        if st.outcome is not None:
            break
    assert checked > 10


@pytest.mark.parametrize("battle,seed", [("quatre-bras", 3), ("waterloo", 5)])
def test_search_choices_ignore_hidden_identities(battle, seed):
    """Swapping the identities of the opponent's face-down cards and undrawn reinforcements
    (tests/test_bots._swap_hidden) leaves every choice unchanged for the same rng state."""
    st = new_battle(battle, seed, settings={"turn_cap": 8}, cards=CARDS)
    dice = SeededDice(seed)
    bots = {"french": small(), "allied": small()}
    rngs = {s: random.Random(f"{seed}:{s}") for s in SIDES}
    compared = swapped = steps = 0
    while st.outcome is None and steps < 80:
        side = SIDES[st.priority]
        state_rng = rngs[side].getstate()
        legal = legal_actions(st, side)
        action = bots[side].choose(view(st, side), legal, rngs[side])
        other, changed = _swap_hidden(st, st.priority)
        if len(legal) > 1:
            other_rng = random.Random()
            other_rng.setstate(state_rng)
            assert small().choose(view(other, side), legal_actions(other, side),
                                  other_rng) == action, steps
            compared += 1
            swapped += changed
        apply(st, action, dice, check=False)
        steps += 1
    assert compared > 10 and swapped > 5


def test_evaluate_scores_wins_losses_and_material():
    st = new_battle("quatre-bras", "eval", cards=CARDS)
    assert -1.0 < evaluate(st, 0) < 1.0
    assert evaluate(st, 0) == pytest.approx(-evaluate(st, 1))
    st.outcome = {"winner": "french", "reason": "occupation"}
    assert evaluate(st, 0) == 1.0 and evaluate(st, 1) == -1.0


def test_search_beats_random():
    wins = 0
    games = [(b, s) for b in ("quatre-bras", "wavre") for s in SIDES] * 2
    for i, (battle, side) in enumerate(games):
        bots = {"french": RandomBot(), "allied": RandomBot(), side: small()}
        st, _ = play(battle, f"beat:{i}", bots, turn_cap=12)
        wins += st.outcome["winner"] == side
    # random against random wins about half; 7 of 8 has a chance of 3.5 % at one half
    assert wins >= 7, wins


@pytest.mark.django_db
def test_a_battle_against_search_through_the_computers_task(user, sent, monkeypatch):
    """The computer's task (services.bot_move, as a worker runs it) plays the search bot."""
    monkeypatch.setattr(SearchBot, "samples", 2)
    b = services.create_battle(user, "quatre-bras", "french", bot="search")
    assert b.bot == "search"
    assert tasks.bot_move(b.pk, 0) >= 1  # the Allies deploy first (4.1)
    b.refresh_from_db()
    assert b.status == Status.ACTIVE and services.priority(b) == "french"
    assert all(a.side == "allied" for a in b.actions.all())


def test_width_one_plays_exactly_as_greedy():
    """Greedy's first choice is the search's first candidate, ties broken by the same draw:
    without challengers the search bot is greedy, move for move."""
    bots = {"french": small(width=1), "allied": RandomBot()}
    _, ours = play("wavre", "same", bots, turn_cap=8)
    _, greedy = play("wavre", "same", {"french": GreedyBot(CARDS), "allied": RandomBot()},
                     turn_cap=8)
    assert ours == greedy and bots["french"].stats["searched"] == 0


def test_a_search_that_never_overrules_plays_greedys_battle():
    """The samples are seeded from the rng's state without drawing from it: a search whose
    test no challenger can pass (it does search: width 3) breaks every tie as greedy does and
    plays greedy's battle move for move."""
    bot = small()
    bot.confidence = 1e9
    _, ours = play("wavre", "same", {"french": bot, "allied": RandomBot()}, turn_cap=8)
    _, greedy = play("wavre", "same", {"french": GreedyBot(CARDS), "allied": RandomBot()},
                     turn_cap=8)
    assert bot.stats["searched"] > 0 and bot.stats["rollouts"] > 0
    assert ours == greedy
    # one searched decision draws from the rng exactly what greedy's choice draws
    v, legal = _a_searched_decision()
    ours_rng, greedy_rng = random.Random("rng"), random.Random("rng")
    searched = bot.stats["searched"]
    bot.choose(v, legal, ours_rng)
    GreedyBot(CARDS).choose(v, legal, greedy_rng)
    assert bot.stats["searched"] == searched + 1
    assert ours_rng.getstate() == greedy_rng.getstate()


def _a_searched_decision() -> tuple[dict, list]:
    st = new_battle("wavre", "same", settings={"turn_cap": 8}, cards=CARDS)
    dice = SeededDice("same")
    greedy_rng = random.Random(0)
    g = GreedyBot(CARDS)
    while True:
        side = SIDES[st.priority]
        legal = legal_actions(st, side)
        v = view(st, side)
        if side == "french" and v["phase"] in SearchBot.phases and \
                len(small().candidates(v, legal)) > 1:
            return v, legal
        apply(st, g.choose(v, legal, greedy_rng), dice, check=False)


def _plus(xs: list, ds: list) -> list:
    return [x + d for x, d in zip(xs, ds, strict=True)]


def test_pick_overrules_greedy_only_on_a_significant_paired_difference():
    bot = small()
    bot.confidence, bot.prior = 0.0, 0.02
    greedy_values = [0.0, 0.1, -0.2, 0.3]
    assert bot.pick([greedy_values, [v + 0.1 for v in greedy_values]]) == 1
    assert bot.pick([greedy_values, [v + 0.01 for v in greedy_values]]) == 0  # < prior
    bot.confidence = 2.0
    noisy = _plus(greedy_values, [0.5, -0.3, 0.6, -0.2])  # +0.15 on average, widely spread
    assert bot.pick([greedy_values, noisy]) == 0
    steady = _plus(greedy_values, [0.15, 0.12, 0.18, 0.15])
    assert bot.pick([greedy_values, steady]) == 1
    # the best of two significant challengers; a failed rollout (None) is left out
    better: list = [g + 0.3 for g in greedy_values]
    better[1] = None
    assert bot.pick([greedy_values, steady, better]) == 2
    # racing: a challenger well below greedy's choice is hopeless, a noisy one is not
    assert bot.hopeless(greedy_values, [g - 0.2 for g in greedy_values])
    assert not bot.hopeless(greedy_values, noisy)


def test_pick_needs_min_overrule_paired_samples():
    """Two samples that agree exactly have a standard error of 0: any confidence passes
    them. ``min_overrule`` asks for more samples before greedy's choice is overruled."""
    bot = small()
    bot.confidence, bot.prior = 1.5, 0.02
    two = ([0.0, -1.0], [1.0, 0.0])  # the challenger +1 in both samples
    assert bot.pick(list(two)) == 1
    bot.min_overrule = 4
    assert bot.pick(list(two)) == 0
    four = ([0.0, -1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 1.0])
    assert bot.pick(list(four)) == 1


def test_keyed_dice_repeat_for_the_same_action_in_the_same_turn():
    from battles.bots.search import keyed_dice

    st = new_battle("ligny", "keyed", cards=CARDS)
    a = {"type": "fire", "side": "french", "piece": 3, "target": 9}

    def rolls(action: dict, seed: str = "s") -> list[int]:
        dice = keyed_dice(seed, st, action)
        return [next(dice) for _ in range(20)]

    assert rolls(a) == rolls(dict(a))
    assert rolls(a) != rolls({**a, "target": 10})
    assert rolls(a) != rolls(a, seed="t")


def test_the_time_cap_stops_sampling():
    st = new_battle("waterloo", "cap", settings={"turn_cap": 10}, cards=CARDS)
    dice = SeededDice("cap")
    rng = random.Random(1)
    capped = small(samples=50, max_ms=1.0)  # CPU milliseconds: one sample, then stop
    while capped.stats["searched"] < 3 and st.outcome is None:
        side = SIDES[st.priority]
        legal = legal_actions(st, side)
        a = capped.choose(view(st, side), legal, rng) if side == "allied" else \
            RandomBot().choose(None, legal, rng)
        apply(st, a, dice, check=False)
    assert capped.stats["searched"] >= 3
    assert capped.stats["samples"] < 3 * 50  # far fewer than 50 samples per decision


def test_a_sample_that_runs_past_the_deadline_is_dropped_whole():
    """A rollout looks at the clock every CLOCK_EVERY steps: past ``max_ms`` the sample under
    way is dropped for every candidate (the test is paired) and the decision is made on the
    samples finished before it. A fake clock: 1 ms of "CPU" per look."""
    st = new_battle("waterloo", "late", settings={"turn_cap": 10}, cards=CARDS)
    dice = SeededDice("late")
    rng = random.Random(2)
    looks = iter(range(10**9))
    late = small(samples=6, horizon=200, max_ms=40.0)
    late.clock = lambda: next(looks) / 1000.0
    seen: list[list[list]] = []
    pick = late.pick
    late.pick = lambda values: (seen.append([list(v) for v in values]), pick(values))[1]
    while late.stats.get("late", 0) < 2 and st.outcome is None:
        side = SIDES[st.priority]
        legal = legal_actions(st, side)
        a = late.choose(view(st, side), legal, rng) if side == "allied" else \
            RandomBot().choose(None, legal, rng)
        assert a in legal
        apply(st, a, dice, check=False)
    assert late.stats.get("late", 0) == 2
    assert seen
    for values in seen:  # every candidate has a value for the same samples, and fewer than 6
        assert len({len(v) for v in values}) == 1
        assert len(values[0]) < 6


def test_a_decision_ends_within_its_cap():
    """The cap counts from the moment the decision begins (the candidates and the samples'
    set-up too) and keeps MARGIN_MS back for what follows the last look at the clock. A fake
    clock: 1 ms of "CPU" per look."""
    st = new_battle("waterloo", "within", settings={"turn_cap": 10}, cards=CARDS)
    dice = SeededDice("within")
    rng = random.Random(3)
    looks = iter(range(10**9))
    now = {"ms": 0}

    def clock() -> float:
        now["ms"] = next(looks)
        return now["ms"] / 1000.0

    bot = small(samples=50, horizon=200, max_ms=40.0)
    bot.clock = clock
    longest = 0
    while bot.stats.get("late", 0) < 3 and st.outcome is None:
        side = SIDES[st.priority]
        legal = legal_actions(st, side)
        if side == "allied":
            before = now["ms"]
            a = bot.choose(view(st, side), legal, rng)
            longest = max(longest, now["ms"] - before)
        else:
            a = RandomBot().choose(None, legal, rng)
        apply(st, a, dice, check=False)
    assert bot.stats.get("late", 0) == 3
    assert 35 <= longest <= 40


def test_the_normal_level_searches_deployment_and_easy_does_not():
    """Since issue 14 session 7 the normal and hard levels search deployment (rollouts to the
    battle's end judge a placement); the easy level's one-side-turn rollouts cannot, so it
    deploys as greedy does."""
    assert "deploy" in SearchBot.phases and "deploy" in HardSearchBot.phases
    assert "deploy" not in EasySearchBot.phases
    st = new_battle("quatre-bras", "deploy", cards=CARDS)
    side = SIDES[st.priority]
    v, legal = view(st, side), legal_actions(st, side)
    assert v["phase"] == "deploy" and len(legal) > 1
    bot = small(horizon=200)
    a = bot.choose(v, legal, random.Random(1))
    assert a in legal and bot.stats["searched"] == 1 and bot.stats["rollouts"] > 0
    easy = EasySearchBot(CARDS, max_ms=None)
    rng, greedy_rng = random.Random(2), random.Random(2)
    assert easy.choose(v, legal, rng) == GreedyBot(CARDS).choose(v, legal, greedy_rng)
    assert easy.stats["searched"] == 0


def test_the_cap_counts_the_cpu_of_the_deciding_thread_only():
    """The worker plays computer moves in a thread pool (Procfile: ``--pool threads``): a
    search busy in another thread must not eat this decision's budget. With the process's
    CPU time as the clock, a thread spinning beside it halves the decision's own CPU."""
    st = new_battle("quatre-bras", "threads", cards=CARDS)
    side = SIDES[st.priority]
    v, legal = view(st, side), legal_actions(st, side)
    bot = small(samples=10**6, horizon=200, max_ms=400.0)
    bot.min_samples = None  # no racing: the decision spends its whole budget
    stop = threading.Event()

    def spin() -> None:
        n = 0
        while not stop.is_set():
            n += 1

    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        before = time.thread_time()
        assert bot.choose(v, legal, random.Random(4)) in legal
        used = time.thread_time() - before
    finally:
        stop.set()
        spinner.join()
    assert bot.stats["samples"] > 2
    assert 0.3 <= used <= 0.4


def test_a_wide_search_narrows_when_its_candidates_do_not_fit_the_cap():
    """With more than ``narrow_to`` candidates, a first sample that shows ``min_samples`` of
    every candidate would not fit in ``max_ms`` (long rollouts) stops the candidates past
    ``narrow_to`` there: the rest of the time goes to greedy's choice and its nearest
    challengers (if a next sample still fits at the first one's cost). A fake clock: 1 ms
    of "CPU" per look."""
    st = new_battle("waterloo", "narrow", settings={"turn_cap": 10}, cards=CARDS)
    dice = SeededDice("narrow")
    rng = random.Random(5)
    looks = iter(range(10**9))
    bot = small(samples=12, width=8, horizon=2, max_ms=300.0)
    bot.clock = lambda: next(looks) / 1000.0
    narrowed: list[list[list]] = []
    wide: list[list[list]] = []
    pick = bot.pick

    def seen(values: list) -> int:
        (narrowed if bot.stats.get("narrowed", 0) > len(narrowed) else wide).append(
            [list(v) for v in values])
        return pick(values)

    bot.pick = seen
    while (len(narrowed) < 2 or not any(len(v) > 3 for v in wide)) and st.outcome is None:
        side = SIDES[st.priority]
        legal = legal_actions(st, side)
        a = bot.choose(view(st, side), legal, rng) if side == "allied" else \
            RandomBot().choose(None, legal, rng)
        assert a in legal
        apply(st, a, dice, check=False)
    assert len(narrowed) >= 2
    for values in narrowed:
        assert len(values) > bot.narrow_to
        for v in values[bot.narrow_to:]:  # one sample, then stopped
            assert sum(x is not None for x in v) == 1
    # where every candidate fits, none is stopped before racing may stop it
    assert any(len(v) > 3 and all(sum(x is not None for x in c) >= 2 for c in v)
               for v in wide)
