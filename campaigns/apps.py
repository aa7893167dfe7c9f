from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"

    def ready(self) -> None:
        from .live.notify import on_campaign_changed
        from .signals import campaign_changed

        campaign_changed.connect(on_campaign_changed, dispatch_uid="campaigns.live.notify")
