"""The new-game form every game's list page has, read once: who to play (the computer, anyone,
or a player named in ``username``), the time control (one of ``play.clock``'s presets), and
the ``public`` and ``rated`` boxes. The service checks the rest and says what is wrong."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from config.errors import BadInput
from play import clock


def new_game_terms(form: Mapping[str, Any]) -> dict[str, Any]:
    """``opponent``, ``time_control``, ``public`` and ``rated`` from the form, as a game's
    create service takes them; 400 for a time control not in the list."""
    opponent = form.get("opponent", "computer")
    if opponent == "player":
        opponent = str(form.get("username", "")).strip() or "player"
    time_control = form.get("time_control", "untimed")
    if time_control not in clock.PRESET_CONTROLS:
        raise BadInput("choose a time control from the list")
    return {"opponent": opponent, "time_control": clock.PRESET_CONTROLS[time_control],
            "public": form.get("public") == "on", "rated": form.get("rated") == "on"}
