"""Exports: standings CSV, pairings CSV and FIDE TRF (TRF-16, French = white).

TRF mapping (README "TRF"): one ``001`` line per entry, starting rank = seed order; points are
chess points (win 1, draw 0.5, loss 0; a bye 1); per round ``oooo c r``: opponent's starting
rank, ``w`` French / ``b`` Allied, result ``1``/``=``/``0``; a bye is ``0000 - U``, a round
without a game (not yet entered, dropped, or a round-robin rest) ``0000 - Z``; a no-show's
loss ``-`` and its opponent's win ``+`` (forfeits).

Two-game matches (TRF has one result per player per round): the cell is the match as a whole,
with the game-1 colours — the player listed as French is ``w`` (French in game 1; the swap to
Allied in game 2 is not written), the result is the match's: more games won ``1`` / ``0``,
level (1-1, both drawn) ``=``, a double loss ``0`` both; points are chess points of the match
(1 / 0.5 / 0), not games. The per-game outcomes are in the pairings CSV (``game1``,
``game2``).

Pairings CSV columns: round, table, french, allied (``BYE``), result ``F-A[-draws]``, state,
source, then ``game1``, ``game2`` — two-game matches: ``french`` / ``allied`` = won by the
player in that column (who plays Allied / French in game 2), ``draw``; empty for one-game
matches, unsettled matches, double losses and old results without per-game outcomes.
"""

from __future__ import annotations

import csv
import io

from ..models import Match, Tournament
from ..standings import TIEBREAKER_NAMES
from .standings import compute_rows


def _csv(rows: list[list]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows(rows)
    return out.getvalue()


def standings_csv(t: Tournament, through_round: int | None = None) -> str:
    order = t.tiebreaker_order
    rows = compute_rows(t, through_round)
    head = ["rank", "player", "match_points", "wins", "draws", "losses", "byes",
            "french_won", "allied_won", *[TIEBREAKER_NAMES[k] for k in order], "dropped"]
    body = [[r["rank"], r["name"], r["match_points"], r["record"]["wins"], r["record"]["draws"],
             r["record"]["losses"], r["record"]["byes"], r["french_record"]["won"],
             r["allied_record"]["won"], *[r["tiebreaks"][k] for k in order],
             "yes" if r["dropped"] else ""] for r in rows]
    return _csv([head, *body])


def _result_text(m: Match) -> str:
    if m.is_bye:
        return "bye"
    if m.state != Match.State.SETTLED:
        return ""
    if m.double_loss:
        return "double loss"
    return f"{m.french_games}-{m.allied_games}" + (f"-{m.draws}" if m.draws else "")


def pairings_csv(t: Tournament, round_number: int | None = None) -> str:
    qs = (Match.objects.filter(tournament=t).select_related("round", "french__user",
                                                           "allied__user")
          .order_by("round__number", "table"))
    if round_number is not None:
        qs = qs.filter(round__number=round_number)
    # game1 / game2 appended last: readers of the first seven columns are not disturbed
    head = ["round", "table", "french", "allied", "result", "state", "source", "game1", "game2"]
    body = [[m.round.number, m.table, m.french.user.username,
             m.allied.user.username if m.allied else "BYE", _result_text(m), m.state, m.source,
             *(m.games or ("", ""))]
            for m in qs]
    return _csv([head, *body])


def _points(value: float) -> str:
    return f"{value:4.1f}"


def trf(t: Tournament) -> str:
    entries = list(t.entries.select_related("user").order_by("seed", "pk"))
    number = {e.pk: k for k, e in enumerate(entries, start=1)}
    rounds = t.current_round
    games: dict[int, dict[int, str]] = {e.pk: {} for e in entries}
    points = {e.pk: 0.0 for e in entries}
    for m in Match.objects.filter(tournament=t).select_related("round"):
        r = m.round.number
        if m.is_bye:
            games[m.french_id][r] = "0000 - U"
            points[m.french_id] += 1
            continue
        if m.state != Match.State.SETTLED:
            games[m.french_id][r] = f"{number[m.allied_id]:4d} w  "
            games[m.allied_id][r] = f"{number[m.french_id]:4d} b  "
            continue
        forfeit = m.source == "no_show"
        # one result per round: a two-game match is scored as a whole (totals compared: 2-0 or
        # 1-0-1 a win, 1-1 or 0-0-2 a draw), in the game-1 colours (the player listed as
        # French is "w"); a one-game match is the game itself
        if m.double_loss:
            f_res = a_res = "-" if forfeit else "0"
        elif m.french_games > m.allied_games:
            f_res, a_res = ("+", "-") if forfeit else ("1", "0")
            points[m.french_id] += 1
        elif m.allied_games > m.french_games:
            f_res, a_res = ("-", "+") if forfeit else ("0", "1")
            points[m.allied_id] += 1
        else:
            f_res = a_res = "="
            points[m.french_id] += 0.5
            points[m.allied_id] += 0.5
        games[m.french_id][r] = f"{number[m.allied_id]:4d} w {f_res}"
        games[m.allied_id][r] = f"{number[m.french_id]:4d} b {a_res}"
    rank = {int(row["player"]): row["rank"] for row in compute_rows(t)}
    # 022 is the city (an online event) and 032 the federation (none): the format and the
    # battle go in 092, the type of tournament
    lines = [f"012 {t.name[:80]}", "022 Eagles Online"]
    if t.started_at:
        lines.append(f"042 {t.started_at:%Y/%m/%d}")
    if t.finished_at:
        lines.append(f"052 {t.finished_at:%Y/%m/%d}")
    game = f"EAGLES: {t.get_battle_display()}" if t.battle else t.get_game_display()
    lines += [f"062 {len(entries)}",
              f"092 {t.get_format_display()} ({game}; French = white)",
              f"XXR {t.planned_rounds or rounds}"]
    for e in entries:
        name = e.user.username[:33]
        # columns (1-based): 5-8 rank, 10 sex, 11-13 title, 15-47 name, 49-52 rating,
        # 54-56 federation, 58-68 id, 70-79 birth, 81-84 points, 86-89 rank, rounds from 92
        head = (f"001 {number[e.pk]:4d} {'':1}{'':3} {name:<33} {e.rating or 0:4d} {'':3} "
                f"{'':11} {'':10} {_points(points[e.pk])} {rank.get(e.pk, 0):4d}")
        cells = [games[e.pk].get(r, "0000 - Z") for r in range(1, rounds + 1)]
        # no rstrip: a paired, unplayed game ends in a blank result column, which a
        # fixed-column reader needs
        lines.append(head + ("  " + "  ".join(cells) if cells else ""))
    return "\n".join(lines) + "\n"
