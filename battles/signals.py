"""What the battle service tells the rest of the site (ratings, tournaments, live updates,
notifications) without importing it: listeners connect in their own app's ``ready()``.

* ``battle_finished(battle=...)``: sent by ``services.finish_battle`` *inside* the
  transaction that ends the battle (the row is locked and already holds ``status``
  finished, ``outcome`` and ``finished_at``), so that a rating or a tournament result is
  written together with the end or not at all. A listener that raises rolls the end back.
* ``battle_changed(battle_id=..., seq=..., status=...)``: sent *after* the transaction that
  changed a battle commits (an action, a join, a cancel, the end, a clock event), for things
  that must only see committed state (websocket messages, notifications, timers). A listener
  must not raise: it is logged and ignored (the change is already saved).
"""

from django.dispatch import Signal

battle_finished = Signal()
battle_changed = Signal()
