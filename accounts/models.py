"""A player's own settings (one row per user, made on first use: ``preferences_of``)."""

from django.conf import settings
from django.db import models


class Preferences(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="preferences")
    always_ask = models.BooleanField(
        default=False, help_text="Ask me in every response window, even when I hold nothing "
                                 "that could answer (otherwise the site passes for me).")
    end_for_me = models.BooleanField(
        default=False, help_text="End my phase or turn for me when ending it is all that is "
                                 "left to do (the log says it was my setting).")

    def __str__(self) -> str:
        return f"preferences of {self.user}"


def preferences_of(user) -> Preferences:
    """The user's settings (the defaults, saved, on first use)."""
    return Preferences.objects.get_or_create(user=user)[0]


def preference(user, name: str) -> bool:
    """One of the user's settings as it stands, read-only (nothing saved: no row means the
    defaults). From the row read with ``user`` when it was (``select_related`` of
    ``preferences``: a match's locking read brings its players' settings, so an action
    asks no more; issue 31), else one query."""
    field = Preferences._meta.get_field(name)
    related = Preferences._meta.get_field("user").remote_field  # the reverse one-to-one
    if related.is_cached(user):
        row = related.get_cached_value(user)
        return getattr(row, name) if row is not None else field.get_default()
    found = Preferences.objects.filter(user=user).values_list(name, flat=True).first()
    return found if found is not None else field.get_default()
