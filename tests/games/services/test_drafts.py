"""The Manipulation meld draft (games/services/turns.py draft_update): a draft that takes cards off
the table is refused and changes nothing (RULES B.5.2 M2: no card returns to a hand); a freed joker
is declared again by the engine where the draft puts it (B.3.4)."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import selectors, services
from games.board import table as board_table
from games.commands import error_text
from games.engine.errors import RulesError
from games.models import Match
from tests.games.services.positions import set_position
from tests.games.services.support import current_state, started_match

pytestmark = pytest.mark.django_db

TABLE = ["TH.0 JH.0 JK=QH.0", "5S.0 6S.0 7S.0"]
HAND = "QH.0 3C.0 3D.0 KS.0 9D.0"


def mover_of(match, users):
    return users[current_state(match).seat_to_act]


@pytest.fixture
def position(alice, bob, settings):
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    mover = mover_of(match, {0: alice, 1: bob})
    match = set_position(match, HAND, TABLE)
    return match, mover


def test_a_draft_without_a_table_card_is_refused_and_changes_nothing(position, sent):
    match, mover = position
    # first a draft that is kept (a hand card laid), then one that drops 7♠ back to the hand
    kept = [["TH.0", "JH.0", "JK=QH.0"], ["5S.0", "6S.0", "7S.0"], ["KS.0"]]
    match = services.draft_update(match_id=match.pk, user=mover, table=kept, expected_version=match.version)
    before = Match.objects.get(pk=match.pk)
    sent.clear()
    dropped = [["TH.0", "JH.0", "JK=QH.0"], ["5S.0", "6S.0"], ["KS.0"]]
    with pytest.raises((services.ActionRefused, RulesError)) as refused:
        services.draft_update(match_id=match.pk, user=mover, table=dropped, expected_version=before.version)
    assert refused.value.code == "table_card_missing"
    assert "7♠ must stay on the table" in error_text(refused.value, "manipulation")
    after = Match.objects.get(pk=match.pk)
    assert after.draft == before.draft and after.version == before.version and after.state == before.state
    assert sent == []


def test_the_refusal_is_said_in_the_readers_language(position, monkeypatch):
    match, mover = position
    monkeypatch.setattr("games.messages.gettext", lambda s: f"[{s}]")
    with pytest.raises((services.ActionRefused, RulesError)) as refused:
        services.draft_update(
            match_id=match.pk, user=mover, table=[["TH.0", "JH.0", "JK=QH.0"], ["KS.0"]], expected_version=match.version
        )
    with translation.override("en"):
        text = error_text(refused.value, "manipulation")
    assert text.startswith("[") and "no card returns to a hand" in text


def test_a_draft_leaving_a_freed_joker_out_is_refused(position):
    match, mover = position
    freed_out = [["TH.0", "JH.0", "QH.0"], ["5S.0", "6S.0", "7S.0"]]
    with pytest.raises((services.ActionRefused, RulesError)) as refused:
        services.draft_update(match_id=match.pk, user=mover, table=freed_out, expected_version=match.version)
    assert refused.value.code == "freed_joker_not_placed"
    assert Match.objects.get(pk=match.pk).draft is None


def test_the_freed_joker_is_shown_to_be_declared_again_where_it_lies(position):
    match, mover = position
    moved = [["TH.0", "JH.0", "QH.0"], ["5S.0", "6S.0", "7S.0"], ["3C.0", "3D.0", "JK=QH.0"]]
    match = services.draft_update(match_id=match.pk, user=mover, table=moved, expected_version=match.version)
    ctx = board_table.table_context(selectors.board_data(Match.objects.get(pk=match.pk)), mover)
    threes = ctx["melds"][2]
    assert threes["needs_joker"] and [o["code"] for o in threes["joker_options"]] == ["3S", "3H"]
    assert 'data-ref="JK.0"' in threes["box"]  # shown bare: the page declares it anew
    assert "Q♥" not in threes["box"]
    match = services.draft_update(
        match_id=match.pk,
        user=mover,
        expected_version=match.version,
        table=[["TH.0", "JH.0", "QH.0"], ["5S.0", "6S.0", "7S.0"], ["3C.0", "3D.0", "JK=3H.0"]],
    )
    assert match.draft["report"]["ok"]
    match = services.turn_submit(match_id=match.pk, user=mover, action={"type": "meld"}, expected_version=match.version)
    assert any("JK=3H.0" in m for m in match.state["round"]["table"])


def test_the_joker_asks_only_when_its_identity_is_not_forced(position):
    match, mover = position
    moved = [["TH.0", "JH.0", "QH.0"], ["5S.0", "6S.0", "7S.0", "JK=QH.0"]]  # only 8♠ or 4♠ fit: a choice
    match = services.draft_update(match_id=match.pk, user=mover, table=moved, expected_version=match.version)
    ctx = board_table.table_context(selectors.board_data(Match.objects.get(pk=match.pk)), mover)
    assert [o["code"] for o in ctx["melds"][1]["joker_options"]] == ["4S", "8S"]
    match = set_position(match, "QH.0 KS.0", ["TH.0 JH.0 JK=QH.0", "3C.0 3D.0 3S.0"])
    forced = [["TH.0", "JH.0", "QH.0"], ["3C.0", "3D.0", "3S.0", "JK=QH.0"]]
    match = services.draft_update(match_id=match.pk, user=mover, table=forced, expected_version=match.version)
    ctx = board_table.table_context(selectors.board_data(Match.objects.get(pk=match.pk)), mover)
    assert not ctx["melds"][1]["needs_joker"] and ctx["draft_ok"]
    assert 'data-ref="JK=3H.0"' in ctx["melds"][1]["box"]
