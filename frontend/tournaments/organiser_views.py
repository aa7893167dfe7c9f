"""The organiser's tournament pages: the create form, the controls (start, pause/resume, pair
the next round, drop a player, settle disputes, publish lists, exports) and a match's page
with its result log, where the organiser settles or corrects a result with a reason.

Every check is the service's: a user who is not the organiser gets the service's
``NotAllowed`` as a 403, and nothing changes.

Each control posts to its own URL, with or without htmx: without, the answer is a redirect
(or the page again with the refusal); with ``HX-Request``, the controls panel or the match
card alone, with the done message or the refusal inline (and the refusal's 400/409 status),
the page's status line swapped out of band.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from cards.models import Battle
from frontend.errors import page_message, refuse
from tournaments import selectors, services
from tournaments.models import (
    DEFAULT_TIEBREAKERS,
    TIEBREAKERS,
    DealPool,
    DeckKind,
    Format,
    Match,
    PairingMode,
    Report,
)
from tournaments.services.common import require_organiser
from tournaments.standings import TIEBREAKER_NAMES

from .online import match_games
from .views import (
    TEMPLATES,
    games_text,
    get_tournament,
    is_htmx,
    page_or_fragment,
    posted_result,
    result_text,
    tournament_context,
)

TIME_KINDS = [("", "Untimed"), ("live", "Live: a clock per player"),
              ("correspondence", "Correspondence: days per turn")]
TIEBREAK_CHOICES = [("", "—")] + [(k, TIEBREAKER_NAMES[k]) for k in TIEBREAKERS]
DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class TournamentForm(forms.Form):
    """The settings as a form. Only shapes are read here (numbers, dates); the service
    (``services.create_tournament``) checks every value and their consistency."""

    name = forms.CharField(max_length=120)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False,
                                  max_length=5000)
    # No default battle (issue 28): the organiser chooses one, never Waterloo unasked.
    battle = forms.ChoiceField(choices=[("", "Choose a battle…"), *Battle.choices],
                               error_messages={"required": "Choose the battle to be fought."})
    deck_kind = forms.ChoiceField(choices=DeckKind.choices, label="Decks",
                                  initial=DeckKind.DEALT,
                                  help_text="Dealt: no deck is registered, each battle deals "
                                            "D × scale cards from the pool below (2.0). "
                                            "Custom: a saved custom deck per army at this "
                                            "scale, BP × scale (15.0).")
    deal_pool = forms.ChoiceField(choices=DealPool.choices, initial=DealPool.SET,
                                  required=False, label="Dealt from")
    deal_historical = forms.BooleanField(required=False,
                                         label="Dealt: historical cards only (2.0 note)")
    scale = forms.CharField(max_length=12, initial="1",
                            help_text="A fraction: 1, 1/2, 2/3…")
    format = forms.ChoiceField(choices=Format.choices)
    top_cut = forms.IntegerField(required=False, min_value=2, label="Top cut",
                                 help_text="Swiss with a top cut: players in it (2, 4, 8…).")
    rounds = forms.IntegerField(required=False, min_value=1, label="Swiss rounds",
                                help_text="Empty: the recommended number for the field "
                                          "(⌈log₂ players⌉).")
    round_minutes = forms.IntegerField(min_value=1, initial=50, label="Round length (minutes)")
    break_minutes = forms.IntegerField(min_value=0, initial=0, required=False,
                                       label="Break between rounds (minutes)")
    pairing_mode = forms.ChoiceField(choices=PairingMode.choices, label="Next round is paired",
                                     initial=PairingMode.ON_COMPLETION)
    tiebreaker_1 = forms.ChoiceField(choices=TIEBREAK_CHOICES, required=False,
                                     label="1st tiebreaker", initial=DEFAULT_TIEBREAKERS[0])
    tiebreaker_2 = forms.ChoiceField(choices=TIEBREAK_CHOICES, required=False,
                                     label="2nd tiebreaker", initial=DEFAULT_TIEBREAKERS[1])
    tiebreaker_3 = forms.ChoiceField(choices=TIEBREAK_CHOICES, required=False,
                                     label="3rd tiebreaker", initial=DEFAULT_TIEBREAKERS[2])
    tiebreaker_4 = forms.ChoiceField(choices=TIEBREAK_CHOICES, required=False,
                                     label="4th tiebreaker")
    tiebreaker_5 = forms.ChoiceField(choices=TIEBREAK_CHOICES, required=False,
                                     label="5th tiebreaker")
    registration_closes_at = forms.DateTimeField(required=False, widget=DATETIME,
                                                 label="Registration closes (UTC)")
    check_in_opens_at = forms.DateTimeField(required=False, widget=DATETIME,
                                            label="Check-in opens (UTC)",
                                            help_text="Empty: no check-in.")
    starts_at = forms.DateTimeField(required=False, widget=DATETIME, label="Starts (UTC)",
                                    help_text="Check-in closes, round 1 is paired. Empty: "
                                              "you start it by hand.")
    max_players = forms.IntegerField(required=False, min_value=2, label="Most players")
    late_entry = forms.BooleanField(required=False, label="Late entries (Swiss, first half)")
    online = forms.BooleanField(required=False, label="Played on the site",
                                help_text="Each match's battles are created when its round is "
                                          "paired and report the result when they end. "
                                          "Unticked: over the table, players report.")
    time_kind = forms.ChoiceField(choices=TIME_KINDS, required=False, initial="",
                                  label="Time control (online)")
    time_base_minutes = forms.IntegerField(required=False, min_value=1,
                                           label="Live: minutes per player")
    time_increment_seconds = forms.IntegerField(required=False, min_value=0,
                                                label="Live: seconds added per turn")
    time_days = forms.IntegerField(required=False, min_value=1,
                                   label="Correspondence: days per turn")
    webhook_url = forms.URLField(required=False, label="Webhook URL",
                                 help_text="Round paired, round finished and tournament "
                                           "finished are POSTed here, signed.")

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def service_fields(self) -> dict:
        data = self.cleaned_data
        fields = {k: data[k] for k in (
            "name", "description", "battle", "deck_kind", "deal_pool", "deal_historical",
            "scale", "format", "top_cut",
            "rounds", "pairing_mode", "registration_closes_at", "check_in_opens_at",
            "starts_at", "max_players", "late_entry", "webhook_url")}
        fields["deal_pool"] = fields["deal_pool"] or DealPool.SET
        fields["round_seconds"] = data["round_minutes"] * 60
        fields["break_seconds"] = (data["break_minutes"] or 0) * 60
        fields["tiebreakers"] = [data[f"tiebreaker_{i}"] for i in range(1, 6)
                                 if data[f"tiebreaker_{i}"]]
        fields["online"] = bool(data.get("online"))
        fields["time_control"] = self.time_control()
        return fields

    def time_control(self) -> dict:
        """The time control's fields -> its JSON (the service checks the values)."""
        data, kind = self.cleaned_data, self.cleaned_data.get("time_kind") or ""
        if kind == "live":
            return {"kind": "live", "base": (data.get("time_base_minutes") or 0) * 60,
                    "increment": data.get("time_increment_seconds") or 0}
        if kind == "correspondence":
            return {"kind": "correspondence", "days": data.get("time_days") or 0}
        return {}


@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    error, status = "", 200
    if request.method == "POST":
        if form.is_valid():
            try:
                t = services.create_tournament(request.user, **form.service_fields())
            except services.TournamentError as exc:
                error, status = page_message(exc), exc.status
            else:
                messages.success(request, f"{t.name} is open for registration.")
                return redirect("tournament", pk=t.pk)
        else:
            status = 400
    return render(request, TEMPLATES + "create.html", {"form": form, "error": error},
                  status=status)


# --- controls ------------------------------------------------------------------------------

def _organiser_tournament(request: HttpRequest, pk: int):
    t = get_tournament(pk)
    try:
        require_organiser(t, request.user)
    except services.TournamentError as exc:
        refuse(exc)
    return t


def _manage_page(request: HttpRequest, t, *, error: str = "", notice: str = "",
                 status: int = 200):
    """The controls page, or for htmx its panel (``manage.html#panel``)."""
    t = get_tournament(t.pk)  # fresh figures after an action
    rounds = list(selectors.rounds(t))
    current = next((r for r in rounds if r.number == t.current_round), None)
    disputes = [{"m": m, "reports": report_rows(t, m)} for m in selectors.disputes(t)]
    return page_or_fragment(request, TEMPLATES + "manage.html", "panel", tournament_context(
        request, t, tab="manage", error=error, notice=notice, rounds=rounds, current=current,
        disputes=disputes, active=[e for e in selectors.entries(t) if not e.dropped],
        round_complete=selectors.round_complete(current), rounds_left=selectors.rounds_left(t),
        result_choices=_organiser_result_choices(t),
        # the current round's pairings: "Start now and pair round 1" answers with them
        pairings=list(selectors.pairings(current)) if current else [],
    ), status)


def report_text(t, m: Match, r: Report) -> str:
    """One player's report as the organiser reads it. One-game matches: 'French 1, Allied 0'
    (', drawn 1'); two-game matches: the totals of the players as listed and each game's
    outcome, '1-1 (game 1: ney won, game 2: blucher won)', so that two reports with the same
    totals but other games are told apart (an old report without per-game outcomes: the
    totals alone)."""
    if t.games_per_match == 1:
        return (f"French {r.french_games}, Allied {r.allied_games}"
                + (f", drawn {r.draws}" if r.draws else ""))
    score = f"{r.french_games}-{r.allied_games}" + (f"-{r.draws}" if r.draws else "")
    return f"{score} ({games_text(m, r.games)})" if r.games else score


def report_rows(t, m: Match) -> list[dict]:
    """The players' reports of ``m`` (``m.reports``, prefetched or not): who and what."""
    names = {m.french_id: m.french.user.username,
             m.allied_id: m.allied.user.username if m.allied else ""}
    return [{"player": names.get(r.entry_id, "?"), "text": report_text(t, m, r)}
            for r in m.reports.all()]


def _organiser_result_choices(t) -> list[tuple[str, str]]:
    choices = [("french", "French won"), ("allied", "Allied won")]
    if t.draws_allowed:
        choices.append(("draw", "Draw"))
    return choices


@login_required
def manage(request: HttpRequest, pk: int) -> HttpResponse:
    return _manage_page(request, _organiser_tournament(request, pk))


ACTIONS = {
    "start": (lambda pk, u, data: services.start_tournament(pk, u),
              "The tournament has started: round 1 is paired."),
    "pause": (lambda pk, u, data: services.pause(pk, u), "Paused: the clock is stopped."),
    "resume": (lambda pk, u, data: services.resume(pk, u), "Resumed."),
    "pair-next": (lambda pk, u, data: services.pair_next_round(pk, u),
                  "The next round is paired."),
    "cancel": (lambda pk, u, data: services.cancel_tournament(pk, u),
               "The tournament is cancelled."),
    "publish-lists": (lambda pk, u, data: services.publish_lists(
        pk, u, data.get("public", "1") == "1"), "Deck list visibility changed."),
    "drop": (lambda pk, u, data: services.drop(pk, u, data.get("entry", "")),
             "The player is dropped."),
}


@login_required
@require_POST
def action(request: HttpRequest, pk: int, name: str) -> HttpResponse:
    t = _organiser_tournament(request, pk)  # the panel shown on a refusal is the organiser's
    if name not in ACTIONS:
        raise Http404("no such control")
    run, done = ACTIONS[name]
    try:
        run(t.pk, request.user, request.POST)
    except services.TournamentError as exc:
        refuse(exc)
        return _manage_page(request, t, error=page_message(exc), status=exc.status)
    if is_htmx(request):
        return _manage_page(request, t, notice=done)
    messages.success(request, done)
    return redirect("tournament-manage", pk=t.pk)


# --- a match: its log; settle and correct ---------------------------------------------------

def _match(pk: int, match_id: int) -> Match:
    try:
        m = selectors.match(match_id)
    except services.NotFound as exc:
        raise Http404(exc.message) from None
    if m.tournament_id != pk:
        raise Http404("no such match in this tournament")
    return m


def match_page(request: HttpRequest, pk: int, match_id: int, *, error: str = "",
               notice: str = "", status: int = 200) -> HttpResponse:
    """A match and its result log, or for htmx its card (``match.html#card``)."""
    t = get_tournament(pk)
    m = _match(t.pk, match_id)
    log = list(selectors.result_log(m))
    for entry in log:  # two-game matches: which player won which game, before and after
        entry.before_games = games_text(m, (entry.before or {}).get("games"))
        entry.after_games = games_text(m, (entry.after or {}).get("games"))
    context = tournament_context(
        request, t, tab="pairings", m=m, result=result_text(m), log=log,
        error=error, notice=notice, result_choices=_organiser_result_choices(t),
        can_settle=selectors.can_settle(t, m), can_correct=selectors.can_correct(m),
        battles=match_games(m, request.user) if t.online else [],
    )
    # the players' reports are the organiser's to see (what each player claimed)
    context["reports"] = report_rows(t, m) if context["organiser"] and not m.is_bye else []
    return page_or_fragment(request, TEMPLATES + "match.html", "card", context, status)


@login_required
@require_POST
def settle_or_correct(request: HttpRequest, pk: int, match_id: int, how: str) -> HttpResponse:
    t = _organiser_tournament(request, pk)
    m = _match(t.pk, match_id)
    result, reason = posted_result(request.POST), request.POST.get("reason", "")
    try:
        if how == "settle":
            services.settle_dispute(m.pk, request.user, result, reason)
        else:
            services.correct_result(m.pk, request.user, result, reason)
    except services.TournamentError as exc:
        refuse(exc)
        if request.POST.get("from") == "manage":
            return _manage_page(request, t, error=page_message(exc), status=exc.status)
        return match_page(request, pk, match_id, error=page_message(exc), status=exc.status)
    done = "Result settled." if how == "settle" else "Result corrected."
    if is_htmx(request):
        if request.POST.get("from") == "manage":
            return _manage_page(request, t, notice=done)
        return match_page(request, pk, match_id, notice=done)
    messages.success(request, done)
    if request.POST.get("from") == "manage":
        return redirect("tournament-manage", pk=t.pk)
    return redirect("tournament-match", pk=t.pk, match_id=m.pk)
