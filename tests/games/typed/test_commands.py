"""Typed commands carried out through the one edge of every move (``commands.carry_out``, kind
"typed"): a read answers and changes nothing, a move is the act or draft the board sends, and a
mistake is answered with the board's own reason while nothing changes."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from games import commands, services
from games.board import kept
from games.engine import gin
from games.models import Match
from games.typed import plan
from tests.games.services.positions import set_position
from tests.games.services.support import current_state, started_match
from tests.games.test_every_string_marked import Pseudo

pytestmark = pytest.mark.django_db


def typed(match, user, text, language="en"):
    return commands.carry_out("typed", {"text": text}, match_id=match.pk, user=user, language=language)


def mover_of(match, alice, bob):
    return alice if current_state(match).seat_to_act == 0 else bob


@pytest.fixture
def position(alice, bob, settings):
    """Alice's turn, drawn once: her hand and a table of two melds."""
    match = started_match(alice, bots=0, others=[bob], settings=settings, seed="7")
    state = current_state(match)
    player = alice if state.seat_to_act == 0 else bob
    set_position(match, "7H.0 8H.0 9H.0 3S.0 QC.0 JK.0 2D.0", ["4S.0 5S.0 6S.0", "9C.0 9D.0 9S.0"])
    return Match.objects.get(pk=match.pk), player


def test_read_hand_answers_in_words_and_changes_nothing(position):
    match, player = position
    outcome = typed(match, player, "read hand")
    assert outcome.refusal is None and outcome.moved_to is None
    assert "seven, eight, nine of hearts" in outcome.answer and "7 cards" in outcome.answer
    assert Match.objects.get(pk=match.pk).version == match.version


def test_read_table_numbers_the_melds(position):
    match, player = position
    answer = typed(match, player, "table").answer
    assert "Meld 1: four, five, six of spades." in answer
    assert "Meld 2: nine of clubs, diamonds, spades." in answer
    assert typed(match, player, "read meld 2").answer.startswith("Meld 2: nine of clubs")
    outcome = typed(match, player, "read meld 9")
    assert outcome.refusal is not None and outcome.answer == "There is no meld 9."


def test_new_meld_is_the_draft_the_board_sends_then_meld_lays_it(position):
    match, player = position
    outcome = typed(match, player, "new 7H 8H 9h")
    assert outcome.refusal is None, outcome.answer
    assert "New meld 3: seven, eight, nine of hearts." in outcome.answer
    assert "The table is valid" in outcome.answer
    draft = Match.objects.get(pk=match.pk).draft
    assert draft["table"][-1] == ["7H.0", "8H.0", "9H.0"]
    outcome = typed(match, player, "meld")
    assert outcome.refusal is None and outcome.moved_to is not None, outcome.answer
    state = current_state(match)
    assert [c.id for c in state.table[-1]] == ["7H.0", "8H.0", "9H.0"]
    assert "7H.0" not in {c.id for c in state.hands[state.seat_to_act]}


def test_add_move_and_joker_change_the_draft(position):
    match, player = position
    assert "three, four, five, six of spades" in typed(match, player, "add 3S to 1").answer
    answer = typed(match, player, "move 6S from 1 to new").answer
    assert "Meld 3: six of spades." in answer and answer.count("a meld needs at least 3 cards") == 1
    assert typed(match, player, "move 6S to 1").refusal is None
    outcome = typed(match, player, "new JK 2D")
    assert outcome.refusal is None
    outcome = typed(match, player, "joker as 3D")
    assert "joker for three" in outcome.answer, outcome.answer
    table = Match.objects.get(pk=match.pk).draft["table"]
    assert any(ref.startswith("JK=3D.") for meld in table for ref in meld)


def test_a_card_not_in_the_hand_is_refused_with_the_engines_reason(position):
    match, player = position
    before = Match.objects.get(pk=match.pk)
    outcome = typed(match, player, "new KS KH KD")
    assert outcome.code == "card_not_available"
    assert outcome.answer == "K♠ is not in your hand or on the table."
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.draft) == (before.version, before.draft)


def test_a_draft_that_takes_a_table_card_back_is_refused_as_the_board_does(position):
    match, player = position
    outcome = typed(match, player, "move 9C from 2 to new")
    assert outcome.refusal is None  # a meld of one card is kept in the draft, with its reason
    assert "a meld needs at least 3 cards" in outcome.answer


def test_reset_drops_the_draft(position):
    match, player = position
    typed(match, player, "new 7H 8H 9H")
    assert typed(match, player, "reset").refusal is None
    assert Match.objects.get(pk=match.pk).draft is None


def test_not_your_turn_is_the_boards_refusal(position, alice, bob):
    match, player = position
    other = bob if player == alice else alice
    outcome = typed(match, other, "draw")
    assert outcome.code == "not_your_turn" and outcome.answer == "It is not your turn."


def test_end_turn_and_what_changed(position, alice, bob):
    match, player = position
    assert "draw another card" in typed(match, player, "end turn").answer  # the engine's reason
    typed(match, player, "new 7H 8H 9H")
    outcome = typed(Match.objects.get(pk=match.pk), player, "meld")
    assert outcome.refusal is None and outcome.moved_to is not None, outcome.answer
    if current_state(match).seat_to_act == (0 if player == alice else 1):  # the meld step left a draw
        assert typed(Match.objects.get(pk=match.pk), player, "end turn").refusal is None
    other = bob if player == alice else alice
    said = typed(Match.objects.get(pk=match.pk), other, "what changed").answer
    assert player.username in said and "7♥" in said  # the log's own sentence of the meld step
    assert typed(Match.objects.get(pk=match.pk), other, "status").answer.startswith("Your turn")


def test_answers_in_the_readers_language_with_short_forms(position):
    match, player = position
    with translation.override("ro"):
        outcome = typed(match, player, "new 7h 8♥ 9H", language="ro")
    assert outcome.refusal is None
    assert Match.objects.get(pk=match.pk).draft["table"][-1] == ["7H.0", "8H.0", "9H.0"]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly",
        "new",
        "new 7X",
        "add 7H",
        "add 7H to 0",
        "add 7H to 99999999999999999999",
        "new ²H",
        "new ①H",
        "x" * 5000,
        "new 7H\x00",
        "read meld",
        "joker as JK",
        "move 7H",
        "new " + "7H " * 40,
        "\ud800",
    ],
)
def test_malformed_input_is_answered_and_changes_nothing(position, text):
    match, player = position
    before = Match.objects.get(pk=match.pk)
    outcome = typed(match, player, text)
    assert outcome.refusal is not None and outcome.moved_to is None and outcome.answer
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.draft, after.state) == (before.version, before.draft, before.state)


def test_a_spectator_may_read_the_table_but_has_no_hand(position, carol):
    match, _player = position
    assert typed(match, carol, "read table").answer.startswith("Meld 1: four, five, six of spades.")
    assert typed(match, carol, "what changed").refusal is None
    outcome = typed(match, carol, "read hand")
    assert outcome.code == "no_seat" and "no hand" in outcome.answer


def gin_table(alice, bob, carol=None, settings=None, variant="gin"):
    settings.RUMMYHUB_FIXED_SEED = "5"
    seats = 3 if carol is not None else 2
    match = services.match_create(host=alice, variant=variant, seats_count=seats)
    services.seat_join(match_id=match.pk, user=bob)
    if carol is not None:
        services.seat_join(match_id=match.pk, user=carol)
    services.match_start(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk)


def acting(match, users):
    state = current_state(match)
    return users[state.seat_to_act]


def test_a_gin_hand_by_typed_commands(alice, bob, settings):
    match = gin_table(alice, bob, settings=settings)
    users = [alice, bob]
    player = acting(match, users)
    hand = typed(match, player, "read hand").answer
    assert "Your hand, 10 cards" in hand and ("Deadwood" in hand or "No deadwood" in hand)
    assert "Top of the discard pile" in typed(match, player, "table").answer
    assert typed(match, player, "pass").refusal is None
    match = Match.objects.get(pk=match.pk)
    player = acting(match, users)
    assert typed(match, player, "pass").refusal is None
    match = Match.objects.get(pk=match.pk)
    player = acting(match, users)
    outcome = typed(match, player, "draw stock")
    assert outcome.refusal is None and "You drew" in outcome.answer
    state = current_state(match)
    card = gin_card_code(state.hands[state.seat_to_act][0])
    before = Match.objects.get(pk=match.pk).version
    outcome = typed(Match.objects.get(pk=match.pk), player, f"discard {card}")
    assert outcome.refusal is None and outcome.moved_to == before + 1, outcome.answer
    other = users[current_state(match).seat_to_act]
    assert "discarded" in typed(Match.objects.get(pk=match.pk), other, "what changed").answer


def gin_card_code(index: int) -> str:
    return gin.IDS[index].split(".")[0]


def test_gin_mistakes_are_the_boards_reasons(alice, bob, settings):
    match = gin_table(alice, bob, settings=settings)
    player = acting(match, [alice, bob])
    outcome = typed(match, player, "discard 7H")
    assert outcome.refusal is not None and outcome.answer
    outcome = typed(match, player, "draw stock")  # the upcard is to be decided first
    assert outcome.answer == "First take the upcard or pass it."


def test_box_gin_advice_and_the_captains_answer(alice, bob, carol, settings):
    match = gin_table(alice, bob, carol, settings=settings, variant="gin_box")
    state = current_state(match)
    users = {seat.index: seat.user for seat in match.seats.all()}
    advisor, captain = users[state.advisor], users[state.nondealer]
    assert "captain's hand" in typed(match, advisor, "read hand").answer
    assert typed(match, captain, "advice").answer == "No suggestion this turn."
    outcome = typed(match, advisor, "suggest pass")
    assert outcome.refusal is None, outcome.answer
    said = typed(Match.objects.get(pk=match.pk), captain, "advice").answer
    assert said == "The advisor suggests: pass the upcard."
    assert current_state(match).seat_to_act == state.nondealer  # the captain decides on the upcard (C.4)
    outcome = typed(Match.objects.get(pk=match.pk), captain, "follow")
    assert outcome.refusal is None and outcome.moved_to is not None, outcome.answer
    assert "You follow the advice: pass the upcard." in outcome.answer


def test_the_command_line_without_a_socket_posts_and_gets_the_board_and_the_answer(position, client):
    match, player = position
    client.force_login(player)
    url = f"/tables/{match.pk}/typed/"
    response = client.post(url, {"text": "new 7H 8H 9H"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="table-board"' in html and 'hx-swap-oob="beforeend:#typed-log"' in html
    assert "New meld 3: seven, eight, nine of hearts." in html
    assert Match.objects.get(pk=match.pk).draft["table"][-1] == ["7H.0", "8H.0", "9H.0"]
    response = client.post(url, {"text": "new 7H\x00"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400  # the site's input guard: a NUL byte never reaches the game


def test_the_table_page_has_the_skip_link_and_the_command_line_as_the_profile_says(position, client):
    match, player = position
    client.force_login(player)
    html = client.get(f"/tables/{match.pk}/").content.decode()
    assert (
        "data-typed-open" in html
        and '<section id="typed" class="panel typed" aria-labelledby="typed-title" hidden>' in html
    )
    assert 'id="typed-melds"' in html and "Meld 1: four, five, six of spades" in html  # the table in words
    client.post("/accounts/settings/typed-commands/", {"typed_commands": "on"})
    html = client.get(f"/tables/{match.pk}/").content.decode()
    assert '<section id="typed" class="panel typed" aria-labelledby="typed-title">' in html
    assert "typed-on" in html.split("<body", 1)[1].split(">", 1)[0]
    client.post("/accounts/settings/typed-commands/", {})
    assert "typed-on" not in client.get(f"/tables/{match.pk}/").content.decode().split("<body", 1)[1].split(">", 1)[0]


def test_a_joker_the_engine_declares_is_read_where_it_stands(position):
    match, player = position
    outcome = typed(match, player, "new 7H JK 9H")  # one card fits: the engine declares the joker the 8♥
    assert outcome.refusal is None, outcome.answer
    assert (
        "Meld 3: seven, joker for eight, nine of hearts."
        in typed(Match.objects.get(pk=match.pk), player, "table").answer
    )


@pytest.mark.parametrize(
    ("drawn", "said"),
    [
        (["JK.1"], "You drew a joker."),
        (["7H.0"], "You drew seven of hearts."),
        (["7H.0", "JK.0"], "You drew seven of hearts, joker."),
    ],
)
def test_a_card_drawn_is_said_as_a_sentence(drawn, said, monkeypatch):
    """After a draw the answer names the card as the other answers do, a joker alone as a sentence
    says it ("You drew a joker.", not "You drew joker.")."""
    hand = ["3S.0", "QC.0"]

    def seen(cards):
        view = {"hand": cards, "seat_to_act": 1}
        return plan.Situation("manipulation", 1, 0, view, None, {0: "alice", 1: "bob"}, playing=True)

    def answer():
        return plan.after(plan.Step("act", {"action": "draw"}), seen(hand), seen(hand + drawn), None, str)

    with translation.override("en"):
        assert answer() == f"{said} Waiting for bob to play…"
    # Every word of it is a translatable string's: in a pseudo-language (each message in fullwidth
    # letters) no plain letter is left but the players' names.
    original = trans_real.translation
    fake = Pseudo(original("co"))
    monkeypatch.setattr(trans_real, "translation", lambda lang: fake if lang == "co" else original(lang))
    kept.forget_all()  # the words kept per language (ranks, suits, separators, hands)
    try:
        with translation.override("co"):
            assert re.findall(r"[A-Za-z]+", answer()) == ["bob"]
    finally:
        kept.forget_all()  # none of the pseudo-language's words stays for the next tests
