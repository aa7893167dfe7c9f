"""A matchup's results in words (pure): the CLI's text and the page's summary lines."""

from __future__ import annotations

from typing import Any


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def summary_lines(m: dict[str, Any]) -> list[str]:
    """Lines of text for ``services.as_dict(matchup)``."""
    a, b = m["deck_a"], m["deck_b"]
    lines = [f"{a['name']} ({a['side']}, {m['bots'][0]}) against {b['name']} ({b['side']}, "
             f"{m['bots'][1]}) at {m['battle']}, scale {m['scale']}: {m['games']} games, "
             f"seed {m['seed']}"]
    r = m.get("results")
    if not r:
        return [*lines, f"{m['status']}: {m['progress']}/{m['games']} games played"]
    for key, label in (("a", a["name"]), ("b", b["name"]), ("draw", "draws")):
        low, high = r["ci95"][key]
        lines.append(f"  {label}: {r['wins'][key]} ({pct(r['win_rate'][key])} win rate; "
                     f"95 % interval {pct(low)} to {pct(high)})")
    lines.append(f"  average turns: {r['average_turns']}")
    for key, label in (("wins", "in wins"), ("losses", "in losses")):
        cards = ", ".join(f"{c['name']} ({c['games']})" for c in r["cards"][key][:5])
        lines.append(f"  cards most often {label}: {cards or 'none'}")
    lines.append(f"  digest {r['digest']}")
    return lines
