"""The tournament services' errors: the house family (``config.errors``) under the names the
tournament code has always used. ``TournamentError`` is the base: catching it catches them all."""

from config.errors import Conflict, NotAllowed, NotFound
from config.errors import ServiceError as TournamentError

__all__ = ["Conflict", "NotAllowed", "NotFound", "TournamentError"]
