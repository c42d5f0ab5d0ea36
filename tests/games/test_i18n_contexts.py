"""One English word, two meanings, two msgids (issue 16): a word used as an order, a result, a badge or a
status gets a context (pgettext), so a language that says them differently can."""

from __future__ import annotations

from django.utils import translation

from games.board import gin, words
from games.models import MatchStatus
from games.tournaments.models import TournamentStatus


def test_knock_as_the_advisors_order_is_a_verb_and_as_a_result_a_noun():
    with translation.override("ro"):
        assert gin._suggestion_text({"action": "knock"}) == "bate"
        assert words.result_text("knock") == "bătaie"
    with translation.override("en"):
        assert gin._suggestion_text({"action": "knock"}) == words.result_text("knock") == "knock"


def test_went_out_as_a_result_and_as_a_players_badge():
    with translation.override("co"):
        assert words.result_text("went_out") == "chjusura"
        assert translation.pgettext("badge of the player who went out", "went out") == "hà chjosu"


def test_finished_agrees_with_a_match_and_with_a_tournament():
    with translation.override("co"):
        assert str(MatchStatus.FINISHED.label) == "Finita"  # a partita
        assert str(TournamentStatus.FINISHED.label) == "Finitu"  # a torneu


def test_a_gin_run_is_not_running_a_tournament():
    with translation.override("ro"):
        assert translation.pgettext("Gin meld", "run") == "secvență"
        assert translation.pgettext("run a tournament", "run") != "secvență"


def test_play_as_the_menus_order_and_as_a_move():
    with translation.override("ro"):
        assert translation.gettext("Play") == "Joacă"
        assert translation.pgettext("a move in the game (a column heading)", "Play") == "Mutare"


def test_the_deal_checks_column_has_its_own_msgid():
    with translation.override("co"):
        assert translation.pgettext("a column: whether the deal verified (its result)", "Check") == "Verificazione"
