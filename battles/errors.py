"""The battle service's errors: the house family (``config.errors``) under the names the
battle code has always used. ``BattleError`` is the base: catching it catches them all."""

from config.errors import Conflict, NotAllowed, NotFound
from config.errors import ServiceError as BattleError

__all__ = ["BattleError", "Conflict", "NotAllowed", "NotFound"]
