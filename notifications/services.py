"""Sending and reading notifications. ``notify`` is the one way one is sent.

* In the list (``in_app``) and/or by e-mail, as the user's ``NotificationSetting`` for the kind
  says (no row: ``models.DEFAULTS``).
* Coalesced: a second unread "your move" for the same battle (or campaign) is not sent (the
  database's ``one_unread_your_move_per_battle`` / ``..._per_campaign`` refuses it, so two
  processes cannot both send it);
  with a ``key``, a notification is sent once per user and key.
* E-mail is sent by a worker, never here: once the row commits, ``mailing.enqueue`` queues
  the Celery task ``notifications.send_email`` with its id (the row's ``by_email`` says it is
  to be mailed). A broker that is down is logged and never reaches the caller; the mail
  server is only ever the worker's problem (``mailing``, ``tasks``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connections, transaction
from django.db.models import Q
from django.utils import timezone

from config.errors import BadInput
from play.alongside import Part

from . import mailing
from .models import DEFAULTS, Kind, Notification, NotificationSetting

MAX_IDS = 500


# --- Settings -------------------------------------------------------------------------------

def settings_of(user) -> dict[str, dict[str, bool]]:
    """kind -> {"in_app", "email"} for ``user`` (defaults filled in): one query."""
    out = {kind: dict(flags) for kind, flags in DEFAULTS.items()}
    for kind, in_app, email in NotificationSetting.objects.filter(user=user).values_list(
            "kind", "in_app", "email"):
        out[kind] = {"in_app": in_app, "email": email}
    return out


def setting_of(user, kind: str) -> dict[str, bool]:
    row = NotificationSetting.objects.filter(user=user, kind=kind).values(
        "in_app", "email").first()
    return row or dict(DEFAULTS[kind])


def update_settings(user, changes) -> dict[str, dict[str, bool]]:
    """Set some kinds' switches: ``{kind: {"in_app": bool, "email": bool}}`` (either key may
    be left out: unchanged). All or nothing: a bad kind or value changes nothing (400)."""
    if not isinstance(changes, dict):
        raise BadInput('settings must be an object: {"your_move": {"in_app": true, '
                       '"email": false}, ...}')
    current = settings_of(user)
    clean: dict[str, dict[str, bool]] = {}
    for kind, flags in changes.items():
        if kind not in Kind.values:
            raise BadInput(f"unknown notification kind {kind!r}; known: "
                           f"{', '.join(Kind.values)}")
        if not isinstance(flags, dict):
            raise BadInput(f"{kind} must be an object with in_app and/or email")
        unknown = sorted(set(flags) - {"in_app", "email"})
        if unknown:
            raise BadInput(f"{kind}: unknown switch {unknown[0]!r}; known: in_app, email")
        for name, value in flags.items():
            if type(value) is not bool:
                raise BadInput(f"{kind}.{name} must be true or false")
        clean[kind] = {**current[kind], **flags}
    with transaction.atomic():
        for kind, flags in clean.items():
            NotificationSetting.objects.update_or_create(user=user, kind=kind, defaults=flags)
    return {**current, **clean}


# --- Sending --------------------------------------------------------------------------------

def notify(user, kind: str, text: str, url: str = "", *, battle_id: int | None = None,
           tournament_id: int | None = None, campaign_id: int | None = None, key: str = "",
           email_ok: bool = True) -> Notification | None:
    """Send ``user`` a notification of ``kind`` (see the module's docstring). ``email_ok``
    false: never by e-mail (a your-move in a live battle). Returns the row written, or None
    when nothing was sent (switched off, coalesced, or already sent with that ``key``)."""
    if user is None or kind not in Kind.values:
        raise ValueError(f"notify: a user and a kind from {Kind.values} are needed")
    flags = setting_of(user, kind)
    by_email = flags["email"] and email_ok and bool(getattr(user, "email", ""))
    if not flags["in_app"] and not by_email:
        return None
    try:
        with transaction.atomic():
            note = Notification.objects.create(
                user=user, kind=kind, text=text, url=url, battle_id=battle_id,
                tournament_id=tournament_id, campaign_id=campaign_id, key=key,
                in_app=flags["in_app"], by_email=by_email)
    except IntegrityError:
        return None  # coalesced, or already sent with this key
    if by_email:
        note_id = note.pk
        # The worker reads the row: queue it once it has committed (at once outside a
        # transaction, e.g. in the listeners, which run after the change's commit).
        transaction.on_commit(lambda: mailing.enqueue(note_id))
    return note


@dataclass(frozen=True)
class YourMove:
    """A "your move" to send after a match changed hands: to ``user``, the unread ones of the
    ``stale`` users for the same battle (or campaign) marked read."""

    user: Any
    text: str
    url: str
    stale: tuple[int, ...]
    battle_id: int | None = None
    campaign_id: int | None = None
    email_ok: bool = True


def your_move(notice: YourMove) -> int | None:
    """Send ``notice`` (``notify``'s rules: the user's setting, coalesced) with the stale
    ones marked read (``mark_stale_your_move``); returns the new row's id or None. On
    PostgreSQL in ONE statement (``your_move_part``: issue 31, the three statements and the
    insert's BEGIN/COMMIT were five round trips)."""
    connection = connections[Notification.objects.db]
    if connection.vendor != "postgresql":
        if notice.battle_id is not None:
            mark_stale_your_move(notice.stale, notice.battle_id)
        else:
            mark_stale_campaign_your_move(notice.stale, notice.campaign_id or 0)
        note = notify(notice.user, Kind.YOUR_MOVE, notice.text, notice.url,
                      battle_id=notice.battle_id, campaign_id=notice.campaign_id,
                      email_ok=notice.email_ok)
        return note.pk if note is not None else None
    part = your_move_part(notice, connection)
    (*first, (last_name, last)) = part.ctes
    with connection.cursor() as cursor:
        cursor.execute("WITH " + ", ".join(f"{n} AS ({q})" for n, q in first) + " " + last,
                       part.params)
        row = cursor.fetchone()
    assert part.after is not None
    part.after({"id": row[0], "by_email": row[1]} if row is not None else None)
    return row[0] if row is not None else None


def your_move_part(notice: YourMove, connection: Any) -> Part:
    """``notice`` as data-modifying CTEs (PostgreSQL): the stale ones marked read, the
    user's setting read (no row: ``DEFAULTS``), the row written unless switched off, a
    coalesced one skipped by ``ON CONFLICT DO NOTHING`` (the same partial unique indexes as
    ``notify``'s insert); the last CTE returns (id, by_email). Run alone (``your_move``) or
    in an action's own statement (``play.alongside``: ``alongside.with_action``); ``after``
    queues its e-mail once the row commits."""
    if (notice.battle_id is None) == (notice.campaign_id is None):
        raise ValueError("your_move: a battle_id or a campaign_id")
    mailable = notice.email_ok and bool(getattr(notice.user, "email", ""))
    now = timezone.now()
    column = "battle_id" if notice.battle_id is not None else "campaign_id"
    match_id = notice.battle_id if notice.battle_id is not None else notice.campaign_id
    quote = connection.ops.quote_name
    table = quote(Notification._meta.db_table)
    settings_table = quote(NotificationSetting._meta.db_table)
    default = DEFAULTS[Kind.YOUR_MOVE]
    kind = Kind.YOUR_MOVE.value
    text = notice.text[:Notification._meta.get_field("text").max_length]
    ctes = (
        ("your_move_stale", f"UPDATE {table} SET read_at = %s WHERE user_id = ANY(%s) "
                            f"AND {column} = %s AND kind = %s AND read_at IS NULL"),
        ("your_move_flags", "SELECT COALESCE(bool_or(in_app), %s) AS in_app, "
                            "COALESCE(bool_or(email), %s) AS email "
                            f"FROM {settings_table} WHERE user_id = %s AND kind = %s"),
        ("your_move_note", f"INSERT INTO {table} (user_id, kind, text, url, {column}, key, "
                           "in_app, by_email, created_at) "
                           "SELECT %s, %s, %s, %s, %s, '', f.in_app, f.email AND %s, %s "
                           "FROM your_move_flags f WHERE f.in_app OR (f.email AND %s) "
                           "ON CONFLICT DO NOTHING RETURNING id, by_email"),
    )
    params = (now, list(notice.stale), match_id, kind,
              default["in_app"], default["email"], notice.user.pk, kind,
              notice.user.pk, kind, text, notice.url, match_id, mailable, now, mailable)

    def after(row: dict | None) -> None:
        if row is not None and row["by_email"]:  # as ``notify``: once the row commits
            note_id = row["id"]
            transaction.on_commit(lambda: mailing.enqueue(note_id))

    return Part("your_move", ctes, params, after)


@dataclass(frozen=True)
class Over:
    """The end's notice to one player (``battle_over``, sent once per user and ``key``)."""

    user: Any
    text: str
    url: str
    key: str


def match_over_part(notices: list[Over], stale: tuple[int, ...], *, column: str,
                    match_id: int, connection: Any) -> Part:
    """The end of a match's notices as data-modifying CTEs (PostgreSQL), written in the
    statement that ends it (``play.alongside``; issue 31: an ending action in 4 round
    trips, the after-commit listener took 9): the players' unread "your move" for the match
    marked read, then per player ``notify``'s rules: their setting read (no row:
    ``DEFAULTS``), the row written unless switched off, one already sent with the ``key``
    skipped (``notification_once_per_key``, ``ON CONFLICT DO NOTHING``). The last CTE
    returns ``{"notes": [{"id", "by_email"}, ...]}``; ``after`` queues their e-mails once
    the rows commit. ``column``: "battle_id" or "campaign_id"."""
    if column not in ("battle_id", "campaign_id"):
        raise ValueError("match_over_part: column is battle_id or campaign_id")
    now = timezone.now()
    quote = connection.ops.quote_name
    table = quote(Notification._meta.db_table)
    settings_table = quote(NotificationSetting._meta.db_table)
    default = DEFAULTS[Kind.BATTLE_OVER]
    kind = Kind.BATTLE_OVER.value
    size = Notification._meta.get_field("text").max_length
    ctes: list[tuple[str, str]] = [
        ("match_over_stale", f"UPDATE {table} SET read_at = %s WHERE user_id = ANY(%s) "
                             f"AND {column} = %s AND kind = %s AND read_at IS NULL")]
    params: list[Any] = [now, list(stale), match_id, Kind.YOUR_MOVE.value]
    for i, notice in enumerate(notices):
        mailable = bool(getattr(notice.user, "email", ""))
        ctes += [
            (f"match_over_flags{i}", "SELECT COALESCE(bool_or(in_app), %s) AS in_app, "
                                     "COALESCE(bool_or(email), %s) AS email "
                                     f"FROM {settings_table} WHERE user_id = %s AND kind = %s"),
            (f"match_over_note{i}", f"INSERT INTO {table} (user_id, kind, text, url, {column}, "
                                    "key, in_app, by_email, created_at) "
                                    "SELECT %s, %s, %s, %s, %s, %s, f.in_app, f.email AND %s, "
                                    f"%s FROM match_over_flags{i} f "
                                    "WHERE f.in_app OR (f.email AND %s) "
                                    "ON CONFLICT DO NOTHING RETURNING id, by_email")]
        params += [default["in_app"], default["email"], notice.user.pk, kind,
                   notice.user.pk, kind, notice.text[:size], notice.url, match_id, notice.key,
                   mailable, now, mailable]
    written = " UNION ALL ".join(f"SELECT id, by_email FROM match_over_note{i}"
                                 for i in range(len(notices))) or \
        "SELECT NULL::bigint AS id, false AS by_email WHERE false"
    ctes.append(("match_over", "SELECT COALESCE(jsonb_agg(jsonb_build_object('id', n.id, "
                               "'by_email', n.by_email)), '[]'::jsonb) AS notes "
                               f"FROM ({written}) n"))

    def after(row: dict | None) -> None:
        for note in (row or {}).get("notes") or ():
            if note["by_email"]:  # as ``notify``: once the row commits
                note_id = note["id"]
                transaction.on_commit(lambda note_id=note_id: mailing.enqueue(note_id))

    return Part("match_over", tuple(ctes), tuple(params), after)


def mark_stale_your_move(user_ids: Iterable[int], battle_id: int) -> int:
    """The unread "your move" of these users for this battle are out of date (they moved, or
    the battle ended): mark them read."""
    return Notification.objects.filter(user_id__in=list(user_ids), battle_id=battle_id,
                                       kind=Kind.YOUR_MOVE, read_at__isnull=True).update(
        read_at=timezone.now())


def mark_stale_campaign_your_move(user_ids: Iterable[int], campaign_id: int) -> int:
    """The unread "your move" of these users for this campaign are out of date: mark them
    read."""
    return Notification.objects.filter(user_id__in=list(user_ids), campaign_id=campaign_id,
                                       kind=Kind.YOUR_MOVE, read_at__isnull=True).update(
        read_at=timezone.now())


# --- Reading --------------------------------------------------------------------------------

def listed(user):
    """The user's notifications shown in the list, newest first."""
    return Notification.objects.filter(user=user, in_app=True)


def mark_read(user, ids=None, *, everything: bool = False) -> int:
    """Mark ``ids`` (the user's own; others are ignored) or ``everything`` read; returns how
    many were unread."""
    qs = Notification.objects.filter(user=user, read_at__isnull=True)
    if not everything:
        if not isinstance(ids, list) or not ids:
            raise BadInput('give "ids": a list of notification ids, or "all": true')
        if len(ids) > MAX_IDS:
            raise BadInput(f"at most {MAX_IDS} ids at once, or \"all\": true")
        if any(type(i) is not int for i in ids):
            raise BadInput("ids must be whole numbers")
        qs = qs.filter(Q(pk__in=ids))
    return qs.update(read_at=timezone.now())
