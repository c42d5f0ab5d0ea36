"""Django's makemessages, also extracting the engine's templates: ``N_("...")`` in
games/engine/text.py (the pure engine marks its English words without importing Django)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
