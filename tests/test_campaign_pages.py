"""Campaign pages: the list with its create form, a campaign's page (boards, actions, pools,
losses chart, timeline), acting through forms, resign, the replay, the losses chart."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from campaigns import services
from campaigns.kind import cards_of
from campaigns.models import Campaign
from frontend.campaigns.chart import losses, losses_svg

from .campaign.helpers import small_pools
from .kinds import campaign_tasks as tasks
from .test_campaign_service import hidden_from

pytestmark = pytest.mark.django_db


@pytest.fixture
def small(monkeypatch):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)


@pytest.fixture
def alice(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_create_a_campaign_from_the_list_and_play_a_split(alice, small):
    page = alice.get("/campaigns/")
    assert page.status_code == 200 and b'data-testid="new-campaign-form"' in page.content
    assert b'href="/campaigns/"' in page.content  # the nav link
    r = alice.post("/campaigns/", {"side": "french", "opponent": "computer", "bot": "greedy",
                                   "pool": "set", "turn_cap": "2", "public": "on"})
    c = Campaign.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/campaigns/{c.pk}/"
    page = alice.get(f"/campaigns/{c.pk}/").content.decode()
    for part in ("actions", "pools", "losses", "timeline", "seed"):
        assert f'data-testid="{part}"' in page
    assert "Split: " in page and "Your move: split their cards." in page
    action = re.search(r'name="action" value="([^"]+)"', page).group(1).replace("&quot;", '"')
    r = alice.post(f"/campaigns/{c.pk}/act/", {"seq": "0", "action": action})
    assert r.status_code == 302
    c.refresh_from_db()
    assert c.seq == 1 and json.loads(action)["type"] == "split"
    r = alice.post(f"/campaigns/{c.pk}/act/", {"seq": "0", "action": action})
    assert r.status_code == 409 and b"has moved on" in r.content
    r = alice.post("/campaigns/", {"side": "prussian", "opponent": "computer"})
    assert r.status_code == 400 and b'data-testid="campaign-error"' in r.content


def test_the_page_shows_both_boards_and_no_hidden_card(alice, user, small):
    c = services.create_campaign(user, "allied", bot="greedy", settings={"turn_cap": 2})
    for _ in range(5):  # the computer splits, then moves until the person must
        c.refresh_from_db()
        if c.to_move == "allied":
            break
        tasks.bot_move(c.pk, c.seq)
    c.refresh_from_db()
    page = alice.get(f"/campaigns/{c.pk}/").content.decode()
    assert 'data-testid="board-quatre-bras"' in page and 'data-testid="board-ligny"' in page
    names = {n: cards_of(c)[n].name for n in hidden_from(c, "allied")}
    assert names  # the computer holds cards the person may not know
    shown = [name for name in names.values() if f">{name}<" in page or f"{name}," in page]
    assert not shown, shown


def test_resign_and_replay(alice, user, other_user, small):
    c = services.create_campaign(user, "french", bot="greedy")
    assert alice.get(f"/campaigns/{c.pk}/replay/").status_code == 404  # not over yet
    assert alice.post(f"/campaigns/{c.pk}/resign/").status_code == 302
    page = alice.get(f"/campaigns/{c.pk}/").content.decode()
    assert "The Allied win the campaign (French resigned)." in page
    assert 'data-testid="seed-value"' in page
    r = alice.get(f"/campaigns/{c.pk}/replay/?step=0")
    assert r.status_code == 200 and b"The start." in r.content
    bob = Client()
    bob.force_login(other_user)
    assert bob.get(f"/campaigns/{c.pk}/").status_code == 200  # public: bob watches
    assert b"You are watching" in Client().get(f"/campaigns/{c.pk}/").content  # anyone may
    assert bob.post(f"/campaigns/{c.pk}/resign/").status_code == 404
    private = services.create_campaign(user, "french", bot="greedy", public=False)
    assert bob.get(f"/campaigns/{private.pk}/").status_code == 404


def test_join_an_open_campaign_from_the_list(alice, user, other_user, small):
    c = services.create_campaign(user, "french", opponent="open")
    bob = Client()
    bob.force_login(other_user)
    assert f'data-testid="open-{c.pk}"'.encode() in bob.get("/campaigns/").content
    assert bob.post(f"/campaigns/{c.pk}/join/", {"pool": "set"}).status_code == 302
    c.refresh_from_db()
    assert c.status == "active" and c.allied_player == other_user
    assert bob.post(f"/campaigns/{c.pk}/join/", {"pool": "set"}).status_code == 409


def test_the_losses_chart_is_a_pure_accessible_svg():
    history = [{"type": "start"}, {"type": "result", "battle": "ligny", "winner": "french",
                                   "lost": {"french": 3, "allied": 7}},
               {"type": "result", "battle": "quatre-bras", "winner": None, "reason": "walkover"}]
    assert losses(history) == [("ligny", {"french": 3, "allied": 7}),
                               ("quatre-bras", {"french": 0, "allied": 0})]
    svg = losses_svg(history)
    assert svg.startswith("<svg") and 'role="img"' in svg
    assert "Ligny: French lost 3, Allied lost 7" in svg
    assert "No battle has ended yet" in losses_svg([])
    odd = losses_svg([{"type": "result", "battle": "<x>", "lost": {}}])
    assert "&lt;X&gt;" in odd and "<X>" not in odd


def test_public_campaigns_under_way_can_be_watched_from_the_list(user, other_user, small,
                                                                 django_user_model):
    """Spectators (issue 13, as battles' "Watch a battle"): the list offers the public
    campaigns under way that I do not play; a private one is not offered."""
    carol = django_user_model.objects.create_user("carol", password="pw-carol-123")
    public = services.create_campaign(user, "french", opponent="open", settings={"turn_cap": 2})
    services.join_campaign(public.pk, other_user)
    private = services.create_campaign(user, "french", opponent="open", public=False,
                                       settings={"turn_cap": 2})
    services.join_campaign(private.pk, other_user)
    waiting = services.create_campaign(user, "allied", opponent="open")
    client = Client()
    client.force_login(carol)
    page = client.get("/campaigns/").content.decode()
    assert f'data-testid="watch-{public.pk}"' in page
    assert f'data-testid="watch-{private.pk}"' not in page
    assert f'data-testid="watch-{waiting.pk}"' not in page
    assert client.get(f"/campaigns/{public.pk}/").status_code == 200  # the spectator view
    assert client.get(f"/campaigns/{private.pk}/").status_code == 404
    # Its players see it in their own list, not as something to watch.
    client.force_login(user)
    assert f'data-testid="watch-{public.pk}"' not in client.get("/campaigns/").content.decode()
    assert Campaign.objects.filter(status="active", public=True).count() == 1
