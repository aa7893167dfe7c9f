"""Errors raised by the battle service: each carries the HTTP status the API answers with.
Nothing has changed when one is raised (each use case runs in one transaction)."""


class BattleError(Exception):
    """Bad input or an illegal action (400)."""

    status = 400

    def __init__(self, message: str, **extra):
        self.message = message
        self.extra = extra
        super().__init__(message)


class NotAllowed(BattleError):
    status = 403


class NotFound(BattleError):
    """No such battle, or not one of yours (its existence stays private)."""

    status = 404


class Conflict(BattleError):
    """Not now: the battle has moved on (stale seq), it is not your move, or it is over."""

    status = 409
