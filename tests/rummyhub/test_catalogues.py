"""The translation catalogues (issue 16): locale/{ro,fa,ta,co}/LC_MESSAGES/django.po.

- They hold every string the code marks (a string marked but not extracted has no translation).
- Their headers are right (Plural-Forms: Romanian 3 forms, Persian, Tamil and Corsican 2), and they
  compile with ``msgfmt --check``.
- Every message is translated and none is fuzzy: ``msgfmt --statistics`` says so for each language.
  These four tests fail until the translators have finished a language; each names the language, the
  count and the first messages missing.
- The Django words copied into our catalogue (rummyhub/django_words.py) are Django's own msgids.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

from games.management.commands.makemessages import PLURAL_FORMS, django_translations

ROOT = Path(settings.BASE_DIR)
LANGS = ("ro", "fa", "ta", "co")
NPLURALS = {"ro": 3, "fa": 2, "ta": 2, "co": 2}
# What makemessages reads (the Makefile's `messages` target ignores the rest of the tree).
# What makemessages reads: every top-level package of the project (an app added later is found
# without a change here), the templates and manage.py.
SOURCES = (
    *sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file() and p.name not in ("tests", "bench")),
    "templates",
    "manage.py",
)


def catalogue(lang: str) -> Path:
    return ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"


def entries(po: polib.POFile) -> list[polib.POEntry]:
    return [e for e in po if not e.obsolete]


def key(entry: polib.POEntry) -> tuple[str | None, str, str]:
    return (entry.msgctxt, entry.msgid, entry.msgid_plural)


def msgfmt(*args: str) -> subprocess.CompletedProcess:
    if shutil.which("msgfmt") is None:
        pytest.fail("msgfmt is missing: install gettext (scripts/ensure-system.sh gettext, run by make)")
    return subprocess.run(["msgfmt", *args], capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set[tuple[str | None, str, str]]:
    """The msgids the code marks today: `makemessages` run on a copy of the sources."""
    work = tmp_path_factory.mktemp("extract")
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, work / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo", "*.po"))
        else:
            shutil.copy2(src, work / name)
    (work / "locale").mkdir()
    done = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "ro", "-v", "0"],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return {key(e) for e in entries(polib.pofile(str(work / "locale" / "ro" / "LC_MESSAGES" / "django.po")))}


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogue_holds_every_marked_string(lang, extracted):
    have = {key(e) for e in entries(polib.pofile(str(catalogue(lang))))}
    new = sorted(m[1] for m in extracted - have)
    gone = sorted(m[1] for m in have - extracted)
    assert not new, f"{lang}: {len(new)} marked strings are not in the catalogue (run `make messages`): {new[:10]}"
    assert not gone, f"{lang}: {len(gone)} messages no longer in the code (run `make messages`): {gone[:10]}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_header_names_the_language_and_its_plural_forms(lang):
    po = polib.pofile(str(catalogue(lang)))
    assert po.metadata["Language"] == lang
    assert po.metadata["Plural-Forms"] == PLURAL_FORMS[lang]
    assert f"nplurals={NPLURALS[lang]};" in po.metadata["Plural-Forms"]
    assert not po.metadata_is_fuzzy, "a fuzzy header is dropped by msgfmt, and the plural rule with it"
    for entry in entries(po):
        if entry.msgid_plural and entry.translated():
            assert len(entry.msgstr_plural) == NPLURALS[lang], entry.msgid


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogue_compiles_cleanly(lang, tmp_path):
    done = msgfmt("--check", "-o", str(tmp_path / "django.mo"), str(catalogue(lang)))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated(lang, tmp_path):
    """`msgfmt --statistics`: every message translated, none fuzzy.  Fails until the translators are done."""
    done = msgfmt("--statistics", "-o", str(tmp_path / "django.mo"), str(catalogue(lang)))
    stats = done.stderr.strip()
    untranslated = int((re.search(r"(\d+) untranslated", stats) or [0, 0])[1])
    fuzzy = int((re.search(r"(\d+) fuzzy", stats) or [0, 0])[1])
    po = polib.pofile(str(catalogue(lang)))
    missing = [e.msgid for e in po.untranslated_entries()] + [e.msgid for e in po.fuzzy_entries()]
    assert (untranslated, fuzzy) == (0, 0), (
        f"{lang}: {untranslated} of {len(entries(po))} messages untranslated and {fuzzy} fuzzy in "
        f"locale/{lang}/LC_MESSAGES/django.po (msgfmt: {stats}); the first: {missing[:5]}"
    )


def _django_words() -> list[tuple[str, str]]:
    """(msgid, msgid_plural or "") of every call in rummyhub/django_words.py."""
    tree = ast.parse((ROOT / "rummyhub" / "django_words.py").read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if node.func.id == "gettext_noop":
                out.append((args[0], ""))
            elif node.func.id == "ngettext":
                out.append((args[0], args[1]))
    return out


def test_the_django_words_we_copy_are_djangos_own():
    words = _django_words()
    assert len(words) > 40
    theirs = {(msgid, entry.msgid_plural) for (_ctx, msgid), entry in django_translations("ro").items()}
    not_djangos = [w for w in words if w not in theirs]
    assert not not_djangos, f"not a msgid of Django's (a character differs?): {not_djangos}"
