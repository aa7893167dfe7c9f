"""Losses by army and battle as a small accessible SVG bar chart (pure: no Django).

``losses_svg(history)`` reads the ``result`` entries of a campaign view's ``history``
(``battles.campaign.view``): each has ``battle`` and ``lost`` ({side: cards}); walkovers and
entries without ``lost`` count as none lost.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape

from game import BATTLE_NAMES, CAMPAIGN_BATTLE_NAMES, SIDE_NAMES, SIDES

NAMES = {**BATTLE_NAMES, **CAMPAIGN_BATTLE_NAMES}
BAR_COLOURS = {"french": "#2b4c9b", "allied": "#b22222"}
BARS = tuple((s, SIDE_NAMES[s], BAR_COLOURS[s]) for s in SIDES)  # (side, label, colour)
BAR, GAP, LEFT, TOP, HEIGHT = 18, 14, 92, 24, 120


def losses(history: Iterable[Mapping]) -> list[tuple[str, dict[str, int]]]:
    """(battle, {side: cards lost}) in the order the battles ended."""
    out = []
    for h in history:
        if isinstance(h, Mapping) and h.get("type") == "result":
            lost = h.get("lost") or {}
            out.append((str(h.get("battle")), {s: int(lost.get(s, 0) or 0) for s in SIDES}))
    return out


def losses_svg(history: Iterable[Mapping]) -> str:
    rows = losses(history)
    if not rows:
        return ('<svg xmlns="http://www.w3.org/2000/svg" class="c-chart" role="img" '
                'viewBox="0 0 300 30" width="300" height="30" aria-label="No battle has '
                'ended yet"><text x="4" y="20" font-size="12">No battle has ended yet.'
                '</text></svg>')
    top = max([1] + [n for _, lost in rows for n in lost.values()])
    width = LEFT + len(rows) * (2 * BAR + GAP) + 20
    parts = []
    words = []
    for i, (battle, lost) in enumerate(rows):
        name = escape(NAMES.get(battle, battle.replace("-", " ").title()))
        x0 = LEFT + i * (2 * BAR + GAP)
        for j, (side, label, colour) in enumerate(BARS):
            n = lost[side]
            h = round(HEIGHT * n / top)
            x = x0 + j * BAR
            parts.append(f'<rect x="{x}" y="{TOP + HEIGHT - h}" width="{BAR - 2}" height="{h}" '
                         f'fill="{colour}"><title>{name}: {label} lost {n}</title></rect>')
            parts.append(f'<text x="{x + BAR / 2 - 1}" y="{TOP + HEIGHT - h - 3}" '
                         f'font-size="10" text-anchor="middle">{n}</text>')
        parts.append(f'<text x="{x0 + BAR}" y="{TOP + HEIGHT + 14}" font-size="10" '
                     f'text-anchor="middle">{name}</text>')
        words.append(f"{name}: French lost {lost['french']}, Allied lost {lost['allied']}")
    legend = "".join(
        f'<rect x="4" y="{TOP + 20 * j}" width="10" height="10" fill="{colour}"/>'
        f'<text x="18" y="{TOP + 9 + 20 * j}" font-size="11">{label}</text>'
        for j, (_, label, colour) in enumerate(BARS))
    desc = escape("Cards lost by battle. " + "; ".join(words) + ".")
    h = TOP + HEIGHT + 24
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="c-chart" role="img" '
            f'viewBox="0 0 {width} {h}" width="{width}" height="{h}" aria-label="{desc}">'
            f'<text x="4" y="14" font-size="12" font-weight="bold">Cards lost</text>'
            f'{legend}{"".join(parts)}</svg>')
