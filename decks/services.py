"""Deck use cases that write: create a deck and save versions, delete, share, add missing
cards to the want list; also a version's statistics and a sample muster.

Every rule lives in ``decks.rules`` (pure); input is read by ``decks.inputs``, checking
without saving is ``decks.checks``, import and export ``decks.exchange``. Each change runs in
one transaction and locks the deck row it changes, so two saves of one deck can never produce
the same version number. The API, the pages and the CLI only call these modules (and
``decks.selectors`` for reads).

Bad input raises ``DeckInputError`` and saves nothing. Broken *rules* do not raise: a deck with
problems is saved as a draft (``valid=False``) and the problems are returned.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.db.models import Max, ProtectedError

from cards.collection.services import lock_users
from cards.models import Card, WantEntry
from config.errors import Conflict

from .catalogue import cards_by_number
from .checks import entries_of, rules_deck, validate_deck
from .inputs import clean_entries, clean_seed, clean_settings, clean_text, no_cards_if_dealt
from .models import Deck, DeckKind, DeckPool, DeckVersion
from .rules import Deck as RulesDeck
from .rules import DeckEntry, dealable, validate, validate_pool
from .selectors import free_copies
from .stats import deck_statistics


class DeckLocked(Conflict):
    """The deck has a version locked by a tournament."""

    code = "deck_locked"


def _stored_entries(entries: Iterable[DeckEntry]) -> list[list]:
    return [[e.number, e.count, e.printing] for e in entries]


# --- Saving ---------------------------------------------------------------------------------

def _new_version(deck: Deck, number: int, entries: tuple[DeckEntry, ...], note: str
                 ) -> DeckVersion:
    no_cards_if_dealt(deck.kind, entries)
    rules = RulesDeck(deck.battle, deck.army, deck.kind, deck.scale, entries, deck.historical,
                      deck.pool)
    # The rules' problems when saved; a chosen deck's collection is checked when shown
    # (``checks.check_version``), a dealt deck's pool here: the copies free for a new version,
    # which no tournament holds (``selectors.free_copies``: every locked version's copies,
    # this deck's earlier versions' too, are held).
    result = validate_deck(rules, deck.owner)
    return DeckVersion.objects.create(
        deck=deck, number=number, note=note, battle=deck.battle, army=deck.army,
        kind=deck.kind, scale=deck.scale, historical=deck.historical, pool=deck.pool,
        entries=_stored_entries(entries), valid=result.valid, size=result.size,
        bp_total=result.bp_total, problems=[p.to_dict() for p in result.problems])


def create_deck(owner, *, name: str, battle: str, army: str, kind: str = "custom",
                scale: str = "1", historical: bool = False, pool: str = "collection",
                entries: Iterable = (), description: str = "", note: str = "") -> Deck:
    """A new deck with its version 1 (saved even with rule problems: a draft). A dealt deck
    (2.0) names its pool and holds no cards."""
    settings = clean_settings(battle=battle, army=army, kind=kind, scale=scale,
                              historical=historical, pool=pool)
    name = clean_text(name, "name", 100, required=True)
    description = clean_text(description, "description", 2000)
    note = clean_text(note, "note", 200)
    clean = clean_entries(entries)
    with transaction.atomic():
        deck = Deck.objects.create(owner=owner, name=name, description=description,
                                   **settings)
        _new_version(deck, 1, clean, note)
    return deck


def save_version(deck: Deck, *, entries=None, name=None, battle=None, army=None, kind=None,
                 scale=None, historical=None, pool=None, description=None, note: str = ""
                 ) -> DeckVersion:
    """Save a new version of ``deck``. Fields left None keep their value (entries: the latest
    version's). A version with problems is saved (``valid=False``)."""
    note = clean_text(note, "note", 200)
    new_name = None if name is None else clean_text(name, "name", 100, required=True)
    new_description = (None if description is None
                       else clean_text(description, "description", 2000))
    clean = None if entries is None else clean_entries(entries)
    with transaction.atomic():
        locked = Deck.objects.select_for_update().get(pk=deck.pk)
        settings = clean_settings(
            battle=locked.battle if battle is None else battle,
            army=locked.army if army is None else army,
            kind=locked.kind if kind is None else kind,
            scale=locked.scale if scale is None else scale,
            historical=locked.historical if historical is None else historical,
            pool=locked.pool if pool is None else pool)
        for field, value in settings.items():
            setattr(locked, field, value)
        if new_name is not None:
            locked.name = new_name
        if new_description is not None:
            locked.description = new_description
        last = locked.versions.aggregate(n=Max("number"))["n"] or 0
        if clean is None:
            previous = locked.versions.filter(number=last).first()
            clean = entries_of(previous) if previous else ()
            if locked.kind == DeckKind.DEALT:  # a chosen deck turned dealt: no cards to keep
                clean = ()
        locked.save()
        version = _new_version(locked, last + 1, clean, note)
    for field in ("name", "description", "updated_at", *settings):
        setattr(deck, field, getattr(locked, field))
    return version


# --- Delete and share -----------------------------------------------------------------------

def delete_deck(deck: Deck) -> None:
    """Delete a deck and its versions; refused (``DeckLocked``) while a tournament holds one."""
    with transaction.atomic():
        locked = Deck.objects.select_for_update().get(pk=deck.pk)
        if locked.versions.filter(locked_at__isnull=False).exists():
            raise DeckLocked("a version of this deck is locked by a tournament; it cannot be "
                             "deleted")
        try:
            with transaction.atomic():
                locked.delete()
        except ProtectedError:  # a tournament (or another app) still refers to a version
            raise DeckLocked("a version of this deck is used by a tournament; it cannot be "
                             "deleted") from None


def share(deck: Deck) -> str:
    """Share the deck read-only; returns its token (the same one if already shared)."""
    with transaction.atomic():
        locked = Deck.objects.select_for_update().get(pk=deck.pk)
        if not locked.share_token:
            for _ in range(5):
                try:
                    with transaction.atomic():
                        locked.share_token = Deck.new_share_token()
                        locked.save(update_fields=["share_token"])
                    break
                except IntegrityError:  # astronomically unlikely token clash: draw again
                    locked.share_token = None
        deck.share_token = locked.share_token
    return deck.share_token


def unshare(deck: Deck) -> None:
    """Stop sharing: the old link answers 404 from now on."""
    with transaction.atomic():
        Deck.objects.select_for_update().filter(pk=deck.pk).update(share_token=None)
    deck.share_token = None


# --- Wants ----------------------------------------------------------------------------------

def add_missing_to_wants(user, deck: Deck) -> list[tuple[int, int]]:
    """Put the cards the deck's latest version needs and ``user`` lacks on their want list.

    Missing = max(0, needed - free), free: the copies of the user's collection free for that
    version (``selectors.free_copies``: any printing, net of the copies committed to every
    other locked version). The want (any finish) is raised to at least the missing count,
    never added twice: clicking again adds nothing. Returns (number, copies added) for each
    want that grew.
    """
    version = deck.latest
    if version is None:
        return []
    needed = RulesDeck(version.battle, version.army, entries=entries_of(version)).counts()
    added: list[tuple[int, int]] = []
    with transaction.atomic():
        lock_users([user.id])
        owned = free_copies(user, version)
        missing = {n: max(0, c - owned.get(n, 0)) for n, c in needed.items()}
        missing = {n: m for n, m in missing.items() if m > 0}
        if not missing:
            return []
        wants = {w.card.number: w for w in WantEntry.objects.select_for_update()
                 .select_related("card").filter(user=user, finish="",
                                                card__number__in=missing)}
        card_ids = dict(Card.objects.filter(number__in=missing).values_list("number", "id"))
        for number in sorted(missing):
            want = wants.get(number)
            have = want.quantity if want else 0
            if missing[number] <= have:
                continue
            if want:
                want.quantity = missing[number]
                want.save(update_fields=["quantity"])
            else:
                WantEntry.objects.create(user=user, card_id=card_ids[number], finish="",
                                         quantity=missing[number])
            added.append((number, missing[number] - have))
    return added


def version_statistics(version: DeckVersion) -> dict:
    """``stats.deck_statistics`` of a saved version."""
    return deck_statistics(version.entries, cards_by_number())


# --- Sample muster --------------------------------------------------------------------------

def sample_muster(version: DeckVersion, seed: int | None = None) -> dict:
    """Deal a random muster from the version, as players draw a sample hand (3.0).

    The same seed always deals the same muster. Waterloo Prussians have no muster: the whole
    deck is reinforcements, so ``muster`` is empty. A dealt deck (2.0) has no cards of its own:
    a sample deck of D x scale distinct cards is dealt from its pool first (a sample only; the
    battle deals the real one with its own secret seed).
    """
    seed = clean_seed(seed)
    if seed is None:
        seed = secrets.randbelow(2**31)
    rules = rules_deck(version)
    if version.kind == DeckKind.DEALT:
        return _sample_deal(version, rules, seed)
    result = validate(rules, cards_by_number())
    cards = [e.number for e in sorted(entries_of(version)) for _ in range(e.count)]
    random.Random(seed).shuffle(cards)
    size = min(result.muster or 0, len(cards))
    return {"seed": seed, "muster": cards[:size], "reinforcements_left": len(cards) - size}


def _sample_deal(version: DeckVersion, rules: RulesDeck, seed: int) -> dict:
    cards = cards_by_number()
    owned = (free_copies(version.deck.owner, version)
             if version.pool == DeckPool.COLLECTION else None)
    pool = sorted(n for n, card in cards.items()
                  if (owned is None or owned.get(n, 0) > 0)
                  and dealable(card, rules.battle, rules.army, rules.historical))
    result = validate_pool(rules, cards, None if owned is None else owned)
    deck = random.Random(seed).sample(pool, min(result.required_size or 0, len(pool)))
    size = min(result.muster if result.muster is not None else 0, len(deck))
    return {"seed": seed, "muster": deck[:size], "reinforcements_left": len(deck) - size}
