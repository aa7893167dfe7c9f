from django.db import models

from play.models import Match, MatchAction, action_constraints


class Race(Match):
    pass


class RaceAction(MatchAction):
    match = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="actions")

    class Meta:
        ordering = ["match", "seq"]
        constraints = action_constraints("match", "one_race_action_per_seq",
                                         "race_action_seq_from_one")
