"""Trades between users and trade-partner suggestions.

A trade is offered with the cards each side gives; both sides must own them at offer time.
Accepting moves every card in one transaction: the trade row is locked first, then both users
(by id), then every collection row concerned (by printing id, then user id), so concurrent
accepts never deadlock and never create or lose a card. If either side no longer owns what it
gives, the accept fails with a Conflict that says what is missing and nothing changes.
"""

import re
from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..models import CollectionEntry, Trade, TradeLine, TradeStatus, WantEntry
from .services import (
    FINISH_ORDER,
    MAX_QUANTITY,
    Conflict,
    NotAllowed,
    NotFound,
    ServiceError,
    describe,
    get_printing,
    lock_users,
    locked_entries,
    parse_whole,
    save_entry,
)

MAX_LINES = 100
MAX_MESSAGE = 500


def trades_for(user, status: str = ""):
    """Trades the user proposed or received, newest first."""
    qs = (Trade.objects.filter(Q(proposer=user) | Q(recipient=user))
          .select_related("proposer", "recipient")
          .prefetch_related("lines__printing__card").order_by("-created_at", "-id"))
    if status:
        if status not in TradeStatus.values:
            raise ServiceError(f"unknown status {status!r} (use {', '.join(TradeStatus.values)})")
        qs = qs.filter(status=status)
    return qs


def get_trade(user, trade_id) -> Trade:
    """One of the user's trades; another user's trade is NotFound (its existence is not told)."""
    trade = trades_for(user).filter(id=trade_id).first() if isinstance(trade_id, int) else None
    if trade is None:
        raise NotFound("no such trade")
    return trade


def _lines(raw, side: str) -> dict[int, tuple]:
    """[(number, finish, quantity)] -> {printing id: (printing, quantity)}; duplicates refused."""
    if raw is None:
        raw = []
    if not isinstance(raw, list | tuple):
        raise ServiceError(f"{side} must be a list of cards")
    if len(raw) > MAX_LINES:
        raise ServiceError(f"{side}: at most {MAX_LINES} lines")
    result = {}
    for i, line in enumerate(raw, 1):
        try:
            number, finish, quantity = line
        except (TypeError, ValueError):
            raise ServiceError(f"{side} line {i}: expected card number, printing and"
                               " quantity") from None
        try:
            printing = get_printing(number, finish)
            quantity = parse_whole(quantity, "quantity", 1, MAX_QUANTITY)
        except ServiceError as exc:
            raise ServiceError(f"{side} line {i}: {exc.message}") from None
        if printing.id in result:
            raise ServiceError(f"{side} line {i}: {describe(printing)} is listed twice")
        result[printing.id] = (printing, quantity)
    return result


def _shortfalls(user, lines: dict[int, tuple], owned: dict[int, int], verb: str) -> list[str]:
    return [f"{user.username} {verb} {qty} × {describe(p)} but has {owned.get(pid, 0)}"
            for pid, (p, qty) in sorted(lines.items()) if owned.get(pid, 0) < qty]


def offer_trade(proposer, recipient, give=None, receive=None, message: str = "") -> Trade:
    """Offer a trade: `give` are the cards the proposer gives, `receive` the cards the recipient
    gives, each [(card number, finish, quantity)]. `recipient` is a user or a username."""
    if isinstance(recipient, str):
        name = recipient.strip()
        recipient = get_user_model().objects.filter(username__iexact=name).first() if name \
            else None
        if recipient is None:
            raise ServiceError(f"no user called {name!r}" if name else "recipient is required")
    if recipient.pk == proposer.pk:
        raise ServiceError("you cannot trade with yourself")
    message = (message or "").strip()
    if len(message) > MAX_MESSAGE:
        raise ServiceError(f"the message is {len(message)} characters; the limit is"
                           f" {MAX_MESSAGE}")
    gives, receives = _lines(give, "give"), _lines(receive, "receive")
    if not gives and not receives:
        raise ServiceError("a trade needs at least one card")
    both = sorted(set(gives) & set(receives))
    if both:
        raise ServiceError(f"{describe(gives[both[0]][0])} is on both sides of the trade")
    with transaction.atomic():
        lock_users([proposer.id, recipient.id])
        mine = dict(CollectionEntry.objects.filter(user=proposer, printing_id__in=gives)
                    .values_list("printing_id", "quantity"))
        theirs = dict(CollectionEntry.objects.filter(user=recipient, printing_id__in=receives)
                      .values_list("printing_id", "quantity"))
        problems = (_shortfalls(proposer, gives, mine, "would give")
                    + _shortfalls(recipient, receives, theirs, "would give"))
        if problems:
            raise ServiceError("both sides must own what they offer: " + "; ".join(problems))
        trade = Trade.objects.create(proposer=proposer, recipient=recipient, message=message)
        TradeLine.objects.bulk_create(
            [TradeLine(trade=trade, printing=p, quantity=q, from_proposer=True)
             for p, q in gives.values()]
            + [TradeLine(trade=trade, printing=p, quantity=q, from_proposer=False)
               for p, q in receives.values()])
    return get_trade(proposer, trade.id)


def _locked_trade(user, trade_id) -> Trade:
    get_trade(user, trade_id)  # 404 for strangers before taking any lock
    trade = Trade.objects.select_for_update().get(id=trade_id)
    if trade.status != TradeStatus.OFFERED:
        raise Conflict(f"this trade is already {trade.status}")
    return trade


def _close(trade: Trade, status: str) -> None:
    trade.status = status
    trade.closed_at = timezone.now()
    trade.save(update_fields=["status", "closed_at"])


def accept_trade(user, trade_id) -> Trade:
    """The recipient accepts: every card moves, or (Conflict) nothing does."""
    with transaction.atomic():
        trade = _locked_trade(user, trade_id)
        if trade.recipient_id != user.id:
            raise NotAllowed("only the recipient can accept a trade")
        lines = list(trade.lines.select_related("printing__card"))
        giver = {True: trade.proposer_id, False: trade.recipient_id}
        taker = {True: trade.recipient_id, False: trade.proposer_id}
        lock_users([trade.proposer_id, trade.recipient_id])
        rows = locked_entries(
            [(uid, line.printing_id) for line in lines
             for uid in (trade.proposer_id, trade.recipient_id)])
        names = {trade.proposer_id: trade.proposer.username,
                 trade.recipient_id: trade.recipient.username}
        problems = []
        for line in sorted(lines, key=lambda x: (not x.from_proposer, x.printing_id)):
            have = rows[(giver[line.from_proposer], line.printing_id)].quantity
            if have < line.quantity:
                problems.append(f"{names[giver[line.from_proposer]]} no longer has"
                                f" {line.quantity} × {describe(line.printing)} (has {have})")
        if problems:
            raise Conflict("the trade cannot be completed: " + "; ".join(problems))
        for line in lines:
            rows[(giver[line.from_proposer], line.printing_id)].quantity -= line.quantity
            rows[(taker[line.from_proposer], line.printing_id)].quantity += line.quantity
        too_many = [f"{names[uid]} would own {e.quantity} × {describe(e.printing)}, more than"
                    f" {MAX_QUANTITY}" for (uid, _), e in rows.items() if e.quantity > MAX_QUANTITY]
        if too_many:
            raise Conflict("the trade cannot be completed: " + "; ".join(too_many))
        for entry in rows.values():
            save_entry(entry)
        _close(trade, TradeStatus.ACCEPTED)
    return get_trade(user, trade.id)


def decline_trade(user, trade_id) -> Trade:
    with transaction.atomic():
        trade = _locked_trade(user, trade_id)
        if trade.recipient_id != user.id:
            raise NotAllowed("only the recipient can decline a trade (the proposer cancels it)")
        _close(trade, TradeStatus.DECLINED)
    return get_trade(user, trade.id)


def cancel_trade(user, trade_id) -> Trade:
    with transaction.atomic():
        trade = _locked_trade(user, trade_id)
        if trade.proposer_id != user.id:
            raise NotAllowed("only the proposer can cancel a trade (the recipient declines it)")
        _close(trade, TradeStatus.CANCELLED)
    return get_trade(user, trade.id)


LINE_RE = re.compile(r"^#?\s*(?P<number>\d+)\s+(?P<finish>[A-Za-z]+)"
                     r"(?:\s*(?:[x×*]\s*)?(?P<qty>\d+))?$")


def parse_lines_text(text: str, side: str) -> list[tuple[int, str, int]]:
    """Lines typed in a form, one card a line: '12 gold', '#12 Silver x2', '7 bronze 3'."""
    result = []
    for i, raw in enumerate((text or "").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        match = LINE_RE.match(line)
        if not match:
            raise ServiceError(f"{side} line {i}: write a card as 'number printing [x quantity]',"
                               f" e.g. '12 gold x2'; got {line!r}")
        result.append((int(match["number"]), match["finish"], int(match["qty"] or 1)))
    return result


# --- Partner suggestions ------------------------------------------------------------------

@dataclass
class Suggestion:
    user: object
    they_have: list[dict] = field(default_factory=list)  # on their trade list, on my want list
    they_want: list[dict] = field(default_factory=list)  # on my trade list, on their want list

    @property
    def two_way(self) -> bool:
        return bool(self.they_have and self.they_want)

    def as_dict(self) -> dict:
        return {"username": self.user.username, "two_way": self.two_way,
                "they_have": self.they_have, "they_want": self.they_want}


def _open_wants(user_ids) -> dict[int, list[WantEntry]]:
    """Each user's wants that are still missing copies (want_missing > 0)."""
    owned = defaultdict(int)
    for uid, card_id, finish, qty in CollectionEntry.objects.filter(
            user_id__in=user_ids).values_list("user_id", "printing__card_id",
                                              "printing__finish", "quantity"):
        owned[(uid, card_id, finish)] += qty
        owned[(uid, card_id, "")] += qty
    result = defaultdict(list)
    for want in WantEntry.objects.filter(user_id__in=user_ids).select_related("card"):
        if want.quantity - owned[(want.user_id, want.card_id, want.finish)] > 0:
            result[want.user_id].append(want)
    return result


def _matches(want: WantEntry, card_id: int, finish: str) -> bool:
    return want.card_id == card_id and want.finish in ("", finish)


def _card(entry: CollectionEntry) -> dict:
    return {"number": entry.printing.card.number, "name": entry.printing.card.name,
            "finish": entry.printing.finish, "available": entry.trade_quantity}


def suggest_partners(user, limit: int = 20) -> list[Suggestion]:
    """Users whose trade list meets my want list; two-way matches (they also want something on
    my trade list) first, then by number of matching cards."""
    my_wants = _open_wants([user.id]).get(user.id, [])
    if not my_wants:
        return []
    order = {f.value: i for i, f in enumerate(FINISH_ORDER)}
    offers = (CollectionEntry.objects.filter(trade_quantity__gt=0,
                                             printing__card_id__in={w.card_id for w in my_wants})
              .exclude(user=user).select_related("user", "printing__card"))
    found: dict[int, Suggestion] = {}
    for entry in offers:
        if any(_matches(w, entry.printing.card_id, entry.printing.finish) for w in my_wants):
            found.setdefault(entry.user_id, Suggestion(entry.user)).they_have.append(_card(entry))
    if not found:
        return []
    my_trade = list(CollectionEntry.objects.filter(user=user, trade_quantity__gt=0)
                    .select_related("printing__card"))
    for uid, their_wants in _open_wants(list(found)).items():
        for entry in my_trade:
            if any(_matches(w, entry.printing.card_id, entry.printing.finish)
                   for w in their_wants):
                found[uid].they_want.append(_card(entry))
    for s in found.values():
        for cards in (s.they_have, s.they_want):
            cards.sort(key=lambda c: (c["number"], order[c["finish"]]))
    ranked = sorted(found.values(), key=lambda s: (not s.two_way,
                                                   -(len(s.they_have) + len(s.they_want)),
                                                   s.user.username.casefold()))
    return ranked[:limit]


def trade_summary(trade: Trade) -> dict:
    """A trade as plain data (API and pages)."""
    def side(from_proposer: bool) -> list[dict]:
        lines = [x for x in trade.lines.all() if x.from_proposer == from_proposer]
        lines.sort(key=lambda x: (x.printing.card.number, FINISH_ORDER.index(x.printing.finish)))
        return [{"number": x.printing.card.number, "name": x.printing.card.name,
                 "finish": x.printing.finish, "quantity": x.quantity} for x in lines]

    return {"id": trade.id, "proposer": trade.proposer.username,
            "recipient": trade.recipient.username, "status": trade.status,
            "message": trade.message, "created_at": trade.created_at,
            "closed_at": trade.closed_at, "give": side(True), "receive": side(False)}

