"""Every battle and campaign stored before the one game service (``play/``) keeps working once
the database is migrated (the issue: "its log replays, its replay page and export are
unchanged, ratings and tournament results stay linked").

The test database is taken back to the PREVIOUS schema: the migration leaf of every app at
commit 5fa75c4, the last commit before the game-service work (``PREVIOUS``; an app of ours
made since has no migration applied, other apps keep theirs). Matches are written there with
the historical models, row by row as the services of that commit wrote them
(battles/services.py ``create_battle``, ``_record``, ``_save_state``; battles/seated.py
``create_seated_battle``; battles/undo.py ``undo_record``; battles/autoplay.py and
campaigns/autoplay.py; campaigns/services.py ``_start``, ``_play``, ``_record``, ``finish``;
ratings/services.py; tournaments' online results), their actions really played with the pure
engines and the modules' dice (``BATTLE.dice`` / ``CAMPAIGN.dice``: ``{seed}:{seq}`` and
``campaign:{seed}:{seq}``, the streams every stored match was played with). People choose
seeded random legal actions (and take one back when the undo rules allow it); the computer
is the real bot (greedy), as the worker played it.

Stored: a battle against the computer, finished on the board (with an undo); a battle between
two people, still active, with an undo in its log; a rated battle between them, finished on
the board (``Rating``, ``SideRecord``, ``RatedBattle``); an online tournament's battle,
finished by resignation (``MatchBattle`` of a settled match, its ``ResultLog``: a
``MatchGame`` of kind "battle" once migrated); a rated
campaign between two people, finished by the core (``RatedCampaign``); a campaign against the
computer, still active, with an undo; two "your move" notifications pointing at the active
ones.

Then every app is migrated to its latest migration and the current code must: replay every
stored battle and campaign to its stored snapshot; export each finished battle as that commit
did (the same document, the same ``eagles-battle/1`` fields) and replay the export offline;
serve the replay pages of the finished matches (dice verified); run a campaign's replay steps
to the end; keep the rating, tournament and notification rows pointing at the same match ids;
and play on in the active ones (a person's action, an undo where the rules allow one, the
computer's turn through the worker's task).

The database is left at the latest schema (``finally``), whatever happens.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps as current_apps
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles import dealing, setup
from battles.campaign import to_move as campaign_to_move
from battles.engine import load_cards
from battles.engine.board import ARMY_SIDE
from battles.engine.replay_file import FORMAT, effective_actions, replay_export
from battles.modules import BATTLE, CAMPAIGN, ENDING_ACTIONS
from frontend.battle.views import END_WORDS
from game import SIDES, other_side
from play.undo import last_counting
from ratings import glicko2

# The migration leaf of each of our apps at 5fa75c4 (``git ls-tree -r 5fa75c4 --name-only |
# grep migrations/``): the schema every match stored before the game-service work lives in.
PREVIOUS = {
    "accounts": "0001_initial",
    "battles": "0009_battle_paused_at_action_auto",
    "campaigns": "0003_campaign_search_bots",
    "cards": "0001_initial",
    "decks": "0003_standard_becomes_custom",
    "matchups": "0001_matchup_lab",
    "notifications": "0002_campaign_notifications",
    "ratings": "0002_rated_campaigns",
    "tournaments": "0008_online_play",
}

ROOT = Path(settings.BASE_DIR).resolve()


def plain(value: Any) -> Any:
    """``value`` as a JSON column reads it back."""
    return json.loads(json.dumps(value))


def seed_of(name: str) -> int:
    """A fixed 63-bit seed per match (the site draws ``secrets.randbits(63)``)."""
    return random.Random(f"migtest:{name}").getrandbits(63)


def sha(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


# --- Playing a match with the pure modules, its log as the previous services wrote it --------

@dataclass
class Row:
    seq: int
    side: str
    action: dict
    events: list
    auto: bool = False


class Writer:
    """One match played with a pure game module (``BATTLE`` or ``CAMPAIGN``): ``rows`` are
    its action rows as the services of 5fa75c4 recorded them (the action's own dict, every
    event unfiltered, ``auto`` for what auto-play played), ``state`` its position."""

    def __init__(self, game, seed: int, setup_fn, people: set[str], *, bot: str = "",
                 bot_cards=None, rng: str, ending_bias: float, undos: int = 0,
                 undo_from: int = 0) -> None:
        self.game, self.seed, self.setup_fn = game, seed, setup_fn
        self.people = people
        self.bot = game.bot(bot, bot_cards) if bot else None
        self.rng = random.Random(rng)
        self.bias = ending_bias
        self.undos_left, self.undo_from = undos, undo_from  # undos past action undo_from
        self.undone: list[int] = []  # the seqs taken back
        self.undo_rows: list[int] = []  # the seqs of the undo rows
        self.state = setup_fn()
        self.rows: list[Row] = []

    @property
    def to_move(self) -> str | None:
        return self.game.to_move(self.state)

    @property
    def over(self) -> bool:
        return self.game.outcome(self.state) is not None

    @property
    def doc(self) -> dict:
        return plain(self.game.to_json(self.state))

    def _apply(self, side: str, action: dict, auto: bool = False) -> None:
        n = len(self.rows) + 1
        legal = self.game.legal_actions(self.state, side)
        assert action in legal, (n, action)
        events = self.game.apply(self.state, action, self.game.dice(self.seed, n), legal=legal)
        self.rows.append(Row(n, side, plain(action), plain(events), auto))

    def _autoplay(self) -> None:
        """battles/autoplay.py, campaigns/autoplay.py: a person's forced action is played for
        them (``always_ask`` off, the default) and flagged."""
        while (side := self.to_move) in self.people:
            action = self.game.forced_action(self.game.legal_actions(self.state, side), False)
            if action is None:
                return
            self._apply(side, action, auto=True)

    def _person(self, side: str) -> None:
        """A person's action (the request's auto-play with it), then perhaps, in a request
        of its own, the undo of their last action still counting."""
        legal = self.game.legal_actions(self.state, side)
        ending = [a for a in legal if a["type"] in ENDING_ACTIONS]
        pool = ending if ending and self.rng.random() < self.bias else legal
        self._apply(side, self.rng.choice(pool))
        self._autoplay()
        if self.undos_left and len(self.rows) >= self.undo_from and self.rng.random() < 0.5:
            target = self.undo_target(side)
            if target is not None:
                self.undo(side, target)
                if self.game is CAMPAIGN:
                    # campaigns/undo.py recorded the undo through services._record, which
                    # auto-plays; battles/undo.py's did not.
                    self._autoplay()

    def _computer(self, side: str) -> None:
        n = len(self.rows) + 1
        legal = self.game.legal_actions(self.state, side)
        seen = self.game.view(self.state, side) if self.bot.needs_view else None
        self._apply(side, self.bot.choose(seen, legal, self.game.bot_rng(self.seed, n)))

    def undo_target(self, side: str) -> int | None:
        """The seq ``side`` may take back now (the undo rules of 5fa75c4: battles/undo.py,
        campaigns/undo.py; the same rules the game modules state now), or None."""
        doc = self.doc
        if self.to_move != side or self.game.undo_turn_refusal(doc, side) is not None:
            return None
        last, after = last_counting([(r.seq, r.side, r.action) for r in reversed(self.rows)])
        if last is None or last[1] != side or any(s != side for s in after):
            return None
        row = self.rows[last[0] - 1]
        known: set[int] = set()
        for earlier in self.rows[:row.seq - 1]:
            known |= self.game.shown_cards(earlier.events, other_side(side))
        if self.game.undo_refusal(row.action, row.events, side, known, doc) is not None:
            return None
        return row.seq

    def undo(self, side: str, target: int) -> None:
        """The undo row (battles/undo.py ``undo_record``) and the position rebuilt from the
        setup without the action taken back."""
        self.rows.append(Row(len(self.rows) + 1, side, {"type": "undo", "undoes": target},
                             [{"type": "undone", "undoes": target, "side": side,
                               "visibility": "all"}]))
        self.state = self.setup_fn()
        for row in effective_actions(self.rows):
            self.game.apply(self.state, row.action, self.game.dice(self.seed, row.seq),
                            check=False)
        self.undos_left -= 1
        self.undone.append(target)
        self.undo_rows.append(len(self.rows))

    def play(self, *, max_actions: int, stop=lambda w: False) -> Writer:
        while not self.over and len(self.rows) < max_actions and not stop(self):
            side = self.to_move
            if side in self.people:
                self._person(side)
            else:  # the worker's bot_move, then auto-play for the person
                self._computer(side)
                self._autoplay()
        return self


# --- The matches (pure: played before the database goes back) --------------------------------

def battle_setup(name: str, seed: int, scale: str, choices: dict, settings_: dict,
                 catalogue: tuple[str, list[dict]]) -> dict:
    """What ``create_battle`` / ``create_seated_battle`` of 5fa75c4 stored for the setup: the
    decks dealt from the choices and the seed, the card records, the deck kinds."""
    version, records = catalogue
    choices = {a: dict(c) for a, c in choices.items()}
    decks = dealing.deal_decks(name, seed, scale, choices, setup.table(records))
    return {"battle": name, "seed": seed, "seed_hash": sha(seed), "scale": scale,
            "settings": settings_, "deck_choices": choices, "decks": decks,
            "deck_kinds": dealing.deck_kinds(choices, scale), "catalogue_version": version,
            "card_records": plain(setup.snapshot(name, decks, records))}


def battle_writer(row: dict, people: set[str], *, bot: str = "", rng: str, undos: int,
                  undo_from: int = 0, ending_bias: float = 0.15) -> Writer:
    ns = SimpleNamespace(**row)
    cards = setup.engine_cards(ns)
    return Writer(BATTLE, row["seed"], lambda: BATTLE.setup(row["seed"], row, cards), people,
                  bot=bot, bot_cards=setup.bot_cards(ns) if bot else None, rng=rng,
                  ending_bias=ending_bias, undos=undos, undo_from=undo_from)


def campaign_setup(seed: int, settings_: dict, records: list[dict]) -> dict:
    """``create_campaign`` / ``join_campaign`` + ``_start`` of 5fa75c4: both sides' pools from
    the whole set, the records of their cards."""
    pools = {side: sorted(r["number"] for r in records
                          if ARMY_SIDE.get(r.get("army")) == SIDES.index(side))
             for side in SIDES}
    wanted = set(pools["french"]) | set(pools["allied"])
    return {"seed": seed, "seed_hash": sha(seed), "pools": pools, "settings": settings_,
            "pool_choices": {side: "set" for side in SIDES},
            "card_records": plain([r for r in records if r["number"] in wanted])}


def campaign_writer(row: dict, people: set[str], *, bot: str = "", rng: str, undos: int,
                    undo_from: int = 0) -> Writer:
    cards = load_cards(row["card_records"])
    return Writer(CAMPAIGN, row["seed"],
                  lambda: CAMPAIGN.setup(row["seed"], row, cards), people, bot=bot,
                  bot_cards=cards, rng=rng, ending_bias=0.3, undos=undos, undo_from=undo_from)


def play_everything() -> dict[str, Any]:
    """Every match, played: ``{name: (setup row, writer)}``."""
    catalogue = setup.catalogue_now()
    out: dict[str, Any] = {}

    # Against the computer (greedy plays the Allies), Ligny, a turn cap the player chose:
    # finished on the board; the player took one action back on the way.
    seed = seed_of("computer")
    choices, _ = dealing.choose(None, "ligny", "french", "1", None, None)
    row = battle_setup("ligny", seed, "1", choices, {"turn_cap": 3, "decoys": False}, catalogue)
    w = battle_writer(row, {"french"}, bot="greedy", rng="computer-1", undos=1,
                      undo_from=20).play(max_actions=600)
    assert w.over and w.undone, "the battle against the computer should end, with an undo"
    out["computer"] = (row, w)

    # Two people, Quatre Bras, dealt from the whole set (historical only), correspondence
    # time: still active, the log holding an undo (stopped a few actions after it, with a
    # person to move).
    seed = seed_of("active")
    choices = {**dealing.choose(None, "quatre-bras", "french", "1", None,
                                {"pool": "set", "historical": True})[0],
               **dealing.choose(None, "quatre-bras", "allied", "1", None,
                                {"pool": "set", "historical": True})[0]}
    row = battle_setup("quatre-bras", seed, "1", choices, {"turn_cap": None, "decoys": False},
                       catalogue)
    w = battle_writer(row, {"french", "allied"}, rng="active-4", undos=1, undo_from=20).play(
        max_actions=400,
        stop=lambda w: bool(w.undone) and len(w.rows) >= max(40, w.undone[0] + 6))
    assert not w.over and w.undone, "the active battle should still run, with an undo"
    out["active"] = (row, w)

    # Rated, two people, Waterloo at scale 1/2, dealt from the whole set, live 15+10:
    # finished on the board.
    seed = seed_of("rated")
    choices = {**dealing.choose(None, "waterloo", "french", "1/2", None, {"pool": "set"})[0],
               **dealing.choose(None, "waterloo", "allied", "1/2", None, {"pool": "set"})[0]}
    row = battle_setup("waterloo", seed, "1/2", choices, {"turn_cap": 4, "decoys": False},
                       catalogue)
    w = battle_writer(row, {"french", "allied"}, rng="rated-4", undos=1, undo_from=20).play(
        max_actions=800)
    assert w.over, "the rated battle should end on the board"
    out["rated"] = (row, w)

    # An online tournament's game (a dealt tournament: both sides dealt from the set, no
    # turn cap, unrated): the Allied player resigned after a few dozen actions.
    seed = seed_of("tournament")
    choices = {**dealing.choose(None, "wavre", "french", "1", None, {"pool": "set"})[0],
               **dealing.choose(None, "wavre", "allied", "1", None, {"pool": "set"})[0]}
    row = battle_setup("wavre", seed, "1", choices, {"turn_cap": None, "decoys": False},
                       catalogue)
    w = battle_writer(row, {"french", "allied"}, rng="tournament", undos=0).play(
        max_actions=45)
    assert not w.over, "the tournament's battle should still run when the Allies resign"
    out["tournament"] = (row, w)

    # A rated campaign between two people (2 turns a battle): finished by the core.
    records = catalogue[1]
    row = campaign_setup(seed_of("campaign-rated"), {"turn_cap": 2}, records)
    w = campaign_writer(row, {"french", "allied"}, rng="campaign-rated-1", undos=1,
                        undo_from=30).play(max_actions=1500)
    assert w.over, "the rated campaign should end"
    out["campaign_rated"] = (row, w)

    # A campaign against the computer (greedy plays the French), still active, with an undo
    # of the player's, stopped with the player to move.
    row = campaign_setup(seed_of("campaign-active"), {"turn_cap": None}, records)
    w = campaign_writer(row, {"allied"}, bot="greedy", rng="campaign-active", undos=1,
                        undo_from=30).play(
        max_actions=600,
        stop=lambda w: bool(w.undone) and len(w.rows) >= max(40, w.undone[0] + 4)
        and w.to_move == "allied")
    assert not w.over and w.undone, "the active campaign should still run, with an undo"
    out["campaign_active"] = (row, w)
    return out


# --- Writing them at the previous schema (historical models) ---------------------------------

def _battle_columns(w: Writer) -> dict:
    """battles/services.py ``_save_state`` of 5fa75c4."""
    st = w.state
    return {"seq": len(w.rows), "state": w.doc,
            "to_move": SIDES[st.priority] if st.outcome is None else "",
            "turn": st.turn, "phase": st.phase}


def _rate(before: dict[int, glicko2.Rating], french_id: int, allied_id: int, score: float
          ) -> dict:
    """ratings/services.py ``rate_players`` of 5fa75c4, on plain figures."""
    f, a = before[french_id], before[allied_id]
    f2, a2 = glicko2.rate_game(f, a, score)
    before[french_id], before[allied_id] = f2, a2
    return {"french_player_id": french_id, "allied_player_id": allied_id,
            "french_score": score, "french_before": f.rating, "french_after": f2.rating,
            "french_rd_before": f.rd, "french_rd_after": f2.rd, "allied_before": a.rating,
            "allied_after": a2.rating, "allied_rd_before": a.rd, "allied_rd_after": a2.rd}


def _score(winner: str | None) -> float:
    return 1.0 if winner == "french" else 0.0 if winner == "allied" else 0.5


def store(apps, played: dict[str, Any]) -> dict[str, Any]:
    """Write every match with the historical models; returns their ids."""
    User = apps.get_model("auth", "User")
    Battle = apps.get_model("battles", "Battle")
    BattleAction = apps.get_model("battles", "BattleAction")
    Campaign = apps.get_model("campaigns", "Campaign")
    CampaignAction = apps.get_model("campaigns", "CampaignAction")
    Rating = apps.get_model("ratings", "Rating")
    SideRecord = apps.get_model("ratings", "SideRecord")
    RatedBattle = apps.get_model("ratings", "RatedBattle")
    RatedCampaign = apps.get_model("ratings", "RatedCampaign")
    Tournament = apps.get_model("tournaments", "Tournament")
    Entry = apps.get_model("tournaments", "Entry")
    Round = apps.get_model("tournaments", "Round")
    Match = apps.get_model("tournaments", "Match")
    MatchBattle = apps.get_model("tournaments", "MatchBattle")
    ResultLog = apps.get_model("tournaments", "ResultLog")
    Notification = apps.get_model("notifications", "Notification")

    now = timezone.now()
    alice, bob, carol = (User.objects.create(username=n, email=f"{n}@example.com",
                                             password="!")
                         for n in ("alice", "bob", "carol"))
    ids: dict[str, Any] = {"users": {"alice": alice.pk, "bob": bob.pk, "carol": carol.pk}}

    def battle(name: str, *, french, allied, status: str, outcome=None, **extra):
        row, w = played[name]
        columns = _battle_columns(w)
        if status == "finished":
            columns["to_move"] = ""
        b = Battle.objects.create(
            **{k: row[k] for k in ("battle", "seed", "seed_hash", "scale", "settings",
                                   "deck_choices", "decks", "deck_kinds", "catalogue_version",
                                   "card_records")},
            **columns, french_player=french, allied_player=allied, status=status,
            outcome=outcome, finished_at=now if status == "finished" else None, **extra)
        BattleAction.objects.bulk_create([
            BattleAction(battle=b, seq=r.seq, side=r.side, action=r.action, events=r.events,
                         auto=r.auto) for r in w.rows])
        ids[name] = b.pk
        return b

    w = played["computer"][1]
    battle("computer", french=alice, allied=None, bot="greedy", status="finished",
           outcome=plain(w.state.outcome), public=True)

    w = played["active"][1]
    started = now - timedelta(hours=1)
    days = 3 * 86400
    b = battle("active", french=alice, allied=bob, status="active", public=True,
               invited=bob, expires_at=started + timedelta(days=7),  # an invitation, joined
               time_control={"kind": "correspondence", "days": 3},
               clocks={"french": days, "allied": days}, clock_started_at=started,
               deadline=started + timedelta(seconds=days),
               seen={"french": now.isoformat(), "allied": now.isoformat()})
    mover = alice if b.to_move == "french" else bob
    Notification.objects.create(user=mover, kind="your_move", text="Your move at Quatre Bras",
                                url=f"/battles/{b.pk}/", battle_id=b.pk)

    ratings = {alice.pk: glicko2.Rating(), bob.pk: glicko2.Rating()}
    w = played["rated"][1]
    outcome = plain(w.state.outcome)
    b = battle("rated", french=alice, allied=bob, status="finished", outcome=outcome,
               rated=True, public=True, expires_at=now + timedelta(days=7),  # open, joined
               time_control={"kind": "live", "base": 900, "increment": 10},
               clocks={"french": 640.25, "allied": 702.5})
    score = _score(outcome.get("winner"))
    RatedBattle.objects.create(battle=b, **_rate(ratings, alice.pk, bob.pk, score))
    for user, side, s in ((alice, "french", score), (bob, "allied", 1.0 - score)):
        won, lost = int(s == 1.0), int(s == 0.0)
        SideRecord.objects.create(user=user, battle="waterloo", side=side, played=1, won=won,
                                  lost=lost, drawn=1 - won - lost)

    w = played["tournament"][1]
    outcome = {"winner": "french", "reason": "resigned", "turn": w.state.turn}
    b = battle("tournament", french=alice, allied=bob, status="finished", outcome=outcome,
               rated=False, public=True)
    t = Tournament.objects.create(
        name="Wavre online", organiser=carol, battle="wavre", deck_kind="dealt",
        deal_pool="set", format="swiss", rounds=1, planned_rounds=1, status="finished",
        current_round=1, online=True, time_control={}, started_at=now, finished_at=now)
    e1 = Entry.objects.create(tournament=t, user=alice, seed=1)
    e2 = Entry.objects.create(tournament=t, user=bob, seed=2)
    rnd = Round.objects.create(tournament=t, number=1, stage="swiss", state="finished",
                               finished_at=now)
    m = Match.objects.create(tournament=t, round=rnd, table=1, french=e1, allied=e2,
                             state="settled", french_games=1, allied_games=0, draws=0,
                             source="online", settled_at=now)
    link = MatchBattle.objects.create(match=m, game=1, battle=b)
    ResultLog.objects.create(match=m, source="online",
                             reason=f"game 1: battle {b.pk} won by alice (resigned)",
                             before=None, after={"french_games": 1, "allied_games": 0,
                                                 "draws": 0, "double_loss": False})
    ids["tournament_row"] = {"tournament": t.pk, "match": m.pk, "link": link.pk,
                             "entries": (e1.pk, e2.pk)}

    def campaign(name: str, *, french, allied, status: str, bot: str = "", **extra):
        row, w = played[name]
        turn = campaign_to_move(w.state)  # campaigns/services.py ``_save_state``
        c = Campaign.objects.create(
            french_player=french, allied_player=allied, bot=bot, seed=row["seed"],
            seed_hash=row["seed_hash"], pool_choices=row["pool_choices"], pools=row["pools"],
            settings=row["settings"], card_records=row["card_records"], seq=len(w.rows),
            state=w.doc, to_move=turn["side"] if turn else "",
            board=(turn["board"] or "") if turn else "",
            phase=w.state.phase, status=status, public=True,
            finished_at=now if status == "finished" else None, **extra)
        CampaignAction.objects.bulk_create([  # 5fa75c4: no ``auto`` column yet
            CampaignAction(campaign=c, seq=r.seq, side=r.side, action=r.action,
                           events=r.events) for r in w.rows])
        ids[name] = c.pk
        return c

    w = played["campaign_rated"][1]
    outcome = {"winner": w.state.winner, "reason": "campaign",
               "results": plain(w.state.results)}
    c = campaign("campaign_rated", french=alice, allied=bob, status="finished",
                 outcome=outcome, rated=True, expires_at=now + timedelta(days=7))
    RatedCampaign.objects.create(campaign=c, **_rate(ratings, alice.pk, bob.pk,
                                                     _score(w.state.winner)))
    for user in (alice, bob):
        r = ratings[user.pk]
        Rating.objects.create(user=user, rating=r.rating, rd=r.rd, volatility=r.volatility,
                              games=2)

    c = campaign("campaign_active", french=None, allied=alice, bot="greedy", status="active")
    Notification.objects.create(user=alice, kind="your_move", text="Your move in a campaign",
                                url=f"/campaigns/{c.pk}/", campaign_id=c.pk)
    return ids


def expected_export(pk: int, row: dict, w: Writer, outcome: dict) -> dict:
    """``battles.replays.export`` of 5fa75c4 for what was stored (its fields, from the
    columns written)."""
    return {"format": FORMAT, "id": pk, "battle": row["battle"], "settings": row["settings"],
            "scale": row["scale"], "deck_kinds": row["deck_kinds"], "decks": row["decks"],
            "catalogue_version": row["catalogue_version"],
            "card_records": row["card_records"], "seed": str(row["seed"]),
            "seed_hash": row["seed_hash"],
            "actions": [{"seq": r.seq, "side": r.side, "action": r.action, "events": r.events,
                         "auto": r.auto} for r in w.rows],
            "outcome": outcome}


# --- The migration ---------------------------------------------------------------------------

def _ours(app_label: str) -> bool:
    path = Path(current_apps.get_app_config(app_label).path).resolve()
    return path.is_relative_to(ROOT) and ".venv" not in path.parts


def without_squashes(loader):
    """The migration graph as before the squashes: the old files' nodes, no squash's (which a
    fully migrated database would otherwise be planned through)."""
    loader.replace_migrations = False
    loader.build_graph()
    for key, squash in loader.replacements.items():
        loader.graph.remove_replacement_node(key, squash.replaces)
    return loader


def previous_targets(loader) -> list[tuple[str, str | None]]:
    """Every app at its migration of 5fa75c4: ours at ``PREVIOUS`` (an app of ours made since
    at none), Django's and third parties' at their leaves (their schema is not ours). On the
    graph of the old files: the squashes (tests/test_squashed_migrations.py) out."""
    graph = without_squashes(loader).graph
    targets: list[tuple[str, str | None]] = []
    for app in sorted(loader.migrated_apps):
        if app in PREVIOUS:
            assert (app, PREVIOUS[app]) in graph.nodes, f"{app}.{PREVIOUS[app]} is gone"
            targets.append((app, PREVIOUS[app]))
        elif not graph.leaf_nodes(app):
            continue  # a migrations package with no migration in it (frontend)
        elif _ours(app):
            targets.append((app, None))  # made since 5fa75c4: not there yet
        else:
            targets += graph.leaf_nodes(app)
    return targets


def columns(table: str) -> set[str]:
    with connection.cursor() as cursor:
        return {c.name for c in connection.introspection.get_table_description(cursor, table)}


def migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


# --- The test --------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_matches_stored_at_the_previous_schema_work_after_migrating(catalogue, monkeypatch):
    played = play_everything()  # pure: the engines, the catalogue as loaded
    executor = MigrationExecutor(connection)
    old = previous_targets(executor.loader)
    try:
        executor.migrate(old)
        assert columns("campaigns_campaign") >= {"seed", "state"}
        assert "paused_at" not in columns("campaigns_campaign")  # the previous schema
        assert "auto" not in columns("campaigns_campaignaction")
        old_apps = executor.loader.project_state([t for t in old if t[1] is not None]).apps
        ids = store(old_apps, played)
    finally:
        migrate_to_latest()  # the rest of the suite needs the full schema
    latest = MigrationExecutor(connection)
    assert not latest.migration_plan(latest.loader.graph.leaf_nodes()), "not fully migrated"

    # From here on, only the current code.
    check_battles(played, ids)
    check_campaigns(played, ids)
    check_links(played, ids)
    play_on(played, ids, monkeypatch)


def check_battles(played: dict, ids: dict) -> None:
    from battles import replays, services
    from battles.engine import to_json
    from battles.models import Battle

    client = Client()  # anonymous: every stored battle is public
    for name in ("computer", "active", "rated", "tournament"):
        row, w = played[name]
        b = Battle.objects.get(pk=ids[name])
        rows = [(r.seq, r.side, r.action, r.events, r.auto) for r in w.rows]
        assert list(b.actions.order_by("seq").values_list(
            "seq", "side", "action", "events", "auto")) == rows, name
        assert b.state == w.doc, name
        assert to_json(services.replay(b)) == b.state, f"{name}: the log replays differently"
        url = reverse("battle-replay", args=[b.pk])
        if b.status != "finished":
            assert client.get(url).status_code == 409, name  # not over: no replay yet
            continue
        doc = replays.export(b)
        assert plain(doc) == expected_export(b.pk, row, w, b.outcome), f"{name}: export"
        result = replay_export(plain(doc))  # offline, no Django
        assert result.undone == len(w.undone), name
        assert result.actions == len(effective_actions(w.rows)), name
        # a battle ended by a resignation, the clock or a claim has one more step: that end
        last = result.actions + ((b.outcome or {}).get("reason") in END_WORDS)
        # the replay's steps count the actions still counting: where each undo happened
        at_undo = {len(effective_actions(w.rows[:u])) for u in w.undo_rows}
        steps = sorted({0, 1, last // 2, last} | at_undo)
        for step in steps:
            for viewpoint in ("all", "french", "allied"):
                page = client.get(url, {"step": step, "as": viewpoint})
                assert page.status_code == 200, (name, step, viewpoint)
                assert page.context["dice_ok"] and page.context["seed_ok"], (name, step)
                assert page.context["last"] == last and page.context["step"] == step, name
                assert page.context["undone"] == len(w.undone), name
        assert b"they match" in client.get(url).content, name


def check_campaigns(played: dict, ids: dict) -> None:
    from campaigns import services
    from campaigns.models import Campaign

    client = Client()
    for name in ("campaign_rated", "campaign_active"):
        row, w = played[name]
        c = Campaign.objects.get(pk=ids[name])
        rows = [(r.seq, r.side, r.action, r.events) for r in w.rows]
        assert list(c.actions.order_by("seq").values_list(
            "seq", "side", "action", "events")) == rows, name
        assert not c.actions.filter(auto=True).exists(), name  # the new column's default
        assert c.state == w.doc, name
        assert CAMPAIGN.to_json(services.replay(c)) == c.state, f"{name}: replays differently"
        steps = [(n, CAMPAIGN.to_json(core)) for n, core in services.states(c)]
        assert [n for n, _ in steps] == list(range(c.seq + 1)), name
        assert steps[-1][1] == c.state, f"{name}: the replay's last step is not the snapshot"
        url = reverse("campaign-replay", args=[c.pk])
        if c.status != "finished":
            assert client.get(url).status_code == 404, name  # shown once it is over
            continue
        for step in sorted({0, c.seq // 2, c.seq, *w.undo_rows}):
            page = client.get(url, {"step": step})
            assert page.status_code == 200, (name, step)
            assert page.context["step"] == step and page.context["last"] == c.seq, name
            undoes = w.rows[step - 1].action.get("undoes") if step else None
            assert page.context["undoes"] == undoes, (name, step)


def check_links(played: dict, ids: dict) -> None:
    """Ratings, the tournament's result and the notifications point to the same matches."""
    from campaigns.models import Campaign
    from frontend.tournaments.online import match_games
    from notifications.models import Notification
    from ratings import selectors
    from ratings.campaigns import rate_campaign
    from ratings.models import RatedBattle, RatedCampaign, Rating, SideRecord
    from ratings.services import rate_battle
    from tournaments.models import Match, MatchGame, ResultLog, Tournament
    from tournaments.services.online import running_games
    from tournaments.services.online_results import on_match_finished

    users = ids["users"]
    rb = RatedBattle.objects.get(battle_id=ids["rated"])
    assert (rb.french_player_id, rb.allied_player_id) == (users["alice"], users["bob"])
    assert rb.battle.rated_result == rb
    rc = RatedCampaign.objects.get(campaign_id=ids["campaign_rated"])
    assert Campaign.objects.get(pk=ids["campaign_rated"]).rated_result == rc
    assert rate_battle(rb.battle) is None and rate_campaign(rc.campaign) is None  # rated once
    assert Rating.objects.get(user_id=users["alice"]).games == 2
    # a rating per game since ratings 0003: every stored rating and record is an EAGLES one
    assert set(Rating.objects.values_list("pool", flat=True)) == {"eagles"}
    assert SideRecord.objects.filter(battle="waterloo").count() == 2
    assert set(SideRecord.objects.values_list("pool", flat=True)) == {"eagles"}
    profile = selectors.player_profile("alice")
    assert [r["battle_id"] for r in profile["recent"]] == [ids["rated"]]
    assert [r["campaign_id"] for r in profile["campaigns"]["recent"]] == [ids["campaign_rated"]]

    # The tournament's MatchBattle row is a MatchGame now (migration tournaments 0009): kind
    # "battle", played_id = the battle's id, the same match and game; the old table is gone.
    t = ids["tournament_row"]
    assert "tournaments_matchbattle" not in connection.introspection.table_names()
    assert columns("tournaments_matchgame") == {"id", "match_id", "game", "kind", "played_id"}
    [link] = MatchGame.objects.all()
    assert (link.kind, link.played_id) == ("battle", ids["tournament"])
    assert (link.battle_id, link.match_id, link.game) == (ids["tournament"], t["match"], 1)
    assert MatchGame.objects.get(kind="battle", played_id=link.battle.pk) == link
    assert link.battle.pk == ids["tournament"] and link.played.status == "finished"
    tour = Tournament.objects.get(pk=t["tournament"])
    assert (tour.game, tour.game_options, tour.battle) == ("battle", {}, "wavre")
    m = Match.objects.get(pk=t["match"])
    assert (m.state, m.french_games, m.allied_games, m.source) == ("settled", 1, 0, "online")
    assert (m.french_id, m.allied_id) == t["entries"]
    assert ResultLog.objects.filter(match=m, source="online").count() == 1
    # the current code reads the link: the page's row, nothing running, and the battle's end
    # signalled again leaves the settled match alone
    [row] = match_games(m, link.battle.french_player)
    assert (row["kind"], row["id"], row["url"], row["side"]) == (
        "battle", ids["tournament"], f"/battles/{ids['tournament']}/", "French")
    assert running_games(tour.pk) == {}
    on_match_finished(kind="battle", match=link.battle)
    assert ResultLog.objects.filter(match=m).count() == 1

    active = Notification.objects.get(battle_id=ids["active"])
    assert active.kind == "your_move" and not active.by_email and active.emailed_at is None
    assert Notification.objects.get(campaign_id=ids["campaign_active"]).user_id == \
        users["alice"]


def play_on(played: dict, ids: dict, monkeypatch) -> None:
    """The active matches go on with the current services: people's actions until one may be
    taken back, and is (the battle); the person's actions until the computer's turn, which
    the worker's task plays (the campaign)."""
    from django.contrib.auth import get_user_model

    from battles import services as battle_services
    from battles.engine import from_json, to_json
    from battles.kind import KIND as BATTLE_KIND
    from battles.models import Battle
    from campaigns import services as campaign_services
    from campaigns.kind import KIND as CAMPAIGN_KIND
    from campaigns.models import Campaign
    from notifications import mailing
    from play import enqueue, tasks
    from play.undo import undo_target

    sent: list = []
    monkeypatch.setattr(enqueue, "_send", lambda name, args, **kw: sent.append((name, args)))
    monkeypatch.setattr(mailing, "enqueue", lambda note_id: None)  # no broker here
    users = get_user_model().objects
    rng = random.Random("play-on")

    b = Battle.objects.get(pk=ids["active"])
    stored, taken_back = b.seq, None
    while b.status == "active" and b.seq < stored + 60 and taken_back is None:
        side = b.to_move
        user = users.get(pk=b.player_id(side))
        legal = BATTLE.legal_actions(from_json(b.state, setup.engine_cards(b)), side)
        battle_services.act(b.pk, user, b.seq, rng.choice(legal))
        b.refresh_from_db()
        if b.to_move == side and undo_target(BATTLE_KIND, b, side)[0] is not None:
            taken_back = battle_services.undo(b.pk, user, b.seq)
            b.refresh_from_db()
    assert taken_back is not None, "no action of the migrated battle could be taken back"
    assert b.actions.get(seq=b.seq).action == {"type": "undo", "undoes": taken_back}
    assert to_json(battle_services.replay(b)) == b.state

    c = Campaign.objects.get(pk=ids["campaign_active"])
    alice = users.get(pk=ids["users"]["alice"])
    stored = c.seq
    while c.status == "active" and c.to_move == "allied" and c.seq < stored + 60:
        legal = CAMPAIGN.legal_actions(CAMPAIGN.from_json(c.state, CAMPAIGN_KIND.cards(c)),
                                       "allied")
        campaign_services.act(c.pk, alice, c.seq, rng.choice(legal))
        c.refresh_from_db()
    assert c.status == "active" and c.to_move == "french", "the computer's turn never came"
    assert sent[-1] == ("play.bot_move", ["campaign", c.pk, c.seq])  # asked of a worker
    assert tasks.bot_move("campaign", c.pk, c.seq) > 0  # the worker's task, run here
    c.refresh_from_db()
    assert c.to_move != "french"
    assert CAMPAIGN.to_json(campaign_services.replay(c)) == c.state
