"""Errors raised by tournament services: each carries the HTTP status the API answers with.
Nothing has changed when one is raised (services run in one transaction)."""


class TournamentError(Exception):
    status = 400

    def __init__(self, message: str, **extra):
        self.message = message
        self.extra = extra
        super().__init__(message)


class NotAllowed(TournamentError):
    """The user may not do this (not the organiser, not their match...)."""

    status = 403


class NotFound(TournamentError):
    status = 404


class Conflict(TournamentError):
    """The tournament is not in a state that allows it (a second report, a round paired
    twice, a drop after the end...)."""

    status = 409
