"""Campaign pages: the list with its create form, a campaign's page (boards, actions, pools,
losses chart, timeline; the game page frame's log per board and turn, last dice and
confirmations), acting through forms, resign, the replay, the losses chart."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.test import Client

from campaigns import selectors, services
from campaigns.kind import cards_of, core_of
from campaigns.models import Campaign
from frontend.campaigns.chart import losses, losses_svg
from game import ENDING_ACTIONS

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
    assert "Split: " in page and "Your move: split your cards." in page
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


def test_the_list_reads_no_position_and_the_same_queries_for_more_games(
        user, other_user, small, django_user_model):
    """Issue 31: the open and watch lists read a row's columns only (never a position), by
    the same queries however many games there are."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    carol = django_user_model.objects.create_user("carol", password="pw-carol-123")
    client = Client()
    client.force_login(carol)

    def games() -> None:  # one open and one public campaign under way, neither carol's
        services.create_campaign(user, "allied", opponent="open")
        live = services.create_campaign(user, "french", opponent="open",
                                        settings={"turn_cap": 2})
        services.join_campaign(live.pk, other_user)

    games()
    client.get("/campaigns/")
    with CaptureQueriesContext(connection) as few:
        page = client.get("/campaigns/").content.decode()
    assert len(re.findall(r'data-testid="(?:watch|open)-\d+"', page)) == 2
    games()
    games()
    with CaptureQueriesContext(connection) as many:
        page = client.get("/campaigns/").content.decode()
    assert len(re.findall(r'data-testid="watch-\d+"', page)) == 3
    assert len(re.findall(r'data-testid="open-\d+"', page)) == 3
    assert len(many.captured_queries) == len(few.captured_queries)
    reads = [q["sql"] for q in many.captured_queries if 'FROM "campaigns_campaign"' in q["sql"]]
    assert reads and not any('"state"' in q for q in reads)


# --- the game page frame on a campaign: log, dice, confirmations ------------------------------

SEED = 1815  # a campaign whose first battles roll dice with these choices


def _section(page: str, testid: str) -> str:
    """The HTML of the page's ``<section ... data-testid=testid>``."""
    start = page.index(f'data-testid="{testid}"')
    return page[start:page.index("</section>", start)]


def _forms(page: str) -> list[tuple[dict, str]]:
    """Each action form's action and its opening tag."""
    out = []
    for m in re.finditer(r'<form [^>]*class="b-act"[^>]*>', page):
        raw = re.search(r'name="action" value="([^"]*)"', page[m.end():]).group(1)
        out.append((json.loads(html.unescape(raw)), m.group(0)))
    return out


def _play_on(alice, user, c, pick, steps: int, stop=lambda c, page: False) -> str:
    """The computer plays the French (it splits first), alice the Allies through the page's
    forms, choosing with ``pick(actions)``; returns her last page."""
    page = ""
    for _ in range(steps):
        c.refresh_from_db()
        if c.status != "active":
            break
        if c.to_move == "french":
            tasks.bot_move(c.pk, c.seq)
            continue
        page = alice.get(f"/campaigns/{c.pk}/").content.decode()
        if stop(c, page):
            break
        forms = _forms(page)
        assert forms, "alice's move and no button"
        action = pick([a for a, _tag in forms])
        r = alice.post(f"/campaigns/{c.pk}/act/", {"seq": str(c.seq), "action": json.dumps(action),
                                                   "confirm": "1"})
        assert r.status_code == 302, r.content.decode()[:2000]
    c.refresh_from_db()
    return alice.get(f"/campaigns/{c.pk}/").content.decode()


def test_the_page_shows_the_log_per_board_and_turn_the_dice_and_no_hidden_card(
        alice, user, small, monkeypatch):
    """The frame's log on a campaign: grouped per board and turn (the campaign's own events
    in groups of their own), what the computer did since alice's last action marked, the
    last dice drawn (with their board), the fair-dice check after them; and never a card
    alice may not know (the log comes from her view only)."""
    monkeypatch.setattr(services, "new_seed", lambda: SEED)
    c = services.create_campaign(user, "allied", bot="greedy", settings={"turn_cap": 4})
    rng = random.Random("campaign-log")
    attacks = ("fire", "shock", "roll_morale")

    def pick(actions):  # fight: attack, deploy everything, move; end a phase now and then
        for kinds in (attacks, ("deploy",)):
            if chosen := [a for a in actions if a["type"] in kinds]:
                return rng.choice(chosen)
        ending = [a for a in actions if a["type"] in ENDING_ACTIONS]
        other = [a for a in actions if a["type"] not in ENDING_ACTIONS + ("retreat",)]
        return rng.choice(ending if ending and (not other or rng.random() < 0.3) else other)

    def enough(c, page):
        return 'data-testid="dice"' in page and page.count('data-testid="log-turn"') >= 4

    page = _play_on(alice, user, c, pick, 300, enough)
    assert enough(c, page), "no dice rolled: choose another SEED"
    log = _section(page, "log")
    assert 'data-board="quatre-bras"' in log and 'data-board="ligny"' in log
    titles = re.findall(r"<summary>([^<]+) <small", log)
    assert "The campaign" in titles
    assert any(re.fullmatch(r"(Quatre Bras|Ligny) · Turn \d+ \((French|Allied)\)", t)
               for t in titles), titles
    assert "The French split their cards: " in log  # counts only: the French decks stay hidden
    assert 'class="mine' in log and 'class="theirs' in log
    if c.status == "active" and c.to_move == "allied":
        assert 'data-new="1"' in log  # the computer's moves since alice's last action
    assert page.index('data-testid="dice"') < page.index('data-testid="seed"')
    dice = page[page.index('data-testid="dice"'):]
    dice = dice[:dice.index("</figure>")]
    assert "<svg" in dice and re.search(r"\((Quatre Bras|Ligny), action \d+\)", dice)
    assert "Fair dice" in _section(page, "seed")
    # hidden information: no card alice may not know is named in the log (nor anywhere)
    tables = cards_of(c)
    hidden = hidden_from(c, "allied")
    known = [tables[n].name for n in tables if n not in hidden]
    secret = {tables[n].name for n in hidden} - {name for name in known}
    secret = {name for name in secret if not any(name in other for other in known)}
    face_down = {p.num for st in core_of(c).boards.values()
                 for p in st.pieces.values() if p.side == 0 and not p.up}
    assert face_down, "the French hold face-down cards on a board"
    assert secret and not [name for name in secret if html.escape(name) in log]
    assert not [name for name in secret if f">{html.escape(name)}<" in page]


def test_a_retreat_is_asked_first_and_a_board_loss_warning_marks_its_button(
        alice, user, small, monkeypatch):
    """Retreat concedes a battle: the page asks first, as Resign does (nothing is played
    until confirm=1). A board action that can lose that battle (4.3) is marked and asked
    too, with the battle page's words."""
    from frontend.campaigns.views import action_warning

    monkeypatch.setattr(services, "new_seed", lambda: SEED)
    c = services.create_campaign(user, "allied", bot="greedy", settings={"turn_cap": 4})
    rng = random.Random("campaign-retreat")
    warned = []

    def pick(actions):
        return rng.choice([a for a in actions if a["type"] != "retreat"] or actions)

    def can_retreat(c, page):
        cv = selectors.campaign_view(c, user)
        for action, tag in _forms(page):
            said = action_warning(cv, action, cards_of(c))
            assert ('data-warn="1"' in tag) == bool(said), (action, said)
            if said and action["type"] != "retreat":
                warned.append(said)
        return any(a["type"] == "retreat" for a in cv["legal_actions"])

    page = _play_on(alice, user, c, pick, 200, can_retreat)
    c.refresh_from_db()
    retreat = next(a for a, _tag in _forms(page) if a["type"] == "retreat")
    seq = c.seq
    data = {"seq": str(seq), "action": json.dumps(retreat)}
    r = alice.post(f"/campaigns/{c.pk}/act/", data)
    text = r.content.decode()
    assert r.status_code == 200 and 'data-testid="confirm"' in text
    assert "You concede that battle" in text and 'name="confirm" value="1"' in text
    c.refresh_from_db()
    assert c.seq == seq  # asked, nothing played
    assert alice.post(f"/campaigns/{c.pk}/act/", {**data, "confirm": "1"}).status_code == 302
    c.refresh_from_db()
    assert c.seq > seq and c.actions.get(seq=seq + 1).action["type"] == "retreat"
    assert warned and all("without a troop card" in w for w in warned)
