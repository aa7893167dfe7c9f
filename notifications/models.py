"""Notifications: what the site tells a player (in the list and the menu's bell, and by
e-mail), and each player's choice per kind.

A ``Notification`` row is written for every notification sent, even one the user reads only
by e-mail (``in_app`` false: never listed nor counted), so that its ``key`` keeps it from
being sent twice (a deadline warning once per seq, an invitation once per battle). Texts
never name a card: they say which battle, whose move, the outcome, the round.

E-mail is a worker's job (``mailing``): ``by_email`` says the notification is to be mailed
(decided when it is written), ``email_claimed_at`` is a worker's claim on sending it and
``emailed_at`` says it went, so a redelivered task never mails it twice.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Kind(models.TextChoices):
    YOUR_MOVE = "your_move", "Your move"
    # Campaigns reuse these kinds (and your_move): one switch covers battles and campaigns.
    INVITATION = "invitation", "Invitation to a battle or campaign"
    BATTLE_OVER = "battle_over", "Battle or campaign over"
    ROUND_PAIRED = "round_paired", "Tournament round paired"
    DEADLINE_NEAR = "deadline_near", "Deadline near"


# Without a NotificationSetting row: in the list for every kind; by e-mail for all but
# your_move in a live battle (a live opponent moves in seconds; an e-mail comes too late).
# The your_move e-mail switch applies to correspondence and untimed battles only: a live
# battle never mails "your move" (services.notify, ``email_ok``).
DEFAULTS: dict[str, dict[str, bool]] = {
    kind.value: {"in_app": True, "email": True} for kind in Kind}

UNREAD_SHOWN = Q(in_app=True, read_at__isnull=True)


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=200, blank=True, default="",
                           help_text="Where to go (a path on this site).")
    battle_id = models.PositiveBigIntegerField(null=True, blank=True)
    campaign_id = models.PositiveBigIntegerField(null=True, blank=True)
    tournament_id = models.PositiveBigIntegerField(null=True, blank=True)
    key = models.CharField(max_length=80, blank=True, default="",
                           help_text="Sent once per user and key (empty: no such limit).")
    in_app = models.BooleanField(default=True,
                                 help_text="Listed and counted (false: sent by e-mail only).")
    by_email = models.BooleanField(
        default=False, help_text="To be e-mailed too (the user's switch, an address, not a "
                                 "live your-move: decided when sent).")
    email_claimed_at = models.DateTimeField(
        null=True, blank=True, help_text="When a worker took the e-mail to send (a lease: "
                                         "mailing.LEASE).")
    emailed_at = models.DateTimeField(null=True, blank=True,
                                      help_text="When the e-mail went out (empty: not yet).")
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notifications_user_idx"),
            # The bell's count and the unread list.
            models.Index(fields=["user", "-created_at"], condition=UNREAD_SHOWN,
                         name="notifications_unread_idx"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], condition=~Q(key=""),
                                    name="notification_once_per_key"),
            # Coalescing: one unread "your move" per battle, however many actions pass.
            models.UniqueConstraint(fields=["user", "battle_id"],
                                    condition=Q(kind="your_move", read_at__isnull=True),
                                    name="one_unread_your_move_per_battle"),
            models.UniqueConstraint(fields=["user", "campaign_id"],
                                    condition=Q(kind="your_move", read_at__isnull=True),
                                    name="one_unread_your_move_per_campaign"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}: {self.text}"


class NotificationSetting(models.Model):
    """A user's choice for one kind (no row: ``DEFAULTS``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notification_settings")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    in_app = models.BooleanField(default=True)
    email = models.BooleanField(default=True)

    class Meta:
        ordering = ["user", "kind"]
        constraints = [models.UniqueConstraint(fields=["user", "kind"],
                                               name="one_setting_per_kind")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: in_app={self.in_app} email={self.email}"
