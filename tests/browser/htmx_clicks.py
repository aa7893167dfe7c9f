"""Waiting for a game page's answer to a click (its action forms post through htmx: the
answer is swapped in, the page does not load again)."""

from __future__ import annotations

ANSWERED = """([id, seq]) => {
    const play = document.getElementById(id);
    return !!play && (play.dataset.seq !== seq ||
                      !!play.querySelector('[data-testid=confirm]'));
}"""


def answered(page, seq: int, dom_id: str = "campaign-play", confirm: bool = True) -> bool:
    """After a click at ``seq``: wait until the play area shows a newer seq or asks first
    (a Retreat, a move that can lose the battle); with ``confirm``, play it then and wait
    again. Returns whether it asked."""
    page.wait_for_function(ANSWERED, arg=[dom_id, str(seq)])
    asked = page.get_by_test_id("confirm-button").count() > 0
    if asked and confirm:
        page.get_by_test_id("confirm-button").click()
        moved(page, seq, dom_id)
    return asked


def moved(page, seq: int, dom_id: str = "campaign-play") -> None:
    """Wait until the play area shows a seq newer than ``seq``."""
    page.wait_for_function("([id, seq]) => { const p = document.getElementById(id);"
                           " return !!p && p.dataset.seq !== seq; }", arg=[dom_id, str(seq)])
