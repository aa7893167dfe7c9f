"""A Celery worker that stops mid-transaction: for the worker-kill tests.

``python -m tests.pausing_worker SECONDS MARKER <celery arguments>`` runs the ordinary worker
(solo pool: tasks run in this process) with ``lifecycle.pairings_for`` wrapped: once the
pairings are computed - inside the pairing transaction, the tournament row locked, nothing
committed - it writes its pid to MARKER and sleeps SECONDS, so the test can SIGKILL it there.
``python -m tests.pausing_worker --bot SECONDS MARKER ...`` does the same inside the
computer's move (``play.turns.bot_move``): its actions chosen and written, the match's row
locked, nothing committed. The seam lives here, on the test side; production code has no
hook."""

from __future__ import annotations

import os
import sys
import time


def main(argv: list[str]) -> None:
    bot = argv[0] == "--bot"
    argv = argv[1:] if bot else argv
    seconds, marker, celery_args = float(argv[0]), argv[1], argv[2:]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    if bot:
        from play import turns as module

        name = "record"  # ``turns.bot_move`` looks it up in the module at call time
    else:
        from tournaments.services import lifecycle as module

        name = "pairings_for"  # ``pair`` looks the name up in the module at call time
    real = getattr(module, name)

    def paused(*args, **kwargs):
        result = real(*args, **kwargs)
        with open(marker, "w") as fh:
            fh.write(str(os.getpid()))
        time.sleep(seconds)
        return result

    setattr(module, name, paused)
    from celery.__main__ import main as celery_main

    sys.argv = ["celery", *celery_args]
    celery_main()


if __name__ == "__main__":
    main(sys.argv[1:])
