"""A third game, for the tests only: "Race to ten", plugged into the game service (play/) the
way a new game is (a pure module, its tables, its match kind), with no change to the service.
It is installed only by ``config/test_settings.py``."""
