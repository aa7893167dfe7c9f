"""One live channel for every kind of match (issues 12 and 13, "Live updates", "Spectators";
"One game service for every game"): see README.md of the battles app, section *Live updates*.

* ``consumers.GameConsumer`` at ``ws/games/<kind>/<id>/`` (``routing``; ``ws/battles/<id>/``
  and ``ws/campaigns/<id>/`` are the same consumer);
* ``protocol``: the frames a socket takes, and the error frame for anything else;
* ``messages``: what each viewer class receives, the frame around the kind's view; a
  change's messages built once per class (``change_messages``);
* ``notify``: the one ``play.signals.match_changed`` listener (connected in
  ``play.apps``), sending each viewer class's group its message of a change or a nudge;
* ``poller``: the per-process, per-kind safety net;
* ``threads``: the consumers' database work, off the event loop;
* ``hooks``: what a kind supplies (``MatchKind.live``: ``battles.live_view``,
  ``campaigns.live_view``): who may look, what each class sees, who may watch, its ``act``.
"""
