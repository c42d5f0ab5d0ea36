"""A system check: every language the site offers has a compiled catalogue.

Django offers a language only when it finds a catalogue for it (``check_for_language``); Django ships
none for Corsican, so without ``locale/co/LC_MESSAGES/django.mo`` choosing Corsu silently keeps the
previous language.  The .mo files are built by ``make`` (``compilemessages``), never committed.
"""

from django.conf import settings
from django.core import checks
from django.utils.translation import check_for_language


@checks.register(checks.Tags.translation)
def languages_have_catalogues(app_configs=None, **kwargs):
    missing = [code for code, _name in settings.LANGUAGES if not check_for_language(code)]
    if not missing:
        return []
    return [
        checks.Warning(
            f"No compiled catalogue for {', '.join(missing)}: the language menu cannot switch to it.",
            hint="Run `make setup` (it runs compilemessages) or `python manage.py compilemessages`.",
            id="accounts.W001",
        )
    ]
