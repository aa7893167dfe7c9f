"""Deck pages: my decks, the builder, history, import, export and the shared read-only page.

Every rule lives in decks (services, checks, exchange) and decks.rules; these views only
read forms and render.

The builder's working list is stateless (``working_list.py``): the unsaved cards live in the
builder form itself. Each edit (add, +, -, remove, a printing or a setting) posts the whole
form; the server applies the one change, re-validates and re-renders the deck panel
(``panel.py``; htmx swaps it; without JavaScript the whole page comes back). Nothing is
stored until Save, which keeps one version; so the history is not flooded with a version per
click, and a reload simply returns to the last saved version.

The deck's name and description (kept on the deck, not on a version) are part of the same form
and are saved with the next version. While the working list, name or description differ from
what was last saved, ``deck-builder.js`` asks before the page is left.
"""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.models import Army, Battle
from decks import checks, exchange, selectors, services
from decks.catalogue import cards_by_number
from decks.inputs import DeckInputError
from decks.models import Deck, DeckKind, DeckPool

from . import panel, working_list
from .forms import DeckSettingsForm, ImportForm

SCALE_CHOICES = [("1", "1 (full)"), ("1/2", "1/2"), ("1/3", "1/3"), ("1/4", "1/4"),
                 ("2/3", "2/3"), ("3/2", "3/2"), ("2", "2")]


def _htmx_partial(request: HttpRequest) -> bool:
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def _own_deck(request: HttpRequest, deck_id: int) -> Deck:
    """The user's own deck; another user's deck is a 404, never a 403 (its id stays secret)."""
    return get_object_or_404(Deck, pk=deck_id, owner=request.user)



# --- My decks ------------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def deck_list(request: HttpRequest) -> HttpResponse:
    form = DeckSettingsForm(request.POST or None, prefix="new")
    error = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            deck = services.create_deck(request.user, name=data["name"], battle=data["battle"],
                                        army=data["army"], kind=data["kind"],
                                        scale=data["scale"], historical=data["historical"],
                                        pool=data["pool"] or DeckPool.COLLECTION)
        except DeckInputError as exc:
            error = panel.describe_input_error(exc)
        else:
            then = ("the battle deals its cards from the pool" if deck.kind == DeckKind.DEALT
                    else "add its cards")
            messages.success(request, f"Deck “{deck.name}” created: {then}.")
            return redirect("deck-builder", deck.pk)
    rows = []
    for deck in selectors.decks_of(request.user):
        latest = deck.latest
        rows.append({"deck": deck, "latest": latest,
                     "backed": (checks.check_version(latest, request.user)
                                .playable_from_collection if latest else None)})
    status = 400 if request.method == "POST" else 200
    return render(request, "frontend/decks/list.html",
                  {"decks": rows, "form": form, "error": error}, status=status)


# --- The builder ---------------------------------------------------------------------------

def _catalogue_context(request: HttpRequest, deck: Deck, params, owned: dict) -> dict:
    """The left column: the catalogue for the deck's army (and battle when historical)."""
    from cards.catalogue.search import QueryError
    from cards.catalogue.selectors import search_cards

    army = params.get("army") if params.get("army") in Army.values else deck.army
    battle = params.get("battle") if params.get("battle") in Battle.values else deck.battle
    if "settings" in params:
        historical = params.get("historical") in ("1", "on", "true")
    else:
        historical = deck.historical
    query = (params.get("q") or "").strip()[:500]
    only_owned = params.get("owned") in ("1", "on", "true")
    filters = {"army": army}
    if historical:
        filters["battle"] = battle
    error = None
    try:
        cards = search_cards(query, **filters)
        if only_owned:
            cards = cards.filter(number__in=[n for n, c in owned.items() if c > 0])
        cards = list(cards)
    except QueryError as exc:
        error = {"message": getattr(exc, "message", str(exc)),
                 "position": getattr(exc, "position", None)}
        cards = []
    return {"cards": [{"card": c, "owned": owned.get(c.number, 0)} for c in cards],
            "query": query, "only_owned": only_owned, "query_error": error,
            "catalogue_army": Army(army).label,
            "catalogue_battle": Battle(battle).label if historical else ""}


def _deck_panel(request: HttpRequest, deck: Deck, rows, settings) -> tuple[dict, dict]:
    """The deck panel's context and the copies free for what it shows: the latest version
    while unchanged, else a new version (``working_list.shown_version``); the one deck check
    (``selectors.free_copies``), as the deck list checks the latest version."""
    shown = working_list.shown_version(rows, deck.latest, settings)
    owned = selectors.free_copies(request.user, shown)
    return panel.panel_context(request, deck, rows, settings, owned, version=shown), owned


def _builder_context(request: HttpRequest, deck: Deck, rows, settings, params) -> dict:
    context, owned = _deck_panel(request, deck, rows, settings)
    context.update(_catalogue_context(request, deck, params, owned))
    context.update({
        "battles": Battle.choices, "armies": Army.choices, "kinds": DeckKind.choices,
        "pools": DeckPool.choices,
        "scales": SCALE_CHOICES, "latest": deck.latest,
        "share_url": (request.build_absolute_uri(reverse("deck-shared", args=[deck.share_token]))
                      if deck.share_token else ""),
    })
    return context


@login_required
@require_http_methods(["GET", "POST"])
def builder(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = _own_deck(request, deck_id)
    if request.method == "GET":
        rows, settings = working_list.version_entries(deck.latest), working_list.deck_settings(deck)
        return render(request, "frontend/decks/builder.html",
                      _builder_context(request, deck, rows, settings, request.GET))

    rows = working_list.posted_entries(request.POST)
    settings = working_list.posted_settings(request.POST, deck)
    if settings["kind"] == DeckKind.DEALT:
        rows = []  # 2.0: nothing to pick; a custom deck turned dealt drops its cards
    op = request.POST.get("op", "")
    if op == "save":
        note = (request.POST.get("note") or "").strip()[:200]
        try:
            version = services.save_version(deck, entries=working_list.as_entries(rows),
                                            note=note, **settings)
        except DeckInputError as exc:  # nothing saved; the form keeps the edits
            message, lines = panel.describe_input_error(exc)
            messages.error(request, " ".join([f"Not saved: {message}.", *lines]))
            context = _builder_context(request, deck, rows, settings, request.POST)
            context["save_error"] = message
            return render(request, "frontend/decks/builder.html", context, status=400)
        state = "valid" if version.valid else "a draft with problems"
        messages.success(request, f"Saved version {version.number} ({state}).")
        return redirect("deck-builder", deck.pk)

    rows = working_list.apply_edit(rows, op)
    if request.headers.get("HX-Trigger-Name") == "kind":
        # A dealt deck and a custom deck are different pages (pool vs card picking): the
        # whole builder form is redrawn (the page selects #deck-form from it).
        response = render(request, "frontend/decks/builder.html",
                          _builder_context(request, deck, rows, settings, request.POST))
    elif _htmx_partial(request):
        context, _owned = _deck_panel(request, deck, rows, settings)
        context["oob"] = True  # also refresh the state shown beside the Save button
        response = render(request, "frontend/decks/_deck_panel.html", context)
        if request.headers.get("HX-Trigger-Name") in ("army", "battle", "historical"):
            response["HX-Trigger"] = "deck-settings-changed"
    else:  # no JavaScript: the whole page, with the edit applied and the search kept
        response = render(request, "frontend/decks/builder.html",
                          _builder_context(request, deck, rows, settings, request.POST))
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_GET
def builder_cards(request: HttpRequest, deck_id: int) -> HttpResponse:
    """The builder's catalogue column alone (htmx search and "only cards I own"): the copies
    free for the latest saved version (the working list is not posted here)."""
    deck = _own_deck(request, deck_id)
    owned = selectors.free_copies(request.user, deck.latest)
    context = {"deck": deck, **_catalogue_context(request, deck, request.GET, owned)}
    return render(request, "frontend/decks/_catalogue.html", context)


@login_required
@require_POST
def add_to_wants(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = _own_deck(request, deck_id)
    try:
        added = services.add_missing_to_wants(request.user, deck)
    except DeckInputError as exc:
        messages.error(request, panel.describe_input_error(exc)[0])
        return redirect("deck-builder", deck.pk)
    total = sum(count for _, count in added)
    if total:
        records = cards_by_number()
        names = ", ".join(f"{records.get(n, {}).get('name', f'#{n}')} ×{c}"
                          for n, c in added if c)
        messages.success(request, f"Added {total} missing card{'s' if total != 1 else ''} to "
                                  f"your want list: {names}.")
    else:
        messages.info(request, "Nothing to add: your collection already covers this deck.")
    return redirect("deck-builder", deck.pk)


def _muster_context(version, seed) -> dict:
    if version is None:
        return {"muster": None}
    dealt = services.sample_muster(version, seed=seed)
    records = cards_by_number()
    printings = {int(e[0]): (e[2] if len(e) > 2 else None) for e in version.entries}
    return {"muster": [{"number": n, "name": records.get(n, {}).get("name", f"#{n}"),
                        "finish": printings.get(n) or "bronze"} for n in dealt["muster"]],
            "seed": dealt["seed"], "reinforcements_left": dealt["reinforcements_left"],
            "version": version}


@login_required
@require_http_methods(["GET", "POST"])
def sample_muster(request: HttpRequest, deck_id: int) -> HttpResponse:
    """Deal a random muster from the latest saved version (re-deal: a new seed)."""
    deck = _own_deck(request, deck_id)
    seed = None
    raw = request.GET.get("seed", "").strip() if request.method == "GET" else ""
    if raw.isascii() and raw.isdigit() and len(raw) <= 18:
        seed = int(raw)
    if seed is None:
        seed = secrets.randbelow(2**31)
    context = {"deck": deck, **_muster_context(deck.latest, seed)}
    template = ("frontend/decks/_muster.html" if _htmx_partial(request)
                else "frontend/decks/muster.html")
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@login_required
@require_POST
def share(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = _own_deck(request, deck_id)
    if request.POST.get("share") == "on":
        services.share(deck)
        messages.success(request, "Sharing on: anyone with the link can see this deck.")
    else:
        services.unshare(deck)
        messages.success(request, "Sharing off: the old link no longer works.")
    return redirect("deck-builder", deck.pk)


@login_required
@require_POST
def delete(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = _own_deck(request, deck_id)
    name = deck.name
    try:
        services.delete_deck(deck)
    except DeckInputError as exc:
        messages.error(request, panel.describe_input_error(exc)[0])
        return redirect("deck-builder", deck.pk)
    messages.success(request, f"Deck “{name}” deleted.")
    return redirect("decks")


# --- History, export, import ---------------------------------------------------------------

@login_required
@require_GET
def history(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = _own_deck(request, deck_id)
    records = cards_by_number()

    def named(pairs):
        return [{"number": n, "count": c, "name": records.get(n, {}).get("name", f"#{n}")}
                for n, c in pairs or ()]

    versions = []
    for item in selectors.history(deck):
        item = dict(item)
        item["added_cards"] = named(item.get("added"))
        item["removed_cards"] = named(item.get("removed"))
        versions.append(item)
    return render(request, "frontend/decks/history.html", {"deck": deck, "versions": versions})


@login_required
@require_GET
def export(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = _own_deck(request, deck_id)
    version = deck.latest
    if version is None:
        raise Http404("this deck has no saved version")
    text = exchange.export_decklist(version)
    if request.GET.get("download"):
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        filename = (slugify(deck.name) or "deck") + f"-v{version.number}.txt"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    return render(request, "frontend/decks/export.html",
                  {"deck": deck, "version": version, "text": text,
                   "code": exchange.deck_code(version)})


@login_required
@require_http_methods(["GET", "POST"])
def import_deck(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, initial={"source": "text"})
    error = None
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:  # a deck code is recognised whatever the selector says
                deck = exchange.import_pasted(
                    request.user, text=data["text"], name=data["name"],
                    as_code=data["source"] == "code", battle=data["battle"] or None,
                    army=data["army"] or None, kind=data["kind"] or None,
                    scale=data["scale"].strip() or None, pool=data["pool"] or None,
                    historical=True if data["historical"] else None)
            except DeckInputError as exc:
                error = panel.describe_input_error(exc)
            else:
                messages.success(request, f"Imported “{deck.name}”.")
                return redirect("deck-builder", deck.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "frontend/decks/import.html", {"form": form, "error": error},
                  status=status)


# --- Shared, read-only ---------------------------------------------------------------------

@require_GET
def shared(request: HttpRequest, token: str) -> HttpResponse:
    """A deck its owner chose to share: read-only, no login, never the owner's collection."""
    try:
        deck = selectors.shared_deck(token)
    except Deck.DoesNotExist:
        raise Http404("no such shared deck") from None
    version = deck.latest
    rows = working_list.version_entries(version)
    settings = working_list.deck_settings(deck)
    if version is not None:
        settings.update(battle=version.battle, army=version.army, kind=version.kind,
                        scale=version.scale, historical=version.historical, pool=version.pool)
    context = panel.panel_context(request, deck, rows, settings, None, public=True,
                                  version=version)
    context["version"] = version
    context["faces"] = [{"number": r["number"], "name": r["name"], "count": r["count"],
                         "finish": r["printing"] or "bronze"}
                        for r in context["rows"] if r["card"]]
    response = render(request, "frontend/decks/shared.html", context)
    response["X-Robots-Tag"] = "noindex"
    return response

