"""Pages for the collection, the want list, starter decks and trades.

They call the same services as the API; every rule lives there. With htmx, the quick add and
remove buttons swap just the card's row and the completion figures.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from cards.collection import csv as csv_io
from cards.collection import services as svc
from cards.collection import trades
from cards.models import Army, CardType, Finish, StarterDeck
from decks.selectors import decks_using_cards
from frontend.errors import page_message

PAGE_SIZE = 50


def _back(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()},
                                                  request.is_secure()):
        return target
    return reverse(default)


def _completion_rows(done: dict) -> dict:
    """Completion figures shaped for the template: label, cards, printings."""
    armies = dict(Army.choices)
    types = dict(CardType.choices)
    return {
        "overall": done,
        "armies": [{"key": k, "label": armies[k], **v} for k, v in done["by_army"].items()],
        "types": [{"key": k, "label": types[k], **v} for k, v in done["by_type"].items()],
        "finishes": [{"key": k, "label": svc.FINISH_LABELS[k], **v}
                     for k, v in done["by_finish"].items()],
    }


def _rows(user, cards) -> list[dict]:
    """Collection rows, each with the user's decks whose latest version uses the card."""
    rows = svc.grid_rows(user, cards)
    using = decks_using_cards(user)
    for row in rows:
        row["decks"] = using.get(row["card"].number, [])
        row["card_url"] = reverse("card-detail", args=[row["card"].number])
    return rows


def _row_context(request: HttpRequest) -> dict:
    """What every row's forms share, computed once per page rather than in each of its
    up to 300 forms (a URL reverse, a CSRF token and the page's address each): rendering
    the rows was most of the page's cost."""
    return {
        "change_url": reverse("collection-change"),
        "csrf_input": format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">',
                                  get_token(request)),
        "next_url": request.get_full_path(),
    }


@login_required
def collection(request: HttpRequest) -> HttpResponse:
    filters = {key: request.GET.get(key, "").strip() for key in ("army", "type", "owned", "q")}
    try:
        cards = svc.collection_grid(request.user, **filters)
    except svc.ServiceError as exc:
        messages.error(request, page_message(exc))
        filters = {key: "" for key in filters}
        cards = svc.collection_grid(request.user)
    page = Paginator(cards, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "frontend/collection/collection.html", {
        "rows": _rows(request.user, page.object_list),
        "page": page,
        "query": query.urlencode(),
        "filters": filters,
        "armies": Army.choices,
        "types": CardType.choices,
        "completion": _completion_rows(svc.completion(request.user)),
        **_row_context(request),
    })


@login_required
@require_POST
def collection_change(request: HttpRequest) -> HttpResponse:
    """Quick add (+1) / remove (-1) / set trade quantity for one card and finish."""
    number, finish = request.POST.get("number", ""), request.POST.get("finish", "")
    op = request.POST.get("op", "")
    error = ""
    try:
        if op == "add":
            svc.add_copies(request.user, number, finish, request.POST.get("count", 1))
        elif op == "remove":
            svc.remove_copies(request.user, number, finish, request.POST.get("count", 1))
        elif op == "trade":
            svc.set_trade_quantity(request.user, number, finish,
                                   request.POST.get("trade_quantity", ""))
        else:
            raise svc.ServiceError(f"unknown change {op!r}")
    except svc.ServiceError as exc:
        error = page_message(exc)
    if not request.headers.get("HX-Request"):
        if error:
            messages.error(request, error)
        return redirect(_back(request, "collection"))
    try:
        card = svc.get_card(number)
    except svc.ServiceError:
        return HttpResponse(format_html('<p class="error" role="alert">{}</p>', error),
                            status=400)
    response = render(request, "frontend/collection/_row.html", {
        "row": _rows(request.user, [card])[0], "error": error, **_row_context(request)})
    if not error:
        response["HX-Trigger"] = "collection-changed"  # the completion figures reload
    return response


@login_required
def collection_completion(request: HttpRequest) -> HttpResponse:
    """The completion figures alone (reloaded by htmx after a quick change)."""
    return render(request, "frontend/collection/_completion.html", {
        "completion": _completion_rows(svc.completion(request.user))})


@login_required
def collection_import(request: HttpRequest) -> HttpResponse:
    problems: list[str] = []
    mode = request.POST.get("mode", "add")
    if request.method == "POST":
        upload = request.FILES.get("file")
        content = (upload.read(csv_io.MAX_BYTES + 1) if upload
                   else request.POST.get("csv", "").encode("utf-8", "surrogatepass"))
        try:
            if not content.strip():
                raise svc.ServiceError("choose a CSV file or paste its text")
            report = csv_io.import_csv(request.user, content, mode)
        except csv_io.CsvError as exc:
            problems = exc.problems
        except svc.ServiceError as exc:
            problems = [page_message(exc)]
        else:
            messages.success(request, f"Imported {report.rows} rows ({report.copies} copies,"
                                      f" {mode} mode): you now have {report.entries_after}"
                                      " card printings.")
            return redirect("collection-import")
    return render(request, "frontend/collection/import.html", {
        "problems": problems, "mode": mode, "columns": ",".join(csv_io.COLUMNS),
        "max_rows": csv_io.MAX_ROWS,
    })


@login_required
def collection_export(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(csv_io.export_csv(request.user),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="eagles-collection.csv"'
    return response


@login_required
def missing(request: HttpRequest) -> HttpResponse:
    army = request.GET.get("army", "")
    try:
        cards = svc.missing_cards(request.user, army)
    except svc.ServiceError as exc:
        messages.error(request, page_message(exc))
        army, cards = "", svc.missing_cards(request.user)
    page = Paginator(cards, 100).get_page(request.GET.get("page"))
    return render(request, "frontend/collection/missing.html", {
        "page": page, "army": army, "armies": Army.choices,
        "query": f"army={army}" if army else ""})


@login_required
def wants(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        try:
            if request.POST.get("op") == "remove":
                svc.remove_want(request.user, _int(request.POST.get("want_id")))
                messages.success(request, "Removed from your want list.")
            else:
                want = svc.set_want(request.user, request.POST.get("number", ""),
                                    request.POST.get("finish", ""),
                                    request.POST.get("quantity", "1"))
                if want:
                    messages.success(request, f"Want list: {want.quantity} × #{want.card.number}"
                                              f" {want.card.name}.")
        except svc.ServiceError as exc:
            messages.error(request, page_message(exc))
        return redirect("wants")
    return render(request, "frontend/collection/wants.html", {
        "rows": svc.wants(request.user), "finishes": Finish.choices})


def _int(value) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() and len(value) < 18 else None


@login_required
def starter(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        try:
            deck = svc.open_starter_deck(request.user)
        except svc.ServiceError as exc:
            messages.error(request, page_message(exc))
        else:
            messages.success(request, f"You opened a starter deck (seed {deck.seed}): 60 cards"
                                      " were added to your collection.")
        return redirect("starter")
    decks = list(StarterDeck.objects.filter(user=request.user).order_by("-opened_at", "-id"))
    return render(request, "frontend/collection/starter.html", {
        "latest": decks[0] if decks else None,
        "summary": svc.starter_summary(decks[0]) if decks else None,
        "decks": decks})


# --- Trades -------------------------------------------------------------------------------

@login_required
def trade_list(request: HttpRequest) -> HttpResponse:
    form = {"recipient": "", "give": "", "receive": "", "message": ""}
    error = ""
    if request.method == "POST":
        form = {key: request.POST.get(key, "") for key in form}
        try:
            trade = trades.offer_trade(request.user, form["recipient"],
                                       trades.parse_lines_text(form["give"], "give"),
                                       trades.parse_lines_text(form["receive"], "receive"),
                                       form["message"])
        except svc.ServiceError as exc:
            error = page_message(exc)
        else:
            messages.success(request, f"Trade #{trade.id} offered to"
                                      f" {trade.recipient.username}.")
            return redirect("trades")
    elif request.GET.get("to"):
        form["recipient"] = request.GET["to"]
        form["give"] = request.GET.get("give", "")
        form["receive"] = request.GET.get("receive", "")
    mine = [trades.trade_summary(t) for t in trades.trades_for(request.user)[:100]]
    for t in mine:
        t["incoming"] = t["recipient"] == request.user.username
    return render(request, "frontend/trades/trades.html", {
        "open": [t for t in mine if t["status"] == "offered"],
        "closed": [t for t in mine if t["status"] != "offered"],
        "suggestions": [s.as_dict() for s in trades.suggest_partners(request.user)],
        "form": form, "error": error}, status=400 if error else 200)


@login_required
@require_POST
def trade_action(request: HttpRequest, trade_id: int, action: str) -> HttpResponse:
    service = {"accept": trades.accept_trade, "decline": trades.decline_trade,
               "cancel": trades.cancel_trade}.get(action)
    try:
        if service is None:
            raise svc.NotFound("no such action")
        trade = service(request.user, trade_id)
    except svc.ServiceError as exc:
        messages.error(request, page_message(exc))
    else:
        messages.success(request, f"Trade #{trade.id} {trade.status}.")
    return redirect("trades")
