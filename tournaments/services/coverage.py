"""Whether a player's collection backs their decks: the copies committed to other
tournaments (``committed_versions``), the copies left free (``free_copies``), and the check
at the start (``uncovered``, ``dealt_problems``). Registration and the lifecycle's start
both use it."""

from __future__ import annotations

from django.db.models import Q, Sum

from cards.models import CollectionEntry
from decks.catalogue import cards_by_number
from decks.checks import rules_deck
from decks.models import DeckVersion
from decks.rules import validate

from ..models import BEFORE_START, STARTED, DealPool, DeckKind, Entry, Tournament

ACTIVE = (*BEFORE_START, *STARTED)  # a tournament not over


def committed_versions(user, *, exclude_tournament=None, open_entries: bool = True):
    """The user's deck versions whose copies are spoken for: every LOCKED version (held by a
    started tournament) and, with ``open_entries``, every version the user has entered - as a
    player still in (not withdrawn, not dropped) - in any tournament that is not over (not
    started yet or running), other than ``exclude_tournament``."""
    held = Q(locked_at__isnull=False)
    if open_entries:
        entries = Entry.objects.filter(user=user, tournament__status__in=ACTIVE,
                                       dropped_at__isnull=True)
        if exclude_tournament is not None:
            entries = entries.exclude(tournament=exclude_tournament)
        ids = {v for row in entries.values_list("french_version_id", "british_version_id",
                                                "prussian_version_id")
               for v in row if v is not None}
        held |= Q(pk__in=ids)
    return DeckVersion.objects.filter(deck__owner=user).filter(held)


def collection(user) -> dict[int, int]:
    """Copies the user owns per card number."""
    return dict(CollectionEntry.objects.filter(user=user, quantity__gt=0)
                .values("printing__card__number").annotate(n=Sum("quantity"))
                .values_list("printing__card__number", "n"))


def net_free(owned: dict[int, int], committed: list[tuple[int, list]], version_pk) -> dict:
    """``owned`` less the copies of every committed version but ``version_pk``."""
    free = dict(owned)
    for pk, entries in committed:
        if pk == version_pk:
            continue
        for number, count, _printing in entries:
            if number in free:
                free[number] = max(0, free[number] - count)
    return free


def free_copies(version: DeckVersion, user, *, tournament=None,
                open_entries: bool = True) -> dict[int, int]:
    """Copies per card number the user can put behind ``version`` (in ``tournament``): the
    collection less the copies of every committed version other than this one
    (``committed_versions``: locked versions, and the versions entered in the user's other
    unfinished tournaments - each is a physical deck another tournament counts on)."""
    committed = list(committed_versions(user, exclude_tournament=tournament,
                                        open_entries=open_entries)
                     .values_list("pk", "entries"))
    return net_free(collection(user), committed, version.pk)


def uncovered(entry: Entry, tournament: Tournament) -> list[str]:
    """At the start: why the collection of ``entry``'s player no longer backs its decks, net
    of the copies held by started tournaments (LOCKED versions; empty: it does)."""
    user = entry.user
    if tournament.deck_kind == DeckKind.DEALT:
        return dealt_problems(tournament, user)
    owned = collection(user)
    committed = list(committed_versions(user, open_entries=False).values_list("pk", "entries"))
    problems = []
    for version in entry.versions():
        result = validate(rules_deck(version), cards_by_number(),
                          net_free(owned, committed, version.pk))
        if result.playable_from_collection is False:
            problems.append(
                f"deck version {version.pk} ({version.deck.name} v{version.number}) needs "
                "cards the collection no longer has free: "
                + "; ".join(p.message for p in result.problems if p.code == "not_owned"))
    return problems


def dealt_problems(t: Tournament, user) -> list[str]:
    """A dealt tournament with the pool ``collection``: why the player's collection cannot
    deal D x scale cards of every army at the tournament's scale (empty: it can)."""
    from battles.dealing import deck_size
    from decks.rules.chart import ARMY_NAMES, BATTLES_CHART
    from decks.rules.deal import pool_cards

    if t.deal_pool != DealPool.COLLECTION:
        return []
    owned = [n for n, count in collection(user).items() if count > 0]
    problems = []
    for army in BATTLES_CHART[t.battle]:
        have = len(pool_cards(cards_by_number(), t.battle, army, owned, t.deal_historical))
        need = deck_size(t.battle, army, t.scale)
        if have < need:
            hist = " historical" if t.deal_historical else ""
            problems.append(f"2.0: your collection has {have}{hist} {ARMY_NAMES[army]} cards "
                            f"for {t.get_battle_display()}; a deal at scale {t.scale} needs "
                            f"{need}")
    return problems
