"""Registration with deck lists, withdrawal, check-in and drops."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from cards.models import Army, Battle
from decks.catalogue import cards_by_number
from decks.checks import rules_deck
from decks.models import DeckKind as DeckRulesKind
from decks.models import DeckVersion
from decks.rules import validate
from decks.selectors import no_version, own_version

from ..models import (
    BATTLE,
    BEFORE_START,
    STARTED,
    DeckKind,
    Entry,
    Format,
    Status,
    Tournament,
)
from .common import is_organiser, lock_tournament
from .coverage import ACTIVE, committed_versions, dealt_problems, free_copies, uncovered
from .errors import Conflict, NotAllowed, NotFound, TournamentError
from .lifecycle import finish_if_decided

# the coverage checks are re-exported: registration is where callers look for them
__all__ = ["ACTIVE", "SIDE_ARMIES", "check_in", "committed_versions", "dealt_problems",
           "deck_problems", "drop", "entered_elsewhere", "free_copies", "register",
           "sides_needed", "uncovered", "withdraw"]

SIDE_ARMIES = {"french_version": Army.FRENCH, "british_version": Army.BRITISH,
               "prussian_version": Army.PRUSSIAN}


ALLIED_ARMIES = {
    Battle.QUATRE_BRAS: ["british_version"],
    Battle.LIGNY: ["prussian_version"],
    Battle.WAVRE: ["prussian_version"],
    Battle.WATERLOO: ["british_version", "prussian_version"],
}


def sides_needed(battle: str) -> list[str]:
    """One deck per army of the battle: French, and the Allied armies that fought there."""
    return ["french_version", *ALLIED_ARMIES[battle]]


def deck_problems(t: Tournament, version: DeckVersion, army: str, user) -> list[str]:
    """Why ``version`` cannot be ``user``'s ``army`` deck in ``t`` (empty: it can)."""
    problems = []
    label = f"deck version {version.pk} ({version.deck.name} v{version.number})"
    if version.deck.owner_id != user.pk:
        # Never the deck's name: it would enumerate other players' private decks (issue 11).
        return [no_version(version.pk).message]
    if version.army != army:
        problems.append(f"{label} is a {version.army} deck, not {army}")
    if version.battle != t.battle:
        problems.append(f"{label} is for {version.battle}, the tournament is {t.battle}")
    # Deck kind "standard" is gone: hand-picked decks are custom (15.0) and saved standard decks
    # became custom drafts, so every tournament takes a custom deck until dealt decks (2.0)
    # reach tournaments (the dealing branch).
    want_kind = DeckRulesKind.CUSTOM
    if version.kind != want_kind:
        problems.append(f"{label} is a {version.kind} deck; the tournament needs {want_kind}")
    if t.deck_kind == DeckKind.HISTORICAL and not version.historical:
        problems.append(f"{label} is not historical-only")
    if version.scale != t.scale:
        problems.append(f"{label} is at scale {version.scale}; the tournament plays {t.scale}")
    if problems:
        return problems
    result = validate(rules_deck(version), cards_by_number(),
                      free_copies(version, user, tournament=t))
    if not result.valid:
        problems.append(f"{label} breaks the deck rules: "
                        + "; ".join(p.message for p in result.errors))
    if result.playable_from_collection is False:
        problems.append(f"{label} needs cards your collection does not have free: "
                        + "; ".join(p.message for p in result.problems if p.code == "not_owned"))
    return problems


def entered_elsewhere(version: DeckVersion, tournament: Tournament | None = None):
    """Tournaments not over (registration to running/paused) where ``version`` is entered by
    a player still in (withdrawn or dropped entries free it), other than ``tournament``."""
    holding = Entry.objects.filter(
        Q(french_version=version) | Q(british_version=version) | Q(prussian_version=version),
        tournament__status__in=ACTIVE, dropped_at__isnull=True)
    if tournament is not None:
        holding = holding.exclude(tournament=tournament)
    return Tournament.objects.filter(pk__in=holding.values("tournament_id")).order_by("pk")


def _version(value, side: str, user) -> DeckVersion:
    pk = getattr(value, "pk", value)
    if (isinstance(pk, bool) or not isinstance(pk, int | str) or not str(pk).isascii()
            or not str(pk).isdigit() or len(str(pk)) > 18):
        raise TournamentError(f"{side} must be a deck version id")
    # someone else's version and none at all get the same answer (issue 11): a 400 here, so
    # the registration form comes back listing it, as for any other deck it refuses
    try:
        return own_version(user, int(pk))
    except NotFound as exc:
        raise TournamentError(f"{side}: {exc.message}", problems=[exc.message]) from None


def _late_entry_open(t: Tournament) -> bool:
    swiss = t.format in (Format.SWISS, Format.SWISS_TWO_GAME, Format.SWISS_TOP_CUT)
    swiss_rounds = t.rounds or (t.planned_rounds or 1)
    return (t.late_entry and swiss and t.status == Status.RUNNING
            and t.current_round < (swiss_rounds + 1) // 2)


def register(tournament_id, user, *, french_version=None, british_version=None,
             prussian_version=None, club: str = "") -> Entry:
    """Enter ``user`` with one valid deck version per side, owned and backed by their
    collection; in a dealt tournament with no deck (2.0: each battle deals them), the
    collection able to deal every army when the pool is ``collection``. During a Swiss
    with late entry, the entry joins the next round with 0 points
    and its decks lock at once."""
    given = {"french_version": french_version, "british_version": british_version,
             "prussian_version": prussian_version}
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        late = _late_entry_open(t)
        if t.status != Status.REGISTRATION and not late:
            raise Conflict("registration is closed")
        if t.entries.filter(user=user).exists():
            raise Conflict("you are already registered; withdraw first to change decks")
        if t.max_players and t.entries.count() >= t.max_players:
            raise Conflict(f"the tournament is full ({t.max_players} players)")
        if t.game != BATTLE:
            return _register_without_decks(t, user, given, late, club)
        needed = sides_needed(t.battle)
        if t.deck_kind == DeckKind.DEALT:
            return _register_dealt(t, user, given, late, club)
        for side, value in given.items():
            if value not in (None, "") and side not in needed:
                raise TournamentError(f"{side}: that army does not fight at "
                                      f"{t.get_battle_display()}")
        versions, problems = {}, []
        for side in needed:
            if given[side] in (None, ""):
                raise TournamentError(f"{side} is required at {t.get_battle_display()}")
            versions[side] = _version(given[side], side, user)
            problems += deck_problems(t, versions[side], SIDE_ARMIES[side], user)
        # one active tournament per deck version: lock the versions (in pk order), so two
        # registrations of one version in two tournaments run one after the other
        list(DeckVersion.objects.select_for_update().filter(
            pk__in=[v.pk for v in versions.values()]).order_by("pk").values_list("pk",
                                                                                flat=True))
        held = []
        for side in needed:
            v = versions[side]
            if v.deck.owner_id != user.pk:
                continue
            for other in entered_elsewhere(v, t)[:1]:
                held.append(
                    f'deck version {v.pk} ({v.deck.name} v{v.number}) is already entered in '
                    f'the tournament "{other.name}" (#{other.pk}), which is not over; a '
                    "version plays one tournament at a time: withdraw it there, wait for "
                    "that tournament to end, or save a new version")
        if problems or held:
            message = "these decks cannot be registered"
            if held:
                message += ": " + held[0]
            raise TournamentError(message, problems=problems + held)
        seed = (t.entries.order_by("-seed").values_list("seed", flat=True).first() or 0) + 1
        entry = Entry.objects.create(tournament=t, user=user, seed=seed, late=late,
                                     club=str(club or "")[:60], **versions)
        if late:
            now = timezone.now()
            DeckVersion.objects.filter(pk__in=[v.pk for v in versions.values()]).update(
                locked_at=now)
            entry.checked_in_at = now
            entry.save(update_fields=["checked_in_at"])
    return entry


def _register_without_decks(t: Tournament, user, given: dict, late: bool, club) -> Entry:
    """Another game than battle: an entry is the player, no deck (one given: 400)."""
    chosen = [side for side, value in given.items() if value not in (None, "")]
    if chosen:
        raise TournamentError(f"{chosen[0]}: a {t.game} tournament registers no deck (decks "
                              "are for battle tournaments)")
    return _new_entry(t, user, late, club)


def _new_entry(t: Tournament, user, late: bool, club) -> Entry:
    seed = (t.entries.order_by("-seed").values_list("seed", flat=True).first() or 0) + 1
    entry = Entry.objects.create(tournament=t, user=user, seed=seed, late=late,
                                 club=str(club or "")[:60])
    if late:
        entry.checked_in_at = timezone.now()
        entry.save(update_fields=["checked_in_at"])
    return entry


def _register_dealt(t: Tournament, user, given: dict, late: bool, club) -> Entry:
    """2.0: a dealt tournament registers no deck; each battle deals the cards from the
    declared pool with its own seed."""
    chosen = [side for side, value in given.items() if value not in (None, "")]
    if chosen:
        raise TournamentError(
            f"{chosen[0]}: this tournament deals the decks (2.0): no deck is chosen at "
            f"registration; each battle deals D x scale {t.scale} cards from "
            f"{t.get_deal_pool_display()}")
    problems = dealt_problems(t, user)
    if problems:
        raise TournamentError("you cannot register: " + problems[0], problems=problems)
    return _new_entry(t, user, late, club)


def _entry(t: Tournament, user) -> Entry:
    entry = t.entries.filter(user=user).first() if user and user.is_authenticated else None
    if entry is None:
        raise NotFound("you are not registered in this tournament")
    return entry


def withdraw(tournament_id, user) -> None:
    """Before the start: leave (the entry is deleted). After: the same as dropping."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        entry = _entry(t, user)
        if t.status in BEFORE_START:
            entry.delete()
            return
    drop(tournament_id, user, entry.pk)


def check_in(tournament_id, user) -> Entry:
    """Confirm presence during the check-in window (again: no change)."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        entry = _entry(t, user)
        if t.status != Status.CHECK_IN:
            raise Conflict("check-in is not open")
        if entry.checked_in_at is None:
            entry.checked_in_at = timezone.now()
            entry.save(update_fields=["checked_in_at"])
    return entry


def drop(tournament_id, actor, entry_id) -> Entry:
    """Drop a player (the organiser any player, a player themself): no longer paired; past
    results and standings are unchanged. Refused after the end."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        pk = getattr(entry_id, "pk", entry_id)
        try:
            pk = int(pk)
        except (TypeError, ValueError):
            raise NotFound("no such player in this tournament") from None
        entry = t.entries.filter(pk=pk).first()
        if entry is None:
            raise NotFound("no such player in this tournament")
        if not is_organiser(t, actor) and entry.user_id != getattr(actor, "pk", None):
            raise NotAllowed("only the organiser or the player may drop a player")
        if t.status in (Status.FINISHED, Status.CANCELLED):
            raise Conflict("the tournament is over; nobody can drop any more")
        if t.status not in STARTED:
            raise Conflict("the tournament has not started; withdraw instead")
        if entry.dropped:
            raise Conflict("this player has already dropped")
        entry.dropped_at = timezone.now()
        entry.dropped_after_round = t.current_round
        entry.save(update_fields=["dropped_at", "dropped_after_round"])
        if t.format == Format.DOUBLE_ELIMINATION:
            finish_if_decided(t)
    return entry
