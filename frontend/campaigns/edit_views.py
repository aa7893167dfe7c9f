"""The campaign page's Undo button and split editor (thin: ``campaigns.services.undo`` and
``campaigns.services.act`` decide; ``editing`` builds the form's rows and the action)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from battles.campaign import split_plan
from campaigns import services
from campaigns.kind import core_of
from campaigns.services import undo as undo_service
from config.errors import Conflict, ServiceError

from .editing import split_action
from .views import after_action, campaign_or_404, int_or_raw, refused


@login_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back my last action on a board; a refusal (409 ``cannot_undo``, ``stale_seq``)
    shows the page with the reason."""
    c = campaign_or_404(request, pk)
    try:
        undo_service(c.pk, request.user, int_or_raw(request.POST.get("seq", "")))
    except ServiceError as exc:
        return refused(request, pk, exc)
    return after_action(request, pk)


@login_required
@require_POST
def split(request: HttpRequest, pk: int) -> HttpResponse:
    """The split editor's form: one choice per free card -> one ``split`` action."""
    c = campaign_or_404(request, pk)
    side = services.side_of(c, request.user)
    core = core_of(c)
    posted = request.POST
    try:
        if side is None or core is None or c.to_move != side or core.step != "split":
            raise Conflict("there is no split for you to make now", seq=c.seq)
        free, forced = split_plan(core, side)
        action = split_action(side, list(forced), free, posted)
        services.act(c.pk, request.user, int_or_raw(posted.get("seq", "")), action)
    except ServiceError as exc:
        return refused(request, pk, exc, posted=posted)
    return after_action(request, pk)
