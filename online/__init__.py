"""The new games online: each subpackage is the Django app (label ``stratego``,
``belle_alliance``) that plugs a pure game module (``stratego/``, ``belle_alliance/``: engine,
data, rulings, bots; no Django) into the one game service, ``play``: its match and action
tables, its kind's registration, services, selectors, API and CLI. The house plan keeps each
game's own package pure; the app label stays the game's name, so tables and migration
history are the same as when the app lived inside the game's package."""
