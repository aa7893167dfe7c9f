"""Issue 28, "Done when", measured without a browser (tests/newcomer_campaign.py counts the
clicks the campaign page asks for): the scripted newcomer's campaign against the random
computer (seed 1815, as tests/browser/test_campaign_newcomer_browser.py) through its first
phase takes at most half of the issue's 186 clicks, with no one-button screen the site
could have played for them; the count before the cut is the browser test's last figure
(209), so both count the same clicks. ``bench/newcomer_clicks.py`` prints the breakdown."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from .newcomer_campaign import PASS_REST, play_first_phase
from .newcomer_policy import choose

pytestmark = pytest.mark.django_db
ISSUE_CLICKS = 186


def test_the_newcomers_first_phase_takes_at_most_half_the_issues_clicks():
    out = play_first_phase(User.objects.create_user("newcomer"), 1815)
    assert out.first_phase_over
    assert out.total <= ISSUE_CLICKS // 2, out.by_kind
    assert out.one_button == 0
    # no confirmation clicked: the newcomer leaves the moves the page warns about alone
    assert not [k for k in out.by_kind if k.startswith("confirm")], out.by_kind
    assert not [k for k in out.by_kind if k.startswith("pass (")], out.by_kind
    assert out.by_kind[PASS_REST] >= 1


def test_before_the_cut_the_count_is_the_browser_tests_figure():
    out = play_first_phase(User.objects.create_user("newcomer"), 1815, newcomer=False)
    assert out.first_phase_over
    assert out.total == 209, out.by_kind  # the browser test's figure on the same policy
    assert out.by_kind["pass (engage)"] > 40  # the Pass after Pass the issue saw


def test_the_newcomer_leaves_a_warned_move_alone_while_something_else_is_offered():
    view = {"pieces": [{"piece": 1, "card": None, "place": "french-centre", "side": "french"}]}
    engage = {"type": "move", "side": "french", "piece": 1, "to": "allied-centre"}
    end = {"type": "end_phase", "side": "french"}
    fire = {"type": "fire", "side": "french", "piece": 1, "target": 2}
    assert choose([fire, end], view, warned=[fire]) == end
    assert choose([fire, end], view) == fire
    assert choose([engage], view, warned=[engage]) == engage  # nothing else: it is played
