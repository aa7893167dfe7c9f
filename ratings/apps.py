from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        from play import alongside
        from play.signals import match_finished

        from .listeners import on_match_finished, pending_at_end

        # Sent inside the transaction that ends a match: the "to be rated" row is written
        # with the end (on PostgreSQL in the ending statement itself), the rating by a worker.
        match_finished.connect(on_match_finished, dispatch_uid="ratings.on_match_finished")
        alongside.register(pending_at_end)
