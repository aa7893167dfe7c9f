# Issue 31, PostgreSQL's CPU per action: the position stored packed (play.fields.PackedStateField),
# every stored row read back the same, both ways (play.migrating.PackState).

from django.db import migrations

from play.migrating import PackState


class Migration(migrations.Migration):

    dependencies = [
        ('battles', '0017_list_page_indexes'),
    ]

    operations = [PackState('battle')]
