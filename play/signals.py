"""What the game service tells the rest of the site (ratings, tournaments, live updates,
notifications), for every kind of match, without importing it: listeners connect in their
own app's ``ready()`` and look at ``kind`` ("battle", "campaign", ...).

* ``match_finished(kind=..., match=...)``: sent *inside* the transaction that ends the match
  (the row is locked and already holds ``status`` finished, ``outcome`` and
  ``finished_at``), so that a rating or a tournament result is written together with the end
  or not at all. A listener that raises rolls the end back.
* ``match_changed(kind=..., match_id=..., seq=..., status=..., paused=..., **after)``: sent
  *after* the transaction that changed a match commits (an action, a join, a cancel, the
  end, a clock event), for things that must see committed state only (websocket messages,
  notifications). A listener must not raise: it is logged and ignored (the change is saved).
  After actions it also carries ``by`` (the side that chose the first of them; the rest are
  auto-played or the computer's), ``last_side`` (who made the last one), ``to_move``,
  ``since`` (the seq before them) and, when the recorder had them at hand, ``match`` (the
  row as saved) and ``snap`` (the position and the new log rows), so that a listener need
  not read them again; and ``written``: the names of the ``play.alongside`` parts written
  in the action's own statement (PostgreSQL: "your_move"), which their listener then skips.
"""

from django.dispatch import Signal

match_finished = Signal()
match_changed = Signal()
