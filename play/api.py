"""The games API: one shape for every kind of match, ``/api/games/<kind>/...`` (ARCHITECTURE,
"One game service, several games").

``GET /api/games/`` lists the games; under ``/api/games/<kind>/`` every kind has the same
endpoints: my matches (GET) and a new one (POST), ``open/``, and for one match ``<id>/``
(GET, ``?since=<seq>``), ``act/``, ``undo/``, ``join/``, ``cancel/``, ``resign/``,
``claim/`` (an absent opponent: ``play.presence``, the service's own for every kind) and, once
it is over, ``export/`` (``play.replays``).

The views here are the only copy of that logic. What only a kind's app knows (how a match is
created and joined, which matches a user may look at, its view and summary, the services
that act, undo, resign and cancel, the serializers that document them) is its ``GameAPI``,
which the app's ``api`` module hands to ``register`` (the URLconf imports it). A new game
registers its own: nothing here changes. A kind's old URLs (``/api/battles/...``,
``/api/campaigns/...``) are these same views bound to that kind (``urls``), documented with
the kind's own shapes.

Refusals keep the house shape (``config.errors``: ``{"detail", "code", ...}``): a kind the
site does not offer is 404 ``not_found`` ("no such game: 'chess'"), and so is a match the
user may not see. Permissions are every kind's: logged in for everything but the list of
games and a finished match's export (a public match's replay is anyone's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.urls import URLPattern, path
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import BadInput, NotFound

from . import lists, presence, registry, replays

MAX_LIST = 200  # rows of a list answer at the most


@dataclass(frozen=True)
class Docs:
    """How a kind's answers and bodies are documented (drf-spectacular): its serializers, and
    for its operations (``list``, ``create``, ``open``, ``detail``, ``act``, ``undo``,
    ``join``, ``cancel``, ``resign``, ``export``) a description where it has more to say."""

    view: Any  # a match as a player sees it
    summary: Any  # one row of my list
    mine: Any  # {"results": [summary, ...], "next": cursor or null}
    open: Any  # {"results": [row, ...]} of the open list
    create: Any  # the body of a new match
    join: Any  # the body of join/
    act: Any  # {"seq", "action"}
    undo: Any  # {"seq"}
    notes: Mapping[str, str] = field(default_factory=dict)
    mine_parameters: Sequence[OpenApiParameter] = ()  # query parameters of my list


def _nothing(match, user) -> None:
    return None


@dataclass(frozen=True)
class GameAPI:
    """What the API asks of one kind of match (its app's own functions). ``pk`` is the id
    as the URL gave it; the services and selectors check it (NotFound) and the user's right."""

    kind: str  # the registry's name: "battle"
    match_of: Callable[[Any, Any], Any]  # (user, pk) -> a match user may look at, else NotFound
    view: Callable[..., dict]  # (match, user, since=0) -> all the user may see of it
    summary: Callable[[Any, Any], dict]  # (match, user) -> its row in the user's list
    # (user, query params) -> the parts of the user's list (``lists.branches``), each read
    # newest first from its index and merged a page at a time (``lists.page_of``)
    mine: Callable[[Any, Any], Any]
    open: Callable[[Any], Any]  # user -> the matches the user may join, newest first
    open_row: Callable[[Any, Any], dict]  # (match, user) -> its row in the open list
    create: Callable[[Any, dict], Any]  # (user, body) -> the new match
    join: Callable[[Any, Any, dict], Any]  # (pk, user, body): take the empty seat
    cancel: Callable[[Any, Any], Any]  # (pk, user) -> the match, cancelled or declined
    act: Callable[[Any, Any, Any, Any], Any]  # (pk, user, seq, action)
    undo: Callable[[Any, Any, Any], Any]  # (pk, user, seq)
    resign: Callable[[Any, Any], Any]  # (pk, user)
    docs: Docs
    looked_at: Callable[[Any, Any], None] = _nothing  # (match, user): a player read the view

    @property
    def noun(self) -> str:
        return registry.get(self.kind).noun


_offered: dict[str, GameAPI] = {}


def register(game: GameAPI) -> GameAPI:
    """Offer ``game``'s kind (a registered ``MatchKind``) through the API; returns ``game``."""
    registry.get(game.kind)  # LookupError: not a kind of match the service knows
    known = _offered.get(game.kind)
    if known is not None and known is not game:
        raise RuntimeError(f"the API of {game.kind!r} is registered twice")
    _offered[game.kind] = game
    return game


def offered() -> list[GameAPI]:
    """Every kind the API offers, in the registry's order."""
    return [_offered[k.kind] for k in registry.kinds() if k.kind in _offered]


def game_of(kind: str) -> GameAPI:
    """The API of ``kind``; NotFound (404) for a kind the site does not offer."""
    game = _offered.get(kind)
    if game is None:
        names = ", ".join(g.kind for g in offered())
        raise NotFound(f"no such game: {kind[:40]!r} (the games: {names})")
    return game


def since_of(request) -> int:
    """``?since=<seq>``: only the log of the actions after it (default 0: the whole log)."""
    raw = request.query_params.get("since", "0")
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10):
        raise BadInput("since must be a whole number (a seq)")
    return int(raw)


def body_of(request) -> dict:
    if not isinstance(request.data, dict):
        raise BadInput("the body must be a JSON object")
    return request.data


# --- The views: one copy for every kind ------------------------------------------------------

# (Comments, not docstrings, on the view classes: drf-spectacular would show a docstring as
# the description of every operation.)

# A view of one kind's matches: ``kind`` is the class's (a kind's own URL) or the URL's
# ``<kind>`` (``/api/games/<kind>/...``), looked up before anything else: an unknown kind is
# 404 whoever asks. ``operations``: method -> operation (``Docs``).
class GameView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    kind = ""
    operations: dict[str, str] = {}

    def initial(self, request, *args, **kwargs):
        self.game = game_of(kwargs.get("kind") or self.kind)
        super().initial(request, *args, **kwargs)


class MatchList(GameView):
    operations = {"get": "list", "post": "create"}

    def get(self, request, kind=None):
        game = self.game
        query = request.query_params
        page = lists.page_of(game.mine(request.user, query), query)
        return Response({"results": [game.summary(m, request.user) for m in page.rows],
                         "next": page.next})

    def post(self, request, kind=None):
        match = self.game.create(request.user, body_of(request))
        return Response(self.game.view(match, request.user), status=status.HTTP_201_CREATED)


class OpenMatches(GameView):
    operations = {"get": "open"}

    def get(self, request, kind=None):
        game = self.game
        return Response({"results": [game.open_row(m, request.user) for m in
                                     game.open(request.user)[:MAX_LIST]]})


class MatchDetail(GameView):
    operations = {"get": "detail"}

    def get(self, request, pk, kind=None):
        since = since_of(request)
        match = self.game.match_of(request.user, pk)
        self.game.looked_at(match, request.user)
        return Response(self.game.view(match, request.user, since=since))


# A POST on one match whose answer is the match as the user now sees it.
class MatchAction(GameView):
    def post(self, request, pk, kind=None):
        self.perform(pk, request)
        return Response(self.game.view(self.game.match_of(request.user, pk), request.user))

    def perform(self, pk, request) -> None:
        raise NotImplementedError


class Act(MatchAction):
    operations = {"post": "act"}

    def perform(self, pk, request) -> None:
        data = body_of(request)
        self.game.act(pk, request.user, data.get("seq"), data.get("action"))


class Undo(MatchAction):
    operations = {"post": "undo"}

    def perform(self, pk, request) -> None:
        self.game.undo(pk, request.user, body_of(request).get("seq"))


class Join(MatchAction):
    operations = {"post": "join"}

    def perform(self, pk, request) -> None:
        self.game.join(pk, request.user, body_of(request))


class Resign(MatchAction):
    operations = {"post": "resign"}

    def perform(self, pk, request) -> None:
        self.game.resign(pk, request.user)


class Claim(MatchAction):
    operations = {"post": "claim"}

    def perform(self, pk, request) -> None:
        presence.claim(registry.get(self.game.kind), pk, request.user)


class Cancel(GameView):
    operations = {"post": "cancel"}

    def post(self, request, pk, kind=None):
        return Response(self.game.summary(self.game.cancel(pk, request.user), request.user))


# A finished match's export (``play.replays``): anyone for a public one, logged in or not; a
# private one of others or one never played is 404, one not over 409 ``<noun>_not_over``.
class Export(GameView):
    permission_classes = [permissions.AllowAny]
    operations = {"get": "export"}

    def get(self, request, pk, kind=None):
        match_kind = registry.get(self.game.kind)
        return Response(replays.export(match_kind,
                                       replays.replayable(match_kind, request.user, pk)))


class GameKindSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="The name in the URL: /api/games/<kind>/.")
    title = serializers.CharField(help_text="What a person calls it.")
    sides = serializers.ListField(child=serializers.CharField())


class GameKindListSerializer(serializers.Serializer):
    results = GameKindSerializer(many=True)


class GameKinds(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=GameKindListSerializer, operation_id="games_kinds",
                   summary="The games the site offers: each kind of match, its title and sides")
    def get(self, request):
        games = [registry.get(g.kind).game for g in offered()]
        return Response({"results": [{"kind": g.kind, "title": g.title, "sides": list(g.sides)}
                                     for g in games]})


# --- The documentation (drf-spectacular) -----------------------------------------------------

class GameActInput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The match's seq you last saw (409 stale_seq if "
                                             "it has moved on).")
    action = serializers.DictField(help_text="One of the match's legal_actions, as given.")


class GameUndoInput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The match's seq you last saw (409 stale_seq if "
                                             "it has moved on).")


def _either(name: str, shape: str) -> PolymorphicProxySerializer:
    """One of the offered kinds' ``shape`` (a ``Docs`` field), read when the schema is made."""
    return PolymorphicProxySerializer(
        component_name=name, resource_type_field_name=None, many=False,
        serializers=lambda: list(dict.fromkeys(getattr(g.docs, shape) for g in offered())))


GAMES = Docs(view=_either("GameView", "view"), summary=_either("GameSummary", "summary"),
             mine=_either("GameList", "mine"), open=_either("GameOpenList", "open"),
             create=_either("GameCreateInput", "create"), join=_either("GameJoinInput", "join"),
             act=GameActInput, undo=GameUndoInput,
             notes={"list": "A kind may take query parameters of its own (documented at "
                            "the kind's own URL).",
                    "create": "The body is the kind's own: one of GameCreateInput's shapes."})

SUMMARIES = {
    "list": "My {noun}s and the {noun}s I am invited to, newest first",
    "create": "Start a {noun} against the computer, or one another player joins",
    "open": "{Noun}s anyone may join, newest first (not my own)",
    "detail": "A {noun} as your side sees it",
    "join": "Take the empty seat of an open {noun} or one I am invited to",
    "cancel": "Cancel my {noun} nobody has joined, or decline an invitation",
    "act": "Play one of your legal actions",
    "undo": "Take back your last action",
    "resign": "Resign my {noun} (any moment while it is active): the opponent wins",
    "export": "A finished {noun}'s setup, revealed seed and actions, each with its events",
    "claim": "Claim a live {noun} whose opponent has the move and has been away too long: "
             "I win",
}
NOTES = {  # said of every kind, after the kind's own notes
    "join": "409 expired once nobody joined in time.",
    "act": "409 stale_seq (with seq) if the {noun} has moved on, 409 not your move, 400 "
           "illegal_action; past your deadline 409 out_of_time (the {noun} ends by time in the "
           "same request).",
    "undo": "409 stale_seq; 409 cannot_undo with the reason.",
    "resign": "Reason resigned. Past the mover's deadline: 409 out_of_time (the {noun} ended "
              "by time instead).",
    "export": "Anyone may export a public {noun}, logged in or not. 404 for a private {noun} "
              "of others or one never played; 409 {noun}_not_over before the end (the seed "
              "stays secret until then).",
    "claim": "Only a live {noun} between two people, the opponent to move and away for more "
             "than " + str(presence.ABSENCE_LIMIT) + " s (play/presence.py): reason absent. "
             "Otherwise 409 not_claimable with the reason; 409 paused while its tournament "
             "is paused.",
}
PAGE_PARAMETERS = [
    OpenApiParameter("before", str, description="The page after this cursor (a page's "
                                                "\"next\"; play/lists.py)."),
    OpenApiParameter("limit", int, description=f"Rows per page, 1 to {lists.MAX_PAGE} "
                                               f"(default {lists.PAGE}).")]
SINCE = OpenApiParameter("since", int, description="Only log events of actions after this seq "
                                                   "(default 0: the whole log).")


def _schema(operation: str, docs: Docs, noun: str, operation_ids: str,
            parameters: list[OpenApiParameter]):
    """``extend_schema`` of one operation (``Docs``) for ``noun``'s URLs."""
    shapes: dict[str, dict] = {
        "list": {"responses": docs.mine, "operation_id": f"{operation_ids}_list",
                 "parameters": [*parameters, *PAGE_PARAMETERS, *docs.mine_parameters]},
        "create": {"request": docs.create, "responses": {201: docs.view}},
        "open": {"responses": docs.open, "operation_id": f"{operation_ids}_open_list"},
        "detail": {"responses": docs.view, "parameters": [*parameters, SINCE]},
        "act": {"request": docs.act, "responses": docs.view},
        "undo": {"request": docs.undo, "responses": docs.view},
        "join": {"request": docs.join, "responses": docs.view},
        "cancel": {"request": None, "responses": docs.summary},
        "resign": {"request": None, "responses": docs.view},
        "export": {"responses": dict},
        "claim": {"request": None, "responses": docs.view},
    }
    words = {"noun": noun, "Noun": noun.capitalize()}
    notes = [docs.notes.get(operation), NOTES.get(operation, "").format(**words)]
    return extend_schema(summary=SUMMARIES[operation].format(**words),
                         description=" ".join(n for n in notes if n) or None,
                         **{"parameters": parameters, **shapes[operation]})


ROUTES = (  # (the route under a kind's prefix, the view, its URL name's ending)
    ("", MatchList, "list"),
    ("open/", OpenMatches, "open-list"),
    ("<int:pk>/", MatchDetail, "detail"),
    ("<int:pk>/act/", Act, "act"),
    ("<int:pk>/undo/", Undo, "undo"),
    ("<int:pk>/join/", Join, "join"),
    ("<int:pk>/cancel/", Cancel, "cancel"),
    ("<int:pk>/resign/", Resign, "resign"),
    ("<int:pk>/export/", Export, "export"),
    ("<int:pk>/claim/", Claim, "claim"),
)


def urls(game: GameAPI | None, prefix: str, name: str) -> list[URLPattern]:
    """The match endpoints under ``prefix`` with URL names ``<name>-list``, ``-detail``...:
    ``game`` None for ``games/<str:kind>`` (the kind from the URL), else that kind's own
    (``battles``: the same views bound to it, documented with its own shapes)."""
    if game is None:
        kinds = [g.kind for g in offered()]
        parameters = [OpenApiParameter("kind", str, OpenApiParameter.PATH, enum=kinds,
                                       description="A kind of match: GET /api/games/ lists "
                                                   "them (another is 404).")]
        docs, noun, ids = GAMES, "game", "games"
    else:
        docs, noun, ids, parameters = game.docs, game.noun, prefix, []
    patterns = []
    for route, view, ending in ROUTES:
        bound: Any = type(f"{(game.kind if game else 'game').capitalize()}{view.__name__}", (view,),
                     {"kind": game.kind if game else "", "__module__": view.__module__})
        extend_schema_view(**{method: _schema(operation, docs, noun, ids, parameters)
                              for method, operation in view.operations.items()})(bound)
        patterns.append(path(f"{prefix}/{route}", bound.as_view(), name=f"{name}-{ending}"))
    return patterns
