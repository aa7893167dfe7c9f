from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"

    def ready(self) -> None:
        from play import registry
        from play.signals import match_changed

        from .kind import KIND
        from .live.notify import on_campaign_changed

        registry.register(KIND)
        match_changed.connect(on_campaign_changed, dispatch_uid="campaigns.live.notify")
