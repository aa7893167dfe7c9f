import os

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create (or reset) the demo account and print its credentials."

    def add_arguments(self, parser):
        parser.add_argument("--username", default=os.environ.get("DEMO_USERNAME", "demo"))
        parser.add_argument("--password", default=os.environ.get("DEMO_PASSWORD", "waterloo1815"))

    def handle(self, *args, username: str, password: str, **options):
        user, created = User.objects.get_or_create(username=username)
        user.set_password(password)
        user.is_staff = user.is_superuser = True  # the demo account can open the admin too
        user.save()
        verb = "Created" if created else "Reset"
        self.stdout.write(f"{verb} demo account: username '{username}', password '{password}'")
