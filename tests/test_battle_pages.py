# Over 500 lines on purpose: one idea, the battle pages through the test client, page by page.
"""Battle pages (Django test client): my battles and the new-battle form (bad input: the page
again with the service's message and status, nothing created); the battle page (board,
Reserve, legal actions as buttons, log, seed hash); acting through a plain POST (redirect)
and through htmx (the play fragment); a stale seq is a 409 fragment saying the battle has
moved on, an illegal action a 400 with the engine's message, and nothing changes; someone
else's battle is a 404. Hidden information: a whole battle played through the pages, every
page checked against the full engine state for the names and numbers of face-down enemy
cards; the seed appears only once the battle is over. Playing another person: open battles
and invitations from the form (a bad username: the message), joining from the list, declining,
cancelling, a seat taken meanwhile (409), polling while the other person is to move, and a
whole battle between two users checked from both sides for hidden cards."""

from __future__ import annotations

import hashlib
import html
import json
import random
import re

import pytest
from django.test import Client

from battles import services
from battles.engine import events_for, from_json, legal_actions, load_cards, view
from battles.engine.board import ARMY_SIDE, SIDE_INDEX
from battles.models import Battle, Status
from cards.catalogue.file import catalogue_records
from frontend.battle.views import action_sections
from game import ENDING_ACTIONS

from .kinds import battle_tasks as tasks
from .test_battle_api import card_numbers
from .tournament_helpers import player

RECORDS = catalogue_records()  # the card records the engine is given

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def alice(user) -> Client:
    return client_for(user)


def create(client, expect=302, **form) -> Battle | None:
    data = {"battle": "quatre-bras", "side": "allied", "bot": "random", "turn_cap": "40",
            **form}
    r = client.post("/battles/", data)
    assert r.status_code == expect, r.content.decode()[:2000]
    if expect != 302:
        return r
    b = Battle.objects.order_by("-pk").first()
    assert r["Location"] == f"/battles/{b.pk}/"
    return b


def snapshot(b: Battle) -> tuple:
    b.refresh_from_db()
    return (b.seq, b.status, json.dumps(b.state, sort_keys=True), b.outcome,
            list(b.actions.values_list("seq", "action", "events")))


def posted_actions(page: str) -> tuple[int | None, list[dict], list[str]]:
    """The seq, the actions and the button types of the action forms on a page."""
    seqs = {int(s) for s in re.findall(r'name="seq" value="(\d+)"', page)}
    assert len(seqs) <= 1
    actions = [json.loads(html.unescape(raw))
               for raw in re.findall(r'name="action" value="([^"]*)"', page)]
    types = re.findall(r'data-testid="action" data-type="([a-z_]+)"', page)
    return (seqs.pop() if seqs else None), actions, types


def act(client, b, seq, action, *, htmx=False, expect=None):
    headers = HX if htmx else {}
    r = client.post(f"/battles/{b.pk}/act/",
                    {"seq": str(seq), "action": action if isinstance(action, str)
                     else json.dumps(action)}, headers=headers)
    if expect is not None:
        assert r.status_code == expect, r.content.decode()[:3000]
    return r


# --- my battles and a new one ----------------------------------------------------------------

def test_the_nav_links_battles_for_players(alice, client, db):
    assert b'href="/battles/"' in alice.get("/").content
    assert b'href="/battles/"' not in client.get("/").content
    r = client.get("/battles/")  # a visitor: what is on now, and how to play (issue 28)
    assert r.status_code == 200 and 'data-testid="watch-list"' in r.content.decode()
    assert "/accounts/login/?next=/battles/" in r.content.decode()
    r = client.post("/battles/", {"battle": "ligny"})
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_list_and_create(alice, user, sent, django_capture_on_commit_callbacks):
    page = alice.get("/battles/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="new-battle-form"' in text and 'data-testid="no-battles"' in text
    for label in ("Quatre Bras", "Ligny", "Wavre", "Waterloo", "French", "Allied", "Random",
                  "Greedy", "Deal from: my collection", "Deal from: the whole set",
                  "Historical only", "Scale"):
        assert label in text

    with django_capture_on_commit_callbacks(execute=True):
        b = create(alice, side="french", bot="greedy", turn_cap="12", decoys="1")
    assert (b.french_player, b.allied_player, b.bot) == (user, None, "greedy")
    assert b.settings == {"turn_cap": 12, "decoys": True}
    assert sent == [(b.pk, 0)]  # the Allies deploy first: the computer is asked at once
    second = create(alice, battle="ligny", side="allied")
    assert second.settings["turn_cap"] == 40 and second.battle == "ligny"

    text = alice.get("/battles/").content.decode()
    rows = re.findall(r'data-testid="battle-row-(\d+)"', text)
    assert rows == [str(second.pk), str(b.pk)]  # newest first
    row = text[text.index(f'battle-row-{b.pk}"'):]
    row = row[:row.index("</tr>")]
    assert "Quatre Bras" in row and "French" in row and "computer (greedy)" in row
    assert "The computer&#x27;s move" in row and "Active" in row

    # a finished battle shows its outcome from my side
    Battle.objects.filter(pk=b.pk).update(status=Status.FINISHED, outcome={
        "winner": "french", "reason": "occupation", "turn": 3, "position": "allied_left"})
    text = alice.get("/battles/").content.decode()
    row = text[text.index(f'battle-row-{b.pk}"'):]
    row = row[:row.index("</tr>")]
    assert "The battle is over: you win by holding enemy Left alone" in row


def test_5_0_c_new_battle_form_has_no_turn_limit_by_default(alice, sent):
    """RULINGS 5.0-c: the form's Turn limit starts empty, and empty means none."""
    text = alice.get("/battles/").content.decode()
    field = text[text.index('id="nb-turns"'):]
    assert 'value=""' in field[:field.index(">")]
    b = create(alice, turn_cap="")
    assert b.settings["turn_cap"] is None


@pytest.mark.parametrize("form,status,message", [
    ({"battle": "austerlitz"}, 400, "Unknown battle &#x27;austerlitz&#x27;"),
    ({"side": "prussian"}, 400, "Side must be french or allied"),
    ({"side": ""}, 400, "Side must be french or allied"),
    ({"bot": "clever<b>"}, 400, "Unknown bot &#x27;clever&lt;b&gt;&#x27;"),
    ({"turn_cap": "0"}, 400, "Turn_cap must be a whole number from 1 to 100"),
    ({"turn_cap": "many"}, 400, "Turn_cap must be a whole number"),
    ({"deck_version": "x1"}, 400, "Deck_version must be a deck version id"),
    ({"deck_version": "999999"}, 404, "No such deck version 999999 among your decks"),
    ({"scale": "1/3"}, 400, "2.0: scale 1/3 would give Quatre Bras decks"),
    ({"deck_version": "collection"}, 400,
     "2.0: your collection has 0 British cards for Quatre Bras; a deal at scale 1 needs 18"),
])
def test_create_refuses_bad_input_with_the_message(alice, sent, form, status, message):
    r = create(alice, expect=status, **form)
    text = r.content.decode()
    assert 'data-testid="create-error"' in text and message in text
    assert "<b>" not in text.split('data-testid="create-error"')[1].split("</div>")[0]
    assert 'data-testid="new-battle-form"' in text  # the form again, with what was sent
    assert not Battle.objects.exists() and sent == []


def test_create_with_my_deck(catalogue, sent):
    dora, versions = player("dora")
    c = client_for(dora)
    text = c.get("/battles/").content.decode()
    british, french = versions["british"], versions["french"]
    assert f'value="{british.pk}" data-battle="quatre-bras" data-side="allied"' in text
    assert f'value="{french.pk}" data-battle="quatre-bras" data-side="french"' in text
    # the wrong side: the service's message, nothing created
    r = create(c, expect=400, side="french", deck_version=str(british.pk))
    assert "british deck: it cannot play the french side" in r.content.decode()
    assert not Battle.objects.exists()
    b = create(c, side="allied", deck_version=str(british.pk))
    assert b.british_deck == british and b.french_deck is None


def test_2_0_create_with_a_dealt_deck_at_a_scale(catalogue, sent):
    dora, _ = player("dora")
    c = client_for(dora)
    text = c.get("/battles/").content.decode()
    assert '<option value="1/12" data-battles="waterloo"' in text
    assert 'data-battles="quatre-bras ligny wavre waterloo"' in text  # scale 1: every battle
    b = create(c, battle="waterloo", side="allied", scale="1/2", deck_version="set",
               historical="yes")
    assert b.scale == "1/2" and {a: len(d) for a, d in b.decks.items()} == {
        "french": 18, "british": 18, "prussian": 12}
    assert b.deck_choices["british"]["pool"] == "set" and b.deck_choices["british"]["historical"]
    page = c.get(f"/battles/{b.pk}/").content.decode()
    kinds = re.search(r'data-testid="deck-kinds">(.*?)</p>', page, re.S).group(1)
    assert 'data-testid="scale">1/2<' in kinds
    assert "French: dealt from the whole set, historical only" in kinds
    assert "Allied: dealt from the whole set, historical only" in kinds
    own = create(c, side="french", deck_version="collection")  # dora owns one deck's cards
    assert own.deck_choices["french"]["pool"] == "collection" and own.scale == "1"
    page = c.get(f"/battles/{own.pk}/").content.decode()
    assert "dealt from the player&#x27;s collection" in page


def test_2_0_join_with_a_dealt_deck(catalogue, user, sent):
    dora, _ = player("dora")
    b = services.create_battle(user, "quatre-bras", "french", opponent="open", scale="1/2")
    c = client_for(dora)
    row = row_of(c.get("/battles/").content.decode(), f"open-{b.pk}")
    assert "scale 1/2" in row and 'value="collection"' in row and 'value="set"' in row
    r = c.post(f"/battles/{b.pk}/join/", {"deck_version": "collection", "historical": "yes"})
    assert r.status_code == 302
    b.refresh_from_db()
    assert b.deck_choices["british"]["pool"] == "collection" and len(b.decks["british"]) == 9


# --- the battle page -------------------------------------------------------------------------

def test_battle_page_shows_board_reserve_actions_and_seed_hash(alice, user, sent):
    b = create(alice)
    r = alice.get(f"/battles/{b.pk}/")
    assert r.status_code == 200 and "HX-Request" in r["Vary"]
    text = r.content.decode()
    bv = services.battle_view(b, user)
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in text and 'class="battle-board' in text
    cards = load_cards(RECORDS)
    for num in bv["view"]["reserves"]["allied"]["cards"]:
        assert html.escape(cards[num].name) in text
    seq, actions, types = posted_actions(text)
    assert seq == 0 and actions == bv["legal_actions"] and len(actions) > 10
    assert set(types) <= {"deploy", "play_terrain"}
    assert "Deployment" in text and "Your move" in text
    assert bv["seed_hash"] in text and str(b.seed) not in text
    assert 'hx-trigger="every' not in text  # my move: no polling
    # deploy actions are grouped per card, worded as one sentence
    assert re.search(r'aria-label="Deploy [^"]+ to your [^"]+"', text)
    assert re.search(r"<p class=\"b-group-title\">Deploy [^<]+ to your</p>", text)


def test_action_groups_keep_every_action_once_with_its_label(user, sent):
    b = services.create_battle(user, "quatre-bras", "allied", bot="random")
    bv = services.battle_view(b, user)
    sections = action_sections(bv["legal_actions"], bv["view"])
    flat = [it["action"] for s in sections for g in s["groups"] for it in g["items"]]
    assert sorted(map(json.dumps, flat)) == sorted(map(json.dumps, bv["legal_actions"]))
    deploy = next(s for s in sections if s["key"] == "deploy")
    for g in deploy["groups"]:
        assert len({it["action"]["card"] for it in g["items"]}) == 1
        assert g["where"] == "before" and g["title"].startswith("Deploy ")
        shorts = [it["short"] for it in g["items"]]
        assert [x for x in shorts if " in " not in x] == ["Left", "Centre", "Right"]
        # Infantry may deploy in Column or Square too (MagWeb Q&A 4.1, RULINGS 4.1-c)
        assert all(re.fullmatch(r"(Left|Centre|Right) in (column|square)", x)
                   for x in shorts if " in " in x)
        for it in g["items"]:
            assert it["label"] == f"{g['title']} {it['short']}"


@pytest.mark.parametrize("labels,title,where,shorts", [
    (["Deploy Cooke (general) to your Left", "Deploy Cooke (general) to your Right"],
     "Deploy Cooke (general) to your", "before", ["Left", "Right"]),
    (["Form column: Byng in your Left", "Form square: Byng in your Left"],
     "Byng in your Left", "after", ["Form column", "Form square"]),
    (["Move Byng to your Left", "Withdraw Byng to your Reserve"], "", "",
     ["Move Byng to your Left", "Withdraw Byng to your Reserve"]),
    (["Move Byng to your Left", "Move Byng to your Left in column"], "Move Byng to your",
     "before", ["Left", "Left in column"]),
    (["End your turn"], "", "", ["End your turn"]),
])
def test_a_group_is_worded_around_its_shared_words(labels, title, where, shorts):
    from frontend.battle.views import _split_group

    items = [{"label": label} for label in labels]
    assert _split_group(items) == (title, where)
    assert [it["short"] for it in items] == shorts


def test_act_by_plain_post_redirects_and_by_htmx_returns_the_fragment(alice, user, sent):
    b = create(alice)
    seq, actions, _ = posted_actions(alice.get(f"/battles/{b.pk}/").content.decode())
    r = act(alice, b, seq, actions[0], expect=302)
    assert r["Location"] == f"/battles/{b.pk}/"
    b.refresh_from_db()
    assert b.seq == 1 and b.actions.get(seq=1).action == actions[0]

    page = alice.get(f"/battles/{b.pk}/").content.decode()
    seq, actions, _ = posted_actions(page)
    assert seq == 1
    assert 'data-testid="log-line" data-seq="1"' in page
    r = act(alice, b, seq, actions[-1], htmx=True, expect=200)
    frag = r.content.decode()
    assert "HX-Request" in r["Vary"]
    assert frag.lstrip().startswith('<div id="battle-play"') and "<html" not in frag
    assert 'data-seq="2"' in frag and 'data-testid="log-line" data-seq="2"' in frag
    b.refresh_from_db()
    assert b.seq == 2


def test_stale_seq_is_a_409_fragment_and_changes_nothing(alice, sent):
    b = create(alice)
    _, actions, _ = posted_actions(alice.get(f"/battles/{b.pk}/").content.decode())
    act(alice, b, 0, actions[0], expect=302)  # e.g. in another tab
    before = snapshot(b)
    r = act(alice, b, 0, actions[1], htmx=True, expect=409)
    frag = r.content.decode()
    assert "The battle has moved on" in frag and 'data-testid="battle-error"' in frag
    assert frag.lstrip().startswith('<div id="battle-play"')
    seq, fresh, _ = posted_actions(frag)  # the fresh state, to act from
    assert seq == 1 and fresh
    assert snapshot(b) == before
    # without JavaScript: the whole page, with the message and the same status
    r = act(alice, b, 0, actions[1], expect=409)
    assert "The battle has moved on" in r.content.decode() and b"<html" in r.content
    assert snapshot(b) == before


@pytest.mark.parametrize("action,seq,message", [
    ({"type": "deploy", "side": "allied", "card": 1, "to": "allied_left"}, 0,
     "Illegal action for allied"),
    ({"type": "fire", "side": "allied", "piece": 1, "target": 2}, 0, "Illegal action"),
    ("not json", 0, "Action must be an object"),
    ("", 0, "Action must be an object"),
    ({"type": "end_turn", "side": "allied"}, "x", "Seq must be a whole number"),
    ({"type": "end_turn", "side": "french"}, 0, "You play the allied side"),
])
def test_illegal_or_malformed_action_is_a_400_with_the_message(alice, sent, action, seq,
                                                               message):
    b = create(alice)
    before = snapshot(b)
    r = act(alice, b, seq, action, htmx=True, expect=400)
    frag = r.content.decode()
    assert 'data-testid="battle-error"' in frag and message in frag
    assert posted_actions(frag)[0] == 0  # the battle as it is, to act from
    assert snapshot(b) == before


def test_another_users_battle_is_404(alice, other_user, sent):
    b = create(alice)
    before = snapshot(b)
    bob = client_for(other_user)
    _, actions, _ = posted_actions(alice.get(f"/battles/{b.pk}/").content.decode())
    assert bob.get(f"/battles/{b.pk}/").status_code == 404
    assert act(bob, b, 0, actions[0], htmx=True).status_code == 404
    assert act(bob, b, 0, actions[0]).status_code == 404
    assert alice.get("/battles/999999/").status_code == 404
    assert f'battle-row-{b.pk}"' not in bob.get("/battles/").content.decode()
    assert snapshot(b) == before


def test_waiting_for_the_computer_polls_until_it_has_moved(
        alice, user, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        b = create(alice, side="french")  # the Allies (the computer) deploy first
    assert sent == [(b.pk, 0)]
    page = alice.get(f"/battles/{b.pk}/").content.decode()
    assert 'hx-trigger="every 1s"' in page and 'data-testid="waiting"' in page
    assert posted_actions(page)[1] == []
    frag = alice.get(f"/battles/{b.pk}/", headers=HX).content.decode()
    assert frag.lstrip().startswith('<div id="battle-play"') and 'hx-trigger="every 1s"' in frag
    assert tasks.bot_move(*sent[-1]) >= 1
    frag = alice.get(f"/battles/{b.pk}/", headers=HX).content.decode()
    assert 'hx-trigger' not in frag.split(">", 1)[0]  # the fragment stops polling
    assert "The Allies deploy" in frag and posted_actions(frag)[1]


def test_a_battle_between_people_waiting_for_an_opponent(alice, user, sent):
    b = services.create_battle(user, "ligny", "french", opponent="open")
    row = alice.get("/battles/").content.decode()
    row = row[row.index(f'battle-row-{b.pk}"'):]
    row = row[:row.index("</tr>")]
    assert "anyone (open battle)" in row and "Waiting for an opponent" in row
    assert f'action="/battles/{b.pk}/cancel/"' in row  # my waiting battle: Cancel
    page = alice.get(f"/battles/{b.pk}/")
    text = page.content.decode()
    assert page.status_code == 200 and 'data-testid="no-position"' in text
    assert "<svg" not in text.split('data-testid="battle-play"')[1]
    assert posted_actions(text)[1] == []
    assert 'hx-trigger="every 2s"' in text  # polls until someone joins
    assert "anyone takes the other seat" in text
    assert f'action="/battles/{b.pk}/cancel/"' in text
    r = act(alice, b, 0, {"type": "end_turn", "side": "french"}, htmx=True, expect=409)
    assert "Waiting for an opponent" in r.content.decode()


# --- playing another person ----------------------------------------------------------------

def row_of(text: str, testid: str) -> str:
    row = text[text.index(f'data-testid="{testid}"'):]
    return row[:row.index("</tr>")]


def test_create_an_open_battle_and_an_invitation(alice, user, other_user, sent):
    text = alice.get("/battles/").content.decode()
    for label in ("Opponent", "The computer", "Anyone (an open battle)", "A player I name"):
        assert label in text
    b = create(alice, opponent="open", side="french")
    assert (b.status, b.invited, b.bot, b.french_player) == (Status.WAITING, None, "", user)
    inv = create(alice, opponent="player", opponent_name="BOB", side="allied")
    assert (inv.status, inv.invited, inv.allied_player) == (Status.WAITING, other_user, user)
    assert sent == []  # nobody asks the computer
    text = alice.get("/battles/").content.decode()
    assert "bob (invited)" in row_of(text, f"battle-row-{inv.pk}")
    page = alice.get(f"/battles/{inv.pk}/").content.decode()
    assert "<strong>bob</strong> (invited) takes" in page and "only they may join" in page


@pytest.mark.parametrize("name,status,message", [
    ("nobody", 404, "No player named &#x27;nobody&#x27;"),
    ("alice", 400, "You cannot invite yourself"),
    ("", 400, "Enter the username of the player to invite"),
    ("open", 400, "cannot be invited by name"),
])
def test_a_bad_invitation_is_the_form_again_with_the_message(alice, sent, name, status,
                                                             message):
    r = create(alice, expect=status, opponent="player", opponent_name=name)
    text = r.content.decode()
    assert 'data-testid="create-error"' in text and message in text
    assert f'name="opponent_name" type="text" autocomplete="off" placeholder="Username" ' \
           f'value="{name}"' in text
    assert re.search(r'value="player" checked', text)
    assert not Battle.objects.exists()


def test_join_an_open_battle_from_the_list(alice, user, other_user, sent):
    b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    bob = client_for(other_user)
    assert f'data-testid="open-{b.pk}"' not in alice.get("/battles/").content.decode()
    text = bob.get("/battles/").content.decode()
    row = row_of(text, f"open-{b.pk}")
    assert "Quatre Bras" in row and "Allied" in row and "alice" in row
    assert f'action="/battles/{b.pk}/join/"' in row
    r = bob.post(f"/battles/{b.pk}/join/", {"deck_version": ""})
    assert r.status_code == 302 and r["Location"] == f"/battles/{b.pk}/"
    b.refresh_from_db()
    assert (b.status, b.allied_player) == (Status.ACTIVE, other_user)
    # the Allies deploy first: bob's move, alice's page polls for it
    bob_page = bob.get(f"/battles/{b.pk}/").content.decode()
    assert 'data-testid="board"' in bob_page and posted_actions(bob_page)[1]
    assert 'hx-trigger="every' not in bob_page  # my move: no polling
    alice_page = alice.get(f"/battles/{b.pk}/").content.decode()
    assert 'data-testid="board"' in alice_page and posted_actions(alice_page)[1] == []
    assert 'hx-trigger="every 2s"' in alice_page and "bob is to move" in alice_page
    # a polled fragment also updates the opponent's name in the heading (the frame's header,
    # swapped out of band)
    frag = alice.get(f"/battles/{b.pk}/", headers=HX).content.decode()
    head = frag[frag.index('<header class="b-head" id="game-head" hx-swap-oob="true">'):]
    assert '<strong id="battle-opponent" data-testid="opponent">bob</strong>' in head
    # it is no longer open: a second joiner finds the seat taken
    carol = client_for(type(user).objects.create_user("carol", "c@example.com", "pw-1815-x"))
    assert f'data-testid="open-{b.pk}"' not in carol.get("/battles/").content.decode()


def test_join_with_my_deck(catalogue, user, sent):
    dora, versions = player("dora")
    b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    c = client_for(dora)
    row = row_of(c.get("/battles/").content.decode(), f"open-{b.pk}")
    assert f'value="{versions["british"].pk}"' in row  # a deck of mine for the free side
    assert f'value="{versions["french"].pk}"' not in row
    r = c.post(f"/battles/{b.pk}/join/", {"deck_version": str(versions["french"].pk)})
    assert r.status_code == 400 and "cannot play the allied side" in r.content.decode()
    assert 'data-testid="list-error"' in r.content.decode()
    r = c.post(f"/battles/{b.pk}/join/", {"deck_version": str(versions["british"].pk)})
    assert r.status_code == 302
    b.refresh_from_db()
    assert b.british_deck == versions["british"] and b.allied_player == dora


def test_join_and_decline_an_invitation(alice, user, other_user, sent):
    first = services.create_battle(user, "ligny", "french", opponent="bob")
    second = services.create_battle(user, "wavre", "allied", opponent="bob")
    bob = client_for(other_user)
    text = bob.get("/battles/").content.decode()
    assert 'data-testid="invitations"' in text
    row = row_of(text, f"invitation-{first.pk}")
    assert "Ligny" in row and "Allied" in row and "alice" in row
    assert f'action="/battles/{first.pk}/join/"' in row
    assert f'action="/battles/{first.pk}/cancel/"' in row and "Decline" in row
    assert f'data-testid="open-{first.pk}"' not in text  # an invitation is not open
    # nobody else sees it, nor may join it
    carol = client_for(type(user).objects.create_user("carol", "c@example.com", "pw-1815-x"))
    assert f"invitation-{first.pk}" not in carol.get("/battles/").content.decode()
    r = carol.post(f"/battles/{first.pk}/join/")
    assert r.status_code == 404 and "No such battle" in r.content.decode()

    r = bob.post(f"/battles/{first.pk}/join/", {"deck_version": ""})
    assert r.status_code == 302 and r["Location"] == f"/battles/{first.pk}/"
    first.refresh_from_db()
    assert (first.status, first.allied_player) == (Status.ACTIVE, other_user)
    r = bob.post(f"/battles/{second.pk}/cancel/")
    assert r.status_code == 302 and r["Location"] == "/battles/"
    second.refresh_from_db()
    assert second.status == Status.DECLINED
    text = bob.get("/battles/").content.decode()
    assert 'data-testid="invitations"' not in text  # both answered
    assert f'battle-row-{first.pk}"' in text
    # alice's list: the declined battle, no Cancel button any more
    row = row_of(alice.get("/battles/").content.decode(), f"battle-row-{second.pk}")
    assert "Declined" in row and "/cancel/" not in row


def test_cancel_my_waiting_battle(alice, user, other_user, sent):
    b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    bob = client_for(other_user)
    r = bob.post(f"/battles/{b.pk}/cancel/")  # not bob's to cancel
    assert r.status_code == 403 and "Only its creator can cancel" in r.content.decode()
    r = alice.post(f"/battles/{b.pk}/cancel/")
    assert r.status_code == 302 and r["Location"] == "/battles/"
    b.refresh_from_db()
    assert b.status == Status.CANCELLED
    assert f'data-testid="open-{b.pk}"' not in bob.get("/battles/").content.decode()
    r = alice.post(f"/battles/{b.pk}/cancel/")
    assert r.status_code == 409 and "already cancelled" in r.content.decode()
    r = bob.post(f"/battles/{b.pk}/join/")
    assert r.status_code == 409 and "cancelled by its creator" in r.content.decode()
    assert alice.get(f"/battles/{b.pk}/cancel/").status_code == 405


def test_a_seat_taken_meanwhile_is_a_409_with_the_message(alice, user, other_user, sent):
    b = services.create_battle(user, "quatre-bras", "french", opponent="open")
    bob = client_for(other_user)
    carol_user = type(user).objects.create_user("carol", "c@example.com", "pw-1815-x")
    carol = client_for(carol_user)
    assert f'data-testid="open-{b.pk}"' in carol.get("/battles/").content.decode()
    assert bob.post(f"/battles/{b.pk}/join/").status_code == 302
    # carol's page still showed the Join button; she clicks it: the seat is taken
    r = carol.post(f"/battles/{b.pk}/join/")
    assert r.status_code == 409
    text = r.content.decode()
    assert 'data-testid="list-error"' in text and "The seat is taken" in text
    b.refresh_from_db()
    assert b.allied_player == other_user


def test_log_lines_are_escaped(alice, user, sent, monkeypatch):
    b = create(alice)
    import frontend.battle.views as views

    monkeypatch.setattr(views, "describe_events",
                        lambda events, side, cards=None, view=None: ["<script>alert(1)</script>"
                                                         for _ in events])
    _, actions, _ = posted_actions(alice.get(f"/battles/{b.pk}/").content.decode())
    act(alice, b, 0, actions[0], expect=302)
    text = alice.get(f"/battles/{b.pk}/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "<script>alert" not in text


# --- hidden information ------------------------------------------------------------------------

def check_page(text: str, b: Battle, side: str) -> int:
    """The page ``text`` (HTML) shows no face-down enemy card the viewer cannot know: not its
    name (unless another card the viewer knows bears that name), not its number (as a card
    in an action, a link or a board piece); the seed only once the battle is over. Returns
    the number of such secret cards."""
    b.refresh_from_db()
    st = from_json(b.state, cards=RECORDS)
    engine_view = json.loads(json.dumps(view(st, side)))
    all_events = [e for events in b.actions.order_by("seq").values_list("events", flat=True)
                  for e in events]
    known = card_numbers(engine_view) | card_numbers(events_for(all_events, side))
    mine = card_numbers(legal_actions(st, side)) if b.status == Status.ACTIVE else set()
    enemy = 1 - SIDE_INDEX[side]
    secret = {p.num for p in st.pieces.values() if p.side == enemy and not p.up} - known
    # 2.0, 3.0: my own dealt deck is face-down too; a reinforcement is met only when drawn.
    undrawn = {n for army, deck in st.decks.items() if ARMY_SIDE[army] == SIDE_INDEX[side]
               for n in deck} - known - mine
    secret |= undrawn

    # numbers: every card number the page carries is one the viewer may know
    shown = {int(n) for n in re.findall(r'data-card="(\d+)"', text)}
    shown |= {int(n) for n in re.findall(r'href="/cards/(\d+)/"', text)}
    for raw in re.findall(r'name="action" value="([^"]*)"', text):
        shown |= card_numbers(json.loads(html.unescape(raw)))
    assert shown <= known | mine, sorted(shown - known - mine)
    assert not secret & shown
    plain = html.unescape(text)
    for number in secret:
        assert not re.search(rf'"card":\s*{number}\b', plain)
    # names
    cards = load_cards(RECORDS)
    known_names = [cards[n].name for n in known | mine if n in cards]
    for number in secret:
        name = cards[number].name
        if any(name in other for other in known_names):
            continue  # another card the viewer knows bears that name
        assert name not in plain, (number, name)
    if b.status == Status.ACTIVE:
        assert str(b.seed) not in text
    return len(secret)


# Fixed seeds with an 8-turn limit: a battle that runs to the turn limit (fire, morale,
# reveals) and one won by occupation on turn 6. (Seeds chosen again for the engine rulings of
# issue 9, which change the battles played.)
@pytest.mark.parametrize("side,bot,seed", [("allied", "random", 1815061818150618176),
                                           ("french", "greedy", 1815061818150618167)])
def test_a_whole_battle_through_the_pages_never_shows_a_hidden_card(
        alice, user, sent, monkeypatch, django_capture_on_commit_callbacks, side, bot, seed):
    monkeypatch.setattr(services, "new_seed", lambda: seed)
    b = create(alice, side=side, bot=bot, turn_cap="8")
    rng = random.Random("pages:a")
    secrets_checked = steps = computer_moves = 0
    while True:
        steps += 1
        assert steps < 3000, "the battle does not end"
        text = alice.get(f"/battles/{b.pk}/").content.decode()
        secrets_checked += check_page(text, b, side)
        b.refresh_from_db()
        if b.status != Status.ACTIVE:
            break
        if services.waiting_for(b, side) == "computer":
            assert 'hx-trigger="every 1s"' in text
            assert tasks.bot_move(b.pk, b.seq) >= 1
            computer_moves += 1
            continue
        seq, actions, types = posted_actions(text)
        assert seq == b.seq and actions
        ending = [a for a, t in zip(actions, types, strict=True) if t in ENDING_ACTIONS]
        # in the order the seeds were chosen with (the finish section was then first)
        actions = ending + [a for a in actions if a not in ending]
        action = rng.choice(ending) if ending and rng.random() < 0.35 else rng.choice(actions)
        with django_capture_on_commit_callbacks(execute=True):
            r = act(alice, b, seq, action, htmx=True, expect=200)
        secrets_checked += check_page(r.content.decode(), b, side)
    assert computer_moves > 5 and secrets_checked > 60  # face-down enemy cards were there
    # over: the outcome, the seed and how to check it
    assert b.outcome and 'data-testid="outcome"' in text
    assert f'<code data-testid="seed-value">{b.seed}</code>' in text
    assert hashlib.sha256(str(b.seed).encode()).hexdigest() == b.seed_hash
    assert b.seed_hash in text and "sha256sum" in text
    assert posted_actions(text)[1] == [] and 'hx-trigger="every' not in text
    r = act(alice, b, b.seq, {"type": "end_turn", "side": side}, htmx=True, expect=409)
    assert "The battle is over" in r.content.decode()


def test_a_battle_between_two_people_never_shows_either_a_hidden_card(
        alice, user, other_user, sent, monkeypatch):
    """Both players' pages, at every step, against the full state: no face-down enemy card
    named or numbered; the page of the player waiting for the other polls, the other not."""
    monkeypatch.setattr(services, "new_seed", lambda: 1815061818150618160)
    b = create(alice, opponent="player", opponent_name="bob", side="french", turn_cap="4",
               deck_version="set")  # 2.0: both decks dealt, from two pools
    bob = client_for(other_user)
    assert bob.post(f"/battles/{b.pk}/join/", {"deck_version": "set", "historical": "yes"}
                    ).status_code == 302
    b.refresh_from_db()
    assert not b.deck_choices["french"]["historical"] and b.deck_choices["british"]["historical"]
    clients = {"french": alice, "allied": bob}
    rng = random.Random("pages:people")
    secrets_checked = {"french": 0, "allied": 0}
    steps = 0
    while True:
        steps += 1
        assert steps < 3000, "the battle does not end"
        pages = {side: c.get(f"/battles/{b.pk}/").content.decode()
                 for side, c in clients.items()}
        for side, text in pages.items():
            secrets_checked[side] += check_page(text, b, side)
        if b.status != Status.ACTIVE:
            break
        mover = services.priority(b)
        waiter = "allied" if mover == "french" else "french"
        assert 'hx-trigger="every 2s"' in pages[waiter] and posted_actions(pages[waiter])[1] == []
        assert 'hx-trigger="every' not in pages[mover]
        seq, actions, types = posted_actions(pages[mover])
        assert seq == b.seq and actions
        ending = [a for a, t in zip(actions, types, strict=True) if t in ENDING_ACTIONS]
        # in the order the seeds were chosen with (the finish section was then first)
        actions = ending + [a for a in actions if a not in ending]
        action = rng.choice(ending) if ending and rng.random() < 0.35 else rng.choice(actions)
        r = act(clients[mover], b, seq, action, htmx=True, expect=200)
        secrets_checked[mover] += check_page(r.content.decode(), b, mover)
    assert sent == []  # no computer here
    assert min(secrets_checked.values()) > 20, secrets_checked
    assert b.outcome and all('data-testid="outcome"' in text for text in pages.values())
