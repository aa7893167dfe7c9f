"""Determinisations of a view: engine States consistent with what one side may see.

``Determiniser(view, legal, cards)`` reads a side's ``view`` (never the true state) and works
out, once per decision, which cards are hidden from that side and which cards could fill them:

- the opponent's face-down pieces (their army is on the card back),
- the opponent's Reserve (a count only) and its undrawn Reinforcement decks (a count per army),
- the viewer's own undrawn Reinforcement decks (a count per army: their order is unknown, and
  the view does not list their cards).

The candidates of an army are the catalogue cards of that army that fought the battle (all the
army's cards if none did), less every card the view accounts for (face-up pieces, the viewer's
own pieces and Reserve, eliminated, discarded, specials in effect). ``sample(rng)`` deals them
at random into the hidden slots and returns a fresh ``State`` (via the position format). Facts
the view does not carry are set to their most likely value: river crossings none, the last
mover guessed from the legal actions, the opponent's Reserve all playable, rates from the
Battles Chart, BP totals from the sampled decks (turn-cap adjudication only).

Pure: no Django. The sample depends only on the view, the legal actions, the card table and
the rng, so two true states with the same view give the same samples.
"""

from __future__ import annotations

import random
from typing import Any

from battles.engine.board import PLACE_INDEX, POSITIONS, SIDE_INDEX, SIDES, owner
from battles.engine.cards import CardTable
from battles.engine.position import FORMAT, VERSION, from_json
from battles.engine.state import State
from game import ARMY_SIDE, chart_row, other_side

FIELD_KINDS = ("infantry", "cavalry", "artillery", "general")


class Determiniser:
    """The hidden slots of one view and the cards that may fill them."""

    def __init__(self, view: dict[str, Any], legal: list[dict], cards: CardTable) -> None:
        self.cards = cards
        self.view = view
        me = view["viewer"]
        if me is None:
            raise ValueError("a determinisation needs a player's view, not a spectator's")
        self.me = SIDE_INDEX[me]
        self.foe = 1 - self.me
        battle = view["battle"]
        # The chart's armies, and any other army with cards on this board: in a campaign a
        # victor's survivors may reinforce the other battle (16.0), so British cards can fight
        # at Ligny, and Charleroi has a campaign-only chart row.
        armies = tuple(chart_row(battle))
        extra = {p["army"] for p in view["pieces"] if p.get("army")} | set(view["decks"])
        armies += tuple(sorted(a for a in extra if a not in armies))
        self.armies = armies
        seen: dict[int, int] = {}

        def account(num: int) -> None:
            seen[num] = seen.get(num, 0) + 1

        hidden_pieces: list[tuple[int, str]] = []  # (piece id, army)
        for p in view["pieces"]:
            if "card" in p:
                account(p["card"])
            else:
                hidden_pieces.append((p["piece"], p["army"]))
        mine = view["reserves"][SIDES[self.me]]
        for num in mine.get("cards", ()):
            account(num)
        for side in SIDES:
            for num in view["eliminated"][side]:
                account(num)
            for num in view["discarded"][side]:
                account(num)
        for e in view["specials"]:
            account(e["card"])
            if "cancelled" in e:
                account(e["cancelled"])
        # Candidates per army: sorted card numbers (a fixed order: the rng alone shuffles).
        self.pool: dict[str, list[int]] = {}
        for army in armies:
            fought = sorted(c.num for c in cards.values()
                            if c.army == army and battle in c.battles)
            if not fought:
                fought = sorted(c.num for c in cards.values() if c.army == army)
            left = []
            for num in fought:
                if seen.get(num, 0) > 0:
                    seen[num] -= 1
                else:
                    left.append(num)
            self.pool[army] = left
        self.fallback = {army: sorted(c.num for c in cards.values()
                                      if c.army == army and c.troop) or [0]
                         for army in armies}
        self.hidden_pieces = hidden_pieces
        self.foe_reserve = view["reserves"][SIDES[self.foe]]["count"]
        self.deck_counts = dict(view["decks"])
        self.base = self._base_document(legal)

    # -- the public part of the position, built once -------------------------------------
    def _base_document(self, legal: list[dict]) -> dict[str, Any]:
        v = self.view
        me = self.me
        by_pid = {p["piece"]: p for p in v["pieces"]}
        last_mover = 0
        for a in legal:  # a second Battle Move is open only to the last card that moved (8.3)
            pid = a.get("piece")
            if a["type"] == "move" and pid is not None and pid in by_pid \
                    and by_pid[pid].get("moves"):
                last_mover = pid
                break
        # RULINGS 8.2-b: a card moved back to the Reserve this turn that may leave it again
        # (its consecutive second move): a fresh Reserve card the legal actions move out.
        fresh = set(v["reserves"][SIDES[me]].get("drawn_this_turn", ()))
        back = None
        if v["phase"] == "combat" and v["priority"] == SIDES[me]:
            for a in legal:
                if a["type"] == "move" and a.get("card") in fresh:
                    last_mover = max((p["piece"] for p in v["pieces"]), default=0) + 1
                    back = {"card": a["card"], "piece": last_mover, "disengaged": False}
                    break
        # 9.0: the free formation change is used (or barred) for own Infantry the legal
        # actions do not let change formation.
        reformable = {a["piece"] for a in legal if a["type"] == "change_formation"}
        main = v["phase"] == "combat" and v["step"] == "main" and v["priority"] == SIDES[me]
        pieces = []
        for p in v["pieces"]:
            side = SIDE_INDEX[p["side"]]
            place = p["place"]
            moves = p.get("moves", 0) or 0
            into_enemy = PLACE_INDEX[place] in POSITIONS and owner(PLACE_INDEX[place]) != side
            pieces.append({
                "piece": p["piece"], "card": p.get("card"), "side": p["side"], "place": place,
                "face_up": p["face_up"], "hits": p.get("hits", 0) or 0,
                "general_hits": p.get("general_hits", 0) or 0,
                "formation": p.get("formation") or "line", "blown": bool(p.get("blown")),
                "moves": moves, "fired": bool(p.get("fired")),
                "engaged_this_turn": bool(moves and into_enemy and side == me),
                "disengaged_this_turn": False,
                "formation_changed": bool(main and side == me and p["piece"] not in reformable
                                          and p.get("card") is not None
                                          and self.cards[p["card"]].kind == "infantry"),
                "occupies": p.get("occupies") or 0,
                "controlled_by": p.get("controlled_by", p["side"]),
            })
        specials = []
        for e in v["specials"]:
            d = {"id": e["id"], "card": e["card"], "side": e["side"], "at": e["at"],
                 "left": e["left"]}
            if "cancelled" in e:
                d["cancelled"] = {"card": e["cancelled"], "at": e["at"]}
            specials.append(d)
        mine, foe = v["reserves"][SIDES[me]], other_side(SIDES[me])
        return {
            "format": FORMAT, "version": VERSION, "battle": v["battle"],
            "armies": list(self.armies), "settings": dict(v["settings"]), "turn": v["turn"],
            "active": v["active"], "phase": v["phase"], "step": v["step"],
            "priority": v["priority"] or v["active"],
            "next_piece": max((p["piece"] for p in v["pieces"]), default=0) + 2,
            "next_special": max((e["id"] for e in v["specials"]), default=0) + 1,
            "pieces": pieces,
            "reserves": {SIDES[me]: list(mine.get("cards", ())), foe: []},
            "drawn_this_turn": {SIDES[me]: list(mine.get("drawn_this_turn", ())), foe: []},
            "decks": {},
            "rates": self._rates(),
            "eliminated": {s: list(v["eliminated"][s]) for s in SIDES},
            "discarded": {s: list(v["discarded"][s]) for s in SIDES},
            "specials": specials,
            "pending": dict(v["pending"]) if v["pending"] else None,
            "hit_this_turn": list(v["hit_this_turn"]),
            "river_crossings": {}, "last_mover": last_mover, "transit": 0,
            "second_move_from_reserve": back,
            "prussians_arrived": v["prussians_arrived"], "outcome": None,
            "deck_bp": {s: 0 for s in SIDES},
        }

    def _rates(self) -> dict[str, int]:
        """Cards drawn per turn: the view's (public: the chart, or a campaign's doubled
        rates), else the Battles Chart's."""
        rates = dict(self.view.get("rates") or {})
        row = chart_row(self.view["battle"])
        for army in self.armies:
            if army not in rates:
                rates[army] = row[army].reinforcements if army in row else 1
        return rates

    # -- one sample ----------------------------------------------------------------------
    def assignment(self, rng: random.Random) -> dict[str, Any]:
        """Card numbers for every hidden slot: ``pieces`` (piece id -> card), ``reserve``
        (the opponent's), ``decks`` (army -> cards, the next drawn last)."""
        pools = {army: list(nums) for army, nums in self.pool.items()}
        for nums in pools.values():
            rng.shuffle(nums)
        cards = self.cards

        def take(army: str, field: bool = False) -> int:
            nums = pools[army]
            if field:  # a face-down card on the field is a troop or a General
                for i in range(len(nums) - 1, -1, -1):
                    if cards[nums[i]].kind in FIELD_KINDS:
                        return nums.pop(i)
            elif nums:
                return nums.pop()
            fb = self.fallback[army]
            return fb[rng.randrange(len(fb))]

        pieces = {pid: take(army, field=True) for pid, army in self.hidden_pieces}
        decks: dict[str, list[int]] = {}
        for army in self.armies:
            decks[army] = [take(army) for _ in range(self.deck_counts.get(army, 0))]
        foe_armies = [a for a in self.armies if ARMY_SIDE[a] == self.foe]
        reserve = []
        for _ in range(self.foe_reserve):
            left = [a for a in foe_armies if pools[a]] or foe_armies
            weights = [len(pools[a]) for a in left]
            if sum(weights) == 0:
                army = left[rng.randrange(len(left))]
            else:
                army = rng.choices(left, weights)[0]
            reserve.append(take(army))
        return {"pieces": pieces, "reserve": sorted(reserve), "decks": decks}

    def sample(self, rng: random.Random) -> State:
        """A State consistent with the view, the hidden cards dealt at random."""
        return self.build(self.assignment(rng))

    def build(self, assignment: dict[str, Any]) -> State:
        doc = dict(self.base)
        hidden = assignment["pieces"]
        doc["pieces"] = [dict(p, card=hidden[p["piece"]]) if p["card"] is None else p
                         for p in self.base["pieces"]]
        reserves = dict(self.base["reserves"])
        reserves[SIDES[self.foe]] = assignment["reserve"]
        doc["reserves"] = reserves
        doc["decks"] = assignment["decks"]
        bp = [0, 0]
        cards = self.cards
        for p in doc["pieces"]:
            bp[SIDE_INDEX[p["side"]]] += cards[p["card"]].bp
        for i, s in enumerate(SIDES):
            for num in reserves[s]:
                bp[i] += cards[num].bp
            for pile in (self.view["eliminated"][s], self.view["discarded"][s]):
                for num in pile:
                    bp[i] += cards[num].bp
        for army, nums in assignment["decks"].items():
            i = ARMY_SIDE[army]
            for num in nums:
                bp[i] += cards[num].bp
        doc["deck_bp"] = {SIDES[0]: bp[0], SIDES[1]: bp[1]}
        return from_json(doc, cards)
