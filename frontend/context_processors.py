from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

# (label, url name, needs login): the main navigation of every page.
NAV = [
    ("Catalogue", "catalogue", False),
    ("Collection", "collection", True),
    ("Decks", "decks", True),
    ("Trades", "trades", True),
    ("Tournaments", "tournaments", False),
    ("Battles", "battles", True),
    ("Campaigns", "campaigns", True),
    ("Stratego", "stratego", True),
    ("La Belle Alliance", "belle-alliance", True),
    ("Watch", "watch", False),
    ("How to play", "learn", False),
]
# Each kind of match's list (``play.registry``'s kind -> its list page's URL name).
KIND_LISTS = {"battle": "battles", "campaign": "campaigns", "stratego": "stratego",
              "belle_alliance": "belle-alliance"}


def navigation(request: HttpRequest) -> dict:
    items = []
    for label, name, needs_login in NAV:
        if needs_login and not request.user.is_authenticated:
            continue
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        items.append({"label": label, "url": url, "active": request.path.startswith(url)})
    return {"nav_items": items}


def notification_counts(request: HttpRequest) -> dict:
    """``your_move_count`` (active matches of every kind where it is the user's move),
    ``your_move_url`` (the list of the first kind, in ``play.registry``'s order, with one) and
    ``unread_count`` (unread notifications) for the menu's badge, bell and tab title. Each
    count is one query, run only if the page uses it, once per request (a visitor: none)."""
    from functools import cache

    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"your_move_count": 0, "unread_count": 0}
    from notifications.selectors import unread_count, your_move_counts

    counts = cache(lambda: your_move_counts(user))

    def url() -> str:
        waiting = [kind for kind, n in counts().items() if n]
        return reverse(KIND_LISTS.get(waiting[0] if waiting else "", "battles"))

    return {"your_move_count": cache(lambda: sum(counts().values())),
            "your_move_url": cache(url),
            "unread_count": cache(lambda: unread_count(user))}
