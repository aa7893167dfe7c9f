"""The public catalogue: search and browse the 300 cards, one page per card, card faces as SVG."""

from __future__ import annotations

import hashlib
import json
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_GET

from cards.catalogue.records import card_record
from cards.models import Army, Battle, Card, CardType, Finish, Morale

from . import card_face

PER_PAGE = 60
VIEWS = ("grid", "table")
FILTERS = {
    "army": Army,
    "type": CardType,
    "battle": Battle,
    "morale": Morale,
}
EXAMPLES = [
    ("army:french type:cavalry", "French cavalry"),
    ("morale<=b bp>=8", "morale A or B costing 8 BP or more"),
    ("battle:waterloo guard", "cards at Waterloo with \u201cguard\u201d in the name"),
    ("type:terrain position:c", "terrain for the Center"),
    ("a:pr (t:inf or t:cav) -m:d", "Prussian infantry or cavalry, not militia"),
]
# 7.2: firepower -> the die faces that hit.
HITS = {1: "6", 2: "5-6", 3: "4-6", 4: "3-6", 5: "2-6"}
MORALE_CLASS = {"a": "Guard/Elite", "b": "Regulars/Veterans", "c": "Regulars/Conscripts",
                "d": "Militia/Landwehr"}
MORALE_VALUE = {"a": 4, "b": 3, "c": 2, "d": 1}
SVG_MAX_AGE = 60 * 60 * 24


def _htmx_partial(request: HttpRequest) -> bool:
    """An htmx request that swaps a fragment (history restores need the whole page)."""
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def _clean_filters(params) -> dict[str, str]:
    """The filter selects' values; anything that is not one of the choices is ignored."""
    clean = {}
    for name, choices in FILTERS.items():
        value = (params.get(name) or "").strip().lower()
        if value in choices.values:
            clean[name] = value
    return clean


def _error_context(query: str, error) -> dict:
    """The message and where it points: the query split around the offending character."""
    position = getattr(error, "position", None)
    message = getattr(error, "message", None) or str(error)
    if position is None:
        return {"message": message, "position": None}
    position = max(0, min(int(position), len(query)))
    return {
        "message": message,
        "position": position,
        "column": position + 1,
        "before": query[:position],
        "at": query[position:position + 1] or " ",
        "after": query[position + 1:],
        "caret": " " * position + "^",
    }


@require_GET
def catalogue(request: HttpRequest) -> HttpResponse:
    from cards.catalogue.search import QueryError
    from cards.catalogue.selectors import search_cards

    query = (request.GET.get("q") or "").strip()
    filters = _clean_filters(request.GET)
    view = request.GET.get("view") if request.GET.get("view") in VIEWS else "grid"
    error = None
    try:
        cards = search_cards(query, **filters)
        total = cards.count()
    except QueryError as exc:
        error = _error_context(query, exc)
        cards, total = Card.objects.none(), 0
    page = Paginator(cards, PER_PAGE).get_page(request.GET.get("page"))

    state = {"q": query, **filters, "view": view}
    state = {k: v for k, v in state.items() if v and not (k == "view" and v == "grid")}

    def link(**changes) -> str:
        params = {**state, **changes}
        params = {k: v for k, v in params.items() if v not in ("", None, 1)}
        base = reverse("catalogue")
        return base + "?" + urlencode(params) if params else base

    context = {
        "query": query,
        "filters": filters,
        "view": view,
        "error": error,
        "page": page,
        "total": total,
        "pages": [
            {"number": n, "link": link(page=n), "current": n == page.number,
             "gap": n == page.paginator.ELLIPSIS}
            for n in page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1)
        ] if page.paginator.num_pages > 1 else [],
        "prev_link": link(page=page.previous_page_number()) if page.has_previous() else None,
        "next_link": link(page=page.next_page_number()) if page.has_next() else None,
        "view_choices": [("grid", "Grid"), ("table", "Table")],
        "selects": [
            {"name": name, "label": name.title(), "value": filters.get(name, ""),
             "choices": choices.choices}
            for name, choices in FILTERS.items()
        ],
        "examples": [(q, words, "?" + urlencode({"q": q})) for q, words in EXAMPLES],
    }
    partial = _htmx_partial(request)
    template = "frontend/catalogue/_results.html" if partial else "frontend/catalogue/index.html"
    response = render(request, template, context)
    if partial:  # push the tidy URL (no empty selects), not the raw form serialisation
        response["HX-Push-Url"] = link(page=page.number)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
def syntax(request: HttpRequest) -> HttpResponse:
    """The full search syntax, from the language's own field list."""
    try:
        from cards.catalogue.search import describe_fields

        fields = describe_fields()
    except ImportError:  # pragma: no cover - the language ships with the cards app
        fields = []
    for spec in fields:
        spec["values_list"] = [
            (value, aliases) for value, aliases in (spec.get("values") or {}).items()]
    return render(request, "frontend/catalogue/syntax.html",
                  {"fields": fields, "examples": [(q, w, "?" + urlencode({"q": q}))
                                                  for q, w in EXAMPLES]})


def _finish(request: HttpRequest) -> str:
    finish = (request.GET.get("finish") or "").lower()
    return finish if finish in Finish.values else Finish.BRONZE


def explain(card: Card) -> list[tuple[str, str, str]]:
    """(term, rating, plain words) for each rating the card carries."""
    rows = []
    if card.cv is not None:
        dice = "die" if card.cv == 1 else "dice"
        rows.append(("Combat value", f"{card.cv} CV", f"rolls {card.cv} {dice} when it fires"))
    if card.type == CardType.ARTILLERY and (card.fire_long or card.fire_short):
        if card.fire_long:
            rows.append(("Long range", f"F{card.fire_long}",
                         f"hits on {HITS.get(card.fire_long, '?')} across the Middle Ground"))
        if card.fire_short:
            rows.append(("Short range", f"F{card.fire_short}",
                         f"hits on {HITS.get(card.fire_short, '?')} against engaging cards"))
    elif card.firepower is not None:
        rows.append(("Firepower", f"F{card.firepower}",
                     f"hits on {HITS.get(card.firepower, '?')}"))
    if card.shock is not None:
        extra = " (only in Column)" if card.type == CardType.INFANTRY else (
            "; the cavalry are then Blown" if card.type == CardType.CAVALRY else "")
        rows.append(("Shock", f"S{card.shock}",
                     f"hits on {HITS.get(card.shock, '?')}{extra}"))
    if card.morale:
        value = MORALE_VALUE.get(card.morale, 0)
        rows.append(("Morale", f"{card.morale.upper()} = {value}",
                     f"{MORALE_CLASS.get(card.morale, '')}: a hit is shaken off on a roll of "
                     f"1-{value}, higher routs"))
    if card.artillery_kind:
        words = ("may move and then fire, and may engage" if card.artillery_kind == "horse"
                 else "can never engage")
        rows.append(("Guns", card.artillery_kind.title(), words))
    if card.offense is not None or card.defense is not None:
        rows.append(("Command", f"{card.offense}/{card.defense}",
                     f"adds {card.offense} to morale when attacking, {card.defense} when "
                     f"defending"))
    if card.corps:
        words = ("Army Commander: supports any corps of his army" if card.corps == "A"
                 else f"supports troops of corps {card.corps} only")
        rows.append(("Corps", card.corps, words))
    if card.chief_of_staff:
        rows.append(("Chief of Staff", "Yes", "commands the army only if its commander is "
                                               "absent or dead"))
    if card.second_in_command:
        rows.append(("Second in command", "Yes", "commands if Wellington is absent or killed"))
    if card.terrain_class:
        words = {
            "hill": "+1 CV to defending cards",
            "woods": "only Infantry defend or attack; attackers -1 CV",
            "river": "a barrier in the Middle Ground with a move limit",
            "building": "only Infantry defend; no Shock by or against its defenders",
        }.get(card.terrain_class, "")
        rows.append(("Terrain class", card.terrain_class.title(), words))
    if card.terrain_position:
        where = card_face.POSITION_NAMES.get(card.terrain_position.lower(), "")
        rows.append(("Position", card.terrain_position.upper(), f"deploys only in the {where}"
                     + (f" at {card.get_terrain_battle_display()}" if card.terrain_battle
                        else "")))
    if card.move_limit:
        rows.append(("Move limit", str(card.move_limit),
                     f"{card.move_limit} card{'s' if card.move_limit > 1 else ''} may cross "
                     f"per Battle Turn"))
    rows.append(("Battle Points", f"{card.bp} BP", "its cost in a custom Battle Deck"))
    return rows


def _owned(request: HttpRequest, card: Card) -> dict | None:
    """Copies the user owns per finish, if the collection service is there (else None)."""
    if not request.user.is_authenticated:
        return None
    try:
        from cards.collection import services as collection_services
    except ImportError:
        return None
    try:
        return {finish: collection_services.owned_of(request.user, card, finish)
                for finish in Finish.values}
    except Exception:  # noqa: BLE001 - owned counts are a nicety, never break the card page
        return None


@require_GET
def card_detail(request: HttpRequest, number: int) -> HttpResponse:
    card = get_object_or_404(Card, number=number)
    finish = _finish(request)
    record = card_record(card)
    previous = Card.objects.filter(number__lt=number).order_by("-number").only("number",
                                                                               "name").first()
    following = Card.objects.filter(number__gt=number).order_by("number").only("number",
                                                                               "name").first()
    restrictions = card.special_restrictions
    if isinstance(restrictions, dict):
        restrictions = [f"{k.replace('_', ' ')}: {v}" for k, v in restrictions.items()]
    elif isinstance(restrictions, str):
        restrictions = [restrictions]
    context = {
        "card": card,
        "record": record,
        "finish": finish,
        "face": card_face.render_card_svg(record, finish, id_prefix=f"face-{card.number}"),
        "finishes": [(value, label, reverse("card-detail", args=[card.number]) + f"?finish={value}")
                     for value, label in Finish.choices],
        "battles": [(slug, Battle(slug).label,
                     reverse("catalogue") + "?" + urlencode({"q": f"battle:{slug}"}))
                    for slug in card.battles],
        "ob_parts": [(label, value) for label, value in (
            ("Corps", card.ob_corps), ("Division", card.ob_division),
            ("Brigade", card.ob_brigade)) if value],
        "explain": explain(card),
        "restrictions": restrictions,
        "previous": previous,
        "following": following,
        "owned": _owned(request, card),
        "type_line": card_face.type_line(record),
        "timing": (card.special_timing or "").replace("_", " ").capitalize(),
        "effect_json": json.dumps(card.effect, ensure_ascii=False) if card.effect else "",
    }
    template = ("frontend/catalogue/_card_face.html" if _htmx_partial(request)
                and request.headers.get("HX-Target") == "card-face"
                else "frontend/catalogue/card.html")
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    return response


def _svg_response(request: HttpRequest, svg: str) -> HttpResponse:
    etag = '"' + hashlib.sha256(svg.encode()).hexdigest()[:32] + '"'
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=SVG_MAX_AGE)
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


@require_GET
def card_svg(request: HttpRequest, number: int) -> HttpResponse:
    card = get_object_or_404(Card, number=number)
    return _svg_response(request, card_face.render_card_svg(card_record(card), _finish(request)))


@require_GET
def card_back_svg(request: HttpRequest, army: str) -> HttpResponse:
    if army not in Army.values:
        raise Http404("no such army")
    return _svg_response(request, card_face.render_card_back(army))
