"""A battle between two people seated from the start (a tournament's game, issue 12): no
waiting seat, no invitation; both sides' decks are known at once, so the decks are dealt and
the position is built now, the way ``services.create_battle`` (against the computer) and
``services.join_battle`` (the second player's seat) do it.

A side's choice (``french_choice``, ``allied_choice``):

* ``None``: every army of the side gets ``dealing.default_choice`` (the historical deck at
  scale 1, else a deal from the whole set);
* ``{"versions": [id, ...]}``: saved deck versions of that player, one per army (Waterloo's
  Allies may bring a British and a Prussian deck); checked by ``dealing.choose`` like a deck
  chosen at creation (owner, battle, army, scale, deck rules);
* ``{"deal": {"pool": "set" | "collection", "historical": bool}}``: dealt from a pool (2.0).

The caller runs it inside its own transaction when it needs one (a tournament pairs a round and
creates every battle in one transaction); nothing is sent to the players here but the
``play.signals.match_changed`` signal after commit (``services.changed``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from play import clock, enqueue
from play.seeds import new_seed, seed_hash

from . import dealing, setup
from .engine.state import BATTLES
from .errors import BattleError
from .kind import KIND, save_state
from .models import Battle, Status
from .services import changed, clean_settings


def side_choices(user, battle: str, side: str, scale: str, choice: dict | None
                 ) -> tuple[dict[str, dict], dict[str, Any]]:
    """Every army of ``side``: its deck choice (``Battle.deck_choices``), and the saved
    versions played (``{"<army>_deck": version}``)."""
    choice = choice or {}
    unknown = sorted(set(choice) - {"versions", "deal"})
    if unknown:
        raise BattleError(f"unknown deck choice {unknown[0]!r}; known: deal, versions")
    versions = [v for v in choice.get("versions") or () if v is not None]
    choices: dict[str, dict] = {}
    decks: dict[str, Any] = {}
    for version_id in versions:
        army_choices, version = dealing.choose(user, battle, side, scale, version_id)
        choices[version.army] = army_choices[version.army]
        decks[f"{version.army}_deck"] = version
    rest, _ = dealing.choose(user, battle, side, scale, None, choice.get("deal"))
    for army, army_choice in rest.items():
        choices.setdefault(army, army_choice)
    return choices, decks


def create_seated_battle(french_user, allied_user, battle: str, *, scale: Any = None,
                         french_choice: dict | None = None, allied_choice: dict | None = None,
                         time_control: dict | None = None, settings: dict | None = None,
                         rated: bool = False, public: bool = True,
                         catalogue: tuple[str, list[dict]] | None = None,
                         cards: Any = None) -> Battle:
    """A new ``active`` battle of ``french_user`` (French) against ``allied_user`` (Allies),
    decks dealt and position built now. ``time_control``: as ``Battle.time_control`` (the
    caller validated it: ``clock.validate``); the clocks start at once.
    ``catalogue``: ``setup.catalogue_now()`` and ``cards``: ``setup.table`` of its records,
    read once by a caller creating many battles (a round's)."""
    if french_user is None or allied_user is None or french_user.pk == allied_user.pk:
        raise BattleError("a seated battle needs two different players")
    if battle not in BATTLES:
        raise BattleError(f"unknown battle {battle!r}; choose from {', '.join(BATTLES)}")
    settings = clean_settings(settings)
    scale = dealing.clean_scale(battle, scale)
    french, french_decks = side_choices(french_user, battle, "french", scale, french_choice)
    allied, allied_decks = side_choices(allied_user, battle, "allied", scale, allied_choice)
    choices = {**french, **allied}
    seed = new_seed()
    catalogue_version, records = catalogue or setup.catalogue_now()
    decks = dealing.deal_decks(battle, seed, scale, choices, cards or setup.table(records))
    b = Battle(battle=battle, seed=seed, seed_hash=seed_hash(seed), decks=decks,
               settings=settings, scale=scale, deck_choices=choices,
               deck_kinds=dealing.deck_kinds(choices, scale), status=Status.ACTIVE,
               french_player=french_user, allied_player=allied_user, rated=rated,
               public=public, time_control=dict(time_control or {}),
               **french_decks, **allied_decks)
    setup.record_setup(b, catalogue_version, records)
    save_state(b, setup.setup_state(b))
    clock.start(b, timezone.now())  # both clocks full, the side with priority's running
    with transaction.atomic():
        b.save()
        enqueue.flag_fall_on_commit(KIND.kind, b)
        changed(b)
    return b
