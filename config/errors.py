"""The one error family of the services: a refusal with an HTTP status and a stable `code`.

Services raise these (nothing has changed when one is raised: each use case runs in one
transaction); pure cores keep their own plain exceptions (the engine's ``IllegalAction``,
the search parser's ``QueryError``) and the services translate them. The API maps them once
(``config.api_errors.exception_handler``: ``{"detail": message, "code": code, **extra}``),
the pages once (``frontend.errors``). Branch on ``code``, never on the English text.
"""


class ServiceError(Exception):
    """Bad input (400) unless a subclass says otherwise.

    ``code`` is the machine-readable reason (snake_case, stable); ``extra`` is merged into the
    API body (e.g. ``seq``, ``problems``, ``query``/``position``)."""

    status = 400
    code = "bad_input"

    def __init__(self, message: str, *, code: str | None = None, **extra):
        self.message = message
        if code is not None:
            self.code = code
        self.extra = extra
        super().__init__(message)

    @property
    def problems(self) -> list:
        """The details, when the refusal has several (``extra["problems"]``), else []."""
        return self.extra.get("problems", [])


class BadInput(ServiceError):
    """Input that cannot be used (400)."""


class NotAllowed(ServiceError):
    """The user may not do this (403)."""

    status = 403
    code = "not_allowed"


class NotFound(ServiceError):
    """No such thing, or not one the user may see (404: its existence stays private)."""

    status = 404
    code = "not_found"


class Conflict(ServiceError):
    """Not now: the state does not allow it (409), e.g. a stale seq or a locked deck."""

    status = 409
    code = "conflict"


# Every code the API answers with (the README lists them; a test checks the raises use these).
CODES = {
    "bad_input": "input that cannot be used (400)",
    "bad_query": "a catalogue search that cannot be parsed (400; with query and position)",
    "illegal_action": "a battle action the rules refuse (400)",
    "not_allowed": "not yours to do (403)",
    "not_found": "no such thing, or not one you may see (404)",
    "conflict": "the state does not allow it now (409)",
    "stale_seq": "the battle has moved on since the seq you sent (409; with seq)",
    "cannot_undo": "that action cannot be taken back now (409; with seq and reason)",
    "battle_not_over": "the seed stays secret until the battle ends (409)",
    "campaign_not_over": "the seed stays secret until the campaign ends (409)",
    "deck_locked": "the deck has a version locked by a tournament (409)",
    "out_of_time": "the side to move ran out of time: the battle ended by time (409)",
    "expired": "a waiting battle nobody joined in time (409)",
    "not_claimable": "the opponent's absence cannot be claimed now (409; the reason says why)",
    "paused": "the battle's tournament is paused by its organiser: no action until the "
              "resume (409)",
    "too_many_matchups": "too many matchups queued or running for this user (429; matchups)",
}
