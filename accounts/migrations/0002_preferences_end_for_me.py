from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="preferences",
            name="end_for_me",
            field=models.BooleanField(
                default=False,
                help_text="End my phase or turn for me when ending it is all that is left to "
                          "do (the log says it was my setting)."),
        ),
    ]
