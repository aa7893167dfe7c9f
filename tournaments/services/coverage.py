"""Whether a player's collection backs their decks: the copies committed to other
tournaments (``committed_versions``), the copies left free (``free_copies``), and the check
at the start (``uncovered``, ``dealt_problems``). Registration and the lifecycle's start
both use it. A chosen deck's copies are counted by the deck check's one rule
(``decks.selectors.free_copies``, pure ``decks.rules.free_for``), as the deck pages count
them; registration adds the versions entered elsewhere as reserved."""

from __future__ import annotations

from django.db.models import Q

from decks.catalogue import cards_by_number
from decks.checks import rules_deck
from decks.models import DeckVersion
from decks.rules import free_for, validate
from decks.selectors import collection_counts
from decks.selectors import free_copies as deck_free_copies

from ..models import BATTLE, BEFORE_START, STARTED, DealPool, DeckKind, Entry, Tournament

ACTIVE = (*BEFORE_START, *STARTED)  # a tournament not over


def committed_versions(user, *, exclude_tournament=None, open_entries: bool = True):
    """The user's deck versions whose copies are spoken for: every LOCKED version (held by a
    started tournament) and, with ``open_entries``, every version the user has entered - as a
    player still in (not withdrawn, not dropped) - in any tournament that is not over (not
    started yet or running), other than ``exclude_tournament``."""
    held = Q(locked_at__isnull=False)
    if open_entries:
        held |= Q(pk__in=entered_versions(user, exclude_tournament=exclude_tournament))
    return DeckVersion.objects.filter(deck__owner=user).filter(held)


def entered_versions(user, *, exclude_tournament=None) -> set[int]:
    """Ids of the versions ``user`` has entered - as a player still in (not withdrawn, not
    dropped) - in any tournament that is not over, other than ``exclude_tournament``."""
    entries = Entry.objects.filter(user=user, tournament__status__in=ACTIVE,
                                   dropped_at__isnull=True)
    if exclude_tournament is not None:
        entries = entries.exclude(tournament=exclude_tournament)
    return {v for row in entries.values_list("french_version_id", "british_version_id",
                                             "prussian_version_id")
            for v in row if v is not None}


def free_copies(version: DeckVersion, user, *, tournament=None,
                open_entries: bool = True) -> dict[int, int]:
    """Copies per card number the user can put behind ``version`` (in ``tournament``): the
    deck check's own ``decks.selectors.free_copies`` - the collection less the copies of
    every locked version but this one - with, when ``open_entries``, the versions entered in
    the user's other unfinished tournaments reserved too (each is a physical deck another
    tournament counts on)."""
    reserved = (entered_versions(user, exclude_tournament=tournament) if open_entries
                else ())
    return deck_free_copies(user, version, reserved=reserved)


def uncovered(entry: Entry, tournament: Tournament) -> list[str]:
    """At the start: why the collection of ``entry``'s player no longer backs its decks, net
    of the copies held by started tournaments (LOCKED versions; empty: it does). The deck
    check's rule (``decks.rules.free_for``), the collection and locks read once per entry."""
    user = entry.user
    if tournament.game != BATTLE:
        return []  # another game than battle: no decks
    if tournament.deck_kind == DeckKind.DEALT:
        return dealt_problems(tournament, user)
    owned = collection_counts(user)
    committed = list(committed_versions(user, open_entries=False).values_list("pk", "entries"))
    problems = []
    for version in entry.versions():
        result = validate(rules_deck(version), cards_by_number(),
                          free_for(owned, committed, version.pk))
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
    owned = [n for n, count in collection_counts(user).items() if count > 0]
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
