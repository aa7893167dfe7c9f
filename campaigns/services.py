"""The campaign service: the Campaign Game (16.0) online, served as battles are served.

Each write runs in one transaction under the campaign's row lock (``select_for_update``) and
raises a ``config.errors`` refusal on bad input, changing nothing. The pure core
(``battles.campaign``) decides what is legal and what happens; this module persists, checks
who may act and when (optimistic concurrency on ``seq``: a stale one is 409 ``stale_seq``),
and asks a worker for the computer's decisions (the game service's ``play.bot_move``,
idempotent by seq; ``play.tick`` re-sends lost ones).

Dice and the computer's tie-breaks for action number ``n`` come from the secret seed and
``n`` alone (the module's ``dice`` and ``bot_rng``), so the setup plus the action list replays the
campaign exactly (``replay``). What a player sees: ``selectors.campaign_view`` only.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from battles.campaign import Campaign as CoreCampaign
from battles.campaign.core import FIRST_BATTLES
from battles.engine import SIDES
from battles.engine.board import ARMY_SIDE
from battles.models import BotName
from battles.setup import catalogue_now
from config.errors import BadInput, Conflict, NotFound
from decks.selectors import owned_counts
from game import other_side
from play import clock, enqueue, passing, presence, replays, seats, turns
from play import undo as undo_rules
from play.models import CardSet
from play.seats import COMPUTER, side_of
from play.seeds import new_seed, seed_hash
from play.turns import EXPIRY

from .kind import KIND, campaign_pk, save_state, setup_campaign
from .kind import require_user as _require_user
from .models import Campaign, PoolChoice, Status

log = logging.getLogger(__name__)

BOTS = tuple(BotName.values)  # random, greedy and the search levels
TURN_CAP_MAX = 100


# --- Helpers --------------------------------------------------------------------------------

# --- Creating, joining, cancelling ------------------------------------------------------------

def _clean_settings(settings) -> dict:
    if settings is None:
        return {"turn_cap": None}
    if not isinstance(settings, dict):
        raise BadInput('settings must be an object, e.g. {"turn_cap": 20}')
    unknown = sorted(set(settings) - {"turn_cap"})
    if unknown:
        raise BadInput(f"unknown setting {unknown[0]!r}; known: turn_cap")
    cap = settings.get("turn_cap")
    if cap is not None and (type(cap) is not int or not 1 <= cap <= TURN_CAP_MAX):
        raise BadInput(f"turn_cap must be a whole number from 1 to {TURN_CAP_MAX} (turns per "
                       "battle), or null for no limit")
    return {"turn_cap": cap}



def _clean_pool(pool) -> str:
    if pool not in PoolChoice.values:
        raise BadInput(f'pool must be "set" (the whole set) or "collection" (your cards, one '
                       f"copy each), not {pool!r}")
    return pool


def _pool_cards(user, side: str, pool: str, records: list[dict]) -> list[int]:
    """The card numbers of ``side``'s pool: the whole set, or one copy of each card of that
    side the user owns (16.0). Refused if none of them fought at Quatre Bras or Ligny."""
    s = SIDES.index(side)
    mine = [r for r in records if ARMY_SIDE.get(r.get("army")) == s]
    if pool == PoolChoice.COLLECTION:
        owned = set(owned_counts(user))
        mine = [r for r in mine if r["number"] in owned]
        if not any(set(r.get("battles") or ()) & set(FIRST_BATTLES) for r in mine):
            raise BadInput(f"16.0: your collection has no {side} card that fought at Quatre "
                           "Bras or Ligny: choose the whole set, or add cards to your "
                           "collection")
    return sorted(r["number"] for r in mine)


def create_campaign(user, side, opponent: str = COMPUTER, bot: str = "greedy",
                    pool: str = "set", settings=None, public: bool = True,
                    time_control=None, rated=False) -> Campaign:
    """A new campaign of ``user`` playing ``side`` with ``pool`` (``set`` or
    ``collection``). ``opponent``: ``computer`` (``bot`` plays the other side with the whole
    set; the campaign starts at once), ``open`` or a username (``waiting`` until they
    ``join_campaign``, or it expires after ``EXPIRY``). ``time_control``: ``play.clock``'s
    (default untimed; one clock per side for the whole campaign, RULINGS 16-o); ``rated``:
    between two people only."""
    _require_user(user)
    pool = _clean_pool(pool)
    settings = _clean_settings(settings)
    bot, invited = seats.opponent_terms(user, side, opponent, bot, BOTS, public=public,
                                        rated=rated, noun="campaign")
    time_control = clock.validate(time_control)
    _, records = catalogue_now()
    other = other_side(side)
    seed = new_seed()
    pools = {side: _pool_cards(user, side, pool, records)}
    choices = {side: pool}
    if bot:
        pools[other] = _pool_cards(None, other, PoolChoice.SET, records)
        choices[other] = PoolChoice.SET
    with transaction.atomic():
        campaign = Campaign(
            french_player=user if side == "french" else None,
            allied_player=user if side == "allied" else None,
            bot=bot, invited=invited, seed=seed, seed_hash=seed_hash(seed),
            pool_choices=choices, pools=pools, settings=settings, public=public,
            rated=rated, time_control=time_control,
            expires_at=None if bot else timezone.now() + EXPIRY,
            status=Status.ACTIVE if bot else Status.WAITING)
        if bot:
            _start(campaign, records)
        campaign.save()
        enqueue.flag_fall_on_commit(KIND.kind, campaign)
        turns.changed(KIND, campaign)
        if bot and campaign.to_move == other:
            enqueue.bot_move_on_commit(KIND.kind, campaign.pk, campaign.seq)
    return campaign


def _start(campaign: Campaign, records: list[dict]) -> None:
    """Build the core's campaign from both pools (not saved: the caller saves)."""
    wanted = set(campaign.pools["french"]) | set(campaign.pools["allied"])
    campaign.card_set = CardSet.store([r for r in records if r["number"] in wanted])
    c = setup_campaign(campaign)
    save_state(campaign, c)
    campaign.status = Status.ACTIVE
    clock.start(campaign, timezone.now())


def join_campaign(campaign_id, user, pool: str = "set") -> Campaign:
    """Take the empty seat of an open campaign, or one ``user`` is invited to; it starts."""
    _require_user(user)
    pool = _clean_pool(pool)
    _, records = catalogue_now()
    with transaction.atomic():
        campaign = (Campaign.objects.select_for_update(of=("self",))
                    .filter(pk=campaign_pk(campaign_id)).first())
        if campaign is None or (side_of(campaign, user) is None and campaign.invited_id
                                not in (None, user.pk)) or (
                campaign.status != Status.WAITING and side_of(campaign, user) is None
                and not campaign.public):
            raise NotFound("no such campaign")
        if side_of(campaign, user) is not None:
            raise Conflict("this is your own campaign: wait for another player to join")
        if campaign.status == Status.EXPIRED or (
                campaign.status == Status.WAITING and campaign.expires_at is not None
                and campaign.expires_at <= timezone.now()):
            raise Conflict("this campaign expired: nobody took the seat in time",
                           code="expired")
        if campaign.status != Status.WAITING or campaign.bot:
            raise Conflict("the seat is taken: the campaign is no longer waiting",
                           seq=campaign.seq)
        side = campaign.empty_side()
        campaign.pools = {**campaign.pools, side: _pool_cards(user, side, pool, records)}
        campaign.pool_choices = {**campaign.pool_choices, side: pool}
        setattr(campaign, f"{side}_player", user)
        _start(campaign, records)
        campaign.save()
        enqueue.flag_fall_on_commit(KIND.kind, campaign)
        turns.changed(KIND, campaign)
    return campaign


def cancel_campaign(campaign_id, user) -> Campaign:
    """End a campaign nobody has joined yet: its creator cancels it, the invited user declines
    it (``play.turns.cancel``)."""
    return turns.cancel(KIND, campaign_id, user)


# --- Playing --------------------------------------------------------------------------------

def act(campaign_id, user, seq, action) -> list[dict]:
    """Apply ``user``'s ``action`` if ``seq`` is the campaign's current sequence number;
    returns the events of that action the user may see (``play.turns.act``)."""
    return turns.act(KIND, campaign_id, user, seq, action)


def choose_pass_kinds(campaign_id, user, kinds) -> dict:
    """The kinds of response window (``battles.modules.RESPONSE_KINDS``: "fire", "shock",
    "engage", "morale") ``user`` does not want to be asked in, in this campaign: each is
    passed for them, flagged as their choice (``play.passing.choose_kinds``)."""
    return passing.choose_kinds(KIND, campaign_id, user, kinds)


def act_many(campaign_id, user, seq, actions) -> list[dict]:
    """Several placements from one submit (a deployment, 4.1), each checked by the engine
    after the one before, in one transaction: one illegal, 400 naming its card, nothing
    played (``play.turns.act_many``)."""
    return turns.act_many(KIND, campaign_id, user, seq, actions)


def end_for_me(campaign_id, user, seq, on) -> list[dict]:
    """Switch the player's setting "end my phase or turn for me when that is all that is
    left" on (ending it now: ``seq`` must be current and ending the only thing left) or off
    (``play.passing.end_for_me``)."""
    return passing.end_for_me(KIND, campaign_id, user, seq, on)


def fire_order(campaign_id, user, seq, on) -> list[dict]:
    """Give the order "Fire with every ready card (each at its suggested target)" for the
    player's current Combat Phase, firing the first card now (``seq`` must be current), or
    cancel it (``play.passing.fire_order``)."""
    return passing.fire_order(KIND, campaign_id, user, seq, on)


def pass_and_skip_kind(campaign_id, user, seq) -> list[dict]:
    """Pass now, and from now on pass every response window of this kind for the player
    (``play.passing.pass_and_skip_kind``)."""
    return passing.pass_and_skip_kind(KIND, campaign_id, user, seq)


def pass_rest_of_turn(campaign_id, user, seq) -> list[dict]:
    """Pass now and in every further response window of this enemy turn
    (``play.passing.pass_rest_of_turn``); the next turn asks again."""
    return passing.pass_rest_of_turn(KIND, campaign_id, user, seq)


def resign(campaign_id, user) -> Campaign:
    """``user`` resigns the campaign (at any moment while it is active, whoever has the
    move): the other side wins it, reason ``resigned`` (as a battle's). (To concede one
    battle only, retreat from it: a legal action, 16.0.)"""
    return turns.end_by(KIND, campaign_id, user, "resign",
                        lambda campaign, side: (other_side(side), "resigned"))


def claim_absence(campaign_id, user) -> Campaign:
    """``user`` claims a live campaign whose opponent has the move and has been away for more
    than ``presence.ABSENCE_LIMIT`` seconds: ``user`` wins it, reason ``absent`` (as a
    battle's: ``play.presence.claim``); otherwise 409 ``not_claimable`` with the reason."""
    return presence.claim(KIND, campaign_id, user)


# --- Time (play/clock.py, RULINGS 16-o) ------------------------------------------------------

def end_if_out_of_time(campaign: Campaign) -> Conflict | None:
    """End the locked, active ``campaign`` by time if the side to move is out of time (that
    side loses it) and return the refusal for whoever tried to act; None while the clock
    still runs."""
    return turns.end_if_out_of_time(KIND, campaign)


# --- Replays --------------------------------------------------------------------------------

def replay(campaign: Campaign) -> CoreCampaign:
    """The state rebuilt from the setup and the actions still counting (undos and what they
    took back skipped: ``undo.rebuild``); the snapshot is a cache. Raises ``RuntimeError``
    if an action's events differ from those recorded."""
    return undo_rules.rebuild(KIND, campaign, setup_campaign(campaign),
                              campaign.actions.order_by("seq"))


def states(campaign: Campaign):
    """(seq, core campaign) after each action of the log, from the setup (seq 0): the replay
    page's steps (``play.replays.replay_book`` with ``log``: after an undo, the campaign
    rebuilt without what it took back)."""
    for step in replays.replay_book(KIND, campaign, log=True).steps:
        yield step.seq or 0, step.state


def undo(campaign_id, user, seq) -> int:
    """Take back ``user``'s last action still counting on a board (``play.undo`` says when
    one may); returns the seq taken back."""
    return undo_rules.undo(KIND, campaign_id, user, seq)
