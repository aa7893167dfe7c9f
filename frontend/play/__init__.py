"""The game page frame: what every game's page shows around its board, written once.

A game's page (``frontend.battle``, ``frontend.campaigns``) builds a context with
``frame.game_context`` and renders its template, which extends
``templates/frontend/play/game.html`` and fills the board (and its side panels) in; the
frame draws the rest: the header (players, sides, the "your move" badge, Resign), the status
line, the clocks, the actions grouped in sections (``actions``) with a confirmation for the
risky ones, Undo, the log grouped per turn (``log``; per board and turn for a campaign), the
last dice, the fair-dice check, and the live-update wiring (``static/frontend/live.js`` and
the htmx polling fallback). An htmx request gets the play area with the header swapped out
of band (``frame.render_game``), so a live update refreshes the whole page.

The POST views every game's page has (act, undo, resign, claim, pass for the rest of the
turn, the kinds of window to be asked in; join and cancel on the list) are ``posts``'s: a
game's views module describes itself once (``posts.GamePosts``) and takes them; its list
page's new-game form (opponent, time control, public, rated) is read by ``new_game``, and the
list page itself (my games, the open ones, the ones to watch, the form) is ``game_list``'s.
A two-seat game's page (La Belle Alliance's, Stratego's) takes its status line of a game not
under way, its frame words, who may join, the polling and the clocks, and its page view from
``seated``; every replay page its step from ``replay.replay_at``.

``log`` and ``actions`` are pure (the stdlib and ``game``); ``frame`` is the Django side.
"""
