from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from play import alongside
        from play.signals import match_finished

        from .services.online_results import link_at_end, on_match_finished

        # an online tournament's game (any kind) reports its match inside the finishing transaction
        match_finished.connect(on_match_finished, dispatch_uid="tournaments.online_result")
        # the game's link read in the statement that ends the match (PostgreSQL: no round
        # trip of its own; most matches are no tournament's)
        alongside.register(link_at_end)
