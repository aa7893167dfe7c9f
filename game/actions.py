"""The ending actions: the action types with which a side ends a step, a phase or its turn.

``deployment_done`` ends a side's Battle Deployment (4.1), ``roll_morale`` its Morale Phase
(5.0), ``pass`` lets a response window go by (13.0), ``end_phase`` ends the Combat Phase and
``end_turn`` the Reinforcement Phase, and so the Battle Turn (5.0). The computer falls back
on them when it has played too long in one go, and the battle page lists them under
"Finish".
"""

from __future__ import annotations

ENDING_ACTIONS: tuple[str, ...] = ("deployment_done", "roll_morale", "pass", "end_phase",
                                   "end_turn")
