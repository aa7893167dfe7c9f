from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from play.signals import match_finished

        from .services.online_results import on_match_finished

        # an online tournament's game (any kind) reports its match inside the finishing transaction
        match_finished.connect(on_match_finished, dispatch_uid="tournaments.online_result")
