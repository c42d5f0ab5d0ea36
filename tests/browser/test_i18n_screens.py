"""Every language shows on a machine with no fonts (issue 16, point 5): Chromium started with a
fontconfig that knows one font only, a math font with no Persian, no Tamil and no text face (Chromium
aborts drawing a form control with no font at all: SkFontMgr_FontConfigInterface "Not implemented"),
so the page's text has only the webfonts the site serves (static/vendor/fonts, scripts/fonts.py).  For each language the table and How to play are saved to
artifacts/i18n-nofonts-<lang>-{table,howto}.png (to be looked at: no empty boxes), and the page's
fonts must be the site's: its script's family loaded (Latin, Vazirmatn for Persian, Noto Sans Tamil
for Tamil) and the suits' (Noto Sans Symbols 2)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games import services
from tests.browser.conftest import CHROMIUM

pytestmark = pytest.mark.django_db(transaction=True)

LANGS = ("en", "ro", "fa", "ta", "co")
SCRIPT_FONT = {"en": "Noto Sans", "ro": "Noto Sans", "co": "Noto Sans", "fa": "Vazirmatn", "ta": "Noto Sans Tamil"}
# A sentence of each language in its own script, set on the page so that its glyphs must be drawn
# even where a catalogue is not finished yet.
SAMPLE = {
    "en": "Your turn: draw a card.",
    "ro": "Rândul tău: trage o carte, ș ț ă î â.",
    "fa": "نوبت شماست: یک کارت بردارید.",
    "ta": "உங்கள் முறை: ஒரு அட்டையை எடுங்கள்.",
    "co": "Tocca à tè: piglia una carta.",
}


# The one font Chromium is left with; it has Latin letters and the suits, but the site's webfonts come
# first for those (static/css/site.css), and it has neither Persian nor Tamil.
LAST_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf")


@pytest.fixture(scope="module")
def fontless_browser(playwright, tmp_path_factory):
    """Chromium whose fontconfig lists one math font and nothing else."""
    assert LAST_FONT.exists(), f"{LAST_FONT} is missing (Debian's fonts-dejavu-extra)"
    folder = tmp_path_factory.mktemp("nofonts")
    (folder / "fonts").mkdir()
    (folder / "fonts" / LAST_FONT.name).symlink_to(LAST_FONT)
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
        f"<fontconfig><dir>{folder / 'fonts'}</dir><cachedir>{folder / 'cache'}</cachedir></fontconfig>\n"
    )
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    listed = subprocess.run(["fc-list", ":", "file"], env=env, capture_output=True, text=True, check=False)
    assert [line for line in listed.stdout.splitlines() if line.strip()] == [f"{folder / 'fonts' / LAST_FONT.name}: "]
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        env=env,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    )
    yield browser
    browser.close()


def loaded_families(page) -> set[str]:
    page.evaluate("document.fonts.ready")
    return set(
        page.evaluate("[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family.replace(/[\"']/g, ''))")
    )


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_shows_with_only_the_sites_fonts(lang, fontless_browser, live_daphne, artifacts, make_user):
    user = make_user(f"fonts_{lang}")
    match = services.match_create(host=user, variant="manipulation", seats_count=2, bots=1)
    services.match_start(match_id=match.pk, user=user)
    context = fontless_browser.new_context(viewport={"width": 1280, "height": 720})
    host = live_daphne.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "domain": host, "path": "/"}])
    page = context.new_page()
    page.goto(live_daphne.url + "/accounts/login/")
    page.locator("#id_username").fill(user.username)
    page.locator("#id_password").fill("correct-horse-battery")
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".site-user .user-link")).to_have_text(user.username)

    page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    expect(page.locator("#hand .card").first).to_be_visible()
    page.evaluate("t => { const p = document.querySelector('#prompt'); if (p) p.textContent = t; }", SAMPLE[lang])
    families = loaded_families(page)
    page.screenshot(path=str(artifacts / f"i18n-nofonts-{lang}-table.png"))
    assert {SCRIPT_FONT[lang], "Noto Sans Symbols 2"} <= families, families

    page.goto(f"{live_daphne.url}/how-to-play/manipulation/")
    page.evaluate("t => { document.querySelector('h1').textContent += ' — ' + t; }", SAMPLE[lang])
    families = loaded_families(page)
    page.screenshot(path=str(artifacts / f"i18n-nofonts-{lang}-howto.png"), full_page=False)
    assert {SCRIPT_FONT[lang], "Noto Sans Symbols 2"} <= families, families
    context.close()
