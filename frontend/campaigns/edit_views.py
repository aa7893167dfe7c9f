"""The campaign page's split editor (thin: ``campaigns.services.act`` decides; ``editing``
builds the form's rows and the action)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from battles.campaign import split_plan
from campaigns import services
from campaigns.kind import core_of
from config.errors import Conflict, ServiceError
from frontend.play.frame import int_or_raw

from .editing import split_action
from .views import POSTS, campaign_or_404


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
        return POSTS.refused(request, pk, exc, posted=posted)
    return POSTS.played(request, pk)
