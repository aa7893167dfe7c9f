"""Tournament pages for everyone: the list, a tournament, registration with deck choice,
check-in, my match and its report, pairings, standings (and how each figure was computed),
deck lists and exports.

Like the API (``tournaments/api.py``) these views only read forms and render: every rule is in
``tournaments.services`` (writes) and ``tournaments.selectors`` (reads, including who may see a
deck list). A service error becomes a 403 (not allowed), a 404 (unknown) or the page again with
the message and the error's status (400 bad input, 409 wrong state); nothing changes then.
The organiser's pages are in ``organiser_views``.

htmx, as progressive enhancement: a form posts to its usual URL; with ``HX-Request`` the view
answers with the page's fragment (``{% partialdef %}``: the match card, the controls panel),
the message inline and the error's status, instead of a redirect or the whole page. The
standings fragment polls itself every 15 s while the tournament is in progress, and carries
an SVG chart of match points after each round (``standings_chart``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_POST

from config.errors import BadInput
from decks.catalogue import cards_by_number
from decks.selectors import decks_of, playable_version
from frontend.errors import page_message, refuse
from tournaments import selectors, services
from tournaments.models import BEFORE_START, STARTED, Match, ResultLog, Status, Tournament
from tournaments.services import exports
from tournaments.services.common import is_organiser
from tournaments.services.registration import SIDE_ARMIES
from tournaments.standings import TIEBREAKER_NAMES

from .online import countdown_text, match_games
from .standings_chart import standings_chart

TEMPLATES = "frontend/tournaments/"
UPCOMING = tuple(BEFORE_START)
FINISHED = (Status.FINISHED, Status.CANCELLED)
SIDE_LABELS = {"french_version": "French", "british_version": "British",
               "prussian_version": "Prussian"}
FIGURE_NAMES = {"match_points": "Match points", "mw": "Match-win %", **TIEBREAKER_NAMES}
PERCENT = {"mw", "omw", "gw", "ogw"}
RESULT_CHOICES = [("french", "French won"), ("allied", "Allied won"), ("draw", "Draw")]
CHART_TOP = 8  # players drawn in the standings chart


# --- helpers shared with the organiser's pages ---------------------------------------------

def get_tournament(pk) -> Tournament:
    try:
        return selectors.tournament(pk)
    except services.NotFound as exc:
        raise Http404(exc.message) from None


def posted_result(data) -> dict:
    """A result form -> the service's result shape (the service checks it)."""
    if data.get("double_loss"):
        return {"double_loss": True}
    if data.get("result"):
        return {"result": data["result"]}
    if data.get("game1") or data.get("game2"):  # two-game match: one select per game
        return {"games": [data.get("game1", ""), data.get("game2", "")]}
    return {k: data.get(k, "") for k in ("french_games", "allied_games", "draws")
            if data.get(k, "") != ""}


def result_text(m: Match) -> str:
    """A match's score as players read it: 'French won', '1-1', 'Bye', or '' (no result)."""
    if m.is_bye:
        return "Bye"
    if m.state != Match.State.SETTLED:
        return ""
    if m.double_loss:
        return "Double loss"
    if m.tournament.games_per_match == 1:
        if m.draws:
            return "Draw"
        return "French won" if (m.french_games or 0) > (m.allied_games or 0) else "Allied won"
    score = f"{m.french_games}-{m.allied_games}"
    score = f"{score}-{m.draws}" if m.draws else score
    return f"{score} ({games_text(m, m.games)})" if m.games else score


def games_text(m: Match, games) -> str:
    """Per-game outcomes of a two-game match as players read them: 'game 1: ney won, game 2:
    draw' (outcomes name the players by the match's listing)."""
    names = {"french": m.french.user.username, "allied": m.allied.user.username if m.allied
             else ""}
    return ", ".join(f"game {k}: {'draw' if g == 'draw' else names.get(g, g) + ' won'}"
                     for k, g in enumerate(games or (), start=1))


def is_htmx(request: HttpRequest) -> bool:
    """An htmx request wants a fragment (a history restore wants the whole page)."""
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def page_or_fragment(request: HttpRequest, template: str, partial: str, context: dict,
                     status: int = 200) -> HttpResponse:
    """The page, or for htmx only its ``partial`` (``{% partialdef %}`` in the template), with
    ``oob`` set so that the partial may also swap the header's status line out of band: one
    template, one URL, with or without JavaScript."""
    if is_htmx(request):
        response = render(request, f"{template}#{partial}", {**context, "oob": True},
                          status=status)
    else:
        response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def tournament_context(request: HttpRequest, t: Tournament, **extra) -> dict:
    """What every tournament page's header and tabs need."""
    return {"t": t, "organiser": is_organiser(t, request.user),
            "mine": selectors.entry_of(t, request.user), **extra}


# --- list and detail -----------------------------------------------------------------------

def tournament_list(request: HttpRequest) -> HttpResponse:
    groups = {"upcoming": [], "running": [], "finished": []}
    for t in selectors.tournaments()[:300]:
        key = ("upcoming" if t.status in UPCOMING else
               "running" if t.status in STARTED else "finished")
        groups[key].append(t)
    return render(request, TEMPLATES + "list.html", {"groups": [
        ("upcoming", "Upcoming", groups["upcoming"]),
        ("running", "Running", groups["running"]),
        ("finished", "Finished", groups["finished"]),
    ]})


def detail(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_tournament(pk)
    players = []
    for entry in selectors.entries(t):
        players.append({"entry": entry,
                        "lists_visible": selectors.can_see_lists(t, request.user, entry)})
    rounds = list(selectors.rounds(t))
    current = next((r for r in rounds if r.number == t.current_round), None)
    return render(request, TEMPLATES + "detail.html", tournament_context(
        request, t, tab="overview", players=players, current=current,
        recommended=services.recommended_rounds(max(t.players, 2)),
        sides=[SIDE_LABELS[s] for s in services.sides_needed(t.battle)] if t.battle else [],
        registration_open=selectors.registration_open(t),
        tiebreakers=[TIEBREAKER_NAMES.get(k, k) for k in t.tiebreaker_order],
    ))


# --- registration, check-in, withdrawal ----------------------------------------------------

def _deck_choices(user, battle: str, army: str) -> list[dict]:
    """The user's decks for this army and battle, each with its playable (latest valid)
    version; the service checks everything else on registration."""
    choices = []
    for deck in decks_of(user).filter(army=army, battle=battle):
        version = playable_version(deck)
        choices.append({"deck": deck, "version": version})
    return choices


@login_required
def register(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_tournament(pk)
    sides = services.sides_needed(t.battle) if t.battle else []  # another game: no deck
    error, problems, status = "", [], 200
    chosen = {side: request.POST.get(side, "") for side in sides}
    if request.method == "POST":
        try:
            services.register(t.pk, request.user, club=request.POST.get("club", ""),
                              **{side: chosen[side] or None for side in sides})
        except services.TournamentError as exc:
            refuse(exc)
            error, problems, status = page_message(exc), exc.extra.get("problems", []), exc.status
        else:
            messages.success(request, f"You are registered in {t.name}.")
            return redirect("tournament", pk=t.pk)
    fields = [{"name": side, "label": SIDE_LABELS[side], "chosen": chosen[side],
               "choices": _deck_choices(request.user, t.battle, SIDE_ARMIES[side])}
              for side in sides]
    return render(request, TEMPLATES + "register.html", tournament_context(
        request, t, tab="overview", fields=fields, error=error, problems=problems,
        club=request.POST.get("club", "")), status=status)


def _player_action(request: HttpRequest, pk: int, action, done: str) -> HttpResponse:
    t = get_tournament(pk)
    try:
        action(t.pk, request.user)
    except services.TournamentError as exc:
        refuse(exc)
        messages.error(request, page_message(exc))
    else:
        messages.success(request, done)
    return redirect("tournament", pk=t.pk)


@login_required
@require_POST
def check_in(request: HttpRequest, pk: int) -> HttpResponse:
    return _player_action(request, pk, services.check_in, "You are checked in.")


@login_required
@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """Before the start: leave; after it: drop (the service decides which)."""
    return _player_action(request, pk, services.withdraw, "You have left the tournament.")


# --- my match ------------------------------------------------------------------------------

@login_required
def my_match(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_tournament(pk)
    entry = selectors.entry_of(t, request.user)
    error, notice, status = "", "", 200
    if request.method == "POST":
        match_id = request.POST.get("match", "")
        try:
            services.report_result(match_id, request.user, posted_result(request.POST))
        except services.TournamentError as exc:
            refuse(exc)
            error, status = page_message(exc), exc.status
        else:
            if not is_htmx(request):
                messages.success(request, "Your report is in.")
                return redirect("tournament-my-match", pk=t.pk)
            notice = "Your report is in."  # htmx: the card again, with the report
    m = selectors.current_match(t, request.user)  # after the report: its new state
    context = tournament_context(request, t, tab="my-match", m=m, entry=entry, error=error,
                                 notice=notice, result_choices=_result_choices(t))
    if m is not None and entry is not None:
        mine_french = m.french_id == entry.pk
        opponent = m.allied if mine_french else m.french
        my_report = m.reports.filter(entry=entry).first()
        context.update(
            my_side="French" if mine_french else "Allied", opponent=opponent,
            my_report=my_report, result=result_text(m),
            my_report_games=games_text(m, my_report.games) if my_report else "",
            source=dict(ResultLog.Source.choices).get(m.source, m.source),
            opponent_lists=opponent is not None and selectors.can_see_lists(
                t, request.user, opponent),
            # online: the battles report the result; no hand reporting (issue 12)
            can_report=selectors.can_report(t, m, my_report) and not t.online,
            battles=match_games(m, request.user) if t.online else [],
            countdown=countdown_text(m.round.ends_at, timezone.now()),
        )
    return page_or_fragment(request, TEMPLATES + "my_match.html", "card", context, status)


def _result_choices(t: Tournament) -> list[tuple[str, str]]:
    return [c for c in RESULT_CHOICES if c[0] != "draw" or t.draws_allowed]


# --- pairings, standings, deck lists -------------------------------------------------------

PAIRINGS_PAGE = 200  # tables of a pairings page (issue 31: 2,048 tables were one page)


def pairings(request: HttpRequest, pk: int, number: int | None = None) -> HttpResponse:
    t = get_tournament(pk)
    rounds = list(selectors.rounds(t))
    rnd, matches, page, pages = None, [], 1, 1
    if number is None and rounds:
        number = t.current_round or rounds[-1].number
    if number is not None:
        # the round and its number of tables from the rounds already read (no query more)
        rnd = next((r for r in rounds if str(r.number) == str(number)), None)
        if rnd is None:
            raise Http404(f"round {number} is not paired")
        pages = max(1, -(-rnd.matches_total // PAIRINGS_PAGE))
        raw = request.GET.get("page") or "1"
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= pages:
            raise BadRequest(f"page: a whole number from 1 to {pages}")
        page = int(raw)
        matches = [{"m": m, "result": result_text(m)}
                   for m in selectors.pairings_page(t, rnd, (page - 1) * PAIRINGS_PAGE,
                                                    page * PAIRINGS_PAGE)]
    return render(request, TEMPLATES + "pairings.html", tournament_context(
        request, t, tab="pairings", rounds=rounds, rnd=rnd, matches=matches, page=page,
        pages=pages))


def _standings(t: Tournament, request: HttpRequest) -> dict:
    """A page of the standings (``?page=``, or ``?find=me``: the page with my row)."""
    find = request.GET.get("find", "")
    if find == "me" and request.user.is_authenticated:
        find = request.user.username
    try:
        table = selectors.standings(t, request.GET.get("round"))
        return selectors.standings_page(table, request.GET.get("page"),
                                        request.GET.get("limit"), find)
    except services.NotFound as exc:
        raise Http404(exc.message) from None
    except BadInput as exc:
        raise BadRequest(exc.message) from None


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_tournament(pk)
    table = _standings(t, request)
    order = table["tiebreakers"]
    rows = [{**row, "tiebreak_values": [_figure(k, row["tiebreaks"].get(k)) for k in order]}
            for row in table["rows"]]
    chosen = request.GET.get("round") not in (None, "")
    return page_or_fragment(request, TEMPLATES + "standings.html", "live", tournament_context(
        request, t, tab="standings", table=table, rows=rows, snapshots=_snapshot_rounds(t),
        tiebreak_names=[(k, TIEBREAKER_NAMES[k]) for k in order],
        chart=_chart(t, table["round"]), chart_top=CHART_TOP,
        # the latest standings refresh themselves (htmx) while the tournament is in progress
        poll=t.status in STARTED and not chosen))


def _chart(t: Tournament, through_round: int) -> str:
    """Match points after each round up to ``through_round``: the SVG (escaped text)."""
    rounds, players = selectors.chart_rounds(t, through_round, CHART_TOP)
    return standings_chart(rounds, top=CHART_TOP, players=players)


def _figure(key: str, value) -> str:
    if value is None:
        return "–"
    return f"{value * 100:.2f}%" if key in PERCENT else str(value)


def _snapshot_rounds(t: Tournament) -> list[int]:
    return list(t.snapshots.order_by("round_number").values_list("round_number", flat=True))


def _how_terms(key: str, terms, names: dict) -> list[dict]:
    """A figure's terms for display: opponents named, percentages as such."""
    if isinstance(terms, dict):
        return [{"label": k.replace("_", " "), "value": v} for k, v in terms.items()]
    return [{"label": f"round {term.get('round')}: "
                      f"{names.get(str(term.get('opponent')), term.get('opponent'))}",
             "value": _figure(key, term.get("value"))} for term in terms or ()]


def how_computed(request: HttpRequest, pk: int) -> HttpResponse:
    """Every figure of every row: its formula, the terms it used and its value."""
    t = get_tournament(pk)
    table = _standings(t, request)
    names = {row["player"]: row["name"] for row in table["rows"]}
    rows = []
    for row in table["rows"]:
        figures = [{"key": key, "name": FIGURE_NAMES.get(key, key),
                    "formula": how.get("formula", ""), "value": _figure(key, how.get("value")),
                    "terms": _how_terms(key, how.get("terms"), names)}
                   for key, how in row["how"].items()]
        rows.append({"row": row, "figures": figures})
    return render(request, TEMPLATES + "how.html", tournament_context(
        request, t, tab="standings", table=table, rows=rows, snapshots=_snapshot_rounds(t)))


def deck_lists(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """A player's deck lists, only when ``selectors.deck_lists`` lets this viewer see them."""
    t = get_tournament(pk)
    entry = (t.entries.select_related("user", "french_version__deck", "british_version__deck",
                                      "prussian_version__deck").filter(pk=entry_id).first())
    if entry is None:
        raise Http404("no such player in this tournament")
    try:
        decks = selectors.deck_lists(t, request.user, entry)
    except services.TournamentError as exc:
        refuse(exc)
        raise
    cards = cards_by_number()
    lists = []
    for army, deck in decks.items():
        rows = [{"number": n, "count": c, "name": cards.get(n, {}).get("name", f"#{n}")}
                for n, c, *_ in deck["entries"]]
        lists.append({"army": army, **deck, "rows": rows})
    return render(request, TEMPLATES + "deck_lists.html", tournament_context(
        request, t, tab="overview", entry=entry, lists=lists))


# --- exports -------------------------------------------------------------------------------

EXPORTS = {
    "standings.csv": (exports.standings_csv, "text/csv"),
    "pairings.csv": (exports.pairings_csv, "text/csv"),
    "tournament.trf": (exports.trf, "text/plain"),
}


def export(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    t = get_tournament(pk)
    if name not in EXPORTS:
        raise Http404("no such export")
    build, content_type = EXPORTS[name]
    response = HttpResponse(build(t), content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="t{t.pk}-{name}"'
    return response
