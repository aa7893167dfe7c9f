"""What the tournament service tells the rest of the site without importing it: listeners
connect in their own app's ``ready()``.

* ``round_paired(round_id=..., tournament_id=..., number=...)``: sent *after* the transaction
  that paired a round commits (``services.lifecycle.pair``), so a listener sees its matches.
  Sent with ``send_robust``: a listener that raises is logged and ignored (the round is saved).
"""

from django.dispatch import Signal

round_paired = Signal()
