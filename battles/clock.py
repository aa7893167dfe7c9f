"""Time controls and clocks (issue 12, Time): pure arithmetic on a battle's clock fields.

Nothing here imports Django: ``now`` is always passed in (tests use a fake one), and the
functions read and set plain attributes of a ``Battle`` (``time_control``, ``clocks``,
``clock_started_at``, ``deadline``, ``to_move``, ``turn``, ``status``, ``bot``); the service
saves the field names they return, under the battle's row lock.

Time controls (``validate``): ``{}`` untimed; ``{"kind": "live", "base": s, "increment": s}``
(base 60..7200 s, increment 0..300 s); ``{"kind": "correspondence", "days": n}`` (1..14).

Rulings:

* **Whose clock runs.** Only the clock of the side with priority (``to_move``), and only while
  the battle is active: not while it waits for its second player, not once it is over. Every
  time a position is saved (``on_position``), the time since ``clock_started_at`` is charged to
  the side that had priority, and the clock of the side that has it now starts.
* **Live increment.** When a side's Battle Turn ends (the engine's turn number goes up: each
  side's turn is one, 5.0), that side gets ``increment`` seconds; deployment (turn 0) gives
  none. Response windows inside a turn move priority (and the running clock) back and forth
  but give no increment.
* **Correspondence.** A side gets a fresh ``days`` allowance each time priority passes to it
  (a response window included: each needs the player to come back); while it keeps priority
  over several actions its allowance keeps running. The side not to move is shown its full
  allowance (what it will get).
* **The computer.** Against the computer a battle is untimed unless a time control is asked
  for; the computer's own clock never runs (no deadline while it has priority, and the
  time it thinks is charged to nobody).
* **Deadline.** ``deadline`` = when the side to move runs out: ``clock_started_at`` + its
  seconds left. Null: untimed, the computer to move, or not running.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from config.errors import BadInput

LIVE, CORRESPONDENCE = "live", "correspondence"
BASE_RANGE = (60, 7200)
INCREMENT_RANGE = (0, 300)
DAYS_RANGE = (1, 14)
DAY = 86400
# The presets the new-battle form offers (value, label, time control).
PRESETS: list[tuple[str, str, dict]] = [
    ("untimed", "Untimed", {}),
    ("live-15-10", "Live 15+10 (15 min, +10 s a turn)",
     {"kind": LIVE, "base": 900, "increment": 10}),
    ("live-30-15", "Live 30+15 (30 min, +15 s a turn)",
     {"kind": LIVE, "base": 1800, "increment": 15}),
    ("corr-3", "Correspondence: 3 days a move", {"kind": CORRESPONDENCE, "days": 3}),
]
PRESET_CONTROLS = {key: tc for key, _label, tc in PRESETS}


def _whole(value: Any, name: str, low: int, high: int, unit: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise BadInput(f"time_control {name} must be a whole number of {unit} from {low} to "
                       f"{high}, not {value!r}")
    return value


def validate(raw: Any) -> dict:
    """A clean time control from API or form input; ``BadInput`` (400) says what is wrong."""
    if raw is None or raw == {}:
        return {}
    if not isinstance(raw, dict):
        raise BadInput('time_control must be an object: {} (untimed), {"kind": "live", '
                       '"base": 900, "increment": 10} or {"kind": "correspondence", '
                       '"days": 3}')
    kind = raw.get("kind")
    allowed = {LIVE: {"kind", "base", "increment"},
               CORRESPONDENCE: {"kind", "days"}}.get(kind)
    if allowed is None:
        raise BadInput(f'time_control kind must be "live" or "correspondence", not {kind!r}')
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise BadInput(f"time_control {kind} does not take {unknown[0]!r}; it takes "
                       f"{', '.join(sorted(allowed - {'kind'}))}")
    if kind == LIVE:
        if "base" not in raw:
            raise BadInput("a live time_control needs base (seconds on each clock, "
                           f"{BASE_RANGE[0]}-{BASE_RANGE[1]})")
        return {"kind": LIVE, "base": _whole(raw["base"], "base", *BASE_RANGE, "seconds"),
                "increment": _whole(raw.get("increment", 0), "increment", *INCREMENT_RANGE,
                                    "seconds")}
    if "days" not in raw:
        raise BadInput(f"a correspondence time_control needs days (per move, "
                       f"{DAYS_RANGE[0]}-{DAYS_RANGE[1]})")
    return {"kind": CORRESPONDENCE, "days": _whole(raw["days"], "days", *DAYS_RANGE, "days")}


def allowance(tc: dict) -> int:
    """Seconds each clock starts with (live: base; correspondence: days); 0 untimed."""
    if tc.get("kind") == LIVE:
        return int(tc["base"])
    if tc.get("kind") == CORRESPONDENCE:
        return int(tc["days"]) * DAY
    return 0


def initial_clocks(tc: dict, sides) -> dict:
    """Every side's clock before the battle starts ({} untimed)."""
    return {s: allowance(tc) for s in sides} if tc else {}


def _computer_side(battle) -> str | None:
    return battle.computer_side() if battle.bot else None


def _start(battle, side: str, now: datetime) -> None:
    """Start ``side``'s clock (empty: nobody's) and set the deadline."""
    battle.clock_started_at = now if side else None
    if side and side != _computer_side(battle):
        battle.deadline = now + timedelta(seconds=battle.clocks.get(side, 0))
    else:
        battle.deadline = None


FIELDS = ["clocks", "clock_started_at", "deadline"]


def start(battle, now: datetime) -> list[str]:
    """The battle starts (created against the computer, or joined): full clocks, the side
    with priority's clock running. Returns the fields to save."""
    if not battle.time_control:
        return []
    battle.clocks = initial_clocks(battle.time_control, ("french", "allied"))
    _start(battle, battle.to_move, now)
    return list(FIELDS)


def on_position(battle, before_side: str, before_turn: int | None, now: datetime) -> list[str]:
    """A new position was saved (``battle.to_move``/``turn`` already hold it; ``before_*``
    the position before): charge the time since the clock started to the side that had
    priority, add a live increment to a side whose turn ended, start the next clock. Returns
    the fields to save ([] untimed)."""
    tc = battle.time_control
    if not tc:
        return []
    clocks = dict(battle.clocks or initial_clocks(tc, ("french", "allied")))
    computer = _computer_side(battle)
    if before_side and before_side != computer and battle.clock_started_at is not None:
        spent = (now - battle.clock_started_at).total_seconds()
        clocks[before_side] = max(0.0, round(clocks.get(before_side, 0) - spent, 3))
    if tc["kind"] == LIVE:
        turn_now = battle.turn or 0
        if before_turn and turn_now > before_turn and battle.to_move:
            # The side whose turn ended is the one not starting the new turn (5.0).
            ended = _turn_ender(battle)
            if ended and ended != computer:
                clocks[ended] = clocks.get(ended, 0) + tc["increment"]
    elif battle.to_move and battle.to_move != before_side:
        clocks = initial_clocks(tc, clocks)  # a fresh allowance for the side getting the move
    battle.clocks = clocks
    _start(battle, battle.to_move if battle.status == "active" else "", now)
    return list(FIELDS)


def stop(battle, now: datetime) -> list[str]:
    """Pause (a tournament's organiser stops the event): the running side keeps the time it
    had left at ``now``, nobody's clock runs, no deadline (so no flag can fall). Returns the
    fields to save ([] untimed)."""
    if not battle.time_control:
        return []
    clocks = dict(battle.clocks or initial_clocks(battle.time_control, ("french", "allied")))
    side = running_side(battle)
    if side is not None:
        clocks[side] = max(0.0, round((battle.deadline - now).total_seconds(), 3))
    battle.clocks = clocks
    battle.clock_started_at = None
    battle.deadline = None
    return list(FIELDS)


def restart(battle, now: datetime) -> list[str]:
    """Resume after ``stop``: the side with priority's clock runs again from the time it had
    left (a correspondence side gets no fresh allowance: priority did not pass). Returns the
    fields to save ([] untimed)."""
    if not battle.time_control:
        return []
    _start(battle, battle.to_move if battle.status == "active" else "", now)
    return list(FIELDS)


def _turn_ender(battle) -> str | None:
    active = (battle.state or {}).get("active")
    if active not in ("french", "allied"):
        return None
    return "allied" if active == "french" else "french"


def running_side(battle) -> str | None:
    """The side whose clock runs now (None: untimed, not active, or the computer's move)."""
    if battle.status != "active" or battle.deadline is None or not battle.to_move:
        return None
    return battle.to_move


def clocks_now(battle, now: datetime) -> dict:
    """Seconds left per side at ``now`` (whole seconds, never below 0; {} untimed)."""
    if not battle.time_control:
        return {}
    clocks = dict(battle.clocks or initial_clocks(battle.time_control, ("french", "allied")))
    side = running_side(battle)
    if side is not None:
        clocks[side] = (battle.deadline - now).total_seconds()
    return {s: max(0, int(v)) for s, v in clocks.items()}


def out_of_time(battle, now: datetime) -> str | None:
    """The side whose flag has fallen at ``now`` (None: nobody's)."""
    side = running_side(battle)
    if side is not None and now >= battle.deadline:
        return side
    return None


def flag_fell(battle, now: datetime) -> tuple[dict, list[str]]:
    """The outcome of a flag fall (the side out of time loses) and the clock fields to save;
    call only when ``out_of_time`` named a side."""
    loser = battle.to_move
    battle.clocks = {**(battle.clocks or {}), loser: 0}
    battle.clock_started_at = None
    winner = "allied" if loser == "french" else "french"
    return {"winner": winner, "reason": "time", "turn": battle.turn}, ["clocks",
                                                                         "clock_started_at"]


def describe(tc: dict) -> str:
    """A time control in words."""
    if tc.get("kind") == LIVE:
        minutes, seconds = divmod(tc["base"], 60)
        base = f"{minutes} min" + (f" {seconds} s" if seconds else "")
        return f"Live: {base} each, +{tc['increment']} s a turn"
    if tc.get("kind") == CORRESPONDENCE:
        return f"Correspondence: {tc['days']} day{'s' if tc['days'] != 1 else ''} a move"
    return "Untimed"
