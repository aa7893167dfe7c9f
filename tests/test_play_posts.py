"""The POST views every game's page shares (``frontend.play.posts``): one home, the same
answers for every game (POST only, logged in only, someone else's game a 404, a refusal the
page with the service's status and message)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from frontend.battle import views as battle_views
from frontend.campaigns import views as campaign_views
from frontend.play.new_game import new_game_terms
from frontend.play.posts import GamePosts
from frontend.stratego import views as stratego_views
from online.stratego import services as stratego_services
from play import clock

pytestmark = pytest.mark.django_db


def test_every_game_takes_its_posts_from_one_home():
    for module in (battle_views, campaign_views, stratego_views):
        assert isinstance(module.POSTS, GamePosts)
        for name in ("act", "undo", "resign", "claim"):
            view = getattr(module, name)
            assert view.__module__ == "frontend.play.posts", (module.__name__, name)


@pytest.mark.parametrize("name", ["stratego-game-act", "stratego-game-undo",
                                  "stratego-game-resign", "stratego-game-claim",
                                  "campaign-act", "campaign-undo", "battle-act", "battle-undo"])
def test_a_post_view_wants_a_logged_in_post(client, django_user_model, name):
    url = reverse(name, args=[1])
    r = client.post(url)
    assert r.status_code == 302 and "login" in r["Location"]
    client.force_login(django_user_model.objects.create_user("someone"))
    assert client.get(url).status_code == 405
    assert client.post(url).status_code == 404  # no such game (or not the viewer's)


def test_a_refusal_is_the_page_with_the_status_and_the_message(client, django_user_model):
    alice = django_user_model.objects.create_user("alice")
    m = stratego_services.create_game(alice, "allied", opponent="computer", bot="random")
    client.force_login(alice)
    r = client.post(reverse("stratego-game-act", args=[m.pk]),
                    {"seq": str(m.seq + 5), "action": '{"type": "end_turn"}'})
    assert r.status_code == 409
    assert b"Stratego" in r.content
    r = client.post(reverse("stratego-game-undo", args=[m.pk]), {"seq": str(m.seq)})
    assert r.status_code == 409
    r = client.post(reverse("stratego-game-resign", args=[m.pk]))
    assert r.status_code == 302 and r["Location"] == reverse("stratego-game", args=[m.pk])
    m.refresh_from_db()
    assert m.status == "finished"


def test_the_new_game_form_is_read_once():
    terms = new_game_terms({"opponent": "player", "username": " bob ", "time_control":
                            "untimed", "public": "on"})
    assert terms == {"opponent": "bob", "time_control": clock.PRESET_CONTROLS["untimed"],
                     "public": True, "rated": False}
    assert new_game_terms({})["opponent"] == "computer"
    with pytest.raises(Exception, match="time control"):
        new_game_terms({"time_control": "forever"})


def test_the_list_pages_rows_come_from_one_home(client, django_user_model):
    alice = django_user_model.objects.create_user("alice")
    bob = django_user_model.objects.create_user("bob")
    mine = stratego_services.create_game(alice, "french", opponent="bob", variant="standard")
    open_one = stratego_services.create_game(bob, "allied", opponent="open")
    client.force_login(alice)
    html = client.get(reverse("stratego")).content.decode()
    assert f'data-testid="game-{mine.pk}"' in html and f'data-testid="open-{open_one.pk}"' in html
    assert client.get(reverse("campaigns")).status_code == 200
    # the create form's refusal is the list again, with the form as filled in
    r = client.post(reverse("stratego"), {"side": "french", "opponent": "computer",
                                          "variant": "basic", "grouchy": "on"})
    assert r.status_code == 400 and b"Expert game" in r.content
    r = client.post(reverse("stratego"), {"side": "french", "opponent": "computer",
                                          "variant": "expert", "grouchy": "on"})
    assert r.status_code == 302
    from online.stratego.models import StrategoMatch

    assert StrategoMatch.objects.get(pk=r["Location"].split("/")[-2]).settings == \
        {"grouchy": True}
