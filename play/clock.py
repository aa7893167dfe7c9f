"""Time controls and clocks (issue 12, Time), for every game: pure arithmetic on a match's
clock fields. ONE clock per side for the whole match (a campaign's too, RULINGS 16-o).

Nothing here imports Django models: ``now`` is always passed in (tests use a fake one), and
the functions read and set plain attributes of a match row (``time_control``, ``clocks``,
``clock_started_at``, ``deadline``, ``to_move``, ``status``, ``bot``, ``computer_side()``);
the service saves the field names they return, under the match's row lock. What a "turn" is
belongs to the game: the service asks it which sides ended one between two positions
(``game.turns_ended``) and hands the list to ``on_position``.

Time controls (``validate``): ``{}`` untimed; ``{"kind": "live", "base": s, "increment": s}``
(base 60..7200 s, increment 0..300 s); ``{"kind": "correspondence", "days": n}`` (1..14).

Rulings:

* **Whose clock runs.** Only the clock of the side to move (``to_move``: for a campaign the
  side that must act on either board or for a decision), and only while the match is
  active: not while it waits for its second player, not once it is over. Every time a
  position is saved (``on_position``), the time since ``clock_started_at`` is charged to the
  side that had the move, and the clock of the side that has it now starts.
* **Live increment.** When a side's turn ends (for EAGLES its Battle Turn: the engine's turn
  number goes up, 5.0; on whichever board of a campaign), that side gets ``increment``
  seconds, once per turn ended; deployment (turn 0) gives none. Response windows inside a
  turn move the running clock back and forth but give no increment.
* **Correspondence.** A side gets a fresh ``days`` allowance each time priority passes to it
  (a response window included: each needs the player to come back); while it keeps priority
  over several actions its allowance keeps running. The side not to move is shown its full
  allowance (what it will get).
* **The computer.** Against the computer a match is untimed unless a time control is asked
  for; the computer's own clock never runs (no deadline while it has priority, and the
  time it thinks is charged to nobody).
* **Deadline.** ``deadline`` = when the side to move runs out: ``clock_started_at`` + its
  seconds left. Null: untimed, the computer to move, or not running.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from config.errors import BadInput
from game import SIDES, other_side

Match = Any  # a match row (play.registry.Match)
LIVE, CORRESPONDENCE = "live", "correspondence"
BASE_RANGE = (60, 7200)
INCREMENT_RANGE = (0, 300)
DAYS_RANGE = (1, 14)
DAY = 86400
# The presets the new-match form offers (value, label, time control).
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
               CORRESPONDENCE: {"kind", "days"}}.get(kind) if isinstance(kind, str) else None
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


def initial_clocks(tc: dict, sides: Iterable[str]) -> dict:
    """Every side's clock before the match starts ({} untimed)."""
    return {s: allowance(tc) for s in sides} if tc else {}


def _computer_side(match: Match) -> str | None:
    return match.computer_side() if match.bot else None


def _start(match: Match, side: str, now: datetime) -> None:
    """Start ``side``'s clock (empty: nobody's) and set the deadline."""
    match.clock_started_at = now if side else None
    if side and side != _computer_side(match):
        match.deadline = now + timedelta(seconds=match.clocks.get(side, 0))
    else:
        match.deadline = None


FIELDS = ["clocks", "clock_started_at", "deadline"]


def start(match: Match, now: datetime) -> list[str]:
    """The match starts (created against the computer, or joined): full clocks, the side
    with priority's clock running. Returns the fields to save."""
    if not match.time_control:
        return []
    match.clocks = initial_clocks(match.time_control, SIDES)
    _start(match, match.to_move, now)
    return list(FIELDS)


def on_position(match: Match, before_side: str, ended: list[str], now: datetime) -> list[str]:
    """A new position was saved (``match.to_move`` already holds it; ``before_side`` had the
    move before it, and the sides of ``ended`` ended a turn in between, one entry per turn):
    charge the time since the clock started to the side that had the move, add a live
    increment per turn ended, start the next clock. Returns the fields to save ([] untimed)."""
    tc = match.time_control
    if not tc:
        return []
    clocks = dict(match.clocks or initial_clocks(tc, SIDES))
    computer = _computer_side(match)
    if before_side and before_side != computer and match.clock_started_at is not None:
        spent = (now - match.clock_started_at).total_seconds()
        clocks[before_side] = max(0.0, round(clocks.get(before_side, 0) - spent, 3))
    if tc["kind"] == LIVE:
        for side in ended:
            if side != computer:
                clocks[side] = clocks.get(side, 0) + tc["increment"]
    elif match.to_move and match.to_move != before_side:
        clocks = initial_clocks(tc, clocks)  # a fresh allowance for the side getting the move
    match.clocks = clocks
    _start(match, match.to_move if match.status == "active" else "", now)
    return list(FIELDS)


def stop(match: Match, now: datetime) -> list[str]:
    """Pause (a tournament's organiser stops the event): the running side keeps the time it
    had left at ``now``, nobody's clock runs, no deadline (so no flag can fall). Returns the
    fields to save ([] untimed)."""
    if not match.time_control:
        return []
    clocks = dict(match.clocks or initial_clocks(match.time_control, SIDES))
    side = running_side(match)
    if side is not None:
        clocks[side] = max(0.0, round((match.deadline - now).total_seconds(), 3))
    match.clocks = clocks
    match.clock_started_at = None
    match.deadline = None
    return list(FIELDS)


def restart(match: Match, now: datetime) -> list[str]:
    """Resume after ``stop``: the side with priority's clock runs again from the time it had
    left (a correspondence side gets no fresh allowance: priority did not pass). Returns the
    fields to save ([] untimed)."""
    if not match.time_control:
        return []
    _start(match, match.to_move if match.status == "active" else "", now)
    return list(FIELDS)


def running_side(match: Match) -> str | None:
    """The side whose clock runs now (None: untimed, not active, or the computer's move)."""
    if match.status != "active" or match.deadline is None or not match.to_move:
        return None
    return match.to_move


def clocks_now(match: Match, now: datetime) -> dict:
    """Seconds left per side at ``now`` (whole seconds, never below 0; {} untimed)."""
    if not match.time_control:
        return {}
    clocks = dict(match.clocks or initial_clocks(match.time_control, SIDES))
    side = running_side(match)
    if side is not None:
        clocks[side] = (match.deadline - now).total_seconds()
    return {s: max(0, int(v)) for s, v in clocks.items()}


def out_of_time(match: Match, now: datetime) -> str | None:
    """The side whose flag has fallen at ``now`` (None: nobody's)."""
    side = running_side(match)
    if side is not None and now >= match.deadline:
        return side
    return None


def flag_fell(match: Match, now: datetime) -> tuple[dict, list[str]]:
    """The outcome of a flag fall (the side to move, out of time, loses) and the clock fields
    to save; call only when ``out_of_time`` named a side."""
    loser = match.to_move
    match.clocks = {**(match.clocks or {}), loser: 0}
    match.clock_started_at = None
    match.deadline = None
    return {"winner": other_side(loser), "reason": "time", "loser": loser}, list(FIELDS)


def describe(tc: dict) -> str:
    """A time control in words."""
    if tc.get("kind") == LIVE:
        minutes, seconds = divmod(tc["base"], 60)
        base = f"{minutes} min" + (f" {seconds} s" if seconds else "")
        return f"Live: {base} each, +{tc['increment']} s a turn"
    if tc.get("kind") == CORRESPONDENCE:
        return f"Correspondence: {tc['days']} day{'s' if tc['days'] != 1 else ''} a move"
    return "Untimed"
