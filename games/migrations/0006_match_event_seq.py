"""Match.event_seq: the seq of the match's newest Event, so a move numbers its event without a query.

Filled here from the events already stored.
"""

from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery


def fill(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Event = apps.get_model("games", "Event")
    newest = Event.objects.filter(match=OuterRef("pk")).values("match").annotate(top=Max("seq")).values("top")
    Match.objects.filter(pk__in=Event.objects.values("match")).update(event_seq=Subquery(newest))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_history_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="event_seq",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
