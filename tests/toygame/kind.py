"""Race to ten as a kind of match: everything the game's app gives the service."""

from __future__ import annotations

from play.registry import MatchKind, imported
from play.seats import locker

from .game import GAME
from .models import Race, RaceAction


def save_state(race: Race, state: dict) -> list[str]:
    race.state = GAME.to_json(state)
    race.to_move = GAME.to_move(state) or ""
    return ["state", "to_move"]


KIND = MatchKind(
    game=GAME, model=Race, action_model=RaceAction, match_field="match",
    cards=lambda race: None, bot_cards=lambda race: None,
    setup=lambda race: GAME.setup(race.seed, {}, None), save_state=save_state,
    final_outcome=lambda race, state: GAME.outcome(state) or {},
    on_finish=lambda race, now: [], noun="race", lock=locker(Race, "race"),
    # a tournament's race, both players seated (``seated.py``, which imports this module);
    # no page: ``url_name`` stays "" and ``play.registry.page_url`` gives None
    seat=imported("tests.toygame.seated.seat_race"))
