"""The API's words on what every kind of match shares (documentation: the services
validate): its status, its time control and whose move it is. A kind's serializers use them
in their help texts, so each is written once."""

from __future__ import annotations

from .models import MatchStatus

STATUS_HELP = ", ".join(MatchStatus.values) + " (expired: nobody joined in time)"
TIME_CONTROL_HELP = ('{} untimed, {"kind": "live", "base": 60-7200 s, "increment": 0-300 s} '
                     'or {"kind": "correspondence", "days": 1-14}: one clock per side, '
                     "running while that side must act; out of time loses (reason time).")
WAITING_FOR = [("you", "you"), ("opponent", "opponent"), ("computer", "computer")]
