"""The La Belle Alliance battlefield map as SVG, drawn from the card data and the position
(pure: the stdlib, ``frontend.svg`` and the engine's ``CardData``). Nothing is drawn from a
picture of the printed map: every box comes from the data, so a publisher's data file (other
tracks, other corps) draws its own map.

Top to bottom: the French cards (each corps box with its division markers: filled are on the
battlefield, hollow were lost; the Grand Battery's three markers; Napoleon used or not),
the three places with the colour of their controller, the Anglo-Allied cards (Blücher's
Prussians: those on the battlefield and those still to come), both morale tracks (10 down
to the B box), both casualty tracks (their RT, RT+1, RT+2 and B boxes, filled top to bottom
with the colour of the corps each casualty came from) and the time track. One SVG that scales
to its container's width (usable at 390 px)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from belle_alliance.engine import CardData
from frontend.svg import INK, PAPER, esc
from game import SIDES

W = 360
PAD = 6
COLOURS = {"french": "#1f4e9c", "allied": "#b3261e", "prussians": "#222222"}
SIDE_TITLES = {"french": "French army", "allied": "Anglo-Allied army (and Blücher)"}
CARD_W, CARD_H, CARD_GAP, PER_ROW = 84, 54, 4, 4
MARK, MARK_GAP = 9, 3
ARMY = {"french": "French", "allied": "Anglo-Allied"}


def _text(x: float, y: float, text: str, size: int = 9, anchor: str = "start",
          weight: str = "400", fill: str = INK, cls: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}"{c}>{esc(text)}</text>')


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _marker_row(x: float, y: float, present: int, lost: int, colour: str) -> str:
    out = []
    for i in range(present + lost):
        fill = colour if i < present else "none"
        cls = "marker on" if i < present else "marker lost"
        out.append(f'<rect class="{cls}" x="{x + i * (MARK + MARK_GAP):.1f}" y="{y:.1f}" '
                   f'width="{MARK}" height="{MARK}" rx="1.5" fill="{fill}" '
                   f'stroke="{colour}" stroke-width="1.2"/>')
    return "".join(out)


def _card_box(cards: CardData, cid: str, pos: Mapping[str, Any], x: float, y: float,
              last: bool) -> str:
    card = cards.cards[cid]
    colour = COLOURS["prussians"] if card.kind == "prussians" else COLOURS[card.side]
    on = int(pos["markers"].get(cid, 0))
    body = ""
    words = ""
    if card.kind in ("corps", "battery"):
        body = _marker_row(x + 5, y + 34, on, max(0, card.markers - on), colour)
        words = f"{on} of {card.markers} markers"
    elif card.kind == "prussians":
        reserve = int(pos["reserve"])
        body = _marker_row(x + 5, y + 34, on, 0, colour) + _text(
            x + 5 + on * (MARK + MARK_GAP), y + 42, f"+{reserve} to come" if reserve else "",
            size=8)
        words = f"{on} on the battlefield, {reserve} to come"
    else:
        used = bool(pos.get(f"{card.kind}_used"))
        words = "used" if used else "once a game: not used yet"
        body = _text(x + 5, y + 43, "used" if used else "available", size=9,
                     weight="700" if not used else "400", fill=INK if not used else "#777")
    title = f"{card.name}" + (f" ({card.commander})" if card.commander
                              and card.commander not in card.name else "")
    mark = ' stroke-dasharray="4 2"' if last else ""
    return (f'<g class="card card-{esc(card.kind)}" data-card="{esc(cid)}" '
            f'data-markers="{on}"><title>{esc(title)}: {esc(words)}'
            f'{"; acted last" if last else ""}</title>'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD_W}" height="{CARD_H}" rx="4" '
            f'fill="#fff" stroke="{colour}" stroke-width="{2.5 if last else 1.2}"{mark}/>'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD_W}" height="13" rx="4" '
            f'fill="{colour}"/>'
            + _text(x + 4, y + 10, _short(card.name, 17), size=8.5, weight="700", fill="#fff")
            + _text(x + 4, y + 25, _short(card.commander or "", 18), size=8.5)
            + body + "</g>")


def _cards(cards: CardData, side: str, pos: Mapping[str, Any], y: float
           ) -> tuple[list[str], float]:
    out = [_text(PAD, y + 10, SIDE_TITLES[side], size=11, weight="700",
                 fill=COLOURS[side])]
    y += 15
    last = pos.get("last_card", {}).get(side)
    ids = [c.id for c in cards.side_cards(side)]
    for i, cid in enumerate(ids):
        row, col = divmod(i, PER_ROW)
        out.append(_card_box(cards, cid, pos, PAD + col * (CARD_W + CARD_GAP),
                             y + row * (CARD_H + CARD_GAP), cid == last))
    rows = (len(ids) + PER_ROW - 1) // PER_ROW
    return out, y + rows * (CARD_H + CARD_GAP) + 4


def _places(cards: CardData, pos: Mapping[str, Any], y: float) -> tuple[list[str], float]:
    out = [_text(PAD, y + 10, "The places", size=11, weight="700")]
    y += 15
    names = list(cards.place_names)
    w = (W - 2 * PAD - (len(names) - 1) * CARD_GAP) / max(1, len(names))
    for i, place in enumerate(names):
        holder = str(pos["control"].get(place))
        colour = COLOURS.get(holder, "#777")
        x = PAD + i * (w + CARD_GAP)
        out.append(f'<g class="place" data-place="{esc(place)}" data-control="{esc(holder)}">'
                   f'<title>{esc(cards.place_names[place])}: held by the '
                   f'{esc(ARMY.get(holder, holder))}</title>'
                   f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="30" rx="4" '
                   f'fill="#fff" stroke="{colour}" stroke-width="1.5"/>'
                   f'<rect class="control" x="{x + 4:.1f}" y="{y + 4:.1f}" width="11" '
                   f'height="11" fill="{colour}"/>'
                   + _text(x + 19, y + 13, _short(cards.place_names[place], 20), size=9,
                           weight="700")
                   + _text(x + 4, y + 26, ARMY.get(holder, holder), size=8, fill=colour)
                   + "</g>")
    return out, y + 36


def _track(y: float, title: str, labels: list[str], filled: list[str | None],
           marker: int | None, colour: str, cls: str, data: str) -> tuple[list[str], float]:
    """A row of boxes: ``labels`` printed in them, ``filled`` the colour of what lies in each
    (None: empty), ``marker`` the box the track's marker is on."""
    out = [f'<g class="track {cls}" {data}>', _text(PAD, y + 10, title, size=10, weight="700")]
    y += 14
    n = len(labels)
    w = (W - 2 * PAD) / max(n, 1)
    for i, label in enumerate(labels):
        x = PAD + i * w
        fill = filled[i] if i < len(filled) and filled[i] else "#fff"
        special = label in ("B",) or label.startswith("RT")
        stroke = "#000" if special else "#999"
        here = i == marker
        out.append(f'<rect class="box{" here" if here else ""}" data-box="{i}" '
                   f'data-label="{esc(label)}" x="{x:.1f}" y="{y:.1f}" width="{w - 1:.1f}" '
                   f'height="18" fill="{fill}" stroke="{"#c9a227" if here else stroke}" '
                   f'stroke-width="{3 if here else 1}"/>')
        if label:
            out.append(_text(x + (w - 1) / 2, y + 12.5, label, size=7 if len(label) > 3 else 8,
                             anchor="middle", weight="700",
                             fill="#fff" if fill != "#fff" else INK))
    out.append("</g>")
    return out, y + 24


def battlefield_svg(cards: CardData, position: Mapping[str, Any]) -> str:
    """The map of ``position`` (the engine's ``to_json``) with ``cards``' boxes and tracks."""
    out: list[str] = []
    y = PAD
    part, y = _cards(cards, "french", position, y)
    out += part
    part, y = _places(cards, position, y)
    out += part
    part, y = _cards(cards, "allied", position, y)
    out += part
    top = 10
    broken = cards.morale_broken_at
    for side in SIDES:
        morale = int(position["morale"][side])
        labels = [("B" if v == broken else str(v)) for v in range(top, broken - 1, -1)]
        part, y = _track(y, f"{ARMY[side]} morale: {morale}", labels, [],
                         top - morale, COLOURS[side], "morale",
                         f'data-side="{side}" data-morale="{morale}"')
        out += part
    for side in SIDES:
        labels = list(cards.casualty_tracks[side])
        filled: list[str | None] = []
        for cid in position["tracks"][side]:
            kind = cards.cards[cid].kind
            filled.append(COLOURS["prussians"] if kind == "prussians" else COLOURS[side])
        n = len(filled)
        part, y = _track(y, f"{ARMY[side]} casualties: {n}", labels, filled, None,
                         COLOURS[side], "casualties",
                         f'data-side="{side}" data-casualties="{n}"')
        out += part
    time = int(position["time"])
    part, y = _track(y, f"Time: {cards.time_track[time]}", list(cards.time_track), [], time,
                     INK, "time", f'data-time="{time}"')
    out += part
    height = y + PAD
    summary = (f"French morale {position['morale']['french']}, Anglo-Allied morale "
               f"{position['morale']['allied']}; casualties "
               f"{len(position['tracks']['french'])} French, "
               f"{len(position['tracks']['allied'])} Anglo-Allied; time "
               f"{cards.time_track[time]}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="lba-map" viewBox="0 0 {W} '
            f'{height:.0f}" role="img" aria-label="The battlefield map: {esc(summary)}" '
            f'font-family="system-ui, sans-serif" data-testid="battlefield">'
            f'<rect width="{W}" height="{height:.0f}" fill="{PAPER}"/>'
            + "".join(out) + "</svg>")
