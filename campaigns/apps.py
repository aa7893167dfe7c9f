from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    """The EAGLES Campaign Game (its match kind, ``campaigns.kind``, is found by ``play``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"
