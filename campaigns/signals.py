"""What the campaign service tells the rest of the site, without importing it.

* ``campaign_changed(campaign_id=..., seq=..., status=...)``: sent *after* the transaction
  that changed a campaign commits (an action, a join, a cancel, the end). A listener must not
  raise: it is logged and ignored (the change is already saved).
* ``campaign_finished(campaign=...)``: sent *inside* the transaction that ends a campaign
  (``services.finish``, the campaign row locked; ratings listen). A listener that raises
  rolls the end back: the campaign does not end without its rating.
  After an action, ``campaign_changed`` also
  carries ``by`` (the side that chose the first of them; auto-passes may follow) and
  ``to_move``. Listeners: ``campaigns.live.notify`` (websocket nudges),
  ``notifications.campaign_listeners``.
"""

from django.dispatch import Signal

campaign_changed = Signal()
campaign_finished = Signal()
