"""Deck pages: my decks, the builder, history, import, export and the shared read-only page.

Every rule lives in decks.services / decks.rules; these views only read forms and render.

The builder's working list is stateless: the unsaved cards live in the builder form itself
(hidden ``n``/``c`` inputs and a ``p`` printing select per row, plus the deck settings). Each
edit (add, +, -, remove, a printing or a setting) posts the whole form; the server applies the
one change, re-validates with ``services.check(...)`` and re-renders the deck panel (htmx swaps
it; without JavaScript the whole page comes back). Nothing is stored until Save, which keeps
one version; so the history is not flooded with a version per click, and a reload simply
returns to the last saved version.

The deck's name and description (kept on the deck, not on a version) are part of the same form
and are saved with the next version. While the working list, name or description differ from
what was last saved, ``deck-builder.js`` asks before the page is left.
"""

from __future__ import annotations

import secrets

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.models import Army, Battle
from decks import selectors, services
from decks.catalogue import cards_by_number
from decks.models import Deck, DeckKind, DeckPool
from decks.rules import PRINTINGS

from . import chart as deck_chart

MAX_ROWS = 300  # a working list longer than any legal deck (custom: 3 x 110 cards at most)
MAX_COUNT = 99
PRINTING_CHOICES = [("", "Any printing")] + [(p, p.title()) for p in PRINTINGS]
SCALE_CHOICES = [("1", "1 (full)"), ("1/2", "1/2"), ("1/3", "1/3"), ("1/4", "1/4"),
                 ("2/3", "2/3"), ("3/2", "3/2"), ("2", "2")]


def _htmx_partial(request: HttpRequest) -> bool:
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def _own_deck(request: HttpRequest, deck_id: int) -> Deck:
    """The user's own deck; another user's deck is a 404, never a 403 (its id stays secret)."""
    return get_object_or_404(Deck, pk=deck_id, owner=request.user)


def _problem_text(problems) -> list[str]:
    """DeckInputError problems as lines of text, whatever their shape."""
    lines = []
    for problem in problems or ():
        if isinstance(problem, str):
            lines.append(problem)
        elif isinstance(problem, dict):
            line = problem.get("line")
            message = problem.get("message") or str(problem)
            lines.append(f"line {line}: {message}" if line else message)
        else:
            line = getattr(problem, "line", None)
            message = getattr(problem, "message", None) or str(problem)
            lines.append(f"line {line}: {message}" if line else message)
    return lines


def _input_error(exc: Exception) -> tuple[str, list[str]]:
    message = getattr(exc, "message", None) or (exc.args[0] if exc.args else str(exc))
    return str(message), _problem_text(getattr(exc, "problems", ()))


# --- Settings forms ------------------------------------------------------------------------

class DeckSettingsForm(forms.Form):
    """A new deck. The first choice is the kind: dealt (2.0: the battle deals the cards from a
    pool, nothing to pick) or custom (15.0: pick cards within the BP limit)."""

    kind = forms.ChoiceField(choices=DeckKind.choices, initial=DeckKind.DEALT)
    pool = forms.ChoiceField(choices=DeckPool.choices, initial=DeckPool.COLLECTION,
                             required=False, label="Dealt from",
                             help_text="Dealt decks: my collection, or the whole set.")
    name = forms.CharField(max_length=100)
    battle = forms.ChoiceField(choices=Battle.choices, initial=Battle.WATERLOO)
    army = forms.ChoiceField(choices=Army.choices, initial=Army.FRENCH)
    scale = forms.CharField(max_length=12, initial="1",
                            help_text="A fraction: 1, 1/2 (Waterloo 18/18/12), 3/2…")
    historical = forms.BooleanField(required=False,
                                    label="Historical only (every card fought there)")


AS_PASTED = ("", "As the pasted deck says")


class ImportForm(DeckSettingsForm):
    """Every setting defaults to "as the pasted deck says": the export's first line or the
    deck code sets it; a setting chosen here must agree with it (else the import is refused)."""

    FORMATS = [("text", "Deck list (text)"), ("code", "Deck code")]
    source = forms.ChoiceField(choices=FORMATS, initial="text", widget=forms.RadioSelect,
                               label="I am pasting")
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
                           max_length=100_000, label="Deck list or deck code")
    battle = forms.ChoiceField(choices=[AS_PASTED, *Battle.choices], required=False, initial="")
    army = forms.ChoiceField(choices=[AS_PASTED, *Army.choices], required=False, initial="")
    kind = forms.ChoiceField(choices=[AS_PASTED, *DeckKind.choices], required=False,
                             initial="")
    scale = forms.CharField(max_length=12, required=False, initial="",
                            help_text="Blank: as the pasted deck says (else 1).")

    pool = forms.ChoiceField(choices=[AS_PASTED, *DeckPool.choices], required=False,
                             initial="", label="Dealt from")
    field_order = ["source", "text", "name", "battle", "army", "kind", "pool", "scale",
                   "historical"]


# --- The working list ----------------------------------------------------------------------

def _whole(value, low: int, high: int) -> int | None:
    text = str(value).strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        return None
    number = int(text)
    return number if low <= number <= high else None


def _printing(value) -> str | None:
    text = (value or "").strip().lower()
    return text if text in PRINTINGS else None


def _posted_entries(data) -> list[list]:
    """The working list from the builder form: rows [number, count, printing|None].

    Garbage rows are dropped (a tampered form is not the user's deck); unknown numbers are kept
    so that the rules report them as unknown_card.
    """
    numbers, counts, printings = data.getlist("n"), data.getlist("c"), data.getlist("p")
    rows = []
    for i, raw in enumerate(numbers[:MAX_ROWS]):
        number = _whole(raw, 1, 99_999)
        count = _whole(counts[i] if i < len(counts) else "1", 1, MAX_COUNT)
        if number is None or count is None:
            continue
        rows.append([number, count, _printing(printings[i] if i < len(printings) else "")])
    return rows


def _form_text(value) -> str:
    """Text from a form field as it is stored: browsers post textarea line breaks as CRLF."""
    return (value or "").replace("\r\n", "\n").replace("\r", "\n").strip()


TEXT_SETTINGS = ("name", "description")


def _posted_settings(data, deck: Deck) -> dict:
    """Deck settings from the builder form, falling back to the deck's own.

    Name and description are not cut to length here: saving refuses an over-long one with a
    message (``services.save_version``) instead of silently dropping the end of it. An empty
    name keeps the deck's; an empty description (the field posted, but blank) clears it.
    """
    scale = (data.get("scale") or deck.scale).strip()[:12]
    return {
        "name": _form_text(data.get("name")) or deck.name,
        "description": (_form_text(data["description"]) if "description" in data
                        else deck.description),
        "battle": data.get("battle") if data.get("battle") in Battle.values else deck.battle,
        "army": data.get("army") if data.get("army") in Army.values else deck.army,
        "kind": data.get("kind") if data.get("kind") in DeckKind.values else deck.kind,
        "scale": scale,
        "historical": (data.get("historical") in ("1", "on", "true")
                       if "settings" in data else deck.historical),
        "pool": data.get("pool") if data.get("pool") in DeckPool.values else deck.pool,
    }


def _version_entries(version) -> list[list]:
    return [[int(e[0]), int(e[1]), e[2] if len(e) > 2 else None]
            for e in (version.entries if version else [])]


def _deck_settings(deck: Deck) -> dict:
    return {"name": deck.name, "description": deck.description, "battle": deck.battle,
            "army": deck.army, "kind": deck.kind, "scale": deck.scale,
            "historical": deck.historical, "pool": deck.pool}


def _apply(rows: list[list], op: str) -> list[list]:
    """One builder edit: ``add:N``, ``inc:I``, ``dec:I``, ``del:I`` (I: row index)."""
    action, _, arg = (op or "").partition(":")
    if action == "add":
        number = _whole(arg, 1, 99_999)
        if number is None:
            return rows
        for row in rows:  # a second copy of a card goes on its row (15.0 then checks the
            if row[0] == number:  # copies: 3 at most, Generals and Terrain once)
                row[1] = min(row[1] + 1, MAX_COUNT)
                return rows
        if len(rows) < MAX_ROWS:
            rows.append([number, 1, None])
        return rows
    index = _whole(arg, 0, len(rows) - 1) if rows else None
    if index is None:
        return rows
    if action == "inc":
        rows[index][1] = min(rows[index][1] + 1, MAX_COUNT)
    elif action == "dec":
        rows[index][1] -= 1
        if rows[index][1] <= 0:
            del rows[index]
    elif action == "del":
        del rows[index]
    return rows


def _entries(rows) -> list[tuple]:
    return [(n, c, p) for n, c, p in rows]


def _same(rows, version, settings: dict, deck: Deck) -> bool:
    """Whether the working list and settings (name and description included) are what the
    latest version saved."""
    if version is None:
        return not rows

    def value(key, v):
        return _form_text(v) if key in TEXT_SETTINGS else v

    canon = sorted((n, c, p or "") for n, c, p in rows)
    saved = sorted((n, c, p or "") for n, c, p in _version_entries(version))
    return canon == saved and all(value(k, settings[k]) == value(k, getattr(deck, k))
                                  for k in settings)


def _panel_context(request: HttpRequest, deck: Deck, rows: list[list], settings: dict,
                   owned: dict | None = None, *, public: bool = False) -> dict:
    """The deck panel: rows with their cards, the check, figures, statistics and chart."""
    from decks.stats import deck_statistics

    records = cards_by_number()
    rows = [row for row in rows if row[0] in records]  # the rules never see a forged number
    if settings["kind"] == DeckKind.DEALT:
        rows = []  # 2.0: a dealt deck holds no chosen cards; the battle deals them
    # Shown (and posted back) in one order, so a row's index means the same row next time.
    rows.sort(key=lambda r: (_TYPE_ORDER.get(records[r[0]].get("type"), 9), r[0],
                             r[2] or ""))
    entries = _entries(rows)
    input_error = None
    try:
        validation = services.check(
            battle=settings["battle"], army=settings["army"], kind=settings["kind"],
            scale=settings["scale"], historical=settings["historical"], entries=entries,
            # A dealt deck's pool is its owner's collection (shared pages show only how many
            # distinct cards it can deal, never which).
            pool=settings["pool"], user=deck.owner if settings["kind"] == DeckKind.DEALT
            else None if public else request.user)
    except services.DeckInputError as exc:  # e.g. a scale that is not a number
        validation, input_error = None, _input_error(exc)
    stats = deck_statistics(entries, records)
    flagged: dict[int, list[str]] = {}
    for problem in validation.problems if validation else ():
        for number in problem.cards:
            flagged.setdefault(number, []).append(problem.code)
    items = []
    for index, (number, count, printing) in enumerate(rows):
        card = records.get(number)
        items.append({
            "index": index, "number": number, "count": count, "printing": printing or "",
            "card": card, "name": card["name"] if card else f"Unknown card #{number}",
            "type": (card or {}).get("type", ""), "bp": (card or {}).get("bp"),
            "owned": None if owned is None else owned.get(number, 0),
            "codes": flagged.get(number, []),
        })
    problems = [{"code": p.code, "message": p.message, "severity": p.severity,
                 "cards": [(n, records[n]["name"] if n in records else f"#{n}")
                           for n in p.cards]}
                for p in (validation.problems if validation else ())]
    return {
        "deck": deck, "rows": items, "settings": settings, "validation": validation,
        "input_error": input_error,
        "problems": problems, "errors": [p for p in problems if p["severity"] == "error"],
        "warnings": [p for p in problems if p["severity"] != "error"],
        "stats": stats, "chart": deck_chart.deck_chart(stats, title=f"{settings['name']}: "
                                                                    "statistics"),
        "printing_choices": PRINTING_CHOICES,
        "dirty": not public and not _same(rows, deck.latest, settings, deck),
        "public": public,
    }


_TYPE_ORDER = {t: i for i, t in enumerate(
    ("general", "infantry", "cavalry", "artillery", "terrain", "special"))}


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
        except services.DeckInputError as exc:
            error = _input_error(exc)
        else:
            then = ("the battle deals its cards from the pool" if deck.kind == DeckKind.DEALT
                    else "add its cards")
            messages.success(request, f"Deck “{deck.name}” created: {then}.")
            return redirect("deck-builder", deck.pk)
    rows = []
    for deck in selectors.decks_of(request.user):
        latest = deck.latest
        rows.append({"deck": deck, "latest": latest,
                     "backed": (services.check_version(latest, request.user)
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


def _builder_context(request: HttpRequest, deck: Deck, rows, settings, params) -> dict:
    owned = selectors.owned_counts(request.user, exclude_deck=deck)
    context = _panel_context(request, deck, rows, settings, owned)
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
        rows, settings = _version_entries(deck.latest), _deck_settings(deck)
        return render(request, "frontend/decks/builder.html",
                      _builder_context(request, deck, rows, settings, request.GET))

    rows = _posted_entries(request.POST)
    settings = _posted_settings(request.POST, deck)
    if settings["kind"] == DeckKind.DEALT:
        rows = []  # 2.0: nothing to pick; a custom deck turned dealt drops its cards
    op = request.POST.get("op", "")
    if op == "save":
        note = (request.POST.get("note") or "").strip()[:200]
        try:
            version = services.save_version(deck, entries=_entries(rows), note=note, **settings)
        except services.DeckInputError as exc:  # nothing saved; the form keeps the edits
            message, lines = _input_error(exc)
            messages.error(request, " ".join([f"Not saved: {message}.", *lines]))
            context = _builder_context(request, deck, rows, settings, request.POST)
            context["save_error"] = message
            return render(request, "frontend/decks/builder.html", context, status=400)
        state = "valid" if version.valid else "a draft with problems"
        messages.success(request, f"Saved version {version.number} ({state}).")
        return redirect("deck-builder", deck.pk)

    rows = _apply(rows, op)
    if request.headers.get("HX-Trigger-Name") == "kind":
        # A dealt deck and a custom deck are different pages (pool vs card picking): the
        # whole builder form is redrawn (the page selects #deck-form from it).
        response = render(request, "frontend/decks/builder.html",
                          _builder_context(request, deck, rows, settings, request.POST))
    elif _htmx_partial(request):
        owned = selectors.owned_counts(request.user, exclude_deck=deck)
        context = _panel_context(request, deck, rows, settings, owned)
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
    """The builder's catalogue column alone (htmx search and "only cards I own")."""
    deck = _own_deck(request, deck_id)
    owned = selectors.owned_counts(request.user, exclude_deck=deck)
    context = {"deck": deck, **_catalogue_context(request, deck, request.GET, owned)}
    return render(request, "frontend/decks/_catalogue.html", context)


@login_required
@require_POST
def add_to_wants(request: HttpRequest, deck_id: int) -> HttpResponse:
    deck = _own_deck(request, deck_id)
    try:
        added = services.add_missing_to_wants(request.user, deck)
    except services.DeckInputError as exc:
        messages.error(request, _input_error(exc)[0])
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
    except services.DeckInputError as exc:
        messages.error(request, _input_error(exc)[0])
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
    text = services.export_decklist(version)
    if request.GET.get("download"):
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        filename = (slugify(deck.name) or "deck") + f"-v{version.number}.txt"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    return render(request, "frontend/decks/export.html",
                  {"deck": deck, "version": version, "text": text,
                   "code": services.deck_code(version)})


@login_required
@require_http_methods(["GET", "POST"])
def import_deck(request: HttpRequest) -> HttpResponse:
    form = ImportForm(request.POST or None, initial={"source": "text"})
    error = None
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:  # a deck code is recognised whatever the selector says
                deck = services.import_pasted(
                    request.user, text=data["text"], name=data["name"],
                    as_code=data["source"] == "code", battle=data["battle"] or None,
                    army=data["army"] or None, kind=data["kind"] or None,
                    scale=data["scale"].strip() or None, pool=data["pool"] or None,
                    historical=True if data["historical"] else None)
            except services.DeckInputError as exc:
                error = _input_error(exc)
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
    rows = _version_entries(version)
    settings = _deck_settings(deck)
    if version is not None:
        settings.update(battle=version.battle, army=version.army, kind=version.kind,
                        scale=version.scale, historical=version.historical, pool=version.pool)
    context = _panel_context(request, deck, rows, settings, None, public=True)
    context["version"] = version
    context["faces"] = [{"number": r["number"], "name": r["name"], "count": r["count"],
                         "finish": r["printing"] or "bronze"}
                        for r in context["rows"] if r["card"]]
    response = render(request, "frontend/decks/shared.html", context)
    response["X-Robots-Tag"] = "noindex"
    return response

