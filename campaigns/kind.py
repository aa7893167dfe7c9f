"""The EAGLES Campaign Game as a kind of match of the game service (``play.registry``): its
pure module (``battles.modules.CAMPAIGN``) and what only this app knows (the ``Campaign``
table, its card table, the columns read from a position, its one clock per side, its part
of the live channel: ``live_view``). Found by ``play.registry.autodiscover``."""

from __future__ import annotations

import json
from typing import Any

from battles.campaign import Campaign as CoreCampaign
from battles.campaign import to_move
from battles.engine import load_cards
from battles.modules import CAMPAIGN
from config.errors import NotAllowed
from play import clock, tables
from play.registry import MatchKind
from play.seats import locker, match_pk

from .models import Campaign, CampaignAction

EXPORT_FORMAT = "eagles-campaign/1"


def plain(value: Any) -> Any:
    """``value`` as it reads back from a JSON column."""
    return json.loads(json.dumps(value))


def cards_of(campaign: Campaign):
    """The card table the campaign plays with (its own records, as at setup), built once per
    card set in this process (``play.tables``, keyed by the records' digest)."""
    return tables.kept(tables.cards_key(campaign), lambda: load_cards(campaign.card_records))


def core_of(campaign: Campaign) -> CoreCampaign | None:
    if campaign.state is None:
        return None
    return CAMPAIGN.from_json(campaign.state, cards_of(campaign))


def setup_campaign(campaign: Campaign) -> CoreCampaign:
    """The campaign before its first action, from its recorded setup."""
    return CAMPAIGN.setup(campaign.seed, {"pools": campaign.pools,
                                          "settings": campaign.settings},
                          cards_of(campaign))


def save_state(campaign: Campaign, c: CoreCampaign) -> list[str]:
    """The snapshot and the columns read from it (who moves, on which board, the phase)."""
    campaign.state = CAMPAIGN.to_json(c)
    turn = to_move(c)
    campaign.to_move = turn["side"] if turn else ""
    campaign.board = (turn["board"] or "") if turn else ""
    campaign.phase = c.phase
    return ["state", "to_move", "board", "phase"]


def results(campaign: Campaign) -> dict:
    """The battles' results so far (an end away from the board keeps them)."""
    c = core_of(campaign)
    return plain(c.results) if c else {}


def require_user(user) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotAllowed("log in to play")


def campaign_pk(value) -> int:
    return match_pk(value, "campaign")


lock = locker(Campaign, "campaign")


def export_setup(campaign: Campaign) -> dict:
    """The setup columns of a campaign's ``eagles-campaign/1`` export (``play.replays``):
    with the seed and the actions, ``setup_campaign`` and the module rebuild it."""
    return {"pool_choices": campaign.pool_choices, "pools": campaign.pools,
            "settings": campaign.settings, "card_records": campaign.card_records}


def _on_finish(campaign: Campaign, now) -> list[str]:
    campaign.board = ""
    return [*clock.stop(campaign, now), "board"]


KIND = MatchKind(
    game=CAMPAIGN, model=Campaign, action_model=CampaignAction, match_field="campaign",
    cards=cards_of, bot_cards=cards_of, setup=setup_campaign, save_state=save_state,
    final_outcome=lambda campaign, c: {"winner": c.winner, "reason": "campaign",
                                       "results": plain(c.results)},
    on_finish=_on_finish, noun="campaign", lock=lock, live="campaigns.live_view.LIVE",
    off_board_outcome=lambda campaign, outcome: {**outcome, "results": results(campaign)},
    export_setup=export_setup, export_format=EXPORT_FORMAT,
    url_name="campaign", rating_pool="eagles")
