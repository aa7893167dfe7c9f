"""The standing order "Fire with every ready card (each at its suggested target)" (issue 28:
``battles.fire_order``, ``play.passing.fire_order``, ``play.autoplay``): given in the
player's own Combat Phase, it fires the first card at once (their click), then each next
ready card as their own action (flagged ``auto``, reason "order", its own dice) while it is
their move in that phase, the computer answering each fire as before; it never moves or
ends anything, never acts for the computer, lapses when the phase ends, stops when
cancelled, and is refused (409) outside the player's Combat Phase. The suggestion is read
from what the player sees only."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from battles import fire_order, modules, selectors, services
from battles.engine import from_json, legal_actions, to_json, view
from battles.models import Battle, Status
from battles.setup import engine_cards
from config.errors import Conflict
from frontend.battle.words import describe_event
from play import autoplay

from .engine.helpers import BR_CAV, BR_FOOT, BR_INF, BR_INF_D, FR_FOOT, FR_INF, blank, put
from .kinds import battle_tasks as tasks
from .newcomer_policy import choose

GAME = modules.EaglesBattle()


# --- the suggestion (pure) -----------------------------------------------------------------

def _artillery_and_two_hidden_targets():
    """French foot artillery (cv3 F1/F3) at long range on two face-down Allied cards, one
    in Line, one in Column (9.2: artillery +1F on a Column)."""
    st = blank("waterloo", "french")
    gun = put(st, FR_FOOT, "french_center")
    line = put(st, BR_INF, "allied_center", up=False)
    column = put(st, BR_INF_D, "allied_center", up=False, form="column")
    return st, gun, line, column


def test_the_suggested_target_is_the_one_hit_most_on_average():
    st, gun, line, column = _artillery_and_two_hidden_targets()
    legal = legal_actions(st, "french")
    assert {a["target"] for a in legal if a["type"] == "fire"} == {line.pid, column.pid}
    assert fire_order.expected_hits(st, gun.pid, column.pid) == 3 * 2 / 6
    assert fire_order.expected_hits(st, gun.pid, line.pid) == 3 * 1 / 6
    [fire] = GAME.suggested_fires(st, "french", legal)
    assert (fire["piece"], fire["target"]) == (gun.pid, column.pid)


def test_on_a_tie_the_card_already_carrying_the_most_hits():
    st = blank("waterloo", "french")
    put(st, FR_FOOT, "french_center")
    fresh = put(st, BR_INF, "allied_center", up=False)
    hurt = put(st, BR_CAV, "allied_center", up=False, hits=1)
    st.hit = {hurt.pid, fresh.pid}  # 7.4: both hit already, either may be targeted again
    [fire] = GAME.suggested_fires(st, "french", legal_actions(st, "french"))
    assert fire["target"] == hurt.pid


@pytest.mark.parametrize("shuffle", range(6))
def test_the_suggestion_is_the_same_whatever_the_enemys_hidden_cards(shuffle):
    """The face-down Allied cards dealt again at random (any card of theirs, troop or not):
    the fire list and the suggestion stay as they were."""
    st, gun, line, column = _artillery_and_two_hidden_targets()
    extra = put(st, BR_INF, "allied_center", up=False)
    before = GAME.suggested_fires(st, "french", legal_actions(st, "french"))
    rng = random.Random(shuffle)
    for p in (line, column, extra):
        p.num = rng.choice([BR_INF, BR_INF_D, BR_CAV, BR_FOOT, 116])  # 116: a General
    st.cache = None
    assert GAME.suggested_fires(st, "french", legal_actions(st, "french")) == before


def test_the_order_key_is_the_players_own_combat_phase_only():
    st = blank("waterloo", "french")
    assert GAME.fire_order_key(st, "french") == f":{st.turn}:french:combat"
    assert GAME.fire_order_key(st, "allied") is None  # the enemy's phase
    st.phase = "morale"
    assert GAME.fire_order_key(st, "french") is None


def test_the_order_plays_only_fires_in_its_own_phase():
    st, gun, line, column = _artillery_and_two_hidden_targets()
    put(st, FR_INF, "french_left")  # can move, cannot fire
    legal = legal_actions(st, "french")
    key = GAME.fire_order_key(st, "french")
    action, why = GAME.chosen_action(st, "french", legal, {"fire": key})
    assert why == "order" and action["type"] == "fire" and action["target"] == column.pid
    assert GAME.chosen_action(st, "french", legal, {"fire": "x:1:french:combat"}) is None
    gun.fired = True  # nothing left to fire: the moves and the end stay the player's
    st.cache = None
    assert GAME.chosen_action(st, "french", legal_actions(st, "french"), {"fire": key}) is None


# --- the order in a battle against the computer (the service) ------------------------------

def _ready(legal: list[dict]) -> set[int]:
    return {a["piece"] for a in legal if a["type"] == "fire"}


def _state(b: Battle):
    return from_json(b.state, engine_cards(b))


def _play_until(b: Battle, user, stop, limit: int = 800) -> None:
    """The newcomer's battle until ``stop(b, state, legal)`` at a French decision."""
    for _ in range(limit):
        b.refresh_from_db()
        assert b.status == Status.ACTIVE
        if services.priority(b) != "french":
            assert tasks.bot_move(b.pk, b.seq) >= 1
            continue
        state = _state(b)
        legal = legal_actions(state, "french")
        if stop(b, state, legal):
            return
        services.act(b.pk, user, b.seq, dict(choose(legal, view(state, "french"))))
    raise AssertionError("never reached")


def _computer_answers(b: Battle) -> None:
    """The computer's turns until the French must act (or the battle ends)."""
    for _ in range(100):
        b.refresh_from_db()
        if b.status != Status.ACTIVE or services.priority(b) == "french":
            return
        assert tasks.bot_move(b.pk, b.seq) >= 1


@pytest.fixture
def battle(user, monkeypatch) -> Battle:
    """Ligny, seed 4: in turn 3 four French cards can fire (the Prussians hold Specials, so
    each fire opens their response window)."""
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(services, "new_seed", lambda: 4)
    b = services.create_battle(user, "ligny", "french", bot="random")
    _play_until(b, user, lambda b, st, legal: len(_ready(legal)) >= 2)
    return b


@pytest.mark.django_db
def test_each_ready_card_fires_as_the_players_own_action_then_the_order_lapses(battle, user):
    b = battle
    st = _state(b)
    key = GAME.fire_order_key(st, "french")
    ready = _ready(legal_actions(st, "french"))
    start = b.seq
    first = GAME.suggested_fires(st, "french", legal_actions(st, "french"))[0]
    services.fire_order(b.pk, user, b.seq, True)
    b.refresh_from_db()
    assert b.pass_choices["french"]["fire"] == key
    row = b.actions.get(seq=start + 1)
    assert (row.side, row.action, row.auto) == ("french", first, False)  # their own click
    _computer_answers(b)  # it answers each fire (a response window); the order fires next
    st = _state(b)
    assert services.priority(b) == "french" and GAME.fire_order_key(st, "french") == key
    assert not _ready(legal_actions(st, "french"))  # every ready card fired
    rows = list(b.actions.filter(seq__gt=start, side="french").order_by("seq"))
    ordered = [r for r in rows if r.auto_reason == "order"]
    assert len(ordered) >= 1 and all(r.auto for r in ordered)
    assert {r.action["type"] for r in rows} == {"fire"}  # never a move or an end
    assert {r.action["piece"] for r in rows} <= ready
    # each fire was the suggestion of its moment, rolled with the dice of its own seq: the
    # replay, re-deriving every die from the seed, ends in the same position
    assert to_json(services.replay(b)) == b.state
    # the log says it was their order; what it fired cannot be taken back
    log = selectors.battle_view(b, user)["log"]
    entry = next(e for e in log if e.get("type") == "auto_played" and e.get("why") == "order")
    assert "fired for you, your order" in describe_event(entry, "french")
    assert "fired for them, their order" in describe_event(entry, "allied")
    with pytest.raises(Conflict):
        services.undo(b.pk, user, b.seq)
    # the end of the phase stays the player's click; the next Combat Phase asks again
    assert any(a["type"] == "end_phase" for a in legal_actions(st, "french"))
    n = b.actions.filter(auto_reason="order").count()
    _play_until(b, user, lambda b, st, legal: GAME.fire_order_key(st, "french")
                not in (None, key) and bool(_ready(legal)))
    assert b.actions.filter(auto_reason="order").count() == n  # lapsed: nothing fired
    assert b.pass_choices["french"]["fire"] == key  # kept, but for a phase that is over


@pytest.mark.django_db
def test_cancelled_it_stops(battle, user):
    b = battle
    services.fire_order(b.pk, user, b.seq, True)
    services.fire_order(b.pk, user, None, False)  # "Stop firing for me", while they wait
    b.refresh_from_db()
    assert "fire" not in b.pass_choices["french"]
    _computer_answers(b)
    assert not b.actions.filter(auto_reason="order").exists()
    assert _ready(legal_actions(_state(b), "french"))  # the other cards wait for clicks


@pytest.mark.django_db
def test_refused_outside_the_players_combat_phase(battle, user):
    b = battle
    services.fire_order(b.pk, user, b.seq, True)
    b.refresh_from_db()
    assert services.priority(b) != "french"  # the enemy's window: not theirs to fire
    with pytest.raises(Conflict):
        services.fire_order(b.pk, user, b.seq, True)
    client = Client()
    client.force_login(user)
    r = client.post(f"/battles/{b.pk}/fire-order/", {"seq": b.seq, "on": "1"})
    assert r.status_code == 409
    assert "no card of yours to fire now" in r.content.decode()


@pytest.mark.django_db
def test_never_for_the_computers_side(battle, user):
    """An order kept for the computer's side (as if given) in its own Combat Phase: the
    computer still chooses its own actions, none is flagged as an order."""
    b = battle
    services.fire_order(b.pk, user, b.seq, True)
    for _ in range(400):
        b.refresh_from_db()
        st = _state(b)
        if services.priority(b) == "french":
            if st.turn > 6:
                break
            services.act(b.pk, user, b.seq, dict(choose(legal_actions(st, "french"),
                                                        view(st, "french"))))
            continue
        theirs = GAME.fire_order_key(st, "allied")
        if theirs is not None:
            b.pass_choices = {**b.pass_choices, "allied": {"fire": theirs}}
            b.save(update_fields=["pass_choices"])
        assert tasks.bot_move(b.pk, b.seq) >= 1
    assert b.pass_choices.get("allied")  # the premise: it was set in an Allied phase
    assert not b.actions.filter(side="allied", auto=True).exists()


@pytest.mark.django_db
def test_the_battle_page_offers_it_beside_the_fire_actions(battle, user):
    client = Client()
    client.force_login(user)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert 'data-testid="fire-order"' in page
    assert "Fire with every ready card (each at its suggested target)" in page
    assert page.count('data-testid="suggested"') == len(_ready(legal_actions(
        _state(battle), "french")))
    assert 'data-testid="fire-order-off"' not in page
    r = client.post(f"/battles/{battle.pk}/fire-order/", {"seq": battle.seq, "on": "1"},
                    headers={"HX-Request": "true"})
    assert r.status_code == 200
    assert 'data-testid="fire-order-off"' in r.content.decode()  # "Stop firing for me"


@pytest.mark.django_db
def test_an_ordered_fire_never_closes_an_undo_they_had(battle):
    """Right after an action of theirs that could still be taken back (a quiet move), the
    order waits (their next action lets it go on); after one that rolled dice, it fires."""
    b = battle
    state = _state(b)
    b.pass_choices = {"french": {"fire": GAME.fire_order_key(state, "french")}}
    move = {"type": "move", "side": "french", "piece": 1, "to": "french_reserve"}
    quiet = [{"type": "move", "side": "french", "piece": 1, "to": "french_reserve",
              "visibility": "all"}]
    rolled = [{"type": "fire", "side": "french", "dice": [3], "visibility": "all"}]
    for events, fired in ((quiet, False), (rolled, True)):
        moves: list = [("french", move, events)]
        reasons: list[str] = []
        autoplay.extend(battle_kind(), b, GAME.copy_state(state), moves, reasons=reasons)
        assert (reasons[:1] == ["order"]) is fired, (events, reasons)
        if fired:
            assert moves[1][1] == GAME.suggested_fires(
                state, "french", legal_actions(state, "french"))[0]


def battle_kind():
    from battles.kind import KIND

    return KIND


@pytest.mark.django_db
def test_in_a_campaign_the_order_fires_on_the_board_being_played(user, monkeypatch):
    """The Campaign Game: the order's key names the board (another board's Combat Phase is
    another phase), and the fires it plays are the player's own rows on that board."""
    from campaigns import selectors as campaign_selectors
    from campaigns import services as campaign_services
    from frontend.campaigns.views import action_warning, cards_of

    from .kinds import campaign_tasks
    from .newcomer_policy import choose_campaign

    campaign_tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(campaign_services, "new_seed", lambda: 4)
    c = campaign_services.create_campaign(user, "french", bot="random")
    for _ in range(2000):
        c.refresh_from_db()
        assert c.status == "active"
        if c.to_move != "french":
            assert campaign_tasks.bot_move(c.pk, c.seq) >= 1
            continue
        cv = campaign_selectors.campaign_view(c, user)
        legal = cv["legal_actions"]
        if len(_ready(legal)) >= 2:
            break
        warned = [a for a in legal if action_warning(cv, a, cards_of(c))]
        campaign_services.act(c.pk, user, c.seq, dict(choose_campaign(legal, cv["view"],
                                                                      warned)))
    state = campaign_services.replay(c)
    board = modules.CAMPAIGN.fire_order_key(state, "french").split(":")[0]
    assert board in ("quatre-bras", "ligny")
    campaign_services.fire_order(c.pk, user, c.seq, True)
    for _ in range(100):
        c.refresh_from_db()
        if c.to_move == "french":
            break
        assert campaign_tasks.bot_move(c.pk, c.seq) >= 1
    rows = list(c.actions.filter(side="french", auto_reason="order"))
    assert rows and all(r.action["type"] == "fire" and r.action["board"] == board
                        for r in rows)
    legal = campaign_selectors.campaign_view(c, user)["legal_actions"]
    assert not _ready(legal)  # every ready card fired
    campaign_services.fire_order(c.pk, user, None, False)
    c.refresh_from_db()
    assert "fire" not in c.pass_choices["french"]


@pytest.mark.django_db
def test_nobody_else_may_order_the_players_cards(battle, django_user_model):
    """Another user (a spectator of a public battle, or anyone) cannot give or cancel the
    order: the battle is not theirs to play (403/404), nothing is kept."""
    bob = django_user_model.objects.create_user("bob")
    client = Client()
    client.force_login(bob)
    for on in ("1", "0"):
        r = client.post(f"/battles/{battle.pk}/fire-order/", {"seq": battle.seq, "on": on})
        assert r.status_code in (403, 404)
    battle.refresh_from_db()
    assert "fire" not in (battle.pass_choices.get("french") or {})
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert 'data-testid="fire-order' not in page and 'data-testid="suggested"' not in page
