"""The battles page's "My battles" rows as HTML, written in Python (issue 31: the template's
loop cost 2.6 ms of CPU for a page of 50 rows, the most of any one part of the page). The
markup is the template's as it was, row for row (``tests/test_list_page_cost.py`` renders
both and compares them); each text is escaped as the template's autoescape did."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from frontend.rows import url_of


@cache
def _cancel_url() -> Callable[[int], str]:
    return url_of("battle-cancel")


def esc(value: Any) -> str:
    """A value as the template's autoescape writes it (``django.utils.html.escape`` is
    ``html.escape``; every value here is plain text, none marked safe)."""
    return escape(str(value))


def my_battle_rows(rows: Iterable[Mapping[str, Any]], csrf_token: str,
                   cancel_url: Callable[[int], str] | None = None) -> SafeString:
    """The ``<tr>`` of each row of ``_list_rows`` (its id, url, names, texts), with a
    Cancel form (``csrf_token``: the request's) on a battle that still waits."""
    cancel_url = cancel_url or _cancel_url()
    token = esc(csrf_token)
    out = []
    for r in rows:
        pk = int(r["id"])
        rated = f' <small data-testid="rated-{pk}">rated</small>' if r["rated"] else ""
        whose = esc(r["whose"])
        if r["waiting_for"] == "you":
            whose = (f'<strong class="badge badge-move" data-testid="your-move-{pk}">'
                     f"{whose}</strong>")
        cancel = (f'<form method="post" action="{esc(cancel_url(pk))}" class="b-inline">'
                  f'<input type="hidden" name="csrfmiddlewaretoken" value="{token}">'
                  '<details class="ask" data-testid="cancel-ask"><summary>Cancel…</summary>'
                  "<p>Nobody can take the seat any more; this cannot be undone.</p>"
                  '<button type="submit" class="danger" data-testid="cancel">Yes, cancel it'
                  "</button></details></form>"
                  if r["can_cancel"] else "")
        out.append(
            f'          <tr data-testid="battle-row-{pk}">\n'
            f'            <td><a href="{esc(r["url"])}">{esc(r["battle_name"])} '
            f'<span class="muted">#{pk}</span></a>{rated}<br><small class="muted">'
            f'{esc(r["created_text"])} UTC</small></td>\n'
            f'            <td>{esc(r["side_name"])}</td>\n'
            f'            <td>{esc(r["opponent_name"])}</td>\n'
            f'            <td>{esc(r["status_label"])}</td>\n'
            f"            <td>{whose}</td>\n"
            f'            <td>{esc(r["outcome_text"] or "—")}</td>\n'
            f"            <td>{cancel}</td>\n"
            f"          </tr>\n")
    return mark_safe("".join(out))  # every value above is escaped or an int
