"""Django's makemessages, and what our catalogues need beyond it (``make messages`` runs it).

- The engine's templates are extracted too: ``N_("...")`` (and ``NP_(singular, plural, count)``) in games/engine/text.py (the pure engine
  marks its English words without importing Django).
- Each catalogue's header is ours: the project's name, its language and its ``Plural-Forms``
  (gettext knows no Corsican: its line is written here), and never fuzzy (``msgfmt`` would drop a
  fuzzy header, and the plural rule with it).
- Django's own words that our pages show (rummyhub/django_words.py) are filled in from Django's
  catalogues where Django has the language (ro, fa, ta); a translation already there is kept.
"""

from pathlib import Path

import django
import polib
from django.conf import settings
from django.core.management.commands import makemessages

# gettext's own rules for ro, fa and ta (Django's catalogues use the same); Corsican as Italian.
PLURAL_FORMS = {
    "ro": "nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);",
    "fa": "nplurals=2; plural=(n > 1);",
    "ta": "nplurals=2; plural=(n != 1);",
    "co": "nplurals=2; plural=(n != 1);",
}
LANGUAGE_TEAMS = {"ro": "Romanian", "fa": "Persian", "ta": "Tamil", "co": "Corsican"}

DJANGO_DIR = Path(django.__file__).resolve().parent
# Django's catalogues our pages draw from: its core, auth and the admin staff use.
DJANGO_CATALOGUES = ("conf/locale", "contrib/auth/locale", "contrib/admin/locale")


def catalogue_paths(domain: str = "django") -> list[Path]:
    """Our catalogues of ``domain``, one per language: ``locale/<lang>/LC_MESSAGES/<domain>.po``."""
    base = Path(settings.LOCALE_PATHS[0])
    return sorted(base.glob(f"*/LC_MESSAGES/{domain}.po"))


def fix_header(po: polib.POFile, lang: str) -> None:
    po.header = (
        f"RummyHub's words in {LANGUAGE_TEAMS.get(lang, lang)}.\n"
        "`make messages` extracts them from the code; a translator fills in each msgstr, taking the game's\n"
        "terms from locale/GLOSSARY.md; `make messages-check` counts what is left."
    )
    if po.metadata.get("PO-Revision-Date", "").startswith("YEAR"):
        po.metadata["PO-Revision-Date"] = po.metadata.get("POT-Creation-Date", "")
    po.metadata.update(
        {
            "Project-Id-Version": "RummyHub",
            "Language": lang,
            "Language-Team": LANGUAGE_TEAMS.get(lang, lang),
            "Content-Type": "text/plain; charset=UTF-8",
        }
    )
    if lang in PLURAL_FORMS:
        po.metadata["Plural-Forms"] = PLURAL_FORMS[lang]
    for key in ("Last-Translator",):
        if po.metadata.get(key, "").startswith("FULL NAME"):
            po.metadata[key] = ""
    if "fuzzy" in po.metadata_is_fuzzy:
        po.metadata_is_fuzzy = []


def django_translations(lang: str) -> dict[tuple[str | None, str], polib.POEntry]:
    """Django's own translated entries in ``lang``, by (msgctxt, msgid)."""
    found: dict[tuple[str | None, str], polib.POEntry] = {}
    for folder in DJANGO_CATALOGUES:
        path = DJANGO_DIR / folder / lang / "LC_MESSAGES" / "django.po"
        if not path.exists():
            continue
        for entry in polib.pofile(str(path)):
            if entry.translated() and not entry.obsolete:
                found.setdefault((entry.msgctxt, entry.msgid), entry)
    return found


def fill_from_django(po: polib.POFile, lang: str) -> int:
    """Our untranslated entries that Django translates in ``lang``, filled from its catalogues."""
    theirs = django_translations(lang)
    filled = 0
    for entry in po.untranslated_entries():
        other = theirs.get((entry.msgctxt, entry.msgid))
        if other is None or other.msgid_plural != entry.msgid_plural:
            continue
        if entry.msgid_plural:
            entry.msgstr_plural = dict(other.msgstr_plural)
        else:
            entry.msgstr = other.msgstr
        filled += 1
    return filled


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_", "--keyword=NP_:1,2"]

    def handle(self, *args, **options):
        super().handle(*args, **options)
        for path in catalogue_paths(options.get("domain") or "django"):
            lang = path.parent.parent.name
            po = polib.pofile(str(path), wrapwidth=79)
            fix_header(po, lang)
            filled = fill_from_django(po, lang)
            po.save()
            if filled and options.get("verbosity", 1) > 0:
                self.stdout.write(f"{lang}: {filled} of Django's own words filled from Django's catalogue")
