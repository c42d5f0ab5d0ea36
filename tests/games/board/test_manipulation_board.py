"""The Manipulation board (issue 25): the hand's points while a move is built (point 6), each meld step
said in one sentence with its cards (points 2 and 14), and the marks of each player's last move in the
public melds (point 2)."""

from __future__ import annotations

import re

import pytest

from games import services
from games.board import fragments, words
from games.board.manipulation import last_moves
from games.engine import manipulation as manip
from games.live import boardcache
from games.models import Match
from tests.games.services.positions import set_position

pytestmark = pytest.mark.django_db

HAND = "KH.0 QH.0 JH.0 2C.0 3D.0 9S.0 4H.0 8C.0 5S.0 TD.0"  # 10+10+10 + 2+3+9+4+8+5+10 = 71 points


@pytest.fixture
def table(make_user, settings):
    """Two players, the mover holding HAND, drawn once; the table: a run of spades and a group of 7s."""
    settings.RUMMYHUB_FIXED_SEED = "11"
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    state = manip.from_dict(Match.objects.get(pk=match.pk).state["round"])
    mover, other = (alice, bob) if state.seat_to_act == 0 else (bob, alice)
    match = set_position(match, HAND, ["6S.0 7S.0 8S.0", "7H.0 7D.0 7C.0"])
    return match, mover, other


def board(match, user):
    return fragments.board_for(boardcache.load(Match.objects.get(pk=match.pk)), user)


def hand_info(html: str) -> str:
    return re.search(r'<p class="hand-info" id="hand-info">(.*?)</p>', html).group(1)


def test_the_hands_points_are_those_of_the_cards_left_while_a_move_is_built(table):
    match, mover, _other = table
    assert board(match, mover).ctx["hand_points"] == 71
    # K♥ Q♥ J♥ laid as a new meld in the draft: 30 points out of the hand.
    table_now = Match.objects.get(pk=match.pk).state["round"]["table"]
    services.draft_update(
        match_id=match.pk, user=mover, table=[*table_now, ["JH.0", "QH.0", "KH.0"]], expected_version=match.version
    )
    shown = board(match, mover)
    assert shown.ctx["hand_points"] == 41
    assert "Your hand counts 41 points" in hand_info(shown.fragments["hand-area"])
    # The draft taken back: the whole hand again.
    match = Match.objects.get(pk=match.pk)
    services.draft_reset(match_id=match.pk, user=mover, expected_version=match.version)
    assert "Your hand counts 71 points" in hand_info(board(match, mover).fragments["hand-area"])


def test_a_meld_step_is_one_sentence_with_the_cards_laid_and_the_melds_changed(table):
    match, mover, _other = table
    run, sevens = Match.objects.get(pk=match.pk).state["round"]["table"]
    services.turn_submit(
        match_id=match.pk,
        user=mover,
        action={"type": "meld", "table": [run, sevens, ["JH.0", "QH.0", "KH.0"]]},
        expected_version=Match.objects.get(pk=match.pk).version,
    )
    event = Match.objects.get(pk=match.pk).events.order_by("-seq").first()
    summary = event.summary
    assert summary["laid"] == ["JH.0", "QH.0", "KH.0"]
    assert summary["moved"] == []
    assert summary["melds"] == [["JH.0", "QH.0", "KH.0"]]
    name = mover.username
    assert words.event_sentence(summary, name) == f"{name} laid J♥ Q♥ K♥ in 1 meld: J♥ Q♥ K♥."


def test_the_sentences_of_a_meld_step_with_moves_and_of_an_old_step():
    step = {
        "code": "meld",
        "cards": 3,
        "rearranged": 2,
        "laid": ["4S.1", "5S.1", "6S.1"],
        "moved": ["7C.1"],
        "melds": [["7S.0", "7H.0", "7D.0", "7C.1"], ["4C.1", "5C.1", "6C.1"], ["4S.1", "5S.1", "6S.1"]],
        "went_out": False,
    }
    assert words.event_sentence(step, "Boole") == (
        "Boole laid 4♠ 5♠ 6♠ and moved 7♣, changing 3 melds: 7♠ 7♥ 7♦ 7♣, 4♣ 5♣ 6♣, 4♠ 5♠ 6♠."
    )
    out = {**step, "went_out": True}
    assert words.event_sentence(out, "Boole") == (
        "Boole laid 4♠ 5♠ 6♠, moved 7♣ and went out, changing 3 melds: 7♠ 7♥ 7♦ 7♣, 4♣ 5♣ 6♣, 4♠ 5♠ 6♠."
    )
    # A step stored before its cards were: one sentence, not two glued together.
    old = {"code": "meld", "cards": 4, "rearranged": 4, "new_melds": 0, "went_out": False}
    assert words.event_sentence(old, "Boole") == "Boole melded 4 cards and rearranged the table."


def test_the_melds_mark_each_players_last_move_for_everyone_alike(table):
    match, mover, other = table
    run, sevens = Match.objects.get(pk=match.pk).state["round"]["table"]
    # The mover lays 5♠ at the start of the run and J♥ Q♥ K♥ as a new meld.
    services.turn_submit(
        match_id=match.pk,
        user=mover,
        action={"type": "meld", "table": [["5S.0", *run], sevens, ["JH.0", "QH.0", "KH.0"]]},
        expected_version=Match.objects.get(pk=match.pk).version,
    )
    spectator = board(match, fragments.SPECTATOR).fragments["melds"]
    watcher = board(match, other).fragments["melds"]
    for html in (spectator, watcher):
        laid = re.findall(r'data-id="([^"]+)"[^>]*data-mark="laid"', html)
        assert sorted(laid) == ["5S.0", "JH.0", "KH.0", "QH.0"]
        assert html.count('class="meld-mark-by"') == 2  # the run and the new meld, with the mover's name
        assert f"<bdi>{mover.username}</bdi>" in html
        assert 'data-mark="moved"' not in html


def test_last_moves_keeps_each_seats_last_turn_of_this_round_and_a_later_mark_wins():
    from games.board.data import LogEvent

    def ev(seq, seat, code, **kw):
        return LogEvent(seq=seq, seat=seat, summary={"code": code, **kw}, by_bot=False)

    events = [
        ev(1, None, "deal", round=1),
        ev(2, 0, "draw"),
        ev(3, 0, "meld", laid=["2S.0", "3S.0", "4S.0"], moved=[], melds=[["2S.0", "3S.0", "4S.0"]]),
        ev(4, 1, "draw"),
        ev(5, 1, "meld", laid=["5S.0"], moved=["4S.0"], melds=[["4S.0", "5S.0", "6S.0", "7S.0"], ["2S.0", "3S.0"]]),
        ev(6, 0, "draw"),  # seat 0's last turn: a draw only, so its earlier meld is no longer marked
        ev(7, 0, "end_turn"),
    ]
    marks = last_moves(events)
    cards = {k: (m.kind, m.seat) for k, m in marks.items() if not k.startswith("meld:")}
    assert cards == {"5S.0": ("laid", 1), "4S.0": ("moved", 1)}
    assert {k for k in marks if k.startswith("meld:")} == {"meld:4S.0 5S.0 6S.0 7S.0", "meld:2S.0 3S.0"}
    # A new round: the last round's moves are not marked.
    assert last_moves([*events, ev(8, None, "deal", round=2)]) == {}


def test_a_draft_made_before_the_draw_shows_every_meld_it_holds(make_user, settings):
    """Before the draw the player may not meld: the board has no new-meld zone, so the meld being built
    (the draft's last, all from the hand) is shown in the row with the others, not left out."""
    settings.RUMMYHUB_FIXED_SEED = "11"
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    state = manip.from_dict(match.state["round"])
    mover = (alice, bob)[state.seat_to_act]
    hand = [card.id for card in state.hands[state.seat_to_act]]
    draft = [hand[0:2], hand[2:4], hand[4:6]]
    services.draft_update(match_id=match.pk, user=mover, table=draft, expected_version=match.version)
    shown = board(match, mover)
    assert not shown.ctx["can_meld"] and "meld-dock" not in shown.fragments["melds"]
    assert shown.fragments["melds"].count('<div class="meld-box') == 3
    for meld in draft:
        for card in meld:
            assert f'data-id="{card}"' in shown.fragments["melds"]


def test_a_meld_is_drawn_again_only_when_what_it_shows_changes(monkeypatch):
    """Each meld's markup is kept by what it is drawn from: a board draws only the melds a move changed
    (and every meld in another language, or for a viewer who may rearrange them), and what is kept is
    what a board drawn from scratch shows."""
    from django.utils import translation

    from games.board import kept, manipulation
    from games.board.manipulation import Mark, meld_rows

    drawn = []
    draw = manipulation._draw_meld
    monkeypatch.setattr(manipulation, "_draw_meld", lambda row, *a: drawn.append(row["ids"]) or draw(row, *a))
    table = [["6S.0", "7S.0", "8S.0"], ["7H.0", "7D.0", "7C.0"], ["2C.0", "3C.0", "4C.0"]]
    names = {0: "Ada", 1: "Boole"}

    def rows(melds, marks=None, **kwargs):
        del drawn[:]
        shown = meld_rows(melds, [], False, table, marks or {}, names, **kwargs)
        return [(row["box"], row["line"]) for row in shown], [ids[0] for ids in drawn]

    with kept.drawn_afresh():
        first, fresh = rows(table)
        assert fresh == ["6S.0", "7H.0", "2C.0"]
        again, fresh = rows(table)
        assert again == first and fresh == []
        # 5♠ laid at the start of the run by seat 1: the run is drawn again (its cards, its mark), the rest kept.
        moved = [["5S.0", *table[0]], table[1], table[2]]
        marks = {"5S.0": Mark("laid", 1, 9)}
        after, fresh = rows(moved, marks)
        assert fresh == ["5S.0"] and after[1:] == first[1:]
        assert 'data-mark="laid"' in after[0][0] and "<bdi>Boole</bdi>" in after[0][0]
        # The marking seat's name changed (it is part of the mark): that meld alone again.
        names[1] = "Babbage"
        renamed, fresh = rows(moved, marks)
        assert fresh == ["5S.0"] and "<bdi>Babbage</bdi>" in renamed[0][0] and renamed[1:] == first[1:]
        # The melds the viewer may rearrange are drop targets: each drawn again, once.
        targets, fresh = rows(table, can_meld=True)
        assert len(fresh) == 3 and all('data-target-meld="' in box for box, _line in targets)
        assert rows(table, can_meld=True) == (targets, [])
        with translation.override("ro"):
            romanian, fresh = rows(table)
        assert len(fresh) == 3 and romanian != first
        kept_now = rows(moved, marks)[0]
    with kept.drawn_afresh():
        assert rows(moved, marks) == (kept_now, ["5S.0", "7H.0", "2C.0"])
