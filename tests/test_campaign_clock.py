"""Campaigns on the clock (RULINGS 16-o): one clock per side for the whole campaign, the flag
fall (an action, a resignation or the task past the deadline ends the campaign by time),
the beat's safety net, expiry of waiting campaigns, the API fields and the page's clocks.

The 16-o tests drive the pure core (``battles.campaign``) with ``campaigns.clock`` on a plain
object and a fake time; the others go through the service, moving time by rewriting the
clock columns (as ``tests/test_battle_clock.py`` does)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from battles.campaign import apply, legal_actions, to_json, to_move
from battles.engine import SIDES, SeededDice
from battles.modules import CAMPAIGN
from campaigns import selectors, services
from campaigns.models import Campaign, Status
from config.errors import BadInput, Conflict
from play import clock
from play.signals import match_changed

from .campaign.helpers import passive, small_campaign, small_pools
from .kinds import campaign_tasks as tasks

LIVE = {"kind": "live", "base": 900, "increment": 10}
CORR = {"kind": "correspondence", "days": 2}
T0 = datetime(2026, 6, 16, 12, 0, tzinfo=UTC)
STEP = 7  # seconds each action takes in the pure tests


# --- 16-o with the pure core and a fake time ------------------------------------------------

def fake(tc: dict, core, bot: str = "", computer: str | None = None) -> SimpleNamespace:
    """What ``campaigns.clock`` reads of a Campaign row, for a core campaign ``core``."""
    turn = to_move(core)
    c = SimpleNamespace(time_control=tc, clocks={}, clock_started_at=None, deadline=None,
                        to_move=turn["side"] if turn else "", status="active", bot=bot,
                        state=to_json(core))
    c.computer_side = lambda: computer
    return c


def step(row: SimpleNamespace, core, dice, now: datetime) -> tuple[str, str | None]:
    """The side to move plays its passive action at ``now``; the row follows (as
    ``services._record`` does). Returns (who moved, on which board)."""
    turn = to_move(core)
    apply(core, passive(legal_actions(core, turn["side"])), dice)
    before_side, before = row.to_move, row.state
    after = to_move(core)
    row.to_move, row.state = (after["side"] if after else ""), to_json(core)
    clock.on_position(row, before_side, CAMPAIGN.turns_ended(before, row.state), now)
    return turn["side"], turn["board"]


def test_16_o_one_clock_runs_across_both_boards():
    core = small_campaign(seed=3, turn_cap=6)
    row = fake(LIVE, core)
    clock.start(row, T0)
    assert row.clocks == {"french": 900, "allied": 900}
    assert row.deadline == T0 + timedelta(seconds=900)  # the French split first: theirs runs
    dice, now, boards = SeededDice(3), T0, set()
    while to_move(core) is not None and to_move(core)["step"] != "reinforce":
        before = dict(row.clocks)
        now += timedelta(seconds=STEP)
        side, board = step(row, core, dice, now)
        boards.add(board)
        other = SIDES[1 - SIDES.index(side)]
        # Only the mover's clock was charged (an increment aside); the other's never runs.
        assert row.clocks[other] - before[other] in (0, LIVE["increment"])
        assert before[side] - row.clocks[side] in (STEP, STEP - LIVE["increment"])
        if row.to_move:  # the next mover's clock runs from now, on whichever board
            assert row.deadline == now + timedelta(seconds=row.clocks[row.to_move])
            assert clock.running_side(row) == row.to_move
    assert {"quatre-bras", "ligny"} <= boards  # both boards were played on one clock each


def test_16_o_increment_when_a_turn_ends_on_either_board():
    core = small_campaign(seed=5, turn_cap=6)
    row = fake(LIVE, core)
    clock.start(row, T0)
    dice, now, charged = SeededDice(5), T0, {"french": 0.0, "allied": 0.0}
    increments: dict[str, int] = {"quatre-bras": 0, "ligny": 0}
    while to_move(core) is not None and core.phase == "first":
        turns = {b: st.turn for b, st in core.boards.items()}
        now += timedelta(seconds=STEP)
        side, _board = step(row, core, dice, now)
        charged[side] += STEP
        for b, st in core.boards.items():
            if turns.get(b) and st.turn > turns[b]:
                increments[b] += st.turn - turns[b]
    # Every Battle Turn that ended (deployment aside) gave its side LIVE["increment"], on
    # both boards, and nothing else was added: the clocks add up exactly.
    assert increments["quatre-bras"] > 0 and increments["ligny"] > 0
    gained = {s: row.clocks[s] - (900 - charged[s]) for s in SIDES}
    assert sum(gained.values()) == LIVE["increment"] * sum(increments.values())
    assert all(g % LIVE["increment"] == 0 and g > 0 for g in gained.values())


def test_16_o_turns_ended_alternates_sides_and_skips_deployment():
    before = {"boards": {"ligny": {"turn": 3, "active": "french"},
                        "quatre-bras": {"turn": 0, "active": "french"}}}
    after = {"boards": {"ligny": {"turn": 5, "active": "french"},
                       "quatre-bras": {"turn": 1, "active": "french"}}}
    assert CAMPAIGN.turns_ended(before, after) == ["french", "allied"]
    assert CAMPAIGN.turns_ended(before, {"boards": {}}) == []  # a board that ended: no turn end


def test_16_o_correspondence_gives_a_fresh_allowance_when_the_move_passes():
    core = small_campaign(seed=3, turn_cap=4)
    row = fake(CORR, core)
    clock.start(row, T0)
    dice, now = SeededDice(3), T0
    for _ in range(30):
        if to_move(core) is None:
            break
        now += timedelta(seconds=STEP)
        side, _ = step(row, core, dice, now)
        if row.to_move and row.to_move != side:
            assert row.clocks == {"french": 2 * 86400, "allied": 2 * 86400}
        elif row.to_move:  # the same side goes on: its allowance keeps running
            assert row.clocks[side] < 2 * 86400


def test_16_o_the_computers_clock_never_runs():
    core = small_campaign(seed=3, turn_cap=4)
    row = fake(LIVE, core, bot="greedy", computer="french")
    clock.start(row, T0)  # the French (the computer) split first
    assert row.deadline is None and clock.running_side(row) is None
    step(row, core, SeededDice(3), T0 + timedelta(seconds=500))
    assert row.clocks == {"french": 900, "allied": 900}  # its 500 s are charged to nobody
    assert row.to_move == "allied" and row.deadline == T0 + timedelta(seconds=1400)


def test_16_o_out_of_time_loses_the_campaign():
    core = small_campaign(seed=3)
    row = fake(LIVE, core)
    clock.start(row, T0)
    assert clock.out_of_time(row, T0 + timedelta(seconds=899)) is None
    assert clock.out_of_time(row, T0 + timedelta(seconds=900)) == "french"
    outcome, fields = clock.flag_fell(row, T0 + timedelta(seconds=900))
    assert outcome == {"winner": "allied", "reason": "time", "loser": "french"}
    assert row.clocks["french"] == 0 and row.deadline is None and set(fields) == set(clock.FIELDS)


# --- through the service ------------------------------------------------------------------------

@pytest.fixture
def small(monkeypatch):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    return pools


@pytest.fixture
def booked(monkeypatch) -> list[tuple]:
    """Flag-fall tasks the service books, recorded instead of sent (no broker here)."""
    calls: list[tuple] = []
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: calls.append(args))
    return calls


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def start(user, other_user, tc=LIVE, **kwargs) -> Campaign:
    c = services.create_campaign(user, "french", opponent="open", time_control=tc, **kwargs)
    services.join_campaign(c.pk, other_user)
    return Campaign.objects.get(pk=c.pk)


def mover(c: Campaign, user, other_user):
    return user if c.to_move == "french" else other_user


def play_one(c: Campaign, user, other_user) -> None:
    who = mover(c, user, other_user)
    services.act(c.pk, who, c.seq, passive(selectors.campaign_view(c, who)["legal_actions"]))


def overdue(c: Campaign, seconds: float = 1) -> None:
    """Time passes: the side to move's deadline is ``seconds`` ago."""
    Campaign.objects.filter(pk=c.pk).update(
        deadline=timezone.now() - timedelta(seconds=seconds),
        clock_started_at=timezone.now() - timedelta(seconds=900 + seconds))


pytest_db = pytest.mark.django_db


@pytest_db
def test_clocks_start_at_join_and_a_flag_fall_is_booked(user, other_user, small, booked,
                                                       django_capture_on_commit_callbacks):
    r = client(user).post("/api/campaigns/", {"side": "french", "opponent": "open",
                                              "time_control": LIVE}, format="json")
    assert r.status_code == 201, r.content
    view = r.json()
    assert view["time_control"] == LIVE and view["clocks"] == {"french": 900, "allied": 900}
    assert view["deadline"] is None and booked == []  # waiting: no clock runs
    assert view["expires_at"] is not None and view["rated"] is False
    with django_capture_on_commit_callbacks(execute=True):
        r = client(other_user).post(f"/api/campaigns/{view['id']}/join/", {}, format="json")
    assert r.status_code == 200
    c = Campaign.objects.get(pk=view["id"])
    assert c.to_move == "french" and c.deadline is not None
    assert booked == [(c.pk, 0, c.deadline)]
    view = r.json()
    assert view["deadline"] == c.deadline.isoformat() and view["expires_at"] is None
    assert 895 <= view["clocks"]["french"] <= 900 and view["clocks"]["allied"] == 900
    with django_capture_on_commit_callbacks(execute=True):
        play_one(c, user, other_user)  # the French split: now the Allies' clock runs
    c.refresh_from_db()
    assert c.to_move == "allied" and booked[-1] == (c.pk, 1, c.deadline)
    assert c.clocks["french"] <= 900 and c.clocks["allied"] == 900
    summary = client(user).get("/api/campaigns/").json()["results"][0]
    assert summary["time_control"] == LIVE and summary["rated"] is False
    # A correspondence deadline days away is left to the beat tick (no far ETA on a broker).
    with django_capture_on_commit_callbacks(execute=True):
        far = start(user, other_user, tc=CORR)
    assert far.deadline is not None and all(call[0] != far.pk for call in booked)


@pytest_db
@pytest.mark.parametrize("tc, words", [
    ({"kind": "live", "base": 5}, "base must be a whole number"),
    ({"kind": "blitz"}, 'kind must be "live" or "correspondence"'),
    ("fast", "time_control must be an object"),
])
def test_a_bad_time_control_is_a_400(user, small, tc, words):
    r = client(user).post("/api/campaigns/", {"side": "french", "time_control": tc},
                          format="json")
    assert r.status_code == 400 and words in r.json()["detail"]
    assert not Campaign.objects.exists()


@pytest_db
def test_against_the_computer_untimed_by_default_and_its_clock_never_runs(user, small,
                                                                          booked):
    c = services.create_campaign(user, "allied", bot="greedy")
    assert c.time_control == {} and c.clocks == {} and c.deadline is None
    assert c.expires_at is None
    timed = services.create_campaign(user, "allied", bot="greedy", time_control=LIVE)
    assert timed.to_move == "french" and timed.deadline is None  # the computer splits
    assert tasks.bot_move(timed.pk, 0) >= 1
    timed.refresh_from_db()
    assert timed.to_move == "allied" and timed.clocks == {"french": 900, "allied": 900}
    assert timed.deadline is not None


@pytest_db
def test_an_action_after_the_deadline_is_refused_and_ends_the_campaign_by_time(
        user, other_user, small, booked, django_capture_on_commit_callbacks):
    c = start(user, other_user)
    play_one(c, user, other_user)
    c.refresh_from_db()
    loser = c.to_move
    overdue(c)
    told = []

    def listen(**kw):
        told.append((kw["match_id"], kw["seq"], kw["status"]))

    match_changed.connect(listen, weak=False, dispatch_uid="campaign-clock-test")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            r = client(mover(c, user, other_user)).post(
                f"/api/campaigns/{c.pk}/act/", {"seq": c.seq, "action": {"type": "pass"}},
                format="json")
    finally:
        match_changed.disconnect(dispatch_uid="campaign-clock-test")
    assert r.status_code == 409 and r.json()["code"] == "out_of_time"
    assert r.json()["detail"] == f"the {loser} side ran out of time: the campaign is over"
    c.refresh_from_db()
    assert c.status == Status.FINISHED and c.seq == 1  # the action was not recorded
    winner = SIDES[1 - SIDES.index(loser)]
    assert c.outcome["winner"] == winner and c.outcome["reason"] == "time"
    assert c.outcome["loser"] == loser and "results" in c.outcome
    assert c.clocks[loser] == 0 and c.deadline is None and c.clock_started_at is None
    assert told == [(c.pk, 1, "finished")]  # match_changed, after commit
    with pytest.raises(Conflict, match="over"):
        services.resign(c.pk, user)


@pytest_db
def test_flag_fall_is_idempotent_by_seq(user, other_user, small, booked,
                                        django_capture_on_commit_callbacks):
    c = start(user, other_user)
    assert tasks.flag_fall(c.pk, c.seq + 1) is False  # another seq: nothing
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.flag_fall(c.pk, c.seq) is False  # early (clock skew): booked again
    assert booked[-1] == (c.pk, c.seq, c.deadline)
    overdue(c)
    assert tasks.flag_fall(c.pk, c.seq) is True
    done = Campaign.objects.get(pk=c.pk)
    assert done.status == Status.FINISHED and done.outcome["reason"] == "time"
    assert done.outcome["winner"] == "allied"  # the French were to split
    assert tasks.flag_fall(c.pk, c.seq) is False  # doubled: nothing
    assert Campaign.objects.get(pk=c.pk).finished_at == done.finished_at


@pytest_db
def test_tick_ends_overdue_campaigns_and_expires_waiting_ones(user, other_user, small,
                                                              booked):
    late = start(user, other_user)
    on_time = start(user, other_user)
    overdue(late)
    waiting = services.create_campaign(user, "allied", opponent="open")
    invited = services.create_campaign(user, "allied", opponent=other_user.username)
    fresh = services.create_campaign(user, "french", opponent="open")
    assert waiting.expires_at - timezone.now() > timedelta(days=6, hours=23)
    Campaign.objects.filter(pk__in=[waiting.pk, invited.pk]).update(
        expires_at=timezone.now() - timedelta(seconds=1))
    assert [r.pk for r in selectors.open_campaigns(other_user)] == [fresh.pk]
    tasks.tick()
    assert Campaign.objects.get(pk=late.pk).outcome["reason"] == "time"
    assert Campaign.objects.get(pk=on_time.pk).status == Status.ACTIVE
    assert set(Campaign.objects.filter(status=Status.EXPIRED).values_list("pk", flat=True)) \
        == {waiting.pk, invited.pk}
    assert Campaign.objects.get(pk=fresh.pk).status == Status.WAITING
    assert tasks.overdue_flags() == [] and tasks.expire_waiting() == []  # once


@pytest_db
def test_an_expired_campaign_refuses_join_and_cancel(user, other_user, small):
    c = services.create_campaign(user, "french", opponent="open")
    Campaign.objects.filter(pk=c.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    # Past expires_at the join is refused even before the tick marks it.
    r = client(other_user).post(f"/api/campaigns/{c.pk}/join/", {}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "expired"
    assert Campaign.objects.get(pk=c.pk).status == Status.WAITING
    assert tasks.expire_waiting() == [c.pk]
    with pytest.raises(Conflict) as err:
        services.join_campaign(c.pk, other_user)
    assert err.value.code == "expired"
    with pytest.raises(Conflict) as err:
        services.cancel_campaign(c.pk, user)
    assert err.value.code == "expired"
    with pytest.raises(Conflict, match="it was expired"):
        services.act(c.pk, user, 0, {"type": "split"})
    page = Client()
    page.force_login(user)
    assert "nobody took the seat in time" in page.get(f"/campaigns/{c.pk}/").content.decode()


@pytest_db
def test_resign_stops_the_clock_with_reason_resigned(user, other_user, small, booked):
    c = start(user, other_user)
    Campaign.objects.filter(pk=c.pk).update(
        clock_started_at=timezone.now() - timedelta(seconds=100),
        deadline=timezone.now() + timedelta(seconds=800))
    r = client(other_user).post(f"/api/campaigns/{c.pk}/resign/", format="json")
    assert r.status_code == 200, r.content  # whoever has the move: the Allies resign
    c.refresh_from_db()
    assert c.outcome["reason"] == "resigned" and c.outcome["winner"] == "french"
    assert c.outcome["loser"] == "allied"
    assert 795 <= c.clocks["french"] <= 800 and c.clocks["allied"] == 900  # charged, stopped
    assert c.deadline is None and c.clock_started_at is None
    assert r.json()["clocks"] == {"french": int(c.clocks["french"]), "allied": 900}


@pytest_db
def test_resign_after_the_flag_fell_ends_by_time(user, other_user, small, booked):
    c = start(user, other_user)
    overdue(c)
    r = client(other_user).post(f"/api/campaigns/{c.pk}/resign/", format="json")
    assert r.status_code == 409 and r.json()["code"] == "out_of_time"
    c.refresh_from_db()
    assert c.outcome["reason"] == "time" and c.outcome["winner"] == "allied"


@pytest_db
def test_the_page_shows_both_clocks_the_running_one_counting_down(user, other_user, small,
                                                                  booked):
    c = start(user, other_user)
    page = Client()
    page.force_login(other_user)
    html = page.get(f"/campaigns/{c.pk}/").content.decode()
    assert 'data-testid="clocks"' in html and "frontend/clock.js" in html
    assert 'data-testid="clock-allied"' in html and 'data-testid="clock-french"' in html
    french = html[html.index('data-testid="clock-french"'):]
    assert french[:french.index(">")].count("data-clock-running") == 1
    assert "Live: 15 min each, +10 s a turn" in html
    assert html.index('data-testid="clock-allied"') < html.index('data-testid="clock-french"')
    untimed = services.create_campaign(user, "french", bot="greedy")
    page.force_login(user)
    html = page.get(f"/campaigns/{untimed.pk}/").content.decode()
    assert 'data-testid="clocks"' not in html and "Untimed" in html


@pytest_db
def test_the_create_form_takes_a_time_control_preset(user, small, booked):
    page = Client()
    page.force_login(user)
    html = page.get("/campaigns/").content.decode()
    assert 'name="time_control"' in html and 'value="live-15-10"' in html
    r = page.post("/campaigns/", {"side": "french", "opponent": "open", "pool": "set",
                                  "time_control": "corr-3", "public": "on"})
    assert r.status_code == 302
    assert Campaign.objects.get().time_control == {"kind": "correspondence", "days": 3}
    r = page.post("/campaigns/", {"side": "french", "opponent": "open", "pool": "set",
                                  "time_control": "blitz"})
    assert r.status_code == 400 and "Choose a time control from the list" in r.content.decode()
    assert Campaign.objects.count() == 1


@pytest_db
def test_the_service_refuses_bad_values(user, small):
    with pytest.raises(BadInput, match="time_control must be an object"):
        services.create_campaign(user, "french", time_control=[1])
    with pytest.raises(BadInput, match="rated must be true or false"):
        services.create_campaign(user, "french", opponent="open", rated="yes")


def test_the_end_line_names_how_it_ended():
    from frontend.campaigns.clocks import outcome_text

    assert outcome_text(None) == ""
    assert outcome_text({"winner": "french", "reason": "time", "loser": "allied"}) == \
        "The French win the campaign (Allied ran out of time)."
    assert outcome_text({"winner": "allied", "reason": "resigned", "loser": "french"}) == \
        "The Allied win the campaign (French resigned)."
    assert outcome_text({"winner": "allied", "reason": "resigned"}) == \
        "The Allied win the campaign (resigned)."  # an outcome saved before "loser"
    assert outcome_text({"winner": "allied", "reason": "campaign"}) == \
        "The Allied win the campaign."


@pytest_db
def test_a_spectator_sees_the_clocks_too(user, other_user, small, booked):
    c = start(user, other_user)
    view = APIClient().get(f"/api/campaigns/{c.pk}/")
    assert view.status_code == 403  # the API needs a log-in
    watcher = User.objects.create_user("carol", "carol@example.com", "s3cret-pass-1815")
    v = client(watcher).get(f"/api/campaigns/{c.pk}/").json()
    assert v["my_side"] is None and v["time_control"] == LIVE
    assert set(v["clocks"]) == {"french", "allied"} and v["deadline"] is not None


@pytest_db
def test_open_campaigns_show_their_time_control_and_rated(user, other_user, small):
    c = services.create_campaign(user, "french", opponent="open", time_control=CORR,
                                 rated=True)
    page = Client()
    page.force_login(other_user)
    html = page.get("/campaigns/").content.decode()
    shown = html[html.index(f'data-testid="open-time-{c.pk}"'):]
    assert shown[:shown.index("</small>")].endswith("(Correspondence: 2 days a move, rated)")


def test_the_clock_module_imports_no_django():
    import ast
    from pathlib import Path

    tree = ast.parse(Path(clock.__file__).read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert names and not {m for m in names if m and m.split(".")[0] in ("django", "celery")}
