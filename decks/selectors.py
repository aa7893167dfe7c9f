"""Reads about decks: a user's decks, the copies free for a deck version (``free_copies``),
which decks use a card, history.

No writes here (see ``decks.services``). Functions taking ``user`` only ever see that user's
decks; looking up another user's deck raises ``Deck.DoesNotExist`` (the API answers 404).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.db.models import OuterRef, Q, QuerySet, Subquery, Sum

from cards.models import CollectionEntry
from config.errors import NotFound
from play.sql import Compiled

from .models import Deck, DeckVersion
from .rules.ownership import free_for


def _latest(field: str) -> Subquery:
    return Subquery(DeckVersion.objects.filter(deck=OuterRef("pk")).order_by("-number")
                    .values(field)[:1])


def decks_of(user) -> QuerySet[Deck]:
    """The user's decks, newest change first, each annotated with its latest version's
    ``latest_number``, ``latest_valid``, ``latest_size`` and ``latest_bp_total``."""
    return (Deck.objects.filter(owner=user)
            .annotate(latest_number=_latest("number"), latest_valid=_latest("valid"),
                      latest_size=_latest("size"), latest_bp_total=_latest("bp_total"))
            .order_by("-updated_at", "-id"))


def deck_of(user, deck_id) -> Deck:
    """One of the user's decks; ``Deck.DoesNotExist`` for another user's deck or a bad id."""
    if isinstance(deck_id, str) and deck_id.isascii() and deck_id.isdigit() and len(deck_id) < 12:
        deck_id = int(deck_id)
    if user is None or not getattr(user, "is_authenticated", False) or type(deck_id) is not int:
        raise Deck.DoesNotExist
    return decks_of(user).get(pk=deck_id)


def shared_deck(token) -> Deck:
    """A deck its owner shared, by its token; ``Deck.DoesNotExist`` otherwise."""
    if not isinstance(token, str) or not token or len(token) > 32:
        raise Deck.DoesNotExist
    return Deck.objects.select_related("owner").get(share_token=token)


def version_of(deck: Deck, number) -> DeckVersion:
    """Version ``number`` of the deck; ``DeckVersion.DoesNotExist`` if there is none."""
    if type(number) is not int:
        raise DeckVersion.DoesNotExist
    return deck.versions.get(number=number)


def no_version(version_id) -> NotFound:
    """The one refusal for a deck version that is not the user's: the same status, code and
    text whether it is someone else's or does not exist (its existence stays private)."""
    return NotFound(f"no such deck version {version_id} among your decks")


def own_version(user, version_id: int) -> DeckVersion:
    """The user's deck version ``version_id`` (deck joined); ``no_version`` otherwise."""
    version = (DeckVersion.objects.select_related("deck")
               .filter(pk=version_id, deck__owner_id=getattr(user, "pk", None)).first())
    if version is None:
        raise no_version(version_id)
    return version


def playable_version(deck: Deck) -> DeckVersion | None:
    """The latest *valid* version (only a valid version can be used to play), or None."""
    return deck.versions.filter(valid=True).order_by("-number").first()


def playable_versions(user) -> QuerySet[DeckVersion]:
    """``playable_version`` of each of the user's decks that has one, in one query (with its
    deck; decks newest change first): not a query per deck. Only the columns a deck choice
    shows, never the entries. ``user``: a user or a user's id."""
    latest = Subquery(DeckVersion.objects.filter(deck=OuterRef("deck"), valid=True)
                      .order_by("-number").values("number")[:1])
    return (DeckVersion.objects.filter(deck__owner=user, valid=True, number=latest)
            .select_related("deck")
            .only("id", "number", "battle", "army", "kind", "scale", "deck__id",
                  "deck__name", "deck__battle", "deck__army")
            .order_by("-deck__updated_at", "-deck_id"))


# ``playable_versions`` compiled once per process (issue 31: the battles page reads it on
# every request, and compiling its subquery cost more than running it)
_PLAYABLE = Compiled(lambda uid: playable_versions(uid), ("id",))


def playable_version_list(user) -> list[DeckVersion]:
    """``list(playable_versions(user))`` (a visitor: none)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return _PLAYABLE.rows(user.pk)


def collection_counts(user) -> dict[int, int]:
    """Copies the user owns per card number (all printings together), committed or not."""
    return dict(CollectionEntry.objects.filter(user=user, quantity__gt=0)
                .values("printing__card__number").annotate(n=Sum("quantity"))
                .values_list("printing__card__number", "n"))


def free_copies(user, version: DeckVersion | None = None, *,
                reserved: Iterable[int] = ()) -> dict[int, int]:
    """THE deck check's collection: copies per card number (all printings together) that
    ``user`` can put behind ``version`` - the builder, save, the deck list, the deck API and
    tournament registration all check a deck against this.

    The rule (``decks.rules.free_for``): the collection less the copies committed to every
    LOCKED version of the user's decks (a tournament that started holds it: a physical deck)
    and to every version in ``reserved`` (ids; registration passes the versions entered in the
    player's other unfinished tournaments), except ``version`` itself. The copies committed
    to a version are held FOR it: they back that version and no other - not another version
    of the same deck, nor a list not saved yet (``version`` None, e.g. a save, which makes a
    new version no tournament holds). Several committed versions add up. Never negative.
    """
    held = Q(locked_at__isnull=False)
    reserved = [pk for pk in reserved if pk is not None]
    if reserved:
        held |= Q(pk__in=reserved)
    committed = (DeckVersion.objects.filter(deck__owner=user).filter(held)
                 .values_list("pk", "entries"))
    return free_for(collection_counts(user), committed,
                    None if version is None else version.pk)


def owned_counts(user) -> dict[int, int]:
    """``free_copies(user)``: the copies free for a new deck (every locked version's copies
    held). For callers outside the deck check (dealing, campaigns)."""
    return free_copies(user)


def latest_versions(user) -> QuerySet[DeckVersion]:
    """The latest version of each of the user's decks (with its deck)."""
    latest = Subquery(DeckVersion.objects.filter(deck=OuterRef("deck")).order_by("-number")
                      .values("number")[:1])
    return (DeckVersion.objects.filter(deck__owner=user, number=latest)
            .select_related("deck").order_by("deck__name", "deck_id"))


def decks_using_cards(user) -> dict[int, list[Deck]]:
    """Card number -> the user's decks whose latest version uses it (by deck name)."""
    using: dict[int, list[Deck]] = {}
    for version in latest_versions(user):
        for number in sorted({entry[0] for entry in version.entries}):
            using.setdefault(number, []).append(version.deck)
    return using


def _counts(version: DeckVersion | None) -> Counter:
    counts: Counter = Counter()
    if version is not None:
        for number, count, _printing in version.entries:
            counts[number] += count
    return counts


def version_diff(older: DeckVersion | None, newer: DeckVersion) -> dict:
    """Cards added and removed from ``older`` (None: an empty deck) to ``newer``, per card
    number (printings together): ``{"added": [(number, count)], "removed": [...]}``."""
    before, after = _counts(older), _counts(newer)
    return {
        "added": sorted((n, c - before[n]) for n, c in after.items() if c > before[n]),
        "removed": sorted((n, c - after[n]) for n, c in before.items() if c > after[n]),
    }


def history(deck: Deck) -> list[dict]:
    """Every version, newest first, each with its diff from the version before it:
    ``{"version": DeckVersion, "number", "created_at", "note", "valid", "size", "bp_total",
    "locked": bool, "added": [(number, count)], "removed": [...]}``."""
    versions = list(deck.versions.order_by("number"))
    rows = []
    previous = None
    for version in versions:
        diff = version_diff(previous, version)
        rows.append({"version": version, "number": version.number,
                     "created_at": version.created_at, "note": version.note,
                     "valid": version.valid, "size": version.size,
                     "bp_total": version.bp_total, "locked": version.locked_at is not None,
                     **diff})
        previous = version
    rows.reverse()
    return rows
