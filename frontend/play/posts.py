"""The POST views every game's page has, written once: play an action, take it back, resign,
claim an absent opponent's game, pass for the rest of a turn and choose which response
windows to be asked in; and, on the list page, join and cancel.

A game's views module describes itself once (``GamePosts``: how to find the viewer's match or
404, how to draw its page, its service) and takes the views from it::

    POSTS = GamePosts(page="stratego-game", fetch=game_or_404, render=render_game,
                      service=services)
    act, undo, resign, claim = POSTS.views("act", "undo", "resign", "claim")

Each view is thin: it reads the form, calls the service, and answers. A refusal
(``config.errors.ServiceError``) is a 404/403 error page (``frontend.errors.refuse``) or the
page as it is now with the message and the refusal's status; nothing changed. After a played
action an htmx request gets the play fragment as it is now (the mover's one update:
``live.js`` does not fetch it again); without JavaScript, a redirect back to the page. The
list page (``list_view``: a new match from its form) and its join and cancel
(``seat_view``) are here too, and ``or_404``: a kind's ``fetch``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from config.errors import NotFound, ServiceError
from frontend.errors import page_message, refuse

from .frame import confirm, int_or_raw, is_htmx, posted

View = Callable[..., HttpResponse]


class Renders(Protocol):
    """A game's page: the match drawn for ``request`` (``status``, and ``error``,
    ``confirm``... as extra context)."""

    def __call__(self, request: HttpRequest, match: Any, *, status: int = 200,
                 **extra: Any) -> HttpResponse: ...


@dataclass(frozen=True)
class GamePosts:
    """A game's page POSTs. ``page``: the URL name of its page (``<page>`` with ``pk``);
    ``fetch(request, pk)``: the match the viewer may see (else ``Http404``); ``render``: its
    page; ``service``: its service module (``act``, ``undo``, ``resign``, ``claim_absence``
    and, for a game with response windows, ``pass_rest_of_turn`` and ``choose_pass_kinds``);
    ``warning(request, match, seq, action)``: the question to ask before a risky action
    ("" none; asked only when the form has no ``confirm``); ``pass_kinds()``: the kinds of
    response window its players may choose not to be asked in."""

    page: str
    fetch: Callable[[HttpRequest, Any], Any]
    render: Renders
    service: Any
    warning: Callable[[HttpRequest, Any, Any, Any], str] | None = None
    pass_kinds: Callable[[], Sequence[str]] = tuple

    def views(self, *names: str) -> tuple[View, ...]:
        """The named views (``act``, ``undo``, ``resign``, ``claim``, ``pass_rest``,
        ``pass_kind``, ``passing``, ``deploy``, ``end_for_me``, ``fire_order``), each for a
        logged-in user's POST only."""
        return tuple(_post_view(getattr(self, name)) for name in names)

    # --- what each view does --------------------------------------------------------------

    def refused(self, request: HttpRequest, pk: Any, exc: ServiceError,
                **extra: Any) -> HttpResponse:
        """The page as it is now, with the service's refusal (its status)."""
        refuse(exc)
        return self.render(request, self.fetch(request, pk), status=exc.status,
                           error=page_message(exc, capitalise=True), **extra)

    def played(self, request: HttpRequest, pk: Any) -> HttpResponse:
        """After a change: htmx, the play fragment as it is now; else back to the page."""
        if not is_htmx(request):
            return redirect(self.page, pk=pk)
        return self.render(request, self.fetch(request, pk))

    def call(self, request: HttpRequest, pk: Any, write: Callable[[Any], Any], *,
             fragment: bool = True, **extra: Any) -> HttpResponse:
        """``write(match)`` (a service call); its refusal is the page with the message.
        ``fragment``: answer htmx with the play fragment (else always a redirect)."""
        match = self.fetch(request, pk)
        try:
            write(match)
        except ServiceError as exc:
            return self.refused(request, pk, exc, **extra)
        return self.played(request, pk) if fragment else redirect(self.page, pk=pk)

    def act(self, request: HttpRequest, pk: Any) -> HttpResponse:
        """Play one legal action (``seq`` and the action as JSON); a risky one is asked
        first (the page again with the question; ``confirm=1`` plays it)."""
        seq, action = posted(request.POST)
        if self.warning is not None and not request.POST.get("confirm"):
            match = self.fetch(request, pk)
            warn = self.warning(request, match, seq, action)
            if warn:
                return self.render(request, match, confirm=confirm(
                    warn, seq, request.POST.get("action", "")))
        return self.call(request, pk,
                         lambda m: self.service.act(m.pk, request.user, seq, action))

    def undo(self, request: HttpRequest, pk: Any) -> HttpResponse:
        """Take back my last action (a refusal, 409 ``cannot_undo`` with the reason or a
        stale ``seq``, shows the page with the message)."""
        seq = int_or_raw(request.POST.get("seq", ""))
        return self.call(request, pk, lambda m: self.service.undo(m.pk, request.user, seq))

    def resign(self, request: HttpRequest, pk: Any) -> HttpResponse:
        """Resign (the page asks first): the opponent wins."""
        return self.call(request, pk, lambda m: self.service.resign(m.pk, request.user),
                         fragment=False)

    def claim(self, request: HttpRequest, pk: Any) -> HttpResponse:
        """Claim a live game whose opponent has the move and has been away too long."""
        return self.call(request, pk,
                         lambda m: self.service.claim_absence(m.pk, request.user),
                         fragment=False)

    def pass_rest(self, request: HttpRequest, pk: Any) -> HttpResponse:
        """Pass now and in every further response window of this enemy turn (the player's
        own standing choice, ``play.passing``)."""
        seq = int_or_raw(request.POST.get("seq", ""))
        return self.call(request, pk, lambda m: self.service.pass_rest_of_turn(
            m.pk, request.user, seq))

    def pass_kind(self, request: HttpRequest, pk: Any) -> HttpResponse:
        """Pass now, and do not ask me about this kind of window again (the player's own
        standing choice, ``play.passing``)."""
        seq = int_or_raw(request.POST.get("seq", ""))
        return self.call(request, pk, lambda m: self.service.pass_and_skip_kind(
            m.pk, request.user, seq))

    def deploy(self, request: HttpRequest, pk: Any) -> HttpResponse:
        """Several placements from one form (``frontend.battle.deploy_form``), one
        transaction: one illegal, the page with the 400 naming its card, nothing placed."""
        from frontend.battle.deploy_form import posted_actions

        seq = int_or_raw(request.POST.get("seq", ""))
        actions = posted_actions(request.POST, list(request.POST))
        return self.call(request, pk, lambda m: self.service.act_many(
            m.pk, request.user, seq, actions))

    def end_for_me(self, request: HttpRequest, pk: Any) -> HttpResponse:
        """The setting "end my phase or turn for me when that is all that is left": on
        (``on=1``: ends it now, the player's own click) or off."""
        seq = int_or_raw(request.POST.get("seq", ""))
        on = request.POST.get("on") == "1"
        return self.call(request, pk, lambda m: self.service.end_for_me(
            m.pk, request.user, seq, on))

    def fire_order(self, request: HttpRequest, pk: Any) -> HttpResponse:
        """The order "Fire with every ready card (each at its suggested target)" for this
        Combat Phase: given (``on=1``: the first card fires now, the player's own click)
        or cancelled ("Stop firing for me")."""
        seq = int_or_raw(request.POST.get("seq", ""))
        on = request.POST.get("on") == "1"
        return self.call(request, pk, lambda m: self.service.fire_order(
            m.pk, request.user, seq, on))

    def passing(self, request: HttpRequest, pk: Any) -> HttpResponse:
        """The kinds of response window the player wants to be asked in (the others are
        passed for them, flagged as their choice)."""
        ask = set(request.POST.getlist("ask"))
        kinds = [k for k in self.pass_kinds() if k not in ask]
        return self.call(request, pk, lambda m: self.service.choose_pass_kinds(
            m.pk, request.user, kinds))


def _post_view(method: Callable[[HttpRequest, Any], HttpResponse]) -> View:
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        return method(request, pk)

    view.__doc__ = method.__doc__
    view.__name__ = view.__qualname__ = method.__name__
    return login_required(require_POST(view))


def or_404(read: Callable[[Any, Any], Any]) -> Callable[[HttpRequest, Any], Any]:
    """A game's ``fetch``: ``read(user, pk)`` (its ``selectors.game_of``: the match the viewer
    may see), its ``NotFound`` a 404."""
    def fetch(request: HttpRequest, pk: Any) -> Any:
        try:
            return read(request.user, pk)
        except NotFound as exc:
            raise Http404(exc.message) from None

    return fetch


def list_view(create: Callable[[HttpRequest, Any], Any],
              render_list: Callable[..., HttpResponse], page: str, *,
              guard: Callable[[View], View] = login_required) -> View:
    """A kind's list page: GET, the list; POST, ``create(request, form)`` a new match and
    go to its page (``page``), or the list again with the service's refusal and the form as
    it was filled in. ``guard``: who may see it (a decorator; logged in by default)."""
    def view(request: HttpRequest) -> HttpResponse:
        error, status, form = "", 200, {}
        if request.method == "POST":
            form = request.POST
            try:
                match = create(request, form)
            except ServiceError as exc:
                status, error = exc.status, page_message(exc, capitalise=True)
            else:
                return redirect(page, pk=match.pk)
        return render_list(request, error, status, form)

    return guard(view)


def seat_view(write: Callable[[HttpRequest, int], Any], render_list: Callable[..., HttpResponse],
              then: Callable[[int], HttpResponse]) -> View:
    """A list page's POST on one game (join, cancel): ``write(request, pk)``; a 404/403 is
    the error page, another refusal the list again with the message and its status; else
    ``then(pk)``."""
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        try:
            write(request, pk)
        except ServiceError as exc:
            refuse(exc)
            return render_list(request, page_message(exc, capitalise=True), exc.status)
        return then(pk)

    return login_required(require_POST(view))
