"""The game service: one service runs every game the site offers (ARCHITECTURE, "One game
service, several games").

A *game module* (``protocol.GameModule``: pure, typed, no Django) knows a game's rules; a
*match kind* (``registry.MatchKind``) binds it to the tables a match of that game is stored
in. The service owns everything else, once for every game, and never looks inside a state:

* ``seeds``: the secret seed and its hash;
* ``thinking``: the mark a worker keeps while it thinks the computer's turn;
* ``signals``: ``match_finished`` (inside the ending transaction) and ``match_changed``
  (after commit), one payload for every game;
* ``enqueue`` / ``tasks``: the computer's turn, the flag fall and the beat's tick, sent by
  task name after commit;
* ``turns``: recording actions, ending a match, the computer's turn, flag falls, expiry;
* ``live``: the one live channel (websockets at ``ws/games/<kind>/<id>/``): each viewer
  class's message of a change built once where it commits, the safety net; a kind gives its
  part (``MatchKind.live``).

The EAGLES battle and the EAGLES Campaign Game are its first two kinds (registered by the
``battles`` and ``campaigns`` apps).
"""
