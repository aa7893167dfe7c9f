"""Tournaments: entries with locked deck lists, rounds, matches, reports, results, standings.

Every result enters through ``tournaments.services.lifecycle.record_result`` (reports, disputes,
corrections, the time limit, no-shows and, later, online battles). Two-game matches (and their
reports) also store each game's outcome (``game1``, ``game2``: ``GameOutcome``); the totals
agree with them. A round is unique per tournament (``one_round_number_per_tournament``): a
doubled or retried pairing task can never create it twice.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.functional import cached_property

from cards.models import Battle


class DeckKind(models.TextChoices):
    """The deck format. ``dealt``: no deck is registered; each battle deals D x scale cards
    face-down from the pool the organiser declared (2.0). ``custom``: a saved custom deck
    per army at the tournament's scale (15.0, BP x scale); ``historical``: the same, with
    only cards that fought the battle (2.0's option). Tournaments made before dealt decks
    with saved "standard" decks became ``custom`` (migration 0006), as their decks did."""

    DEALT = "dealt", "Dealt from a declared pool (2.0)"
    CUSTOM = "custom", "Custom Battle Points (15.0)"
    HISTORICAL = "historical", "Custom Battle Points, historical cards only (15.0; 2.0 option)"


class DealPool(models.TextChoices):
    SET = "set", "the whole set"
    COLLECTION = "collection", "each player's collection"


class Format(models.TextChoices):
    SWISS = "swiss", "Swiss"
    SWISS_TWO_GAME = "swiss_two_game", "Swiss, two-game matches"
    ROUND_ROBIN = "round_robin", "Round robin"
    SINGLE_ELIMINATION = "single_elimination", "Single elimination"
    DOUBLE_ELIMINATION = "double_elimination", "Double elimination"
    SWISS_TOP_CUT = "swiss_top_cut", "Swiss with a top cut"


class PairingMode(models.TextChoices):
    SCHEDULED = "scheduled", "At each round's scheduled start time"
    ON_COMPLETION = "on_completion", "As soon as the previous round is complete"


class Status(models.TextChoices):
    REGISTRATION = "registration", "Registration open"
    CLOSED = "closed", "Registration closed"
    CHECK_IN = "check_in", "Check-in open"
    RUNNING = "running", "Running"
    PAUSED = "paused", "Paused"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


BEFORE_START = (Status.REGISTRATION, Status.CLOSED, Status.CHECK_IN)
STARTED = (Status.RUNNING, Status.PAUSED)

TIEBREAKERS = ("omw", "gw", "ogw", "french", "allied")
DEFAULT_TIEBREAKERS = ["omw", "gw", "ogw"]


class GameOutcome(models.TextChoices):
    """One game of a two-game match, named by the match's listing: ``french`` = won by the
    player listed as French (who plays French in game 1 and Allied in game 2), ``allied`` =
    won by the player listed as Allied, ``draw``."""

    FRENCH = "french", "Won by the player listed as French"
    ALLIED = "allied", "Won by the player listed as Allied"
    DRAW = "draw", "Drawn"


def _per_game_fields_agree(prefix: str) -> models.CheckConstraint:
    """Both games recorded or neither (one-game matches, double losses, byes, legacy 1-1)."""
    return models.CheckConstraint(
        condition=Q(game1="", game2="") | (~Q(game1="") & ~Q(game2="")),
        name=f"{prefix}_both_games_or_neither")


def _game_field(number: int) -> models.CharField:
    side = "French" if number == 1 else "Allied"
    return models.CharField(
        max_length=6, choices=GameOutcome.choices, blank=True, default="",
        help_text=f"Two-game matches: game {number} (the listed French player plays {side}); "
                  "empty for one-game matches and double losses.")


BATTLE = "battle"  # the EAGLES battle: the game whose tournaments have a battle and decks


def game_choices() -> list[tuple[str, str]]:
    """The games a tournament can be of: every registered kind with a ``seat`` hook
    (``play.seating.can_seat``), read when asked (the registry fills at start-up)."""
    from play import registry

    return [(k.kind, k.game.title) for k in registry.kinds() if k.seat is not None]


class Tournament(models.Model):
    name = models.CharField(max_length=120)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  related_name="organised_tournaments")
    description = models.TextField(blank=True, default="", max_length=5000)
    # The game its matches are played in (``play.registry``: a kind a tournament can seat,
    # ``play.seating.can_seat``); the EAGLES fields below (battle, deck_kind, scale, deal_pool,
    # deal_historical) and registration with decks apply only to "battle" (README, *Games*).
    game = models.CharField(max_length=20, default=BATTLE, choices=game_choices,
                            help_text="The kind of match its games are (battle, ...).")
    game_options = models.JSONField(
        default=dict, blank=True, help_text="Another game's options, passed to its seating "
                                            "(empty for battle: the fields below).")
    battle = models.CharField(max_length=12, choices=Battle.choices, blank=True,
                              help_text="Empty for another game than battle.")
    deck_kind = models.CharField(max_length=12, choices=DeckKind.choices,
                                 default=DeckKind.CUSTOM)
    scale = models.CharField(max_length=12, default="1")
    deal_pool = models.CharField(max_length=10, choices=DealPool.choices, default=DealPool.SET,
                                 help_text="Dealt format: where each battle's cards come from.")
    deal_historical = models.BooleanField(default=False,
                                          help_text="Dealt format: historical cards only "
                                                    "(2.0 note; Terrain always is).")
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.SWISS)
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss rounds; empty: the recommended ceil(log2 n).")
    top_cut = models.PositiveSmallIntegerField(null=True, blank=True,
                                               help_text="Players in the top cut (2, 4, 8...).")
    planned_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="All rounds, fixed when the tournament starts.")
    round_seconds = models.PositiveIntegerField(default=50 * 60)
    break_seconds = models.PositiveIntegerField(
        default=0, help_text="Scheduled mode: gap between a round's time and the next start.")
    pairing_mode = models.CharField(max_length=14, choices=PairingMode.choices,
                                    default=PairingMode.ON_COMPLETION)
    tiebreakers = models.JSONField(default=list, blank=True)
    registration_closes_at = models.DateTimeField(null=True, blank=True)
    check_in_opens_at = models.DateTimeField(
        null=True, blank=True, help_text="Empty: no check-in (everyone registered plays).")
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="Check-in closes and round 1 is paired; empty: the "
        "organiser starts by hand.")
    max_players = models.PositiveIntegerField(null=True, blank=True)
    late_entry = models.BooleanField(default=False,
                                     help_text="Swiss: entries accepted during the first half.")
    status = models.CharField(max_length=12, choices=Status.choices,
                              default=Status.REGISTRATION)
    current_round = models.PositiveSmallIntegerField(default=0)
    next_round_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    wake_at = models.DateTimeField(
        null=True, blank=True, help_text="When the clock task is next scheduled (dedupe).")
    lists_public = models.BooleanField(default=False)
    # Played on the site (issue 12): each match's battles are created when its round is
    # paired and report their result through ``record_result`` (source ``online``).
    online = models.BooleanField(default=False,
                                 help_text="Games played on the site; False: over the table, "
                                           "results reported by hand.")
    time_control = models.JSONField(default=dict, blank=True,
                                    help_text="Online: every battle's time control, as "
                                              "Battle.time_control ({} untimed).")
    webhook_url = models.URLField(blank=True, default="")
    webhook_secret = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "wake_at"])]

    def __str__(self) -> str:
        return self.name

    @property
    def games_per_match(self) -> int:
        return 2 if self.format == Format.SWISS_TWO_GAME else 1

    @property
    def draws_allowed(self) -> bool:
        return self.format not in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)

    @property
    def tiebreaker_order(self) -> list[str]:
        return list(self.tiebreakers or DEFAULT_TIEBREAKERS)


class Entry(models.Model):
    """A player in a tournament with one deck version per army of the battle: French, and the
    Allied armies there (Quatre Bras: British; Ligny, Wavre: Prussian; Waterloo: both)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="tournament_entries")
    french_version = models.ForeignKey("decks.DeckVersion", on_delete=models.PROTECT,
                                       related_name="+", null=True, blank=True,
                                       help_text="Empty in a dealt tournament (no deck "
                                                 "is registered: 2.0, dealt per battle).")
    british_version = models.ForeignKey("decks.DeckVersion", on_delete=models.PROTECT,
                                        related_name="+", null=True, blank=True)
    prussian_version = models.ForeignKey("decks.DeckVersion", on_delete=models.PROTECT,
                                         related_name="+", null=True, blank=True)
    seed = models.PositiveIntegerField(default=0, help_text="Registration order (1 = first).")
    rating = models.IntegerField(default=0)
    club = models.CharField(max_length=60, blank=True, default="",
                            help_text="Players of one club are kept apart (Swiss).")
    registered_at = models.DateTimeField(auto_now_add=True)
    late = models.BooleanField(default=False)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    no_show = models.BooleanField(default=False)
    dropped_at = models.DateTimeField(null=True, blank=True)
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    drop_reason = models.CharField(
        max_length=1000, blank=True, default="",
        help_text="Why the tournament dropped the player (e.g. at the start: the collection "
                  "no longer covers the decks); empty for a player's own drop.")

    class Meta:
        ordering = ["tournament", "seed", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament_id}"

    @property
    def dropped(self) -> bool:
        return self.dropped_at is not None

    def versions(self):
        return [v for v in (self.french_version, self.british_version, self.prussian_version)
                if v is not None]


class Round(models.Model):
    class Stage(models.TextChoices):
        SWISS = "swiss", "Swiss"
        ROUND_ROBIN = "round_robin", "Round robin"
        ELIMINATION = "elimination", "Elimination"
        TOP_CUT = "top_cut", "Top cut"

    class State(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=12, choices=Stage.choices, default=Stage.SWISS)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PLAYING)
    paired_at = models.DateTimeField(auto_now_add=True)
    ends_at = models.DateTimeField(null=True, blank=True, help_text="Time; empty while paused.")
    remaining_seconds = models.PositiveIntegerField(null=True, blank=True,
                                                    help_text="Time left, kept while paused.")
    timed_out = models.BooleanField(default=False)
    finished_at = models.DateTimeField(null=True, blank=True)
    pairing_seconds = models.FloatField(default=0, help_text="Pairing + match creation time.")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="one_round_number_per_tournament"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_one"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.tournament_id}"


class Match(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", "Waiting for reports"
        REPORTED = "reported", "One player reported"
        DISPUTED = "disputed", "Disputed"
        SETTLED = "settled", "Settled"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField()
    french = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+",
                               help_text="French in game 1 (two-game matches: Allied in game 2).")
    allied = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+", null=True,
                               blank=True, help_text="Empty: a bye for the French player.")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    french_games = models.PositiveSmallIntegerField(null=True, blank=True)
    allied_games = models.PositiveSmallIntegerField(null=True, blank=True)
    draws = models.PositiveSmallIntegerField(null=True, blank=True)
    double_loss = models.BooleanField(default=False)
    game1 = _game_field(1)
    game2 = _game_field(2)
    source = models.CharField(max_length=16, blank=True, default="",
                              help_text="How the result entered (see ResultLog.Source).")
    bracket = models.CharField(
        max_length=8, blank=True, default="",
        help_text="Double elimination: W2 (winners' round 2), L3 (losers' round 3), GF, GF2.")
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_match_per_table"),
            models.UniqueConstraint(fields=["round", "french"], name="french_once_per_round"),
            models.UniqueConstraint(fields=["round", "allied"], name="allied_once_per_round"),
            _per_game_fields_agree("match"),
        ]
        indexes = [models.Index(fields=["tournament", "state"])]

    def __str__(self) -> str:
        return f"Match {self.pk} (round {self.round_id}, table {self.table})"

    @property
    def is_bye(self) -> bool:
        return self.allied_id is None

    def players(self) -> list[int]:
        return [e for e in (self.french_id, self.allied_id) if e is not None]

    @property
    def games(self) -> list[str] | None:
        """Two-game matches: ``[game 1, game 2]`` outcomes (``GameOutcome``); else None."""
        return [self.game1, self.game2] if self.game1 and self.game2 else None


class MatchGame(models.Model):
    """An online tournament's game of one match, played as a match of the tournament's game
    (``kind``: "battle", "race", ...; ``played_id``: its id in the kind's model,
    ``play.registry.get(kind).model``). A two-game match has two: game 1 with the match's
    French player on the French side, game 2 with the sides swapped. (``match`` is the
    tournament's match, so the played match's id is ``played_id``, not ``match_id``.)"""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="game_links")
    game = models.PositiveSmallIntegerField(help_text="1, or 2 (two-game matches).")
    kind = models.CharField(max_length=20, help_text="The played match's kind (play.registry).")
    played_id = models.PositiveBigIntegerField(help_text="The played match's id in its kind.")

    class Meta:
        ordering = ["match", "game"]
        constraints = [
            models.UniqueConstraint(fields=["match", "game"], name="one_played_match_per_game"),
            models.UniqueConstraint(fields=["kind", "played_id"],
                                    name="one_tournament_game_per_played_match"),
        ]

    def __str__(self) -> str:
        return f"Match {self.match_id} game {self.game}: {self.kind} {self.played_id}"

    @property
    def played(self):
        """The played match (a row of the kind's model), loaded once (``attach_played``
        loads many at once)."""
        if "_played" not in self.__dict__:
            from play import registry

            self.__dict__["_played"] = registry.get(self.kind).model.objects.get(
                pk=self.played_id)
        return self.__dict__["_played"]

    @played.setter
    def played(self, value) -> None:
        self.__dict__["_played"] = value

    @property
    def battle(self):
        """The battle of a battle link (``battles.Battle``); None for another kind."""
        return self.played if self.kind == BATTLE else None

    @property
    def battle_id(self) -> int | None:
        return self.played_id if self.kind == BATTLE else None


def attach_played(links, *related: str):
    """Load the played match of every link in one query per kind (with ``select_related``
    of ``related``, e.g. the seats) and set ``link.played``; returns ``links``."""
    from play import registry

    by_kind: dict[str, list] = {}
    for link in links:
        by_kind.setdefault(link.kind, []).append(link)
    for kind, group in by_kind.items():
        model = registry.get(kind).model
        query = model.objects.select_related(*related) if related else model.objects
        rows = query.in_bulk([g.played_id for g in group])
        for link in group:
            link.played = rows[link.played_id]
    return links


class Report(models.Model):
    """One player's report of a match (at most one each)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="reports")
    french_games = models.PositiveSmallIntegerField()
    allied_games = models.PositiveSmallIntegerField()
    draws = models.PositiveSmallIntegerField(default=0)
    game1 = _game_field(1)
    game2 = _game_field(2)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["match", "entry"], name="one_report_per_player"),
            _per_game_fields_agree("report"),
        ]

    @property
    def games(self) -> list[str] | None:
        return [self.game1, self.game2] if self.game1 and self.game2 else None


class ResultLog(models.Model):
    """Every result that entered a match: who, how and why (corrections keep the old one)."""

    class Source(models.TextChoices):
        AGREEMENT = "agreement", "Both players agreed"
        ORGANISER = "organiser", "Dispute settled by the organiser"
        CORRECTION = "correction", "Corrected by the organiser"
        TIME_LIMIT = "time_limit", "Time limit"
        NO_SHOW = "no_show", "No-show (game loss)"
        BYE = "bye", "Bye"
        ONLINE = "online", "Online battle"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="log")
    source = models.CharField(max_length=16, choices=Source.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                           blank=True, related_name="+")
    reason = models.CharField(max_length=500, blank=True, default="")
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "created_at", "id"]


class StandingSnapshot(models.Model):
    """Standings after a round: its rows are ``StandingRow`` s, one per player in rank order
    (issue 31: one JSON list of 4,096 rows was read and decoded whole for a page of 100)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="snapshots")
    round_number = models.PositiveSmallIntegerField()
    tiebreakers = models.JSONField(default=list)
    players = models.PositiveIntegerField(
        default=0, help_text="Its number of rows (a page count without counting them).")
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "round_number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round_number"],
                                    name="one_snapshot_per_round"),
        ]

    @cached_property
    def rows(self) -> list[dict]:
        """Every row, best first: a whole read, for checks, exports and webhooks (a page reads
        only its own rows: ``selectors.standings_page``). ``services.standings.snapshot``
        primes it with the rows it has just stored."""
        return list(self.standing_rows.order_by("rank").values_list("data", flat=True))


class StandingRow(models.Model):
    """One player's row of a snapshot: ``data`` is the row as ``standings.compute`` made it
    (rank, figures and ``how``); ``rank`` and ``name`` are copied out so that a page (ranks
    a..b) and "find me" (the rank of a name) are each one index range, whatever the size."""

    snapshot = models.ForeignKey(StandingSnapshot, on_delete=models.CASCADE,
                                 related_name="standing_rows")
    rank = models.PositiveIntegerField()
    name = models.CharField(max_length=150)
    data = models.JSONField()

    class Meta:
        ordering = ["snapshot", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "rank"], name="one_row_per_rank"),
        ]
        indexes = [models.Index(fields=["snapshot", "name"], name="standing_row_by_name")]


class WebhookDelivery(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed (retries exhausted)"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="webhook_deliveries")
    event = models.CharField(max_length=40)
    key = models.CharField(max_length=80, help_text="Event identity: one delivery per event.")
    url = models.URLField()
    payload = models.JSONField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="one_delivery_per_event"),
        ]
