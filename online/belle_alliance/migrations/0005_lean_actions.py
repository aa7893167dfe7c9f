# Issue 31, "keep an action row lean": action and events stored packed (play.fields), every
# stored row carried over and back (play.migrating.pack_actions).

from django.db import migrations

from play.migrating import pack_actions


class Migration(migrations.Migration):

    dependencies = [
        ('belle_alliance', '0004_bellealliancematch_shown'),
        ('play', '0001_initial'),
    ]

    operations = pack_actions('belle_alliance', 'belleallianceaction')
