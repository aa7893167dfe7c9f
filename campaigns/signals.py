"""What the campaign service tells the rest of the site, without importing it.

* ``campaign_changed(campaign_id=..., seq=..., status=...)``: sent *after* the transaction
  that changed a campaign commits (an action, a join, a cancel, the end). A listener must not
  raise: it is logged and ignored (the change is already saved). After actions it also
  carries ``by`` (the side that chose the first of them; auto-passes may follow) and
  ``to_move``. Listeners: ``campaigns.live.notify`` (websocket nudges),
  ``notifications.campaign_listeners``.
"""

from django.dispatch import Signal

campaign_changed = Signal()
