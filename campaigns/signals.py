"""What the campaign service tells the rest of the site, without importing it.

* ``campaign_changed(campaign_id=..., seq=..., status=...)``: sent *after* the transaction
  that changed a campaign commits (an action, a join, a cancel, the end). A listener must not
  raise: it is logged and ignored (the change is already saved).
"""

from django.dispatch import Signal

campaign_changed = Signal()
