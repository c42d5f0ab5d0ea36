"""Every language, for real (issue 16): a newcomer in each of the site's languages walks sign-up →
the lobby → a table against a bot (a draw, a refused meld, a meld) → a match page → How to play, and
no message of the English catalogue shows on any page as visible text (players' names and card
codes aside).  In Persian the page is right to left and the prompt's period ends the sentence in
reading order (at its left end).

These fail for a language until its catalogue is complete (locale/<lang>/LC_MESSAGES/django.po): the
failure lists the English messages seen on each page.  English itself is walked too (nothing shows
a raw placeholder).  One browser context per language, on the suite's one daphne server.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games import services
from games.engine import manipulation as manip
from games.engine import shuffle
from games.models import Match, MatchStatus
from games.services.write import fixed_seed
from games.variants import spec_for
from plumbing import realtime
from tests.browser.conftest import meld_in_hand
from tests.games.history.support import play_match

pytestmark = pytest.mark.django_db(transaction=True)

LANGS = ("en", "ro", "fa", "ta", "co")
PASSWORD = "correct-horse-battery"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\{.*?\}\}|<[^>]+>")
# The languages' own names stay as they are in the menu of every page.
NAMES_IN_MENU = {"English", "Română", "فارسی", "தமிழ்", "Corsu", "RummyHub"}


def as_words(piece: str) -> re.Pattern:
    """``piece`` where it stands as words of its own (not inside a longer word).  Searched only where
    ``piece`` occurs as a substring at all: a search of a page or a catalogue for each of some
    thousand pieces took seconds, per page."""
    return re.compile(r"(?<![A-Za-z])" + re.escape(piece) + r"(?![A-Za-z])")


def english_fragments(lang: str) -> set[str]:
    """The pieces of text of each message the ``lang`` catalogue does not say otherwise: the English
    a page would show if the message were missing.  Placeholders cut a message into pieces; a piece
    counts if it has two words, or one word of five letters or more."""
    if lang == "en":
        return set()
    path = Path(settings.BASE_DIR) / "locale" / lang / "LC_MESSAGES" / "django.po"
    catalogue = [e for e in polib.pofile(str(path)) if not e.obsolete]
    # A piece that is also a word of the language's own sentences proves nothing (Corsican "sò state",
    # "were", against the admin's English "state").
    own = " ".join(s for e in catalogue for s in ([e.msgstr] if not e.msgid_plural else e.msgstr_plural.values()))
    out = set()
    for entry in catalogue:
        said = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
        for english in filter(None, (entry.msgid, entry.msgid_plural)):
            if english in said and "fuzzy" not in entry.flags:
                continue  # the translator kept the English (a name, "Gin")
            for piece in PLACEHOLDER.split(english):
                piece = piece.strip(" \t\n.,:;!?()—–-·\"'…")
                words = re.findall(r"[A-Za-z]+", piece)
                if piece in NAMES_IN_MENU or (piece in own and as_words(piece).search(own)):
                    continue
                if len(words) >= 2 or (words and len(words[0]) >= 5):
                    out.add(piece)
    return out


class Reader:
    """Reads a page's visible text and keeps the English it finds, page by page."""

    def __init__(self, page, lang: str, allowed: set[str]):
        self.page, self.lang, self.allowed = page, lang, allowed
        self.fragments = sorted(english_fragments(lang), key=len, reverse=True)
        self.seen: dict[str, list[str]] = {}

    def read(self, where: str) -> None:
        self.page.wait_for_load_state("domcontentloaded")
        # Text marked English on purpose (``lang="en"``: the command line's English words, which work in
        # every language and which a screen reader says as English) is left out.
        text = self.page.evaluate(
            """() => {
                const marked = [...document.querySelectorAll('body [lang="en"]')];
                const was = marked.map((e) => e.style.display);
                marked.forEach((e) => { e.style.display = "none"; });
                const text = document.body.innerText;
                marked.forEach((e, i) => { e.style.display = was[i]; });
                return text;
            }"""
        )
        for name in self.allowed:
            text = text.replace(name, " ")
        assert "%(" not in text and "{{" not in text, f"{self.lang} {where}: a raw placeholder shows"
        found = [f for f in self.fragments if f in text and as_words(f).search(text)]
        if found:
            self.seen[where] = found

    def report(self) -> str:
        return "\n".join(f"  {where}: {found[:12]}" for where, found in self.seen.items())


def human_first_with_a_meld() -> str:
    """A ``RUMMYHUB_FIXED_SEED`` whose first two-player deal lets seat 0 (the human) act first with a
    meld in hand: the deal made as the services make it (the round's seed, the documented shuffle)."""
    spec = spec_for("manipulation")
    rules = spec.rules({}, 2)
    for seed in range(1, 500):
        rng = shuffle.rng_for(shuffle.CURRENT, fixed_seed(str(seed), 1))
        state, _dealer = spec.deal(rules, spec.start(rules, 2, rng), rng)
        if state.seat_to_act == 0 and meld_in_hand(state, 0):
            return str(seed)
    raise AssertionError("no seed found")


def table_against_a_bot(user, settings) -> tuple[Match, list[str]]:
    settings.RUMMYHUB_FIXED_SEED = human_first_with_a_meld()
    match = services.match_create(host=user, variant="manipulation", seats_count=2, bots=1)
    services.match_start(match_id=match.pk, user=user)
    match.refresh_from_db()
    state = manip.from_dict(match.state["round"])
    return match, meld_in_hand(state, 0)


@pytest.mark.parametrize("lang", LANGS)
def test_a_newcomer_plays_in_their_language(lang, browser, live_daphne, artifacts, settings, monkeypatch):
    base, username = live_daphne.url, f"player_{lang}"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()

    # The language menu (every page's footer), then sign-up.
    page.goto(base + "/accounts/signup/")
    page.locator("#language-select").select_option(lang)
    page.locator(".language-form button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "fa" else "ltr")
    reader = Reader(page, lang, allowed={username, "Bot", "bot"})
    reader.read("sign-up")
    page.locator("#id_username").fill(username)
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD + "x")  # a refusal of the form first
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".errorlist, .field-errors, .form-errors").first).to_be_visible()
    reader.read("sign-up refused")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".site-user .user-link")).to_have_text(username)
    reader.read("home")

    page.goto(base + "/play/")
    page.locator("details.new-table > summary").click()
    reader.read("lobby")

    # A table against a bot: draw, a meld refused (one card), then a meld.
    user = get_user_model().objects.get(username=username)
    match, meld = table_against_a_bot(user, settings)
    page.goto(f"{base}/tables/{match.pk}/")
    expect(page.locator(".seat .conn-on")).to_have_count(1)
    prompt = page.locator("#prompt")
    expect(prompt).not_to_be_empty()
    if lang == "fa":
        assert_punctuation_ends_the_sentence(prompt)
    reader.read("table: your turn")
    page.locator('button[data-action="draw"]').press("Enter")
    expect(page.locator("#hand .card")).to_have_count(11)
    page.locator(f'#hand .card[data-id="{meld[0]}"] .card-face').press("Space")
    page.locator('#melds .meld-box[data-target-meld="new"]').press("Enter")
    expect(page.locator(".meld-invalid .meld-reason")).to_be_visible()
    reader.read("table: a meld refused")
    page.locator('button[data-action="reset"]').click()
    expect(page.locator("#hand .card")).to_have_count(11)
    for card_id in meld:
        page.locator(f'#hand .card[data-id="{card_id}"] .card-face').press("Space")
    page.locator('#melds .meld-box[data-target-meld="new"]').press("Enter")
    expect(page.locator('#melds .meld[data-meld="0"] .card')).to_have_count(3)
    page.locator('button[data-action="meld"]').press("Enter")
    expect(page.locator("#hand .card")).to_have_count(8)
    # The meld laid ends the turn, and the bot (a twentieth of a second later) draws and lays its own
    # lines above it: the player's lines are two, the draw and the meld, wherever they are.
    expect(page.locator("#log-list li").filter(has_text=username)).to_have_count(2)
    reader.read("table: melded")
    page.screenshot(path=str(artifacts / f"i18n-table-{lang}.png"))

    # A finished match's page (played at service level: nobody listens to its broadcasts).
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    finished = play_match(user, settings=settings, seed="3", game_target=30)
    assert finished.status == MatchStatus.FINISHED
    page.goto(f"{base}/matches/{finished.pk}/")
    expect(page.locator("svg.score-chart")).to_be_visible()
    reader.read("match page")

    # How to play, from the table's "?".
    page.goto(f"{base}/tables/{match.pk}/")
    href = page.locator("a.table-help").get_attribute("href")
    page.goto(base + href)
    expect(page.locator(".howto-options tbody tr").first).to_be_visible()
    reader.read("how to play")
    page.goto(base + "/how-to-play/gin_box/")
    reader.read("how to play: three-player Gin")
    context.close()
    assert not reader.seen, (
        f"{lang}: English messages show (translate them in locale/{lang}/LC_MESSAGES/django.po):\n{reader.report()}"
    )


def assert_punctuation_ends_the_sentence(prompt) -> None:
    """The prompt's last character is its final punctuation, and on a right-to-left line it is drawn
    at the sentence's left end (not flipped to the start, as ".Your turn" was)."""
    box = prompt.evaluate(
        """el => {
            const text = el.textContent.trim();
            const node = [...el.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
            const range = document.createRange();
            const at = i => { range.setStart(node, i); range.setEnd(node, i + 1); return range.getBoundingClientRect(); };
            const start = node.textContent.indexOf(text);
            const first = at(start), last = at(start + text.length - 1);
            return {text, first: first.left, last: last.left, direction: getComputedStyle(el).direction};
        }"""
    )
    assert box["direction"] == "rtl", box
    assert box["text"][-1] in ".!?…؟", box
    assert box["last"] < box["first"], f"the final punctuation is not at the sentence's end: {box}"
