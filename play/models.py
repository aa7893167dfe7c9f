"""What every match stores, whatever the game: the abstract models a kind's own tables extend
(``battles.Battle``, ``campaigns.Campaign``; a new game's a few lines: its setup columns, its
``status`` choices and its ``Meta``).

A match is its setup plus an append-only log of actions (``MatchAction``: ``seq`` unique per
match, so two requests from the same ``seq`` can never both be recorded), and a snapshot of the
game's state after the last one (``state``: a cache the log rebuilds). Seats: a side without a
player is the computer's when ``bot`` is set, else a seat still to take (``waiting``: anyone's,
or reserved for ``invited``). Nothing secret leaves the server as it is: the seed, the
records, the state and the unfiltered events go out only through the game's per-viewer view.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from django.conf import settings as django_settings
from django.db import models

from .fields import PackedJSONField, PackedStateField
from .seats import SeatsMixin

USER = django_settings.AUTH_USER_MODEL


class MatchStatus(models.TextChoices):
    WAITING = "waiting", "Waiting for an opponent"
    ACTIVE = "active", "Active"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled by its creator"
    DECLINED = "declined", "Declined by the invited player"
    EXPIRED = "expired", "Expired: nobody took the seat in time"


def records_digest(records: Sequence[Any]) -> str:
    """sha256 hex of ``records`` as canonical JSON (keys sorted, no spaces): the same records
    have the same digest whatever order a JSON column gave their keys back in."""
    text = json.dumps(records, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


class CardSet(models.Model):
    """The catalogue records some matches play with, stored once (issue 31): content-addressed
    by their digest, so every match set up with the same records points to one row, and a row
    never changes (a catalogue correction makes another digest, another row). Secret: only the
    game's per-viewer views show what is in it."""

    digest = models.CharField(max_length=64, primary_key=True,
                              help_text="records_digest(records): sha256 of their canonical "
                                        "JSON.")
    records = models.JSONField(help_text="The card records, as at the matches' setup.")
    created_at = models.DateTimeField(auto_now_add=True)

    @classmethod
    def store(cls, records: Sequence[Any]) -> CardSet | None:
        """The row of ``records`` (written if no match had them yet; None for no records).
        Inside the caller's transaction; two matches storing the same new records at once
        both get the one row (the second insert does nothing: ON CONFLICT)."""
        if not records:
            return None
        records = json.loads(json.dumps(list(records)))  # as the JSON column reads back
        digest = records_digest(records)
        found = cls.objects.filter(digest=digest).first()
        if found is not None:
            return found
        row = cls(digest=digest, records=records)
        cls.objects.bulk_create([row], ignore_conflicts=True)
        return row


class Match(SeatsMixin, models.Model):
    french_player = models.ForeignKey(USER, null=True, blank=True, on_delete=models.CASCADE,
                                      related_name="+",
                                      help_text="Null: the computer plays this side (bot "
                                                "set), or the seat is empty (waiting).")
    allied_player = models.ForeignKey(USER, null=True, blank=True, on_delete=models.CASCADE,
                                      related_name="+",
                                      help_text="Null: the computer plays this side (bot "
                                                "set), or the seat is empty (waiting).")
    bot = models.CharField(max_length=20, blank=True, default="",
                           help_text="Set only when the computer plays: the side without a "
                                     "player. Empty: two people play.")
    invited = models.ForeignKey(USER, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="+",
                                help_text="The user the empty seat is reserved for (null: "
                                          "open to anyone); kept once they join.")
    seed = models.BigIntegerField(help_text="Secret until the match ends: its deal and dice.")
    seed_hash = models.CharField(max_length=64, help_text="sha256 hex of str(seed).")
    settings = models.JSONField(default=dict, help_text="The game's settings (turn_cap, ...).")
    card_set = models.ForeignKey(
        CardSet, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="Secret: the catalogue records the match plays with, as at setup, so that "
                  "a later catalogue correction cannot change it or its replay; stored once "
                  "for every match with the same records (null: none kept).")
    seq = models.PositiveIntegerField(default=0, help_text="Number of actions applied.")
    # Packed (play.fields.PackedStateField: issue 31, PostgreSQL's CPU per action); read whole,
    # nothing looks inside it in SQL.
    state = PackedStateField(null=True, blank=True,
                             help_text="The game's to_json after action seq (a cache the log "
                                       "rebuilds); null until the match starts.")
    to_move = models.CharField(max_length=10, blank=True, default="",
                               help_text="The side that must act now, copied from the state "
                                         "(empty: not started, or over).")
    status = models.CharField(max_length=10, choices=MatchStatus.choices,
                              default=MatchStatus.ACTIVE)
    outcome = models.JSONField(null=True, blank=True,
                               help_text="{winner, reason, ...}: the game's own end, or "
                                         "resigned / time / absent (play.turns.finish).")
    rated = models.BooleanField(default=False,
                                help_text="Between two people only: the result updates both "
                                          "players' ratings (the computer's never do).")
    public = models.BooleanField(default=True,
                                 help_text="Anyone may watch it (spectator view); private: "
                                           "only its players.")
    # Time (play/clock.py): {} untimed; {"kind": "live", "base": s, "increment": s} or
    # {"kind": "correspondence", "days": n}. The clocks run on the server.
    time_control = models.JSONField(default=dict, blank=True)
    clocks = models.JSONField(default=dict, blank=True,
                              help_text="side -> seconds left when its clock last stopped.")
    clock_started_at = models.DateTimeField(null=True, blank=True,
                                            help_text="When the side to move's clock started.")
    deadline = models.DateTimeField(null=True, blank=True,
                                    help_text="When the side to move runs out of time (null: "
                                              "untimed, or nobody's clock runs).")
    expires_at = models.DateTimeField(null=True, blank=True,
                                      help_text="A waiting match nobody joined by then expires.")
    paused_at = models.DateTimeField(
        null=True, blank=True,
        help_text="Set while the organiser of its tournament has paused it: its clocks stand "
                  "still and no action is accepted.")
    seen = models.JSONField(default=dict, blank=True,
                            help_text="side -> when its player last looked at the match (ISO "
                                      "time; play/presence.py, the absence claim).")
    pass_choices = models.JSONField(
        default=dict, blank=True,
        help_text="side -> its player's standing choices to pass (play/autoplay.py, the "
                  "game module's chosen_action): {\"skip\": [kinds of response window not "
                  "to be asked in], \"turn\": the enemy turn to pass for the rest of}.")
    shown = models.JSONField(
        null=True, blank=True, default=None,
        help_text="The cards each side was named by the log (play/undo.py: only a card the "
                  "opponent had not seen before ends undo), kept with the rows so an undo "
                  "check reads no earlier action (issue 31): {\"seq\": n, \"before\": {side: "
                  "[cards named to it by the rows before n]}, \"last\": {side: [by row n]}}; "
                  "null, or a seq other than the match's, when not kept (the log is read).")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def card_records(self) -> list[dict[str, Any]]:
        """The records of ``card_set`` ([] if none): read on first use (one query)."""
        return self.card_set.records if self.card_set_id is not None else []


def match_indexes(computer_to_move: str, deadline: str, prefix: str) -> list:
    """The indexes every match table has (named as each table's migrations made them): each
    seat's matches newest first, and each user's invitations (``play.lists``: each is read in
    order from its index, a page at a time); the beat's stalled-computer check (active
    matches against the computer, by whose move it is) and its flag-fall safety net (active
    matches with a running clock). ``prefix``: the names of the list pages' own (issue 31,
    each list read from an index in its order, never a scan of every match): the open
    matches newest first (``<prefix>_waiting_idx``), the public ones under way newest first
    (``<prefix>_live_idx``) and the menu's "your move" count, an active match by each seat
    (``<prefix>_fr_move_idx``, ``<prefix>_al_move_idx``)."""
    active = models.Q(status="active")
    return [models.Index(fields=["french_player", "-created_at"]),
            models.Index(fields=["allied_player", "-created_at"]),
            models.Index(fields=["invited", "-created_at"]),
            models.Index(fields=["to_move"], condition=active & ~models.Q(bot=""),
                         name=computer_to_move),
            models.Index(fields=["deadline"],
                         condition=models.Q(status="active", deadline__isnull=False),
                         name=deadline),
            models.Index(fields=["-created_at"], condition=models.Q(status="waiting"),
                         name=f"{prefix}_waiting_idx"),
            models.Index(fields=["-created_at", "-id"], condition=active & models.Q(public=True),
                         name=f"{prefix}_live_idx"),
            models.Index(fields=["french_player", "to_move"], condition=active,
                         name=f"{prefix}_fr_move_idx"),
            models.Index(fields=["allied_player", "to_move"], condition=active,
                         name=f"{prefix}_al_move_idx")]


def seated_constraints(prefix: str) -> list:
    """A two-seat game's match table's constraints (named ``<prefix>_...`` as its migrations
    made them): a player in at least one seat, a state once it has started (only a match
    that never started has none), and an invitation only to a game between people."""
    Q = models.Q
    return [models.CheckConstraint(condition=Q(french_player__isnull=False)
                                   | Q(allied_player__isnull=False),
                                   name=f"{prefix}_has_a_player"),
            models.CheckConstraint(condition=Q(state__isnull=False)
                                   | Q(status__in=["waiting", "cancelled", "declined",
                                                   "expired"]),
                                   name=f"started_{prefix}_has_a_state"),
            models.CheckConstraint(condition=Q(invited__isnull=True) | Q(bot=""),
                                   name=f"{prefix}_invitations_are_for_people")]


def action_constraints(match_field: str, one_per_seq: str, from_one: str) -> list:
    """An action table's constraints (named as each table's migrations made them): one row
    per (match, seq), and seq counts from 1."""
    return [models.UniqueConstraint(fields=[match_field, "seq"], name=one_per_seq),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name=from_one)]


class MatchAction(models.Model):
    """Action number ``seq`` (from 1) of a match, with every event it produced, unfiltered
    (filtered per viewer on the way out by the game's ``events_for``). The concrete model
    adds the foreign key to its match and the unique (match, seq) constraint."""

    seq = models.PositiveIntegerField()
    side = models.CharField(max_length=10)
    # Stored packed (play.fields: deflated compact JSON, ~4x smaller than jsonb): read whole,
    # never queried inside (issue 31, "keep an action row lean").
    action = PackedJSONField()
    events = PackedJSONField(default=list)
    auto = models.BooleanField(default=False,
                               help_text="Played for the player by auto-play (play/autoplay.py)"
                                         ": a forced move or a pass with no answer held.")
    auto_reason = models.CharField(
        max_length=16, blank=True, default="",
        help_text="Why auto-play played it: empty, there was no choice; else the player's "
                  "own standing choice (Match.pass_choices): 'turn' to pass for the rest of "
                  "that enemy turn, 'skip:<kind>' not to be asked in that kind of window.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
