"""Errors the engine raises. Neither ever leaves a state half-changed."""


class IllegalAction(ValueError):
    """The action is not legal for that side in this state (the state is unchanged)."""


class DiceExhausted(IllegalAction):
    """apply() needed more dice than it was given (the state is unchanged)."""
