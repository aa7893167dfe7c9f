"""What a user owns and wants: adding and removing copies, completion, wants, starter decks.

Every rule about collections lives here (and in csv.py / trades.py); the API and the
pages only call these functions. Every change runs in one transaction and locks the rows it
changes: first the users concerned (by id), then their collection rows (by printing id, then
user id), so two changes can never wait on each other in a cycle.
"""

import random
import secrets
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, Sum

# The house errors, re-exported: the collection code raises and catches them from here.
from config.errors import Conflict, NotAllowed, NotFound, ServiceError  # noqa: F401

from ..catalogue.loader import current_version
from ..models import (
    RARITY_WEIGHTS,
    Army,
    Card,
    CardType,
    CollectionEntry,
    Finish,
    Printing,
    StarterDeck,
    WantEntry,
)

MAX_QUANTITY = 9999
STARTER_SIZE = 60
FINISH_ORDER = [Finish.GOLD, Finish.SILVER, Finish.BRONZE]
FINISH_LABELS = dict(Finish.choices)


# --- Parsing user input -------------------------------------------------------------------

def parse_whole(value, what: str, low: int, high: int) -> int:
    """A whole number low..high from an int or a string of digits; else a ServiceError."""
    original = value
    if isinstance(value, str) and value.strip().isdigit() and value.strip().isascii():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(f"{what} must be a whole number {low}-{high}, got {original!r}")
    return value


def parse_finish(value, *, allow_any: bool = False) -> str:
    """'Gold'/'silver'/'BRONZE' -> 'gold'...; '' (any finish) only when allow_any."""
    text = value.strip().casefold() if isinstance(value, str) else None
    if text == "" and allow_any:
        return ""
    if text not in Finish.values:
        raise ServiceError(f"unknown printing {value!r} (use Gold, Silver or Bronze"
                           + (", or leave it empty for any" if allow_any else "") + ")")
    return text


def get_card(number) -> Card:
    original = number
    if isinstance(number, str) and number.strip().lstrip("#").isdigit() \
            and number.strip().isascii():
        number = int(number.strip().lstrip("#"))
    if isinstance(number, bool) or not isinstance(number, int):
        raise ServiceError(f"card number must be a whole number, got {original!r}")
    card = Card.objects.filter(number=number).first() if 1 <= number <= 300 else None
    if card is None:
        raise ServiceError(f"card #{number} does not exist")
    return card


def get_printing(number, finish) -> Printing:
    finish = parse_finish(finish)
    card = get_card(number)
    printing = Printing.objects.select_related("card").filter(card=card, finish=finish).first()
    if printing is None:  # the loader creates all three; only a broken database lacks one
        raise ServiceError(f"card #{card.number} has no {finish} printing")
    return printing


def describe(printing: Printing) -> str:
    return f"#{printing.card.number} {printing.card.name} ({FINISH_LABELS[printing.finish]})"


# --- Locking ------------------------------------------------------------------------------

def lock_users(user_ids: Iterable[int]) -> None:
    """Lock the users' rows in id order: a user's collection changes one transaction at a time."""
    list(get_user_model().objects.select_for_update().filter(id__in=set(user_ids))
         .order_by("id").values_list("id", flat=True))


def locked_entries(pairs: Iterable[tuple[int, int]]) -> dict[tuple[int, int], CollectionEntry]:
    """Lock (creating with quantity 0 where missing) the rows for (user id, printing id) pairs,
    in printing id then user id order. Call inside transaction.atomic() after lock_users()."""
    entries: dict[tuple[int, int], CollectionEntry] = {}
    for user_id, printing_id in sorted(set(pairs), key=lambda p: (p[1], p[0])):
        entry = (CollectionEntry.objects.select_for_update()
                 .filter(user_id=user_id, printing_id=printing_id).first())
        if entry is None:
            try:
                with transaction.atomic():
                    entry = CollectionEntry.objects.create(user_id=user_id,
                                                           printing_id=printing_id)
            except IntegrityError:  # created meanwhile by a writer that bypassed lock_users
                entry = CollectionEntry.objects.select_for_update().get(
                    user_id=user_id, printing_id=printing_id)
        entries[(user_id, printing_id)] = entry
    return entries


def save_entry(entry: CollectionEntry) -> None:
    """Write a changed row, dropping it when no copies are left; trade count never exceeds it."""
    entry.trade_quantity = min(entry.trade_quantity, entry.quantity)
    if entry.quantity == 0:
        if entry.pk:
            entry.delete()
    else:
        entry.save(update_fields=["quantity", "trade_quantity"])


# --- Owning -------------------------------------------------------------------------------

def add_copies(user, number, finish, count=1) -> CollectionEntry:
    printing = get_printing(number, finish)
    count = parse_whole(count, "count", 1, MAX_QUANTITY)
    with transaction.atomic():
        lock_users([user.id])
        entry = locked_entries([(user.id, printing.id)])[(user.id, printing.id)]
        if entry.quantity + count > MAX_QUANTITY:
            raise ServiceError(f"you own {entry.quantity} of {describe(printing)}; adding {count}"
                               f" would exceed the limit of {MAX_QUANTITY}")
        entry.quantity += count
        save_entry(entry)
    entry.printing = printing
    return entry


def remove_copies(user, number, finish, count=1) -> CollectionEntry:
    """Remove copies; never below zero (an error that says how many are owned)."""
    printing = get_printing(number, finish)
    count = parse_whole(count, "count", 1, MAX_QUANTITY)
    with transaction.atomic():
        lock_users([user.id])
        entry = (CollectionEntry.objects.select_for_update()
                 .filter(user=user, printing=printing).first())
        owned = entry.quantity if entry else 0
        if count > owned:
            raise ServiceError(f"you own {owned} of {describe(printing)}, so you cannot remove"
                               f" {count}")
        entry.quantity -= count
        save_entry(entry)
    entry.printing = printing
    return entry


def set_trade_quantity(user, number, finish, trade_quantity) -> CollectionEntry:
    printing = get_printing(number, finish)
    trade_quantity = parse_whole(trade_quantity, "trade quantity", 0, MAX_QUANTITY)
    with transaction.atomic():
        lock_users([user.id])
        entry = (CollectionEntry.objects.select_for_update()
                 .filter(user=user, printing=printing).first())
        owned = entry.quantity if entry else 0
        if trade_quantity > owned:
            raise ServiceError(f"trade quantity {trade_quantity} is more than the {owned} of"
                               f" {describe(printing)} you own")
        if entry is None:  # 0 of 0
            return CollectionEntry(user=user, printing=printing)
        entry.trade_quantity = trade_quantity
        save_entry(entry)
    entry.printing = printing
    return entry


def entries(user, *, army: str = "", type: str = "", finish: str = "", number=None):
    """The user's collection rows (quantity > 0), optionally filtered."""
    qs = (CollectionEntry.objects.filter(user=user, quantity__gt=0)
          .select_related("printing__card").order_by("printing__card__number", "printing_id"))
    if army:
        qs = qs.filter(printing__card__army=parse_choice(army, Army, "army"))
    if type:
        qs = qs.filter(printing__card__type=parse_choice(type, CardType, "type"))
    if finish:
        qs = qs.filter(printing__finish=parse_finish(finish))
    if number not in (None, ""):
        qs = qs.filter(printing__card__number=parse_whole(number, "number", 1, 300))
    return qs


def parse_choice(value, choices, what: str) -> str:
    text = value.strip().casefold() if isinstance(value, str) else None
    if text not in choices.values:
        raise ServiceError(f"unknown {what} {value!r} (use {', '.join(choices.values)})")
    return text


def owned_counts(user) -> dict[tuple[int, str], int]:
    """(card number, finish) -> copies owned."""
    return {(n, f): q for n, f, q in CollectionEntry.objects.filter(user=user, quantity__gt=0)
            .values_list("printing__card__number", "printing__finish", "quantity")}


# --- Completion ---------------------------------------------------------------------------

@dataclass
class Progress:
    owned: int
    total: int

    @property
    def percent(self) -> float:
        return round(100 * self.owned / self.total, 1) if self.total else 0.0

    def as_dict(self) -> dict:
        return {"owned": self.owned, "total": self.total, "percent": self.percent}


def completion(user) -> dict:
    """Completion measured two ways (distinct cards of 300, card-printings of 900), overall and
    per army, per type and per printing (finish)."""
    cards = list(Card.objects.values_list("id", "army", "type"))
    owned_printings = set(CollectionEntry.objects.filter(user=user, quantity__gt=0)
                          .values_list("printing__card_id", "printing__finish"))
    owned_cards = {card_id for card_id, _ in owned_printings}
    n_finishes = len(FINISH_ORDER)

    def group(key_index: int, keys) -> dict:
        result = {}
        for key in keys:
            ids = {c[0] for c in cards if c[key_index] == key}
            result[key] = {
                "cards": Progress(len(ids & owned_cards), len(ids)).as_dict(),
                "printings": Progress(sum(1 for cid, _ in owned_printings if cid in ids),
                                      len(ids) * n_finishes).as_dict(),
            }
        return result

    per_finish = {}
    for finish in FINISH_ORDER:
        per_finish[finish.value] = Progress(
            sum(1 for _, f in owned_printings if f == finish), len(cards)).as_dict()
    return {
        "cards": Progress(len(owned_cards), len(cards)).as_dict(),
        "printings": Progress(len(owned_printings), len(cards) * n_finishes).as_dict(),
        "copies": CollectionEntry.objects.filter(user=user).aggregate(
            n=Sum("quantity"))["n"] or 0,
        "by_army": group(1, Army.values),
        "by_type": group(2, CardType.values),
        "by_finish": per_finish,
    }


def missing_cards(user, army: str = ""):
    """Cards the user owns in no finish at all, optionally of one army."""
    qs = Card.objects.exclude(printings__owners__user=user,
                              printings__owners__quantity__gt=0).order_by("number")
    if army:
        qs = qs.filter(army=parse_choice(army, Army, "army"))
    return qs


# --- Wants --------------------------------------------------------------------------------

def owned_of(user, card: Card, finish: str = "") -> int:
    """Copies of a card owned: in one finish, or in any finish when finish is ''."""
    qs = CollectionEntry.objects.filter(user=user, printing__card=card)
    if finish:
        qs = qs.filter(printing__finish=finish)
    return qs.aggregate(n=Sum("quantity"))["n"] or 0


def want_missing(user, card: Card | int, needed: int, finish: str = "") -> int:
    """How many more copies the user needs: max(0, needed - owned) (owned in that finish, or in
    any finish when finish is '')."""
    if not isinstance(card, Card):
        card = get_card(card)
    return max(0, needed - owned_of(user, card, finish))


def set_want(user, number, finish="", quantity=1) -> WantEntry | None:
    """Want `quantity` copies of a card (in one finish, or '' for any); 0 removes the want."""
    card = get_card(number)
    finish = parse_finish(finish or "", allow_any=True)
    quantity = parse_whole(quantity, "quantity", 0, MAX_QUANTITY)
    with transaction.atomic():
        lock_users([user.id])
        if quantity == 0:
            WantEntry.objects.filter(user=user, card=card, finish=finish).delete()
            return None
        want, _ = WantEntry.objects.update_or_create(user=user, card=card, finish=finish,
                                                     defaults={"quantity": quantity})
    return want


def get_want(user, want_id) -> WantEntry:
    want = (WantEntry.objects.select_related("card").filter(user=user, id=want_id).first()
            if isinstance(want_id, int) else None)
    if want is None:
        raise NotFound("no such want")
    return want


def remove_want(user, want_id) -> None:
    get_want(user, want_id).delete()


def wants(user) -> list[dict]:
    """The want list with, for each want, how many are owned and how many are still missing."""
    owned = owned_counts(user)
    rows = []
    for want in WantEntry.objects.filter(user=user).select_related("card").order_by(
            "card__number", "finish"):
        have = (owned.get((want.card.number, want.finish), 0) if want.finish else
                sum(owned.get((want.card.number, f), 0) for f in Finish.values))
        rows.append({"want": want, "owned": have, "missing": max(0, want.quantity - have)})
    return rows


# --- Starter decks ------------------------------------------------------------------------

def deal_starter(seed: int, card_numbers: list[int]) -> list[tuple[int, str]]:
    """60 (card number, finish) pairs: each finish drawn by the rarity weights of 18.0 (Gold 10,
    Silver 30, Bronze 60), each card uniformly from card_numbers. Pure and reproducible: the
    same seed and the same set of numbers always deal the same cards in the same order."""
    rng = random.Random(seed)
    numbers = sorted(card_numbers)
    if not numbers:
        raise ValueError("no cards to deal from")
    finishes = [f.value for f in FINISH_ORDER]
    weights = [RARITY_WEIGHTS[f] for f in FINISH_ORDER]
    dealt = []
    for _ in range(STARTER_SIZE):
        finish = rng.choices(finishes, weights=weights)[0]
        dealt.append((rng.choice(numbers), finish))
    return dealt


def open_starter_deck(user, seed: int | None = None) -> StarterDeck:
    """Deal a starter deck, record it and add its cards to the collection, all or nothing."""
    if seed is None:
        seed = secrets.randbelow(2**53)  # exact in JavaScript numbers too
    numbers = list(Card.objects.values_list("number", flat=True))
    if not numbers:
        raise Conflict("the catalogue is not loaded")
    dealt = deal_starter(seed, numbers)
    counts = Counter(dealt)
    printings = {(p.card.number, p.finish): p for p in Printing.objects.select_related("card")
                 .filter(card__number__in={n for n, _ in counts})}
    with transaction.atomic():
        lock_users([user.id])
        rows = locked_entries((user.id, printings[key].id) for key in counts)
        for key, n in counts.items():
            entry = rows[(user.id, printings[key].id)]
            if entry.quantity + n > MAX_QUANTITY:
                raise ServiceError(f"you own {entry.quantity} of {describe(printings[key])};"
                                   f" the deck would exceed the limit of {MAX_QUANTITY}")
            entry.quantity += n
            save_entry(entry)
        deck = StarterDeck.objects.create(user=user, seed=seed,
                                          catalogue_version=current_version() or "",
                                          printings=[[n, f] for n, f in dealt])
    return deck


def starter_summary(deck: StarterDeck) -> dict:
    """A deck's cards grouped: [(number, name, finish, copies)] and copies per finish."""
    counts = Counter((n, f) for n, f in deck.printings)
    names = dict(Card.objects.filter(number__in={n for n, _ in counts})
                 .values_list("number", "name"))
    lines = [{"number": n, "name": names.get(n, "?"), "finish": f, "copies": c}
             for (n, f), c in sorted(counts.items(),
                                     key=lambda kv: (kv[0][0], FINISH_ORDER.index(kv[0][1])))]
    per_finish = {f.value: sum(c for (_, fin), c in counts.items() if fin == f)
                  for f in FINISH_ORDER}
    return {"lines": lines, "by_finish": per_finish}


def collection_grid(user, *, army: str = "", type: str = "", owned: str = "", q: str = ""):
    """Cards with the copies owned in each finish, for the collection page."""
    from ..catalogue.records import fold

    qs = Card.objects.order_by("number")
    if army:
        qs = qs.filter(army=parse_choice(army, Army, "army"))
    if type:
        qs = qs.filter(type=parse_choice(type, CardType, "type"))
    if q:
        text = q.strip()
        qs = qs.filter(Q(search_name__contains=fold(text))
                       | (Q(number=int(text)) if text.isdigit() and len(text) < 6 else Q()))
    qs = qs.annotate(n_owned=Count("printings__owners", filter=Q(
        printings__owners__user=user, printings__owners__quantity__gt=0)))
    if owned == "owned":
        qs = qs.filter(n_owned__gt=0)
    elif owned == "missing":
        qs = qs.filter(n_owned=0)
    return qs


def grid_rows(user, cards) -> list[dict]:
    """For each card: its quantities and trade quantities per finish."""
    cards = list(cards)
    found = defaultdict(dict)
    for n, f, qty, tq in CollectionEntry.objects.filter(
            user=user, printing__card__in=cards).values_list(
            "printing__card__number", "printing__finish", "quantity", "trade_quantity"):
        found[n][f] = (qty, tq)
    return [{"card": card,
             "finishes": [{"finish": f.value, "label": f.label,
                           "quantity": found[card.number].get(f.value, (0, 0))[0],
                           "trade_quantity": found[card.number].get(f.value, (0, 0))[1]}
                          for f in FINISH_ORDER]}
            for card in cards]
