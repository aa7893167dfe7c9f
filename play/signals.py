"""What the game service tells the rest of the site (ratings, tournaments, live updates,
notifications), for every kind of match, without importing it: listeners connect in their
own app's ``ready()`` and look at ``kind`` ("battle", "campaign", ...).

* ``match_finished(kind=..., match=..., written=...)``: sent *inside* the transaction that
  ends the match (the row is locked, written, and holds ``status`` finished, ``outcome`` and
  ``finished_at``), so that what must commit with the end does (a "to be rated" outbox row)
  or nothing does. A listener that raises rolls the end back. ``written``: the rows the
  ``play.alongside`` parts of the end returned, by part name (on PostgreSQL they run in the
  ending statement itself: ``play.turns.end_written``); a listener reads what it needs
  there rather than query. The heavy work (the rating, a tournament's result) is a
  worker's, sent after commit (``play.enqueue.after_commit``; issue 31: an ending action
  in 4 round trips).
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
