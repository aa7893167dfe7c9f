import os
import secrets

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = ("Create (or reset) the demo account for the local demo (`make run`) and print its "
            "password. It is an ordinary player, not staff: make an admin with createsuperuser.")

    def add_arguments(self, parser):
        parser.add_argument("--username", default=os.environ.get("DEMO_USERNAME", "demo"))
        parser.add_argument("--password", default=os.environ.get("DEMO_PASSWORD"),
                            help="default: a fresh random password on every run")

    def handle(self, *args, username: str, password: str | None, **options):
        password = password or secrets.token_urlsafe(12)
        user, created = User.objects.get_or_create(username=username)
        user.set_password(password)
        # Never staff or superuser: the password is printed, so it must not open the admin.
        user.is_staff = user.is_superuser = False
        user.save()
        verb = "Created" if created else "Reset"
        self.stdout.write(f"{verb} demo account: username '{username}', password '{password}'")
