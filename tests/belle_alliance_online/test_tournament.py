"""A La Belle Alliance tournament: the kind's ``seat`` hook (``online.belle_alliance.services.
seat_game``, through ``play.seating``) seats both players of each paired match in an active
game, the French to act; a game's end settles the match."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from online.belle_alliance import services as games
from online.belle_alliance.models import BelleAllianceMatch
from tournaments import services
from tournaments.models import Match, MatchGame, Status

pytestmark = pytest.mark.django_db


def people(*names: str) -> list[User]:
    return [User.objects.create_user(n, f"{n}@example.com", "s3cret-pass-1815") for n in names]


def test_a_belle_alliance_tournament_seats_its_games_and_a_result_settles_the_match():
    [org] = people("olga")
    t = services.create_tournament(org, name="Mont-Saint-Jean Cup", game="belle_alliance",
                                   online=True, format="swiss", rounds=1)
    for user in people("drouot", "picton"):
        services.register(t.pk, user)
    services.start_tournament(t.pk)
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    m = Match.objects.select_related("french__user", "allied__user").get(round__tournament=t)
    link = MatchGame.objects.get(match=m)
    game = link.played
    assert link.kind == "belle_alliance" and isinstance(game, BelleAllianceMatch)
    assert (game.french_player, game.allied_player) == (m.french.user, m.allied.user)
    assert game.status == "active" and not game.bot and game.to_move == "french"
    assert game.state is not None and game.turn == 1
    games.resign(game.pk, m.french.user)
    m.refresh_from_db()
    assert m.state == Match.State.SETTLED and (m.french_games, m.allied_games) == (0, 1)


def test_the_seat_refuses_what_a_belle_alliance_game_does_not_take():
    ney, grouchy = people("ney", "grouchy")
    with pytest.raises(games.BadInput, match="unknown La Belle Alliance option 'variant'"):
        games.seat_game(ney, grouchy, {"variant": "expert"})
    with pytest.raises(games.BadInput, match="two different players"):
        games.seat_game(ney, ney, {})
    assert BelleAllianceMatch.objects.count() == 0
