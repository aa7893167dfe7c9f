"""The EAGLES battle as a kind of match of the game service (``play.registry``): its pure
module (``battles.modules.BATTLE``) and what only this app knows (the ``Battle`` table, the
card table a battle plays with, the columns read from a position, its clock, its part of the
live channel: ``live_view``, a tournament's battle seated from the start: ``seated``). Found by
``play.registry.autodiscover``."""

from __future__ import annotations

from play.registry import MatchKind, imported
from play.sql import Prepared

from . import setup
from .engine import SIDES, State, to_json
from .engine.replay_file import FORMAT
from .errors import NotFound
from .models import Battle, BattleAction
from .modules import BATTLE
from .selectors import battle_pk, side_of


def save_state(battle: Battle, state: State | None) -> list[str]:
    """Set ``battle``'s snapshot and the columns read from it (whose move, turn, phase), the
    one place they are written so they never disagree; returns the fields to save."""
    battle.state = to_json(state) if state is not None else None
    battle.to_move = (SIDES[state.priority] if state is not None and state.outcome is None
                      else "")
    battle.turn = state.turn if state is not None else None
    battle.phase = state.phase if state is not None else ""
    return ["state", "to_move", "turn", "phase"]


# the players and their settings (auto-play reads them: ``accounts.models.preference``) read
# with the row: an action asks nothing more
_LOCKED = Prepared(lambda pk: Battle.objects.select_for_update(of=("self",)).filter(pk=pk)
                   .order_by()  # one row: no sort (the table's default order) to plan
                   .select_related("french_player__preferences",
                                   "allied_player__preferences"), locking=True)


def lock(user, battle_id) -> tuple[Battle, str]:
    """(the battle, ``user``'s side) under its row lock (its card records are another
    table's, read once per process: ``play.tables``); 404 unless ``user`` plays it."""
    battle = _LOCKED.first(battle_pk(battle_id))
    side = side_of(battle, user) if battle is not None else None
    if side is None:
        raise NotFound("no such battle")
    return battle, side


def export_setup(battle: Battle) -> dict:
    """The setup columns of a battle's ``eagles-battle/1`` export (``play.replays.export``),
    which ``battles.engine.replay_file`` replays offline."""
    return {
        "battle": battle.battle,
        "settings": battle.settings,
        "scale": battle.scale,
        "deck_kinds": battle.deck_kinds,
        "decks": battle.decks,
        "catalogue_version": battle.catalogue_version,
        # a battle set up before its records were kept plays with the catalogue as it is
        # now (setup.engine_cards): the export carries those
        "card_records": battle.card_records or setup.catalogue_now()[1],
    }


def _on_finish(battle: Battle, now) -> list[str]:
    battle.deadline = None  # the clocks as the last position left them, none running
    return ["deadline"]


# A tournament's battle, both players seated (``play.seating``): ``seated.py`` deals the decks
# and builds the position (it imports this module: imported on first use).
_create_seated = imported("battles.seated.create_seated_battle")


def seat(french_user, allied_user, options: dict) -> Battle:
    """``seated.create_seated_battle(french_user, allied_user, **options)``: ``battle`` (the
    scenario), ``scale``, ``french_choice`` / ``allied_choice``, ``time_control``, ..."""
    return _create_seated(french_user, allied_user, **options)


KIND = MatchKind(
    game=BATTLE, model=Battle, action_model=BattleAction, match_field="battle",
    cards=setup.cards_of, bot_cards=setup.bot_cards, setup=setup.setup_state,
    save_state=save_state, final_outcome=lambda battle, state: dict(state.outcome),
    on_finish=_on_finish, noun="battle", lock=lock, live="battles.live_view.LIVE",
    off_board_outcome=lambda battle, outcome: {**outcome, "turn": battle.turn},
    export_setup=export_setup, export_format=FORMAT, seat=seat, url_name="battle",
    rating_pool="eagles")
