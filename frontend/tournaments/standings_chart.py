"""Match points after each round as an SVG line chart, drawn on the server from the standings
snapshots (pure, no Django; the style of ``deck_chart``).

``standings_chart(snapshots)`` takes ``(round_number, rows)`` pairs, the rows of
``StandingSnapshot`` (each with ``player``, ``name``, ``rank``, ``match_points`` and
``dropped``), and draws one line per player for the top players of the last snapshot, with a
legend below the plot. The SVG scales to its container through its viewBox (readable on a
375 px phone); every text is XML-escaped, since player names come from users. It carries a
``<title>`` and a ``<desc>`` (the leader, who is drawn) and every point has its own
``<title>`` ("ney: 6 match points after round 2").

Lines that share a score would hide one another: at each round, the players on the same
score are drawn apart, the better rank higher, a point's width apart where that stays within
0.7 match points (so never at another score; issue 28: equal scores overlapped), lines 5 to 8
are dashed, and every point of a line has the colour of its legend entry. Lines on 0 match
points rise from the axis line (never below it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from math import ceil

from frontend.svg import ellipsis, esc, fmt_number

TOP = 8
WIDTH = 400
LEFT = 34        # room for the match point labels
RIGHT = 14
TOP_PAD = 22     # room for the axis title
PLOT_H = 180
AXIS_H = 48      # round labels and the axis title
LEGEND_ROW = 20
LEGEND_COLUMNS = 2
CHAR_W = 6.5      # an average width of a 12 px character (legend text budget)
TIE_GAP = 8.0    # px between points on the same score (at most): a point's width and a gap
INK, MUTED, GRID = "#1d1d1f", "#5f5a50", "#e4dfd2"
# Dark enough for 3:1 against white (WCAG 1.4.11); the last four are dashed as well.
COLOURS = ("#1f5fa8", "#c0392b", "#1b7a4c", "#8e3b8e", "#2b2b2b", "#9a6a00", "#0e7c86",
           "#b3447a")
DASHED_FROM = 4

EMPTY_MESSAGE = "No rounds yet: the chart appears once round 1 is complete."


def _number(value) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if number != number else number  # NaN: not a score


def _parse(snapshots: Iterable) -> dict[int, list[Mapping]]:
    """Round number -> its rows (odd items skipped: the chart draws what it can)."""
    out: dict[int, list[Mapping]] = {}
    for item in snapshots or ():
        try:
            number, rows = item
            number = int(number)
        except (TypeError, ValueError):
            continue
        out[number] = [r for r in rows or ()
                       if isinstance(r, Mapping) and r.get("player") is not None]
    return out


def chart_lines(snapshots: Iterable, top: int = TOP) -> tuple[list[int], list[dict]]:
    """The rounds (sorted) and the lines to draw: the ``top`` players of the last snapshot,
    in rank order, each ``{"player", "name", "rank", "dropped", "points"}`` where ``points``
    has one entry per round (``None`` where the player is not in that round's snapshot)."""
    parsed = _parse(snapshots)
    rounds = sorted(parsed)
    if not rounds:
        return [], []
    by_round = {n: {str(r["player"]): r for r in rows} for n, rows in parsed.items()}
    last = sorted(parsed[rounds[-1]], key=lambda r: _number(r.get("rank")) or 0)
    lines = []
    for row in last[:max(top, 0)]:
        pid = str(row["player"])
        points = []
        for number in rounds:
            found = by_round[number].get(pid)
            points.append(None if found is None else _number(found.get("match_points")))
        lines.append({"player": pid, "name": str(row.get("name") or pid),
                      "rank": row.get("rank"), "dropped": bool(row.get("dropped")),
                      "points": points})
    return rounds, lines


def _y_step(largest: float) -> int:
    """Grid every 3 match points (a win), wider when that would crowd the axis."""
    step = 3
    while largest / step > 8:
        step += 3
    return step


def _svg(body: str, height: float, title: str, desc: str, ident: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="standings-chart" role="img" '
            f'viewBox="0 0 {WIDTH} {height:g}" width="{WIDTH}" height="{height:g}" '
            f'aria-labelledby="{ident}-title {ident}-desc" '
            f'font-family="system-ui, sans-serif" font-size="12">'
            f'<title id="{ident}-title">{esc(title)}</title>'
            f'<desc id="{ident}-desc">{esc(desc)}</desc>{body}</svg>')


def empty_chart(title: str = "Match points after each round", *, ident: str = "standings-chart",
                message: str = EMPTY_MESSAGE) -> str:
    body = (f'<text x="{WIDTH / 2:g}" y="34" text-anchor="middle" fill="{MUTED}" '
            f'class="chart-empty">{esc(message)}</text>')
    return _svg(body, 56, title, message, ident)


def standings_chart(snapshots: Iterable, *, top: int = TOP,
                    title: str = "Match points after each round",
                    ident: str = "standings-chart", players: int | None = None) -> str:
    """The SVG (a string): match points after each round, a line per top player.
    ``players``: how many the last round has, when ``snapshots`` hold only the top rows."""
    snapshots = list(snapshots or ())
    rounds, lines = chart_lines(snapshots, top)
    drawn = [line for line in lines if any(p is not None for p in line["points"])]
    if not rounds or not drawn:
        return empty_chart(title, ident=ident)
    if players is None:
        players = len(_parse(snapshots)[rounds[-1]])

    largest = max((p for line in drawn for p in line["points"] if p is not None), default=0)
    step = _y_step(max(largest, 3))
    y_max = step * ceil(max(largest, 3) / step)
    plot_w = WIDTH - LEFT - RIGHT
    x_gap = plot_w / len(rounds)  # x = 0 is the start (everyone on 0)

    def x_at(index: int) -> float:  # index -1: the start
        return LEFT + (index + 1) * x_gap

    # the lines on one score at one round, in rank order: drawn apart, within 0.7 points
    ties: dict[tuple[int, float], list[int]] = {}
    for line_no, line in enumerate(drawn):
        for index, value in enumerate(line["points"]):
            if value is not None:
                ties.setdefault((index, value), []).append(line_no)

    def y_at(value: float, line_no: int, index: int) -> float:
        tied = ties[(index, value)]
        k = tied.index(line_no)
        spread = min(TIE_GAP, 0.7 * PLOT_H / y_max / max(len(tied) - 1, 1))
        y = TOP_PAD + PLOT_H - PLOT_H * value / y_max
        if value <= 0:  # nobody is drawn below the axis: the last rank on its line
            return y - (len(tied) - 1 - k) * spread
        return y - ((len(tied) - 1) / 2 - k) * spread  # a better rank a little higher

    parts = ['<g class="chart-axes">']
    for value in range(0, int(y_max) + 1, step):
        y = TOP_PAD + PLOT_H - PLOT_H * value / y_max
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
                     f'stroke="{GRID}" stroke-width="1"/>'
                     f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" '
                     f'fill="{MUTED}">{value}</text>')
    base = TOP_PAD + PLOT_H
    parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{base}" y2="{base}" '
                 f'stroke="{MUTED}" stroke-width="1"/>')
    every = max(1, ceil(len(rounds) / 12))  # at most a dozen round labels
    labels = [(-1, "0")] + [(i, str(n)) for i, n in enumerate(rounds)
                            if i % every == 0 or i == len(rounds) - 1]
    for index, text in labels:
        parts.append(f'<text x="{x_at(index):.1f}" y="{base + 16}" text-anchor="middle" '
                     f'fill="{MUTED}">{esc(text)}</text>')
    parts.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{base + 32}" text-anchor="middle" '
                 f'fill="{MUTED}">Round</text>'
                 f'<text x="4" y="{TOP_PAD - 10}" fill="{MUTED}">Match points</text></g>')

    for line_no, line in reversed(list(enumerate(drawn))):  # the leader drawn last, on top
        colour = COLOURS[line_no % len(COLOURS)]
        dash = ' stroke-dasharray="6 3"' if line_no % len(COLOURS) >= DASHED_FROM else ""
        name = line["name"]
        coords = [(x_at(-1), TOP_PAD + PLOT_H)]  # everyone starts on 0, at one point
        marks = []
        for index, (number, value) in enumerate(zip(rounds, line["points"], strict=True)):
            if value is None:
                continue
            x, y = x_at(index), y_at(value, line_no, index)
            coords.append((x, y))
            marks.append(f'<circle class="chart-point" cx="{x:.1f}" cy="{y:.1f}" r="3.5" '
                         f'fill="{colour}" stroke="#fff" stroke-width="1">'
                         f'<title>{esc(name)}: {esc(fmt_number(value))} match point'
                         f'{"" if value == 1 else "s"} after round {number}</title></circle>')
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
        values = ",".join("" if v is None else fmt_number(v) for v in line["points"])
        parts.append(f'<g class="chart-line" data-player="{esc(line["player"])}" '
                     f'data-name="{esc(name)}" data-points="{values}">'
                     f'<polyline points="{points}" fill="none" stroke="{colour}" '
                     f'stroke-width="2.2" stroke-linejoin="round"{dash}/>{"".join(marks)}</g>')

    legend_top = base + AXIS_H
    legend_left = 8
    col_w = (WIDTH - legend_left) / LEGEND_COLUMNS
    budget = int((col_w - 26) / CHAR_W)  # characters of legend text that fit in a column
    for line_no, line in enumerate(drawn):
        colour = COLOURS[line_no % len(COLOURS)]
        dash = ' stroke-dasharray="6 3"' if line_no % len(COLOURS) >= DASHED_FROM else ""
        col, row = line_no % LEGEND_COLUMNS, line_no // LEGEND_COLUMNS
        x, y = legend_left + col * col_w, legend_top + row * LEGEND_ROW
        last = next((p for p in reversed(line["points"]) if p is not None), 0)
        rank = f'{line["rank"]}. ' if line["rank"] is not None else ""
        dropped = " (dropped)" if line["dropped"] else ""
        parts.append(
            f'<g class="chart-legend-item" data-player="{esc(line["player"])}">'
            f'<title>{esc(rank)}{esc(line["name"])}{dropped}: {esc(fmt_number(last))} '
            f'match points</title>'
            f'<line x1="{x:.1f}" x2="{x + 18:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="{colour}" '
            f'stroke-width="2.2"{dash}/><circle cx="{x + 9:.1f}" cy="{y:.1f}" r="3.5" '
            f'fill="{colour}"/>'
            f'<text x="{x + 24:.1f}" y="{y + 4:.1f}" fill="{INK}">{esc(rank)}'
            f'{esc(ellipsis(line["name"], budget - len(rank + dropped + fmt_number(last)) - 3))}'
            f'{dropped} · {esc(fmt_number(last))}</text></g>')
    height = legend_top + ceil(len(drawn) / LEGEND_COLUMNS) * LEGEND_ROW

    leader = drawn[0]
    lead_points = next((p for p in reversed(leader["points"]) if p is not None), 0)
    shown = (f"the top {len(drawn)} of {players} players" if players > len(drawn)
             else f"all {len(drawn)} player{'s' if len(drawn) != 1 else ''}")
    after = (f"round {rounds[0]}" if len(rounds) == 1
             else f"each round from {rounds[0]} to {rounds[-1]}")
    desc = (f"Match points of {shown}, by rank, after {after}: a line per player. After "
            f"round {rounds[-1]}, {leader['name']} leads with {fmt_number(lead_points)} match "
            f"points.")
    return _svg("".join(parts), height, title, desc, ident)
