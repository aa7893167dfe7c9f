"""Read-side queries over the catalogue, shared by the API and the web pages."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from ..models import Army, Card, CardType, Printing
from .loader import current_version
from .search import QueryError, describe_fields, parse
from .search.parser import Term, field_spec
from .search.to_q import BATTLE_COLUMNS, to_q

FIRST_NUMBER, LAST_NUMBER = 1, 300

# Filter keyword -> (search field whose values it takes, operator).
FILTERS: dict[str, tuple[str, str]] = {
    "army": ("army", "="),
    "type": ("type", "="),
    "nationality": ("nationality", "="),
    "morale": ("morale", "="),
    "battle": ("battle", "="),
    "bp_min": ("bp", ">="),
    "bp_max": ("bp", "<="),
    "number": ("number", "="),
}
ORDERING_KEYS = {"number": "number", "name": "search_name", "bp": "bp", "cv": "cv"}
FINISH_ORDER = {"gold": 0, "silver": 1, "bronze": 2}


def filter_q(name: str, raw) -> Q:
    """The Q of one keyword filter (``army="fr"``, ``bp_min="8"``); QueryError if invalid.

    Values take the same spellings as the search language (``army=fr`` is ``army:french``).
    QueryError.position is None: the problem is in a filter, not in the query text.
    """
    if name not in FILTERS:
        raise QueryError(f"unknown filter {name!r} (filters: {', '.join(FILTERS)})", None)
    field, op = FILTERS[name]
    text = str(raw).strip()
    if text == "":
        raise QueryError(f"{name}: needs a value", None)
    spec = field_spec(field)
    assert spec is not None
    try:
        value = spec.resolve_value(text, 0)
    except QueryError as exc:
        message = exc.message.replace(" at position 0", "")
        raise QueryError(f"{name}: {message}", None) from None
    if name == "number" and not FIRST_NUMBER <= int(value) <= LAST_NUMBER:
        raise QueryError(f"number: card numbers run from {FIRST_NUMBER} to {LAST_NUMBER},"
                         f" got {value}", None)
    return to_q(Term(field, op, value))


def ordering_fields(raw: str | None) -> list[str]:
    """``"-bp,name"`` -> model order_by fields (number always breaks ties); QueryError."""
    fields: list[str] = []
    for part in (raw or "").split(","):
        key = part.strip()
        if not key:
            continue
        descending = key.startswith("-")
        column = ORDERING_KEYS.get(key.lstrip("-").lower())
        if column is None or key.count("-") > 1:
            raise QueryError(f"ordering: unknown key {key[:30]!r} (use"
                             f" {', '.join(ORDERING_KEYS)}, optionally prefixed with '-')",
                             None)
        fields.append(("-" if descending else "") + column)
    if not any(f.lstrip("-") == "number" for f in fields):
        fields.append("number")
    return fields


def with_printings(queryset: QuerySet[Card]) -> QuerySet[Card]:
    """Prefetch printings without the join Printing's default ordering would add."""
    return queryset.prefetch_related(
        Prefetch("printings", queryset=Printing.objects.order_by().only("id", "card_id",
                                                                      "finish")))


def attach_finishes(cards: list[Card]) -> list[Card]:
    """Set ``card.finishes`` (Gold, Silver, Bronze order) on a page of cards with one light
    query and no Printing instances: the API's fast path instead of a prefetch."""
    by_card: dict[int, list[str]] = {card.pk: [] for card in cards}
    if by_card:
        rows = Printing.objects.order_by().filter(card_id__in=list(by_card)).values_list(
            "card_id", "finish")
        for card_id, finish in rows:
            by_card[card_id].append(finish)
    for card in cards:
        card.finishes = sorted(by_card[card.pk], key=lambda f: FINISH_ORDER.get(f, 9))
    return cards


def sorted_printings(card: Card) -> list[Printing]:
    """A card's printings, Gold first (uses the prefetch when there is one)."""
    return sorted(card.printings.all(), key=lambda p: FINISH_ORDER.get(p.finish, 9))


def card_finishes(card: Card) -> list[str]:
    """A card's finishes, Gold first: from attach_finishes, else from its printings."""
    finishes = getattr(card, "finishes", None)
    if finishes is None:
        finishes = [p.finish for p in sorted_printings(card)]
    return finishes


def cards_matching(query: str = "", **filters) -> QuerySet[Card]:
    """search_cards without the printings prefetch (see there)."""
    q = to_q(parse(query or ""))
    ordering = filters.pop("ordering", None)
    for name, raw in filters.items():
        if name not in FILTERS:
            raise QueryError(f"unknown filter {name!r} (filters: {', '.join(FILTERS)})", None)
        if raw is None or str(raw).strip() == "":
            continue
        q &= filter_q(name, raw)
    return Card.objects.filter(q).order_by(*ordering_fields(ordering))


def search_cards(query: str = "", **filters) -> QuerySet[Card]:
    """Cards matching a search-language query and keyword filters, ordered, with their
    printings prefetched.

    ``filters``: army, type, nationality, morale, battle, bp_min, bp_max, number (values as
    in the search language; None or "" means no filter) and ``ordering`` ("-bp,name"; keys
    number, name, bp, cv).  Raises cards.catalogue.search.QueryError (``.message``, ``.position``;
    position is None for a bad filter) on any malformed input.
    """
    return with_printings(cards_matching(query, **filters))


def get_card(number) -> Card:
    """The card with this number (printings prefetched); Card.DoesNotExist otherwise."""
    text = str(number)
    if not (text.isascii() and text.isdigit() and len(text) <= 5):
        raise Card.DoesNotExist(number)
    value = int(text)
    if not FIRST_NUMBER <= value <= LAST_NUMBER:
        raise Card.DoesNotExist(number)
    return with_printings(Card.objects.filter(number=value)).get()


def catalogue_summary() -> dict:
    """Loaded version, counts per army and type, and the search language's fields."""
    counts = {(row["army"], row["type"]): row["n"]
              for row in Card.objects.order_by().values("army", "type").annotate(n=Count("id"))}
    by_army = {army: sum(n for (a, _), n in counts.items() if a == army)
               for army in Army.values}
    by_type = {kind: sum(n for (_, t), n in counts.items() if t == kind)
               for kind in CardType.values}
    return {
        "version": current_version(),
        "cards": sum(counts.values()),
        "by_army": by_army,
        "by_type": by_type,
        "by_army_and_type": {army: {kind: counts.get((army, kind), 0)
                                    for kind in CardType.values} for army in Army.values},
        "battles": list(BATTLE_COLUMNS),
        "search": {
            "operators": [":", "=", "!=", "<", "<=", ">", ">="],
            "fields": describe_fields(),
        },
    }
