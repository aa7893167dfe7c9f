"""A campaign against the search bot, online (issue 14: the search plays campaigns, its
levels offered on the campaign form): the computer's task plays it to the end, hiding
everything from the person, and the log replays it."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from battles.campaign import to_json
from campaigns import services
from campaigns.models import Campaign, Status
from config.errors import BadInput

from .test_campaign_service import assert_no_leak, drive, sent, small  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def test_a_campaign_against_search_easy_plays_to_its_end(user, small, sent,  # noqa: F811
                                                          django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        c = services.create_campaign(user, "french", bot="search-easy",
                                     settings={"turn_cap": 3})
    assert c.bot == "search-easy" and c.status == Status.ACTIVE
    drive(c, {"french": user, "allied": None}, django_capture_on_commit_callbacks,
          check=lambda c: assert_no_leak(c, {"french": user}))
    c.refresh_from_db()
    assert c.status == Status.FINISHED and c.outcome["winner"] in ("french", "allied")
    assert set(c.actions.values_list("side", flat=True)) == {"french", "allied"}
    assert json.dumps(json.loads(json.dumps(to_json(services.replay(c)))),
                      sort_keys=True) == json.dumps(c.state, sort_keys=True)


def test_the_form_offers_the_search_levels_and_refuses_an_unknown_bot(user, small, sent):  # noqa: F811
    client = Client()
    client.force_login(user)
    page = client.get("/campaigns/").content.decode()
    for level in ("search-easy", "search", "search-hard"):
        assert f'<option value="{level}"' in page
    with pytest.raises(BadInput, match="bot must be one of"):
        services.create_campaign(user, "french", bot="deep-blue")
    assert not Campaign.objects.exists()
