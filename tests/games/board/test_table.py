"""Seat rows of a board are kept per seat content and language (selectors.seat_rows)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games import services
from games.board import fragments, words
from games.board import table as board_table
from games.live import boardcache
from games.models import Match

pytestmark = pytest.mark.django_db


def board(match_id, user, *, cached_rows=True):
    data = boardcache.load(Match.objects.get(pk=match_id))
    if cached_rows:
        return fragments.board_for(data, user).html()
    # The seats are a public fragment: drawn from a seatless viewer's board (the page marks "you").
    ctx = board_table.table_context(data, fragments.SPECTATOR)
    ctx["seat_rows"] = None  # the template's own loop over the seats
    return render_to_string("games/table.html#frag-seats", ctx)


def rows(html):
    return re.sub(
        r"\s+", " ", html[html.index('<ol class="seats"') : html.index("</ol>", html.index('<ol class="seats"'))]
    )


@pytest.fixture
def table(make_user, settings):
    settings.RUMMYHUB_FIXED_SEED = "11"
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    return match, alice, bob


def test_kept_rows_are_the_rows_the_template_renders(table):
    match, alice, bob = table
    for user in (alice, bob):
        for lang in ("en", "fa"):
            with translation.override(lang):
                assert rows(board(match.pk, user)) == rows(board(match.pk, user, cached_rows=False))


def test_a_changed_seat_gets_a_new_row_and_each_language_its_own(table):
    match, alice, bob = table
    before = rows(board(match.pk, bob))
    now = Match.objects.get(pk=match.pk)
    mover = [alice, bob][now.state["round"]["seat_to_act"]]
    services.turn_submit(match_id=match.pk, user=mover, action={"type": "draw"}, expected_version=now.version)
    after = rows(board(match.pk, bob))
    assert before != after  # the mover's card count changed
    assert after == rows(board(match.pk, bob, cached_rows=False))
    with translation.override("ro"):
        assert rows(board(match.pk, bob)) == rows(board(match.pk, bob, cached_rows=False))


def test_a_seat_whose_card_count_alone_changed_draws_no_row(table, monkeypatch):
    """The row is kept with a mark for its count: a move that changes a count renders the count only."""
    match, alice, bob = table
    monkeypatch.setattr(board_table, "_SEAT_ROWS", board_table.Kept(64))
    monkeypatch.setattr(board_table, "_COUNTS", board_table.Kept(64))
    data = boardcache.load(Match.objects.get(pk=match.pk))
    seats = board_table.public_context(data)["seats"]
    board_table.seat_rows(seats, between_rounds=False)
    drawn = []
    real = board_table.render_to_string
    monkeypatch.setattr("games.board.table.render_to_string", lambda name, ctx: drawn.append(name) or real(name, ctx))
    grown = [dataclasses.replace(s, hand_count=s.hand_count + 1) for s in seats]
    again = board_table.seat_rows(grown, between_rounds=False)
    assert drawn and set(drawn) == {"games/table.html#seat-count"}  # the rows came from what was kept
    ctx = {"seats": grown, "seat_rows": None}
    assert "".join(again) in " ".join(render_to_string("games/table.html#frag-seats", ctx).split())
    assert f"{grown[0].hand_count} cards" in again[0]


def test_an_open_table_renders_its_rows_for_each_viewer(alice, bob):
    match = services.match_create(host=alice, variant="manipulation", seats_count=3)
    data = boardcache.load(Match.objects.get(pk=match.pk))
    assert board_table.table_context(data, bob)["seat_rows"] is None
    assert "Sit here" in board(match.pk, bob) and "Add a bot" in board(match.pk, alice)


def log_items(html):
    start = html.index('<ol class="log-list"')
    return re.findall(r'<li data-seq="(\d+)" data-seat="\d*">(.*?)</li>', html[start : html.index("</ol>", start)])


def test_the_log_is_kept_lines_escaped_and_each_new_move_adds_one(table):
    match, alice, bob = table
    now = Match.objects.get(pk=match.pk)
    mover = [alice, bob][now.state["round"]["seat_to_act"]]
    mover.username = "<b>x</b>"  # a name is text, never markup
    mover.save()
    before = log_items(board(match.pk, bob))
    services.turn_submit(match_id=match.pk, user=mover, action={"type": "draw"}, expected_version=now.version)
    after = log_items(board(match.pk, bob))
    assert after[1:] == before[: len(after) - 1]  # the newest first, then the kept lines again
    seq, text = after[0]
    assert int(seq) > int(before[0][0]) and text == "&lt;b&gt;x&lt;/b&gt; drew a card."
    with translation.override("ro"):
        assert [seq for seq, _ in log_items(board(match.pk, bob))] == [seq for seq, _ in after]


def test_a_log_entry_for_some_seats_only_is_not_shown_to_the_others(table):
    match, alice, bob = table
    data = boardcache.load(Match.objects.get(pk=match.pk))
    last = data.events[-1]
    events = [*data.events[:-1], dataclasses.replace(last, summary={**last.summary, "audience": [0]})]
    names = words.sentence_names(data.seats)
    for_seat0 = board_table._log_lines(data.match, events, names, 0)
    for_seat1 = board_table._log_lines(data.match, events, names, 1)
    assert len(for_seat0) == len(events) and len(for_seat1) == len(events) - 1


def test_the_log_lines_kept_from_the_last_board_follow_the_names_and_the_language(table):
    """A board's log reuses the lines its last board worded (by entry number), only while the seats'
    names and the language are the same: a new name words every line again."""
    match, alice, bob = table
    now = Match.objects.get(pk=match.pk)
    mover = [alice, bob][now.state["round"]["seat_to_act"]]
    services.turn_submit(match_id=match.pk, user=mover, action={"type": "draw"}, expected_version=now.version)
    data = boardcache.load(Match.objects.get(pk=match.pk))
    names = words.sentence_names(data.seats)
    first = board_table._log_lines(data.match, data.events, names, None)
    again = board_table._log_lines(data.match, data.events, names, None)
    assert again == first and all(a is b for a, b in zip(again, first, strict=True))  # kept, not worded again
    mover = data.events[-1].seat
    renamed = {**names, mover: "Zed"}
    lines = board_table._log_lines(data.match, data.events, renamed, None)
    assert "Zed" in lines[0] and "Zed" not in first[0]
    with translation.override("ro"):
        assert board_table._log_lines(data.match, data.events, names, None) != first  # in Romanian
    assert board_table._log_lines(data.match, data.events, names, None) == first


def test_the_kept_choice_labels_are_the_models_in_every_language():
    for lang, _name in settings.LANGUAGES:
        with translation.override(lang):
            for field in ("variant", "status"):
                for value, _label in Match._meta.get_field(field).flatchoices:
                    match = Match(**{field: value})
                    shown = getattr(match, f"get_{field}_display")()
                    assert board_table._choice_label(field, value) == shown
                    assert board_table._choice_label(field, value) == shown  # kept: the same again
