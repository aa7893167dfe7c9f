"""The loss warning the battle page asks to confirm (4.3): the rule lives in
``battles/warnings.py`` (pure), shared with the API and the websocket, which mark the same
actions with the same text in the battle view's ``warnings``."""

from __future__ import annotations

from battles.warnings import WARNED, action_warnings, message, warning

__all__ = ["WARNED", "action_warnings", "message", "warning"]
