"""A battle keeps the catalogue it was set up with (issue 10): its version and the records of
its decks' cards are recorded on the Battle, and replay after a catalogue correction still
reproduces the snapshot and every event exactly."""

from __future__ import annotations

import json
import random

import pytest

from battles import services, setup
from battles.bots import GreedyBot
from battles.engine import (
    IllegalAction,
    apply,
    from_json,
    legal_actions,
    new_battle,
    to_json,
    view,
)
from battles.models import Status
from battles.modules import BATTLE
from cards.catalogue.loader import current_version
from cards.models import Card, CatalogueRelease
from decks.catalogue import cards_by_number

from .kinds import battle_tasks as tasks

pytestmark = pytest.mark.django_db


def play(b, user, actions: int, rng: random.Random) -> None:
    side = services.side_of(b, user)
    while b.status == Status.ACTIVE and b.seq < actions:
        if services.priority(b) == side:
            state = from_json(b.state, setup.engine_cards(b))
            bot = GreedyBot(setup.bot_cards(b))
            action = bot.choose(view(state, side), legal_actions(state, side), rng)
            services.act(b.pk, user, b.seq, action)
        else:
            tasks.bot_move(b.pk, b.seq)
        b.refresh_from_db()


def test_battle_records_catalogue_version_and_only_its_cards(catalogue, user, sent):
    b = services.create_battle(user, "waterloo", "french", bot="random")
    assert b.catalogue_version == current_version() != ""
    in_decks = {n for numbers in b.decks.values() for n in numbers}
    recorded = {r["number"] for r in b.card_records}
    commanders = set(setup.load_cards(setup.catalogue_now()[1]).commanders.values())
    # the default historical deck's pool travels too: the seed re-deals it from these records
    pool = {n for n, c in cards_by_number().items() if "waterloo" in c["battles"]}
    assert in_decks <= recorded <= in_decks | commanders | pool
    assert len(recorded) < Card.objects.count()


def test_replay_after_a_catalogue_correction_reproduces_the_battle(catalogue, user, sent,
                                                                   monkeypatch):
    monkeypatch.setattr(services, "new_seed", lambda: 1815061818150618167)  # a long battle
    b = services.create_battle(user, "quatre-bras", "allied", bot="greedy")
    play(b, user, 60, random.Random(5))
    b.refresh_from_db()
    assert b.seq >= 40
    kinds = {e["type"] for ev in b.actions.values_list("events", flat=True) for e in ev}
    assert {"fire", "reinforce"} & kinds, kinds
    events = list(b.actions.order_by("seq").values_list("events", flat=True))
    state_before = json.dumps(b.state, sort_keys=True)

    # A correction: every card of the battle loses its teeth, and a new release is loaded.
    numbers = {n for ns in b.decks.values() for n in ns}
    Card.objects.filter(number__in=numbers).update(cv=1, firepower=1, shock=1, morale="d",
                                                   fire_long=1, fire_short=1)
    CatalogueRelease.objects.create(version="9.9.9+correction", checksum="0" * 64)

    replayed = services.replay(b)  # raises if any action's events differ
    assert json.dumps(to_json(replayed), sort_keys=True) == state_before
    assert list(b.actions.order_by("seq").values_list("events", flat=True)) == events
    assert b.catalogue_version != current_version()

    # The control: the corrected catalogue would not reproduce the battle.
    corrected = setup.catalogue_now()[1]
    state = new_battle(b.battle, b.seed, b.decks, b.settings, cards=corrected)
    diverged = False
    for row in b.actions.order_by("seq"):
        try:
            got = apply(state, row.action, BATTLE.dice(b.seed, row.seq))
        except IllegalAction:
            diverged = True
            break
        if json.loads(json.dumps(got)) != row.events:
            diverged = True
            break
    assert diverged


def test_15_0_a_custom_deck_musters_half_in_an_online_battle(catalogue, user, sent):
    from decks import services as deck_services

    french = list(Card.objects.filter(army="french", type="infantry")
                  .order_by("bp", "number").values_list("number", flat=True)[:20])
    deck = deck_services.create_deck(user, name="twenty", battle="quatre-bras", army="french",
                                     kind="custom", scale="2",
                                     entries=[(n, 1, None) for n in french])
    assert deck.latest.valid, deck.latest.problems
    b = services.create_battle(user, "quatre-bras", "french", deck_version_id=deck.latest.pk,
                               scale="2")
    assert b.deck_kinds == {"french": {"kind": "custom", "scale": "2"},
                            "british": {"kind": "dealt", "scale": "2"}}
    state = services.replay(b)
    # 15.0: half of 20, not the chart's M10 scaled by 20/14 (14).
    assert len(state.reserve[0]) == 10 and len(state.decks["french"]) == 10
    assert state.rates["french"] == 1  # 3.0: R1 x 20/14, rounded
