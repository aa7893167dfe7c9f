from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        from play.signals import match_finished

        from .listeners import on_match_finished

        # Sent inside the transaction that ends a match: the rating is written with the end.
        match_finished.connect(on_match_finished, dispatch_uid="ratings.on_match_finished")
