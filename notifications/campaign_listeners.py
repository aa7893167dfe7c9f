"""Notifications for campaigns: the game service's ``match_changed`` (after commit;
sent robustly: an error here is logged by the sender and the change is already saved).

Campaigns reuse the battle kinds, so one switch covers both (``models.Kind``):

* ``your_move``: in a campaign between two people, to the person who now must act (a split,
  a reinforcement decision, or a move on a board) after the other side's action or the
  start. Coalesced per campaign (``one_unread_your_move_per_campaign``); an out-of-date one
  (the person moved, the campaign ended) is marked read. Against the computer: the badge
  only (it answers in seconds). Auto-passes do not count as the other side's action: the
  side that chose the batch of actions (``by``) is compared with the side to move.
* ``invitation``: a waiting campaign with ``invited`` set, once per campaign.
* ``battle_over`` ("Battle or campaign over"): both people, once per campaign, when it ends.

Texts name the campaign, the opponent, the battle to move on and the outcome; never a card.
"""

from __future__ import annotations

from django.urls import reverse

from campaigns.models import Campaign, Status
from game import SIDES

from . import words
from .models import Kind
from .services import YourMove, mark_stale_campaign_your_move, notify, your_move

# Only the columns needed: the snapshot, the pools and the card records are large JSON.
CAMPAIGN_FIELDS = ("id", "seq", "status", "to_move", "board", "bot", "outcome", "time_control",
                   *(f"{who}__{f}" for who in ("french_player", "allied_player", "invited")
                     for f in ("id", "username", "email")))


def on_campaign_changed(sender, campaign_id: int, seq: int, status: str, **kwargs) -> None:
    by, to_move = kwargs.get("by"), kwargs.get("to_move")
    if status == Status.ACTIVE and by is not None and by == to_move:
        return  # the same side still acting (past the other's auto-passes): no query
    if "your_move" in kwargs.get("written", ()):
        return  # written with the action, in its own statement (``written``)
    if status == Status.FINISHED and "match_over" in kwargs.get("written", ()):
        return  # the end's notices, written with the end (``written.at_end``): no query
    # After actions the signal carries the row as committed (its players read with it): no
    # query. Else only the columns needed.
    given = kwargs.get("match")
    c = given or (Campaign.objects.filter(pk=campaign_id)
                  .select_related("french_player", "allied_player", "invited")
                  .only(*CAMPAIGN_FIELDS).first())
    if c is None or c.seq != seq or c.status != status:
        return  # gone, or moved on: the later change's own signal speaks for it
    url = reverse("campaign", args=[c.pk])
    humans = {side: c.player(side) for side in SIDES if c.player_id(side)}
    if c.status == Status.WAITING:
        if c.invited_id and humans:
            creator = next(iter(humans.values()))
            notify(c.invited, Kind.INVITATION,
                   words.campaign_invitation(c.pk, creator.username, c.empty_side()),
                   reverse("campaigns"), campaign_id=c.pk, key=f"campaign_invitation:{c.pk}")
        return
    if c.status == Status.FINISHED:
        mark_stale_campaign_your_move([u.pk for u in humans.values()], c.pk)
        for side, user in humans.items():
            notify(user, Kind.BATTLE_OVER, words.campaign_over(c.pk, c.outcome, side), url,
                   campaign_id=c.pk, key=f"campaign_over:{c.pk}")
        return
    if c.status != Status.ACTIVE or c.bot:
        return  # cancelled; or against the computer: the badge says it
    notice = campaign_your_move(c, snapshot=given is not None)
    if notice is None:
        mark_stale_campaign_your_move(
            [u.pk for side, u in humans.items() if side != c.to_move], c.pk)
        return
    your_move(notice)  # the stale ones marked with it (one statement on PostgreSQL)


def campaign_your_move(c: Campaign, snapshot: bool = True) -> YourMove | None:
    """The "your move" of an active campaign between two people that changed hands: to the
    person who now must act, theirs of the other marked read; None when neither must act.
    ``snapshot``: ``c`` holds its snapshot (else the decision's step is read from it)."""
    humans = {side: c.player(side) for side in SIDES if c.player_id(side)}
    mover = c.to_move
    if mover not in humans or len(humans) < 2:
        return None
    step = None
    if not c.board and snapshot:  # a campaign decision: which one is in the snapshot
        step = (c.state or {}).get("step")
    elif not c.board:  # the snapshot is stored packed (play.fields): read whole
        state = Campaign.objects.filter(pk=c.pk).values_list("state", flat=True).first()
        step = (state or {}).get("step")
    opponent = next(u for side, u in humans.items() if side != mover)
    return YourMove(humans[mover],
                    words.campaign_your_move(c.pk, opponent.username, c.board or None, step),
                    reverse("campaign", args=[c.pk]),
                    stale=tuple(u.pk for side, u in humans.items() if side != mover),
                    campaign_id=c.pk, email_ok=(c.time_control or {}).get("kind") != "live")
