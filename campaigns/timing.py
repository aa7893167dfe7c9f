"""Time on the campaign service's side: the flag fall, the beat's safety net and expiry.

* ``flag_fall(campaign_id, seq)``: the ``campaigns.flag_fall`` task, booked with ``eta`` at the
  deadline by ``services._enqueue_flag_fall`` (idempotent by ``seq``);
* ``overdue_flags``: active campaigns past their deadline (the ``campaigns.tick`` ends them);
* ``expire_waiting``: waiting campaigns nobody joined within ``battles.services.EXPIRY``.

An action, a resignation or a flag-fall task past the deadline all end the campaign through
``services.end_if_out_of_time`` -> ``services.finish`` (reason ``time``, RULINGS 16-o).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from .models import Campaign, Status
from .services import _enqueue_flag_fall, changed, end_if_out_of_time


def flag_fall(campaign_id: int, seq: int | None = None) -> bool:
    """End the campaign by time if the side to move is out of time; returns whether it did.
    Idempotent: with ``seq`` (the ``campaigns.flag_fall`` task) it does nothing unless the
    campaign is still at that ``seq``, active and past its deadline; a task that arrives
    early (clock skew) books itself again for the deadline."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
        if campaign is None or campaign.status != Status.ACTIVE or \
                (seq is not None and campaign.seq != seq):
            return False
        if end_if_out_of_time(campaign) is not None:
            return True
        if seq is not None:
            _enqueue_flag_fall(campaign)
        return False


def overdue_flags(now=None) -> list[tuple[int, int]]:
    """(campaign id, seq) of the active campaigns past their deadline
    (``campaigns_deadline_idx``): the beat tick ends them (a lost or never-booked task)."""
    now = now or timezone.now()
    return list(Campaign.objects.filter(status=Status.ACTIVE, deadline__isnull=False,
                                        deadline__lte=now)
                .order_by("deadline").values_list("pk", "seq")[:500])


def expire_waiting(now=None) -> list[int]:
    """Mark the waiting campaigns past ``expires_at`` expired (open or invited, nobody took
    the seat in time, ``EXPIRY`` as battles); returns their ids. Each under its row lock: a
    join at the same moment wins or loses cleanly."""
    now = now or timezone.now()
    due = list(Campaign.objects.filter(status=Status.WAITING, expires_at__lte=now)
               .values_list("pk", flat=True)[:500])
    done = []
    for pk in due:
        with transaction.atomic():
            campaign = Campaign.objects.select_for_update().filter(pk=pk).first()
            if campaign is None or campaign.status != Status.WAITING or \
                    campaign.expires_at is None or campaign.expires_at > now:
                continue
            campaign.status = Status.EXPIRED
            campaign.finished_at = now
            campaign.save(update_fields=["status", "finished_at"])
            changed(campaign)
            done.append(pk)
    return done
