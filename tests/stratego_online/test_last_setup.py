""""The last set-up I used" (issue 26, the set-up screen): kept per player and side when they
deploy, offered only while it fits the game (``rules.check_placement``), deployed as it was;
refused with the reason when there is none or it no longer fits."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from config.errors import BadInput, Conflict
from online.stratego import services
from online.stratego.kind import state_of
from online.stratego.models import LastSetUp, StrategoMatch

from ..kinds import KindTasks

pytestmark = pytest.mark.django_db
tasks = KindTasks("stratego")


@pytest.fixture
def alice(django_user_model, monkeypatch):
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    return django_user_model.objects.create_user("alice", "", "pw")


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _game(user, side="allied", **kw) -> StrategoMatch:
    return services.create_game(user, side, opponent="computer", bot="random", **kw)


def _placement(m: StrategoMatch, side: str) -> dict[str, list[int]]:
    st = state_of(m)
    return {p.id: [p.square % 12, p.square // 12] for p in st.side_pieces(side)
            if p.where == "board" and p.square is not None}


def _deploy_from_page(user, m) -> dict:
    """The set-up editor's own Deploy form (its default set-up), with two pieces swapped."""
    c = _client(user)
    html = c.get(reverse("stratego-game", args=[m.pk])).content.decode()
    raw = html.split('id="sw-placement"')[0].rsplit('value="', 1)[1].split('"')[0]
    action = json.loads(raw.replace("&quot;", '"'))
    ids = sorted(action["placement"])
    a, b = ids[0], ids[-1]
    action["placement"][a], action["placement"][b] = action["placement"][b], \
        action["placement"][a]
    r = c.post(reverse("stratego-game-act", args=[m.pk]),
               {"seq": m.seq, "action": json.dumps(action)})
    assert r.status_code == 302, r.content[:400]
    return action["placement"]


def test_the_last_set_up_is_kept_offered_and_deployed_as_it_was(alice):
    first = _game(alice)
    page = _client(alice).get(reverse("stratego-game", args=[first.pk])).content.decode()
    assert 'data-testid="last-setup"' not in page  # nothing kept yet
    placed = _deploy_from_page(alice, first)
    first.refresh_from_db()
    assert _placement(first, "allied") == placed
    row = LastSetUp.objects.get(user=alice, side="allied")
    assert row.placement == placed and row.pieces == first.pieces

    second = _game(alice)
    c = _client(alice)
    page = c.get(reverse("stratego-game", args=[second.pk])).content.decode()
    assert 'data-testid="last-setup"' in page
    r = c.post(reverse("stratego-game-last-setup", args=[second.pk]), {"seq": second.seq})
    assert r.status_code == 302
    second.refresh_from_db()
    assert second.seq == 1 and _placement(second, "allied") == placed


def test_a_random_set_up_is_kept_too_and_each_side_has_its_own(alice):
    m = _game(alice)
    services.act(m.pk, alice, m.seq, {"type": "deploy", "random": True})
    m.refresh_from_db()
    assert LastSetUp.objects.get(user=alice, side="allied").placement == \
        _placement(m, "allied")
    french = _game(alice, side="french")  # the computer sets up first: not mine yet
    assert services.last_setup(french, alice) is None
    with pytest.raises(Conflict, match="not your set-up"):
        services.use_last_setup(french.pk, alice, french.seq)


def test_no_set_up_kept_is_refused_with_the_reason(alice):
    m = _game(alice)
    r = _client(alice).post(reverse("stratego-game-last-setup", args=[m.pk]),
                            {"seq": m.seq})
    assert r.status_code == 400
    assert b"no allied set-up saved yet" in r.content
    m.refresh_from_db()
    assert m.seq == 0


def test_a_set_up_that_no_longer_fits_is_not_offered_and_is_refused(alice):
    m = _game(alice)
    services.act(m.pk, alice, m.seq, {"type": "deploy", "random": True})
    row = LastSetUp.objects.get(user=alice, side="allied")
    st = state_of(StrategoMatch.objects.get(pk=m.pk))
    chief = next(p.id for p in st.side_pieces("allied") if p.type == "commander_in_chief")
    row.placement = {k: v for k, v in row.placement.items() if k != chief}
    row.save()
    second = _game(alice)
    assert services.last_setup(second, alice) is None
    page = _client(alice).get(reverse("stratego-game", args=[second.pk])).content.decode()
    assert 'data-testid="last-setup"' not in page
    r = _client(alice).post(reverse("stratego-game-last-setup", args=[second.pk]),
                            {"seq": second.seq})
    assert r.status_code == 400 and b"does not fit this game" in r.content
    assert b"must be placed on the board" in r.content
    # a set-up made with another piece table is not offered either
    LastSetUp.objects.filter(pk=row.pk).update(pieces="pieces-v0.json")
    with pytest.raises(BadInput, match="another piece table"):
        services.use_last_setup(second.pk, alice, second.seq)


def test_a_stale_seq_is_a_conflict(alice):
    m = _game(alice)
    services.act(m.pk, alice, m.seq, {"type": "deploy", "random": True})
    second = _game(alice)
    with pytest.raises(Conflict):
        services.use_last_setup(second.pk, alice, second.seq + 3)
    second.refresh_from_db()
    assert second.seq == 0
