"""A newcomer's first battle in two clicks, and the player's play setting (thin views).

``play_now`` (POST, from the home page and the battles list): Quatre Bras against the
computer (greedy), French side, both decks dealt from the whole set, historical only (2.0),
then the battle page. ``preferences`` (POST, from the battles list): "Always ask me in
response windows" (``accounts.Preferences.always_ask``; off: the site passes for me when I
hold nothing that could answer, ``play/autoplay.py``) and "End my phase or turn for me when
that is all that is left" (``Preferences.end_for_me``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from accounts.models import preferences_of
from battles import services
from battles.errors import BattleError
from frontend.errors import page_message, refuse

from .views import render_list

QUICK = {"battle": "quatre-bras", "side": "french", "bot": "greedy",
         "deal": {"pool": "set", "historical": True}}


@login_required
@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """Start Quatre Bras against the computer and open it."""
    try:
        b = services.create_battle(request.user, QUICK["battle"], QUICK["side"],
                                   bot=QUICK["bot"], deal=dict(QUICK["deal"]))
    except BattleError as exc:  # nothing the form can get wrong; the message, never a 500
        refuse(exc)
        return render_list(request, list_error=page_message(exc, capitalise=True),
                           status=exc.status)
    return redirect("battle", pk=b.pk)


@login_required
@require_POST
def preferences(request: HttpRequest) -> HttpResponse:
    """Save "Always ask me in response windows" and "End my phase or turn for me when that
    is all that is left", then back to the battles list."""
    prefs = preferences_of(request.user)
    prefs.always_ask = bool(request.POST.get("always_ask"))
    prefs.end_for_me = bool(request.POST.get("end_for_me"))
    prefs.save(update_fields=["always_ask", "end_for_me"])
    return redirect("battles")
