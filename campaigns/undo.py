"""Undo in campaigns: take back one's last action(s) on a board within one's own turn, as
battles allow it (``battles/undo.py``, whose pure parts this module reuses).

A player may take back their last action still counting, one per request, while:

- the campaign is under way, it is their move on a board (not a split or a reinforcement
  decision), it is their turn there (the phasing side: the board's ``active`` side; during
  deployment the side deploying) and they have priority;
- the action was theirs, on that board, and nothing of the opponent's came after it;
- it was a battle action, not a campaign decision (``split``, ``retreat``, ``reinforce``,
  ``keep``) and did not end a battle, start one or open a phase (``campaign_battle_over``,
  ``battle_start``, ``campaign_phase``, ``campaign_over``);
- it rolled no die, revealed no card, drew none, ended neither the turn nor the deployment
  and showed the opponent no card they had not been shown before
  (``battles.undo.event_refusal``, the battles' own rule).

An undo is a new ``CampaignAction`` (``{"type": "undo", "undoes": k}`` with one public
event ``{"type": "undone", "undoes": k, "side"}``), never a rewrite: the campaign is rebuilt
from its setup by applying the actions still counting
(``battles.engine.replay_file.effective_actions``, the function ``services.replay``,
``services.states`` and the replay page use too), each with the dice of its own ``seq``. The
opponent keeps what they saw of action ``k`` (its public events) and learns only that it was
taken back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction

from battles.campaign import Campaign as CoreCampaign
from battles.campaign import apply
from battles.engine import SIDES
from battles.engine.replay_file import effective_actions, is_undo, plain
from battles.undo import event_refusal, shown_cards, undo_record
from config.errors import BadInput, Conflict

from .models import Campaign, Status

DECISIONS = ("split", "retreat", "reinforce", "keep")
# Events that only a campaign decision or a battle's end makes: past them there is no undo.
CAMPAIGN_EVENTS = {
    "campaign_battle_over": "it ended a battle",
    "battle_start": "it started a battle",
    "campaign_phase": "it opened a new phase of the campaign",
    "campaign_over": "it ended the campaign",
    "retreat_check": "it rolled dice",
}
Row = tuple[int, str, dict, list]  # (seq, side, action, events)


def _other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def last_counting(rows: Sequence[Row]) -> tuple[Row | None, list[str]]:
    """The last action still counting, and the sides of the rows after it (undos and the
    actions they took back): undos nest like brackets, read from the end of the log."""
    pending = 0
    after: list[str] = []
    for row in reversed(rows):
        if is_undo(row[2]):
            pending += 1
        elif pending:
            pending -= 1
        else:
            return row, after
        after.append(row[1])
    return None, after


def refusal(campaign: Campaign, side: str, rows: Sequence[Row]) -> tuple[int | None, str]:
    """(the seq ``side`` may take back now, "") or (None, why not). ``rows``: every action
    of the campaign in seq order."""
    if campaign.status != Status.ACTIVE or campaign.state is None:
        return None, "the campaign is not under way"
    if campaign.to_move != side:
        return None, "it is not your move"
    board = campaign.board
    if not board:
        return None, "this is a campaign decision, not a move on a board"
    st = (campaign.state.get("boards") or {}).get(board) or {}
    phasing = st.get("priority") if st.get("phase") == "deploy" else st.get("active")
    if phasing != side:
        return None, "it is not your turn"
    last, after = last_counting(rows)
    if last is None:
        return None, "there is nothing to take back"
    seq, who, action, events = last
    if who != side or any(s != side for s in after):
        return None, "your opponent has acted since your last action"
    if action.get("type") in DECISIONS:
        return None, "your last action cannot be taken back: it was a campaign decision"
    if action.get("board") != board:
        return None, "your last action cannot be taken back: it was on another battle"
    why = next((CAMPAIGN_EVENTS[e.get("type")] for e in events
                if e.get("type") in CAMPAIGN_EVENTS), None)
    if why is None:
        known: set[int] | None = None
        if shown_cards(events, _other(side)):  # only a card never shown before ends undo
            known = set()
            for row in rows:
                if row[0] < seq:
                    known |= shown_cards(row[3], _other(side))
        why = event_refusal(events, side, known)
    if why is not None:
        return None, f"your last action cannot be taken back: {why}"
    return seq, ""


def rows_of(campaign: Campaign, tail: int | None = None) -> list[Row]:
    """The campaign's actions in seq order (``tail``: only the last ones)."""
    qs = campaign.actions.filter(seq__lte=campaign.seq)
    if tail is not None:
        qs = qs.filter(seq__gt=campaign.seq - tail)
    return [tuple(r) for r in qs.order_by("seq").values_list("seq", "side", "action", "events")]


TAIL = 16  # the page asks on every view: the end of the log usually decides


def can_undo(campaign: Campaign, side: str | None) -> bool:
    """Whether ``undo`` would take back ``side``'s last action now (cheap refusals first;
    the end of the log, the whole log only when the end cannot decide)."""
    if side is None or campaign.status != Status.ACTIVE or campaign.to_move != side \
            or not campaign.board:
        return False
    rows = rows_of(campaign, TAIL)
    seq, why = refusal(campaign, side, rows)
    if seq is None and campaign.seq > TAIL and (
            why == "there is nothing to take back" or why.endswith("showed a card to your "
                                                               "opponent")):
        seq, why = refusal(campaign, side, rows_of(campaign))  # undos past the tail, or
        # a card shown by an earlier action
    return seq is not None


def rebuild(campaign: Campaign, start: CoreCampaign, rows: Iterable[Any], dice_for
            ) -> CoreCampaign:
    """``start`` (the setup) advanced by the actions of ``rows`` still counting, each with
    the dice of its own seq and checked against its recorded events (``RuntimeError`` when
    one differs: a tampered log)."""
    for row in effective_actions(list(rows)):
        events = apply(start, row.action, dice_for(campaign.seed, row.seq))
        if plain(events) != row.events:
            raise RuntimeError(f"campaign {campaign.pk}: action {row.seq} replays differently")
    return start


def undo(campaign_id, user, seq) -> int:
    """Take back ``user``'s last action still counting if ``seq`` is the campaign's current
    sequence number; returns the seq taken back. 409 ``cannot_undo`` with the ``reason``
    otherwise, 409 ``stale_seq`` as for ``act``."""
    from . import services

    services._require_user(user)
    if type(seq) is not int:
        raise BadInput("seq must be a whole number: the seq of the campaign you last saw")
    late = None
    with transaction.atomic():
        campaign, side = services._lock(user, campaign_id)
        if campaign.status != Status.ACTIVE:
            raise Conflict("the campaign is not under way: there is nothing to take back",
                           code="cannot_undo", seq=campaign.seq)
        # As battles: an undo after the flag fell ends the campaign by time, then is refused.
        late = services.end_if_out_of_time(campaign)
        if late is None:
            target = _undo_locked(campaign, side, seq)
    if late is not None:  # raised once the end by time is committed
        raise late
    return target


def _undo_locked(campaign, side: str, seq) -> int:
    from . import services

    if seq != campaign.seq:
        raise Conflict("the campaign has moved on: reload", code="stale_seq",
                       seq=campaign.seq)
    rows = list(campaign.actions.order_by("seq"))
    target, why = refusal(campaign, side,
                          [(r.seq, r.side, r.action, r.events) for r in rows])
    if target is None:
        raise Conflict(f"you cannot undo now: {why}", code="cannot_undo",
                       seq=campaign.seq, reason=why)
    c = rebuild(campaign, services.setup_campaign(campaign),
                [r for r in rows if r.seq != target], services.dice_for)
    services._record(campaign, c, [undo_record(side, target)])
    return target
