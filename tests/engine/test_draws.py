"""The engine's spelled-out draws (state.below, shuffle, sample; SeededDice) give exactly
what random.Random's randrange, shuffle, sample and randint(1, 6) give from the same seed."""

from __future__ import annotations

import random

import pytest

from battles.engine.dice import SeededDice
from battles.engine.state import below, sample, shuffle


@pytest.mark.parametrize("seed", range(20))
def test_draws_equal_the_library_ones(seed):
    ours, lib = random.Random(f"t:{seed}"), random.Random(f"t:{seed}")
    for n in (1, 2, 3, 6, 7, 17, 64, 65, 1000, 2**40 + 3):
        assert [below(ours, n) for _ in range(30)] == [lib.randrange(n) for _ in range(30)]
    for size in (0, 1, 2, 5, 40):
        a, b = list(range(size)), list(range(size))
        shuffle(ours, a)
        lib.shuffle(b)
        assert a == b
    # Both of CPython's ways: a small population (pool) and a large one (rejection).
    for population, k in ((list(range(10)), 0), (list(range(10)), 4), (list(range(30)), 9),
                          (list(range(200)), 5), (list(range(500)), 7), (tuple(range(90)), 90)):
        assert sample(ours, population, k) == lib.sample(population, k)
    assert ours.getstate() == lib.getstate()


def test_seeded_dice_equal_randint():
    dice, lib = SeededDice("d"), random.Random("eagles-dice:d")
    assert [next(dice) for _ in range(500)] == [lib.randint(1, 6) for _ in range(500)]
    assert dice.used == 500
    with pytest.raises(ValueError):
        below(random.Random(0), 0)
    with pytest.raises(ValueError):
        sample(random.Random(0), [1, 2], 3)
