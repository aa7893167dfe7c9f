from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        from play import alongside
        from play.signals import match_changed
        from tournaments.signals import round_paired

        from . import listeners, written

        match_changed.connect(listeners.on_match_changed,
                              dispatch_uid="notifications.on_match_changed")
        round_paired.connect(listeners.on_round_paired,
                             dispatch_uid="notifications.on_round_paired")
        # a "your move" written with the action itself (PostgreSQL: no round trip of its own)
        alongside.register(written.with_action)
        # the end's notices written with the end itself (PostgreSQL: none after commit)
        alongside.register(written.at_end)
