from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        from battles.signals import battle_finished
        from campaigns.signals import campaign_finished

        from .campaigns import rate_finished_campaign
        from .services import rate_finished_battle

        # Sent inside the transaction that ends a battle: the rating is written with the end.
        battle_finished.connect(rate_finished_battle, dispatch_uid="ratings.rate_finished_battle")
        campaign_finished.connect(rate_finished_campaign,
                                  dispatch_uid="ratings.rate_finished_campaign")
