"""The result dialog of a round and of the match (issue 25 point 3; games.board.results): the winner is
its title, then the totals, the rating change (or that it is not known yet, and where it will be), and
what comes next.  Public: every viewer's board shows the same dialog."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.board.results import match_headline, round_headline
from games.board.words import sentence_name
from games.engine import bots as engine_bots
from games.history.models import RatedMatch
from games.history.services import rating_update_for_match
from games.models import Match, MatchStatus
from games.variants import spec_for

pytestmark = pytest.mark.django_db


def test_headlines_name_the_winners():
    assert round_headline(2, ["alice"]) == "alice wins round 2."
    assert round_headline(3, ["alice", "bob"]) == "alice, bob win round 3."
    assert round_headline(1, []) == "Nobody wins round 1."
    assert match_headline(["bob"]) == "bob wins the match!"


def test_a_name_is_isolated_in_a_right_to_left_headline():
    with translation.override("fa"):
        assert "\u2068alice\u2069" in round_headline(2, ["alice"])


def play_to_the_end(match, alice, statuses):
    """Alice's moves are the basic bot's; the bot's are the clock's."""
    for _ in range(2000):
        services.run_until_human(match_id=match.pk, deal=False)
        match.refresh_from_db()
        if match.status in statuses:
            return match
        if match.status == MatchStatus.BETWEEN_ROUNDS:
            services.round_ready(match_id=match.pk, user=alice)
            continue
        state = spec_for(match.variant).load(match.state["round"])
        action = engine_bots.choose_action(state, 0, policy="basic")
        services.turn_submit(match_id=match.pk, user=alice, action=action, expected_version=match.version)
    raise AssertionError("the match did not get there")


@pytest.fixture
def finished(alice, settings):
    settings.RUMMYHUB_FIXED_SEED = "7"
    match = services.match_create(host=alice, variant="gin", seats_count=2, bots=1, options={"game_target": 10})
    services.match_start(match_id=match.pk, user=alice)
    match = play_to_the_end(match, alice, (MatchStatus.FINISHED,))
    rating_update_for_match(match=match)  # what the match's commit does (its on_commit does not run here)
    return match


def dialog(client, user, match) -> str:
    client.force_login(user)
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    start = page.index('id="results"')
    return page[start : page.index('id="log"', start)]


def test_the_match_dialog_names_the_winner_and_each_rating_change(client, alice, finished):
    winner = next(s for s in finished.seats.all() if s.is_winner)
    name = sentence_name(winner.display_name, winner.is_bot)  # a bot's says it is one: "Ada (bot)"
    html = dialog(client, alice, finished)
    assert 'role="dialog"' in html and 'aria-labelledby="results-title"' in html
    assert f"{name}\u2069 wins the match!" in html or f"{name} wins the match!" in html
    assert "Final totals" in html and 'data-results-do="rematch"' in html
    assert reverse("history:match", args=[finished.pk]) in html
    rated = RatedMatch.objects.get(match=finished)
    change = next(c for c in rated.changes if c["seat"] == 0)
    delta = round(change["after"][2] - change["before"][2], 1)
    assert f"{delta:+.1f}" in html
    assert "data-rating-pending" not in html


def test_a_match_not_rated_yet_says_so_and_links_its_page(client, alice, finished):
    RatedMatch.objects.filter(match=finished).delete()
    html = dialog(client, alice, finished)
    assert "data-rating-pending" in html and "the match page shows them" in html
    assert reverse("history:match", args=[finished.pk]) in html


def test_a_spectator_sees_the_same_dialog_without_the_players_buttons_acting(client, alice, bob, finished):
    html = dialog(client, bob, finished)
    assert "wins the match!" in html


def test_between_rounds_the_dialog_names_the_rounds_winner_and_labels_the_countdown(client, alice, settings):
    settings.RUMMYHUB_FIXED_SEED = "7"
    match = services.match_create(host=alice, variant="gin", seats_count=2, bots=1, options={"game_target": 500})
    services.match_start(match_id=match.pk, user=alice)
    match = play_to_the_end(match, alice, (MatchStatus.BETWEEN_ROUNDS, MatchStatus.FINISHED))
    assert match.status == MatchStatus.BETWEEN_ROUNDS
    html = dialog(client, alice, match)
    rnd = match.rounds.get(number=1)
    names = {s.index: sentence_name(s.display_name, s.is_bot) for s in match.seats.all()}
    if rnd.winners:
        assert (
            f"{names[rnd.winners[0]]}</bdi> wins round 1." in html or f"{names[rnd.winners[0]]} wins round 1." in html
        )
    else:
        assert "Nobody wins round 1." in html
    assert "The next round starts in" in html and 'data-results-do="ready"' in html
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert "The next round is dealt in" in page


def test_no_dialog_while_a_round_is_played(client, alice):
    match = services.match_create(host=alice, variant="gin", seats_count=2, bots=1)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    assert 'role="dialog"' not in dialog(client, alice, match)


def test_every_open_table_with_a_free_seat_shows_its_link(client, alice, bob):
    """Issue 25 point 4: the link (a private table's with its invite) and its copy button."""
    public = services.match_create(host=alice, variant="manipulation", seats_count=3)
    private = services.match_create(host=alice, variant="manipulation", seats_count=2, is_private=True)
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[public.pk])).content.decode()
    assert f'data-invite-path="/tables/{public.pk}/"' in page and "Copy the link" in page
    page = client.get(reverse("games:table", args=[private.pk])).content.decode()
    assert f'data-invite-path="/tables/{private.pk}/?invite={private.invite_token}"' in page
    client.force_login(bob)  # a visitor of the public table may pass its link on too
    page = client.get(reverse("games:table", args=[public.pk])).content.decode()
    assert "Copy the link" in page
    services.seat_join(match_id=private.pk, user=bob, invite_token=private.invite_token)
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[private.pk])).content.decode()
    assert "Copy the link" not in page  # the table is full: nobody to invite


def test_a_turn_timer_says_whose_turn_ends(client, alice):
    match = services.match_create(host=alice, variant="manipulation", seats_count=2, bots=1, turn_timer=30)
    services.match_start(match_id=match.pk, user=alice)
    services.run_until_human(match_id=match.pk)
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert "<bdi>alice</bdi>’s turn ends in" in page


def test_a_player_named_like_a_bot_is_never_taken_for_it(client, make_user, settings):
    """ "ada" plays the bot "Ada": the seats show a "bot" badge, and so must every other place the two
    names stand side by side: the results' table (a badge), its headline, the log and a replay's steps
    (the bot's name says that it is one)."""
    settings.RUMMYHUB_FIXED_SEED = "7"
    ada = make_user("ada")
    match = services.match_create(host=ada, variant="gin", seats_count=2, bots=1, options={"game_target": 10})
    assert [s.display_name for s in match.seats.order_by("index")] == ["ada", "Ada"]
    services.match_start(match_id=match.pk, user=ada)
    match = play_to_the_end(match, ada, (MatchStatus.FINISHED,))
    client.force_login(ada)
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    html = dialog(client, ada, match)
    assert '<bdi>Ada</bdi> <span class="badge">bot</span>' in html
    assert '<bdi>ada</bdi> <span class="badge">bot</span>' not in html
    winner = "Ada (bot)" if match.seats.get(index=1).is_winner else "ada"
    assert f"{winner} wins the match!" in html and "Ada wins the match!" not in html
    log = page[page.index('id="log-list"') :]
    replays = [
        client.get(reverse("history:replay", args=[match.pk]) + f"?step={step}").content.decode()
        for step in range(1, 9)
    ]
    for where in (log[: log.index("</ol>")], "".join(replays)):
        said = set(SAID.findall(where))  # who did what, as it is written
        assert any(s.startswith("Ada (bot) ") for s in said) and any(s.startswith("ada ") for s in said), said
        assert not any(re.match(r"Ada (?!\(bot\))|ada \(bot\)", s) for s in said), said


SAID = re.compile(r"\b[Aa]da(?: \(bot\))? (?:drew|discarded|took|knocked)")


def test_a_bots_name_in_a_sentence_is_said_in_the_readers_language():
    assert sentence_name("Ada", True) == "Ada (bot)"
    assert sentence_name("ada", False) == "ada"
    with translation.override("fa"):
        assert sentence_name("Ada", True) == "Ada (ربات)"


@pytest.mark.parametrize("variant", ["gin", "manipulation"])
def test_a_finished_matchs_hand_has_no_sort_buttons(client, alice, settings, variant):
    """The hand at the match's end is the one its last round ended with: the sort buttons are gone (the
    server refuses a sort then: services.hand_sort).  Gin shows no hand once it is over (board.gin._hands);
    Manipulation shows it with its count."""
    settings.RUMMYHUB_FIXED_SEED = "7"
    match = services.match_create(host=alice, variant=variant, seats_count=2, bots=1, options={"game_target": 1})
    services.match_start(match_id=match.pk, user=alice)
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert "Sort by suit" in page and "Sort by rank" in page
    match = play_to_the_end(match, alice, (MatchStatus.FINISHED,))
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert "wins the match!" in page
    assert "Sort by suit" not in page and "Sort by rank" not in page
