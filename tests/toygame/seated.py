"""A tournament's race: both players seated from the start (the kind's ``seat`` hook, through
``play.seating``), active at once, the clock of the side to move running. The options it
takes are the ones a tournament passes (``time_control``, ``rated``, ``public``); any other is
refused with a ``BadInput`` (a ``ServiceError``), as a game checks its own options."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from config.errors import BadInput
from play import clock, enqueue
from play.seeds import new_seed, seed_hash
from play.turns import changed

from .game import GAME
from .kind import KIND, save_state
from .models import Race

OPTIONS = ("public", "rated", "time_control")


def seat_race(french_user, allied_user, options: dict) -> Race:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise BadInput(f"unknown race option {unknown[0]!r}; known: {', '.join(OPTIONS)}")
    if french_user is None or allied_user is None or french_user.pk == allied_user.pk:
        raise BadInput("a seated race needs two different players")
    seed = new_seed()
    race = Race(french_player=french_user, allied_player=allied_user, seed=seed,
                seed_hash=seed_hash(seed), status="active",
                rated=bool(options.get("rated", False)),
                public=bool(options.get("public", True)),
                time_control=clock.validate(options.get("time_control") or {}))
    save_state(race, GAME.setup(seed, {}, None))
    clock.start(race, timezone.now())
    with transaction.atomic():
        race.save()
        enqueue.flag_fall_on_commit(KIND.kind, race)
        changed(KIND, race)
    return race
