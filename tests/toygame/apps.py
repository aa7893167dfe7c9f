from django.apps import AppConfig


class ToyGameConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tests.toygame"
    label = "toygame"
