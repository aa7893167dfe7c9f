"""The last dice rolled, drawn as dice (pure: the stdlib and ``frontend.svg``).

``last_roll(log)`` finds the last action (``seq``) of the player's log whose events rolled
dice (fire, shock: 7.0; morale: 6.0; a General's morale: 12.4; a campaign's retreat check
after a battle, 16.0, as ``dice: [roll]``) and returns its rolls;
``dice_svg(rolls)`` draws them as an accessible SVG: one row per roll, each die with its pips,
hits (fire and shock: at least ``7 - power``, 7.2) and failed morale rolls marked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from frontend.svg import INK, esc

__all__ = ["last_roll", "dice_svg"]

PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
SIZE, GAP, ROW = 26, 6, 34
GOOD, BAD = "#0b6b2f", "#a3161a"
KINDS = {"fire": "Fire", "shock": "Shock", "morale": "Morale", "general_morale":
         "General's morale", "retreat_check": "Retreat check"}


def _roll(e: Mapping) -> dict | None:
    dice = [d for d in e.get("dice") or () if isinstance(d, int) and 1 <= d <= 6]
    if not dice:
        return None
    kind = str(e.get("type"))
    marked: list[bool]
    if kind in ("fire", "shock") and isinstance(e.get("power"), int):
        need = 7 - e["power"]
        marked = [d >= need for d in dice]
        summary = f"{e.get('hits', sum(marked))} hit{'s' if e.get('hits', 0) != 1 else ''}"
    elif kind == "morale":
        routed = bool(e.get("routed"))
        marked = [not (routed and i == len(dice) - 1) for i in range(len(dice))]
        summary = "routed" if routed else "held"
    elif kind == "general_morale":
        marked = [d != 6 for d in dice]
        summary = "killed" if e.get("killed") else "survived"
    elif kind == "retreat_check":  # the Campaign Game's check after a battle (16.0)
        marked = [bool(e.get("passed"))] * len(dice)
        summary = "held" if e.get("passed") else "lost"
    else:
        marked = [True] * len(dice)
        summary = ""
    return {"kind": KINDS.get(kind, kind.replace("_", " ").title()), "dice": dice,
            "good": marked, "summary": summary, "side": e.get("side")}


def last_roll(log: Sequence[Mapping]) -> tuple[int | None, list[dict]]:
    """(seq, rolls) of the last action in ``log`` (events with ``seq``) that rolled dice."""
    last_seq = None
    for e in reversed(log):
        if isinstance(e, Mapping) and e.get("dice"):
            last_seq = e.get("seq")
            break
    if last_seq is None:
        return None, []
    rolls = [r for e in log if isinstance(e, Mapping) and e.get("seq") == last_seq
             and e.get("dice") for r in [_roll(e)] if r]
    return last_seq, rolls


def _die(x: float, y: float, value: int, good: bool) -> str:
    stroke = GOOD if good else BAD
    parts = [f'<g class="die {"hit" if good else "miss"}" data-value="{value}">'
             f'<rect x="{x:.1f}" y="{y:.1f}" width="{SIZE}" height="{SIZE}" rx="5" '
             f'fill="#fff" stroke="{stroke}" stroke-width="2"/>']
    step = SIZE / 4
    for cx, cy in PIPS[value]:
        parts.append(f'<circle cx="{x + step * (cx + 1):.1f}" cy="{y + step * (cy + 1):.1f}" '
                     f'r="2.6" fill="{INK}"/>')
    parts.append("</g>")
    return "".join(parts)


def dice_svg(rolls: Sequence[Mapping]) -> str:
    """The rolls as one SVG (empty string when there are none)."""
    if not rolls:
        return ""
    label_w = 112
    n = max(len(r["dice"]) for r in rolls)
    width = label_w + n * (SIZE + GAP) + 70
    height = len(rolls) * ROW + 4
    words = "; ".join(f"{r['kind']}: {', '.join(map(str, r['dice']))}"
                      + (f" ({r['summary']})" if r["summary"] else "") for r in rolls)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="dice" viewBox="0 0 {width} '
           f'{height}" width="{width}" height="{height}" role="img" '
           f'font-family="system-ui, sans-serif" aria-label="The last dice: {esc(words)}">'
           f'<title>{esc(words)}</title>']
    for i, r in enumerate(rolls):
        y = 2 + i * ROW
        out.append(f'<text x="0" y="{y + SIZE / 2 + 4:.1f}" font-size="12" '
                   f'font-weight="700" fill="{INK}">{esc(r["kind"])}</text>')
        for j, (d, good) in enumerate(zip(r["dice"], r["good"], strict=True)):
            out.append(_die(label_w + j * (SIZE + GAP), y, d, good))
        if r["summary"]:
            out.append(f'<text x="{label_w + len(r["dice"]) * (SIZE + GAP) + 2}" '
                       f'y="{y + SIZE / 2 + 4:.1f}" font-size="12" fill="{INK}">'
                       f'{esc(r["summary"])}</text>')
    out.append("</svg>")
    return "".join(out)
