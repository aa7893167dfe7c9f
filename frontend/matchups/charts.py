"""The matchup lab's drawings (pure, no Django): SVG strings from a matchup's results.

* ``progress_bar(done, total)``: games played so far;
* ``win_rate_plot(series)``: deck A's cumulative win rate after each game with its 95 %
  interval as a band (how the estimate settles as N grows), the 50 % line for reference;

What differs between won and lost games (``matchups.stats.differences``) is a table on the
page: card names in full, never cut to fit a chart.

Every text from data is escaped (``frontend/svg.py``); each SVG scales through its viewBox.
"""

from __future__ import annotations

from collections.abc import Sequence

from frontend.svg import esc

WIN, LOSS, BAND, AXIS, TEXT = "#1f6f3f", "#8f1f1f", "#b9d6c3", "#8a8578", "#1d1d1f"
FONT = 'font-family="system-ui, sans-serif"'


def progress_bar(done: int, total: int, *, width: int = 360, height: int = 18) -> str:
    total = max(int(total), 1)
    done = max(0, min(int(done), total))
    filled = width * done / total
    label = f"{done} of {total} games played"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="matchup-progress" role="progressbar" '
            f'aria-valuemin="0" aria-valuemax="{total}" aria-valuenow="{done}" '
            f'aria-label="{esc(label)}" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" data-done="{done}" data-total="{total}">'
            f'<title>{esc(label)}</title>'
            f'<rect x="0" y="0" width="{width}" height="{height}" rx="4" fill="#e6e1d3"/>'
            f'<rect class="matchup-progress-fill" x="0" y="0" width="{filled:.1f}" '
            f'height="{height}" rx="4" fill="{WIN}"/></svg>')


def win_rate_plot(series: Sequence[Sequence[float]], *, title: str = "Deck A's win rate",
                  width: int = 360, height: int = 200) -> str:
    """``series``: ``[[n, rate, low, high], ...]`` (``matchups.stats.cumulative``)."""
    left, right, top, bottom = 34, 8, 22, 24
    pw, ph = width - left - right, height - top - bottom
    rows = [r for r in series if len(r) >= 4]
    last = max((r[0] for r in rows), default=1) or 1

    def x(n: float) -> float:
        return left + (pw * (n - 1) / (last - 1) if last > 1 else pw / 2)

    def y(p: float) -> float:
        return top + ph * (1 - max(0.0, min(1.0, float(p))))

    parts = [f'<text x="0" y="14" font-size="13" font-weight="700" fill="{TEXT}">'
             f'{esc(title)}</text>']
    for p in (0, 0.5, 1):
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(p):.1f}" y2="{y(p):.1f}" '
                     f'stroke="{AXIS}" stroke-width="{1 if p == 0.5 else 0.5}"'
                     f'{" stroke-dasharray=\"4 3\"" if p == 0.5 else ""}/>'
                     f'<text x="{left - 4}" y="{y(p) + 4:.1f}" font-size="10" text-anchor="end" '
                     f'fill="{TEXT}">{int(p * 100)} %</text>')
    if rows:
        band = ([f"{x(r[0]):.1f},{y(r[3]):.1f}" for r in rows]
                + [f"{x(r[0]):.1f},{y(r[2]):.1f}" for r in reversed(rows)])
        parts.append(f'<polygon class="ci-band" points="{" ".join(band)}" fill="{BAND}" '
                     f'opacity="0.7"/>')
        line = " ".join(f"{x(r[0]):.1f},{y(r[1]):.1f}" for r in rows)
        parts.append(f'<polyline class="win-rate" points="{line}" fill="none" stroke="{WIN}" '
                     f'stroke-width="2"/>')
        end = rows[-1]
        parts.append(f'<circle cx="{x(end[0]):.1f}" cy="{y(end[1]):.1f}" r="3" fill="{WIN}">'
                     f'<title>{esc(f"after {int(end[0])} games: {100 * end[1]:.1f} % "
                                   f"(95 % interval {100 * end[2]:.1f}–{100 * end[3]:.1f} %)")}'
                     f'</title></circle>')
    else:
        parts.append(f'<text x="{left + 8}" y="{top + ph / 2:.1f}" font-size="12" '
                     f'fill="#5f5a50">no games yet</text>')
    parts.append(f'<text x="{left}" y="{height - 6}" font-size="10" fill="{TEXT}">1</text>'
                 f'<text x="{width - right}" y="{height - 6}" font-size="10" text-anchor="end" '
                 f'fill="{TEXT}">{int(last)} games</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="matchup-plot" role="img" '
            f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'aria-label="{esc(title)} as the games add up" {FONT}>'
            f'<title>{esc(title)} as the games add up</title>{"".join(parts)}</svg>')
