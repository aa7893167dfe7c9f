"""The scripted newcomer's campaign against the computer played through the services, its
clicks counted as the campaign page would ask for them (issue 28): what
tests/browser/test_campaign_newcomer_browser.py plays in Chromium, in seconds. Used by
``bench/newcomer_clicks.py`` (the breakdown) and tests/test_newcomer_clicks.py (the bound).

A click is a button the player presses on the page: the chosen action's own (one button an
action: ``frontend.campaigns.views._sections``), one more for each confirmation the page asks
first (``action_warning``: a Retreat, a move that can lose the battle), and "Pass for the
rest of this enemy turn" (``play.passing``) where the newcomer lets the enemy go ahead, "Deploy
these and end my deployment" (``frontend.battle.deploy_form``, as the page fills it in) and,
once, "End it, and from now on end it for me when that is all that is left"
(``Preferences.end_for_me``: the lone endings after it are played for them), "Fire with every
ready card" once in a Combat Phase where two cards or more can fire (``play.passing
.fire_order``: the other fires are played for them), and, at the first enemy response
window of each kind "Pass, and do not ask me about <that kind> again" (``play.passing
.pass_and_skip_kind``: a button beside Pass; ``policy.SKIP_KINDS``, off, counts the "When to
ask you to answer" panel instead: open, untick each kind, Save, six clicks). The
computer's turns run inline (``play.tasks.bot_move``, what the Celery worker runs), as in the
browser test's ``worker`` fixture. Needs the database (a test's, or the bench's own).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from . import newcomer_policy as policy

# A lone button of these is not one the site could play for the player (autoplay.py).
ENDING = ("end_phase", "end_turn", "deployment_done", "split", "keep", "retreat")
PASS_REST = "pass for the rest of this enemy turn"
DEPLOY_MANY = "deploy these and end my deployment"
END_FOR_ME = "end it, and end it for me from now on"
FIRE_ORDER = "fire with every ready card"
# "When to ask you to answer" is a panel, not a button beside Pass: open it, untick each
# kind of window, Save (play/passing.py, frontend/templates/frontend/play/_passing.html).
ASK_PANEL = "when to ask you to answer: open, untick each kind, save"
PASS_KIND = "pass, and do not ask me about this kind again"
OWN_ENDINGS = ("end_phase", "end_turn")


@dataclass
class Clicks:
    by_kind: Counter[str] = field(default_factory=Counter)
    one_button: int = 0  # lone buttons the site could have played for them
    lone_endings: int = 0  # lone end of phase, turn, deployment or campaign decision
    auto: Counter[str] = field(default_factory=Counter)  # played for them, by reason
    results: dict[str, Any] = field(default_factory=dict)
    first_phase_over: bool = False

    @property
    def total(self) -> int:
        return sum(self.by_kind.values())

    @property
    def battle_turns(self) -> int:
        return sum(int(r.get("turn") or 0) for r in self.results.values())


def click_kind(action: dict, cv: dict) -> str:
    """A click's kind for the breakdown: the action's type; a Pass with its window's kind."""
    kind = str(action.get("type"))
    if kind != "pass":
        return kind
    board = ((cv.get("view") or {}).get("boards") or {}).get(action.get("board")) or {}
    pending = str((board.get("pending") or {}).get("type") or "")
    window = "morale" if board.get("phase") == "morale" else \
        {"move": "engage"}.get(pending, pending)
    return f"pass ({window})"


def play_first_phase(user: Any, seed: int, bot: str = "random", *, newcomer: bool = True,
                     limit: int = 2000) -> Clicks:
    """Create ``user``'s campaign as the French against ``bot`` with ``seed`` (the seed and
    the computer's inline turns patched in for the creation only) and play it through its
    first phase. ``newcomer=False``: the policy as
    before issue 28's cut (every Pass clicked, every warned move confirmed)."""
    from battles import modules
    from campaigns import selectors, services
    from config.errors import BadInput
    from frontend.battle.deploy_form import suggested
    from frontend.campaigns.views import action_warning, cards_of
    from play import enqueue, tasks

    saved = enqueue.send_bot_move, services.new_seed
    enqueue.send_bot_move = lambda *args, **kw: None  # the computer's turns run below
    services.new_seed = lambda: seed
    try:
        c = services.create_campaign(user, "french", bot=bot)
    finally:
        enqueue.send_bot_move, services.new_seed = saved
    out = Clicks()
    end_on = skipping = False
    for _ in range(limit):
        c.refresh_from_db()
        cv = selectors.campaign_view(c, user)
        if c.status != "active" or cv["view"]["phase"] != "first":
            break
        if c.to_move != "french":
            if tasks.bot_move("campaign", c.pk, c.seq) < 1:
                raise AssertionError(f"the computer did not move at seq {c.seq}")
            continue
        legal = cv["legal_actions"]
        if len(legal) == 1:
            out.one_button += legal[0]["type"] not in ENDING
            out.lone_endings += legal[0]["type"] in ENDING
        cards = cards_of(c)
        if newcomer and policy.DEPLOY_FROM_ONE_FORM and any(
                a["type"] == "deploy" for a in legal):
            # The page's "Deploy several cards at once", as filled in (one troop card in each
            # empty Position), then "Deploy these and end my deployment": one click.
            board = str(next(a for a in legal if a["type"] == "deploy").get("board") or "")
            bv = ((cv["view"] or {}).get("boards") or {}).get(board) or {}
            pick = suggested(legal, bv, "french", cards)
            batch = [{"type": "deploy", "side": "french", "card": n, "to": to, "board": board}
                     for n, to in pick.items()]
            if pick:
                out.by_kind[DEPLOY_MANY] += 1
                try:
                    services.act_many(c.pk, user, c.seq, [
                        *batch, {"type": "deployment_done", "side": "french", "board": board}])
                except BadInput:  # a Position left empty: deploy these, the rest by hand
                    services.act_many(c.pk, user, c.seq, batch)
                continue
        if (newcomer and policy.END_FOR_ME and not end_on and len(legal) == 1
                and legal[0]["type"] in OWN_ENDINGS):
            # "End it, and from now on end it for me when that is all that is left": once.
            out.by_kind[END_FOR_ME] += 1
            services.end_for_me(c.pk, user, c.seq, True)
            end_on = True
            continue
        warned = [a for a in legal if action_warning(cv, a, cards)] if newcomer else []
        chosen = dict(policy.choose_campaign(legal, cv["view"], warned))
        if chosen not in legal:
            raise AssertionError(f"the policy chose {chosen}, not offered")
        if newcomer and chosen["type"] == "fire" and policy.FIRE_ORDER and len(
                {a["piece"] for a in legal if a["type"] == "fire"}) >= 2:
            # "Fire with every ready card (each at its suggested target)": the rest of this
            # Combat Phase's fires are played for them (auto, reason "order").
            out.by_kind[FIRE_ORDER] += 1
            services.fire_order(c.pk, user, c.seq, True)
            continue
        if newcomer and chosen["type"] == "pass" and policy.SKIP_KINDS and not skipping:
            # the first enemy window: "When to ask you to answer", every kind unticked
            kinds = list(modules.RESPONSE_KINDS)
            out.by_kind[ASK_PANEL] += 2 + len(kinds)
            services.choose_pass_kinds(c.pk, user, kinds)
            skipping = True  # this window is still open: passed below, as before
        if newcomer and chosen["type"] == "pass" and policy.PASS_KIND:
            # the button beside Pass: this window passed, its kind never asked again
            out.by_kind[PASS_KIND] += 1
            services.pass_and_skip_kind(c.pk, user, c.seq)
            continue
        if newcomer and chosen["type"] == "pass" and policy.PASS_REST_OF_TURN:
            out.by_kind[PASS_REST] += 1
            services.pass_rest_of_turn(c.pk, user, c.seq)
            continue
        out.by_kind[click_kind(chosen, cv)] += 1
        if action_warning(cv, chosen, cards):
            out.by_kind[f"confirm ({chosen['type']})"] += 1
        services.act(c.pk, user, c.seq, chosen)
    c.refresh_from_db()
    for a in c.actions.filter(side="french", auto=True):
        out.auto[a.auto_reason or "forced"] += 1
    out.results = dict((c.state or {}).get("results") or {})
    out.first_phase_over = (c.status != "active"
                            or selectors.campaign_view(c, user)["view"]["phase"] != "first")
    return out
