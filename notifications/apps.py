from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        from battles.signals import battle_changed
        from campaigns.signals import campaign_changed
        from tournaments.signals import round_paired

        from . import campaign_listeners, listeners

        battle_changed.connect(listeners.on_battle_changed,
                               dispatch_uid="notifications.on_battle_changed")
        round_paired.connect(listeners.on_round_paired,
                             dispatch_uid="notifications.on_round_paired")
        campaign_changed.connect(campaign_listeners.on_campaign_changed,
                                 dispatch_uid="notifications.on_campaign_changed")
