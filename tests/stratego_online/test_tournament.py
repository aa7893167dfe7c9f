"""A Stratego: Waterloo tournament (issue 26, "tournaments"): the kind's ``seat`` hook
(``online.stratego.services.seat_game``, through ``play.seating``) seats both players of each paired
match in an active game of the tournament's variant; a game's end settles the match."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from online.stratego import services as games
from online.stratego.models import StrategoMatch
from tournaments import services
from tournaments.models import Match, MatchGame, Status

pytestmark = pytest.mark.django_db


def people(*names: str) -> list[User]:
    return [User.objects.create_user(n, f"{n}@example.com", "s3cret-pass-1815") for n in names]


def test_a_stratego_tournament_seats_its_games_and_a_result_settles_the_match():
    [org] = people("olga")
    t = services.create_tournament(org, name="Hougoumont Open", game="stratego", online=True,
                                   format="swiss", rounds=1,
                                   game_options={"variant": "standard"})
    players = people("ney", "uxbridge")
    for user in players:
        services.register(t.pk, user)
    services.start_tournament(t.pk)
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    m = Match.objects.select_related("french__user", "allied__user").get(round__tournament=t)
    link = MatchGame.objects.get(match=m)
    game = link.played
    assert link.kind == "stratego" and isinstance(game, StrategoMatch)
    assert (game.french_player, game.allied_player) == (m.french.user, m.allied.user)
    assert game.status == "active" and game.variant == "standard" and not game.bot
    assert game.to_move == "allied"  # the Allies set up first
    games.resign(game.pk, m.allied.user)
    m.refresh_from_db()
    assert m.state == Match.State.SETTLED and (m.french_games, m.allied_games) == (1, 0)


def test_the_seat_refuses_what_a_stratego_game_does_not_take():
    ney, grouchy = people("ney", "grouchy")
    with pytest.raises(games.BadInput, match="unknown Stratego option 'colour'"):
        games.seat_game(ney, grouchy, {"colour": "red"})
    with pytest.raises(games.BadInput, match="variant must be one of"):
        games.seat_game(ney, grouchy, {"variant": "chess"})
    with pytest.raises(games.BadInput, match="two different players"):
        games.seat_game(ney, ney, {})
    assert StrategoMatch.objects.count() == 0
