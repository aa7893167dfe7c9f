"""Online battles: a setup plus an append-only list of actions (ARCHITECTURE: battles are
event logs).

A ``Battle`` holds the setup (battle, settings, every army's Battle Deck as dealt, the secret
seed) and a snapshot of the engine state after its last action (``state``: a cache; the log
rebuilds it, see ``services.replay``). Each applied action is a ``BattleAction`` with its own
sequence number, unique per battle (``one_action_per_seq``): two requests made from the same
sequence number can never both be recorded.

Who sits where: each side has a player (a user) or not. A side without a player is played
by the computer when ``bot`` is set (a battle against the computer, active from the start);
with no ``bot`` it is a human seat still empty: the battle is ``waiting`` for its second
player, anyone's to take (an open battle) or reserved for ``invited``. The check constraints
below keep these apart. The seed, the decks, the state and the unfiltered events never leave
the server as they are: players see ``selectors.battle_view`` only.
"""

from django.db import models
from django.db.models import Q

from cards.models import Battle as BattleName
from game import SIDE_NAMES, SIDES
from play.models import Match, MatchAction, MatchStatus, action_constraints, match_indexes

Side = models.TextChoices("Side", [(s.upper(), (s, SIDE_NAMES[s])) for s in SIDES])


class BotName(models.TextChoices):
    RANDOM = "random", "Random"
    GREEDY = "greedy", "Greedy"
    SEARCH_EASY = "search-easy", "Search (easy)"
    SEARCH = "search", "Search (normal)"
    SEARCH_HARD = "search-hard", "Search (hard)"


Status = MatchStatus


# Battles that never started: a human seat is (or stayed) empty and there is no engine state.
UNSTARTED = (Status.WAITING, Status.CANCELLED, Status.DECLINED, Status.EXPIRED)


class EndReason(models.TextChoices):
    """Why a battle ended besides the engine's own reasons (5.0 morale, 14.0 positions)."""

    RESIGNED = "resigned", "Resigned"
    TIME = "time", "Out of time"
    ABSENT = "absent", "Left the battle (claimed by the opponent)"


BOTH_SEATED = Q(french_player__isnull=False, allied_player__isnull=False)


class Battle(Match):
    battle = models.CharField(max_length=12, choices=BattleName.choices)
    bot = models.CharField(max_length=20, choices=BotName.choices, blank=True, default="",
                           help_text="Set only when the computer plays: the side without a "
                                     "player. Empty: two people play.")
    decks = models.JSONField(default=dict, help_text="Secret: army -> card numbers as dealt "
                                                     "(the setup a replay starts from).")
    scale = models.CharField(max_length=12, default="1",
                             help_text="2.0: one scale for every army's deck (exact fraction "
                                       "text, as decks use: '1', '1/2').")
    deck_choices = models.JSONField(
        default=dict, help_text="Secret: army -> the deck chosen (dealt: pool, historical and "
                                "the pool's card numbers; custom: version and cards); see "
                                "battles/dealing.py.")
    french_deck = models.ForeignKey("decks.DeckVersion", null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    british_deck = models.ForeignKey("decks.DeckVersion", null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    prussian_deck = models.ForeignKey("decks.DeckVersion", null=True, blank=True,
                                      on_delete=models.SET_NULL, related_name="+")
    catalogue_version = models.CharField(
        max_length=40, blank=True, default="",
        help_text="The catalogue version the battle was set up with (empty: set up before "
                  "battles recorded it).")
    deck_kinds = models.JSONField(
        default=dict, blank=True,
        help_text="army -> {kind, scale} of a player's own deck (3.0, 15.0, 16.0: its Muster "
                  "and rate); an army not named has a dealt deck.")
    # Copied from the snapshot by ``kind.save_state`` whenever it saves one, so that
    # lists and checks ("your move", the stalled computer) filter columns, not the JSON.
    to_move = models.CharField(max_length=10, choices=Side.choices, blank=True, default="",
                               help_text="The side with priority in ``state`` (empty: no "
                                         "position yet, or the battle is over).")
    turn = models.PositiveSmallIntegerField(null=True, blank=True,
                                            help_text="``state``'s turn (null: no position).")
    phase = models.CharField(max_length=20, blank=True, default="",
                             help_text="``state``'s phase (empty: no position).")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = match_indexes("battles_computer_to_move_idx", "battles_deadline_idx",
                                "battles")
        constraints = [
            models.CheckConstraint(condition=Q(french_player__isnull=False)
                                   | Q(allied_player__isnull=False),
                                   name="battle_has_a_player"),
            # The computer plays the one empty seat, so a battle against it has one.
            models.CheckConstraint(condition=Q(bot="") | ~BOTH_SEATED,
                                   name="computer_has_a_seat"),
            # A human seat is empty exactly while the battle has not started (waiting, or
            # cancelled / declined before anyone joined); only then is there no state.
            models.CheckConstraint(condition=Q(bot="", status__in=UNSTARTED) & ~BOTH_SEATED
                                   | ~Q(bot="") & ~Q(status__in=UNSTARTED)
                                   | BOTH_SEATED & ~Q(status__in=UNSTARTED),
                                   name="empty_human_seat_only_before_the_start"),
            models.CheckConstraint(condition=Q(state__isnull=False)
                                   | Q(status__in=UNSTARTED),
                                   name="started_battle_has_a_state"),
            models.CheckConstraint(condition=Q(invited__isnull=True) | Q(bot=""),
                                   name="invitations_are_for_people"),
            models.CheckConstraint(condition=~Q(status=Status.DECLINED)
                                   | Q(invited__isnull=False),
                                   name="only_an_invitation_is_declined"),
        ]

    def __str__(self) -> str:
        return f"{self.get_battle_display()} #{self.pk}"


class BattleAction(MatchAction):
    """Action number ``seq`` (from 1) of a battle, with every event it produced, unfiltered
    (filtered per viewer on the way out with ``engine.events_for``)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="actions")
    side = models.CharField(max_length=10, choices=Side.choices)

    class Meta:
        ordering = ["battle", "seq"]
        constraints = action_constraints("battle", "one_action_per_seq", "action_seq_from_one")

    def __str__(self) -> str:
        return f"{self.battle_id}#{self.seq} {self.side}"
