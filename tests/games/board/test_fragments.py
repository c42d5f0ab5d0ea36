"""The board as fragments (games.board.fragments): public ones drawn once per version and shared,
and what a socket sends after a move: only what changed, down to a seat's row and the new log lines."""

from __future__ import annotations

import pytest

from games import services
from games.board import fragments
from games.live import boardcache
from games.models import Match
from games.variants import spec_for
from tests.games.history.support import play_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user, settings):
    settings.RUMMYHUB_FIXED_SEED = "11"
    users = [make_user(n) for n in ("alice", "bob", "carol")]
    match = services.match_create(host=users[0], variant="manipulation", seats_count=3)
    for u in users[1:]:
        services.seat_join(match_id=match.pk, user=u)
    services.match_start(match_id=match.pk, user=users[0])
    return match, users


def boards(match_id, users):
    data = boardcache.load(Match.objects.get(pk=match_id))
    return data, [fragments.board_for(data, u) for u in users]


def move(match_id, users):
    now = Match.objects.get(pk=match_id)
    spec = spec_for(now.variant)
    state = spec.load(now.state["round"])
    kinds = {a["type"] for a in spec.view(state, state.seat_to_act)["legal_actions"]}
    services.turn_submit(
        match_id=match_id,
        user=users[state.seat_to_act],
        action={"type": "draw" if "draw" in kinds else "end_turn"},
        expected_version=now.version,
    )
    return state.seat_to_act


def frame(before, after) -> str:
    """What a socket that showed ``before`` sends for ``after`` (as games.live.consumers does)."""
    out = [after.fragments["board-meta"]]
    for name, html in after.fragments.items():
        if name != "board-meta":
            piece = fragments.delta(html, after.parts.get(name), before.fragments.get(name), before.parts.get(name))
            out.append(piece or "")
    return "".join(out)


def test_public_fragments_are_drawn_once_and_are_the_same_string_for_every_viewer(table):
    match, users = table
    _data, (a, b, c) = boards(match.pk, users)
    for name in ("board-head", "seats", "log", "results"):
        assert a.fragments[name] is b.fragments[name] is c.fragments[name]
    # The private ones are each viewer's own: a hand shows only that viewer's cards.
    assert a.fragments["hand-area"] != b.fragments["hand-area"]
    to_act = Match.objects.get(pk=match.pk).state["round"]["seat_to_act"]
    others = [x for i, x in enumerate((a, b, c)) if i != to_act]
    assert others[0].fragments["melds"] is others[1].fragments["melds"]  # only the player to act drafts


def test_public_fragments_show_no_viewer_as_you(table):
    match, users = table
    _data, (a, _b, _c) = boards(match.pk, users)
    assert "seat-me" not in a.fragments["seats"] and "badge-me" not in a.fragments["seats"]
    assert a.ctx["meta"]["my_seat"] == 0  # the page marks its own seat from #board-meta


def test_after_a_draw_a_watching_seat_gets_only_the_changed_rows_the_stock_and_the_new_log_line(table):
    match, users = table
    _data, before = boards(match.pk, users)
    mover = move(match.pk, users)
    _data, after = boards(match.pk, users)
    watcher = next(i for i in range(3) if i != mover)
    sent = frame(before[watcher], after[watcher])
    assert f'<li id="seat-{mover}"' in sent  # the mover's card count
    assert sent.count('<li id="seat-') <= 2  # at most the mover's and the next player's rows
    assert 'id="stock-count"' in sent and 'id="board-head"' not in sent
    assert sent.count('<ol hx-swap-oob="afterbegin:#log-list">') == 1 and 'id="log"' not in sent
    assert 'id="hand-area"' not in sent and 'id="melds"' not in sent  # the watcher's hand and the table did not change
    whole = "".join(after[watcher].fragments.values())
    assert len(sent) * 3 < len(whole)


def test_a_changed_shell_sends_the_whole_fragment_and_an_unchanged_one_nothing():
    rows = fragments.Parts(by_id=('<li id="a">1</li>', '<li id="b">2</li>'))
    html = '<ol id="x">' + "".join(rows.by_id) + "</ol>"
    assert fragments.delta(html, rows, html, rows) is None
    new = fragments.Parts(by_id=('<li id="a">1</li>', '<li id="b">3</li>'))
    assert fragments.delta('<ol id="x">' + "".join(new.by_id) + "</ol>", new, html, rows) == '<li id="b">3</li>'
    assert fragments.delta('<ol id="y">' + "".join(new.by_id) + "</ol>", new, html, rows).startswith('<ol id="y">')
    assert fragments.delta(html, rows, None, None) == html  # nothing shown yet: all of it


def log(*lines, keep=40):
    return fragments.Parts(
        rows=tuple(f"<li>{n}</li>" for n in lines), rows_of="log-list", order="newest_first", keep=keep
    )


def test_log_lines_are_added_at_the_top_and_a_log_that_does_not_continue_is_sent_whole():
    old, new = log(2, 1), log(3, 2, 1)
    shell = '<ol id="log-list">{}</ol>'
    piece = fragments.delta(shell.format("".join(new.rows)), new, shell.format("".join(old.rows)), old)
    assert piece == '<ol hx-swap-oob="afterbegin:#log-list"><li>3</li></ol>'
    other = log(9, 8)
    html = shell.format("".join(other.rows))
    assert fragments.delta(html, other, shell.format("".join(old.rows)), old) == html
    # The page keeps 3 lines: a full list drops its oldest itself.
    full, fuller = log(3, 2, 1, keep=3), log(4, 3, 2, keep=3)
    piece = fragments.delta(shell.format("".join(fuller.rows)), fuller, shell.format("".join(full.rows)), full)
    assert piece == '<ol hx-swap-oob="afterbegin:#log-list"><li>4</li></ol>'
    # A list that lost its oldest line while shorter than the page keeps (a seat's own log, entries for
    # other seats left out) is sent whole: the page would keep the line.
    shown, short = log(3, 2), log(4, 3)
    html = shell.format("".join(short.rows))
    assert fragments.delta(html, short, shell.format("".join(shown.rows)), shown) == html
    longer = log(4, 3, 2)
    html = shell.format("".join(longer.rows))
    assert fragments.delta(html, longer, shell.format("".join(shown.rows)), shown).startswith("<ol hx-swap-oob")


def hand(*keys, points=10):
    info = f'<p id="hand-info">{points} points</p>'
    parts = fragments.Parts(
        by_id=(info,),
        rows=tuple(f'<li class="card" data-id="{k}">{k}</li>' for k in keys),
        rows_of="hand",
        order="keyed",
        keys=keys,
    )
    return '<div id="hand-area"><ol id="hand">' + "".join(parts.rows) + "</ol>" + info + "</div>", parts


def test_a_hands_new_and_gone_cards_are_sent_alone_in_place_and_a_reordered_hand_whole():
    old_html, old = hand("2S.0", "5S.0", "9H.1", "KD.0")
    # A card drawn between two others and one at the start; one melded; the points changed.
    new_html, new = hand("AS.1", "2S.0", "3S.0", "9H.1", "KD.0", points=16)
    piece = fragments.delta(new_html, new, old_html, old)
    assert piece == (
        '<p id="hand-info">16 points</p>'
        """<ol hx-swap-oob="delete:#hand > [data-id='5S.0']"></ol>"""
        """<ol hx-swap-oob="afterbegin:#hand"><li class="card" data-id="AS.1">AS.1</li></ol>"""
        """<ol hx-swap-oob="afterend:#hand > [data-id='2S.0']"><li class="card" data-id="3S.0">3S.0</li></ol>"""
    )
    # Two cards new in a row go in one piece, after the card before them.
    two_html, two = hand("2S.0", "5S.0", "6S.0", "7S.0", "9H.1", "KD.0")
    assert fragments.delta(two_html, two, old_html, old) == (
        """<ol hx-swap-oob="afterend:#hand > [data-id='5S.0']"><li class="card" data-id="6S.0">6S.0</li>"""
        """<li class="card" data-id="7S.0">7S.0</li></ol>"""
    )
    # The same cards in another order (a sort, the player's own order): the whole hand.
    sorted_html, resorted = hand("KD.0", "2S.0", "5S.0", "9H.1")
    assert fragments.delta(sorted_html, resorted, old_html, old) == sorted_html
    # A card kept whose markup changed: the whole hand too.
    changed_html, changed = hand("2S.0", "5S.0", "9H.1", "KD.0")
    changed = fragments.Parts(
        by_id=changed.by_id,
        rows=(changed.rows[0].replace("card", "card picked"), *changed.rows[1:]),
        rows_of="hand",
        order="keyed",
        keys=changed.keys,
    )
    changed_html = changed_html.replace('class="card"', 'class="card picked"', 1)
    assert fragments.delta(changed_html, changed, old_html, old) == changed_html


def test_after_a_draw_the_mover_gets_the_drawn_card_and_not_the_hand(table):
    match, users = table
    data, before = boards(match.pk, users)
    mover = move(match.pk, users)
    after = fragments.board_for(boardcache.load(Match.objects.get(pk=match.pk)), users[mover], reply=True)
    sent = frame(before[mover], after)
    drawn = set(after.parts["hand-area"].keys) - set(before[mover].parts["hand-area"].keys)
    assert len(drawn) == 1
    assert f'data-id="{drawn.pop()}"' in sent and 'id="hand-area"' not in sent
    assert 'id="hand-info"' in sent  # the hand's points
    assert len(sent) * 2 < len(after.html())


def test_at_the_end_each_seat_row_shows_the_final_total_the_results_show(alice, settings):
    """Issue 15 point 6: a seat row said 70 pts while the final totals said 170 (the end bonuses)."""
    match = play_match(alice, settings=settings, seats=3, bots=2, game_target=40)
    data = boardcache.load(Match.objects.get(pk=match.pk))
    board = fragments.board_for(data, alice)
    seats = {s.index: s for s in match.seats.all()}
    assert any(s.final_total != (match.state["tally"]["scores"][i]) for i, s in seats.items())  # bonuses counted
    for index, seat in seats.items():
        row = next(r for r in board.parts["seats"].by_id if r.startswith(f'<li id="seat-{index}"'))
        assert f'<span class="score">{seat.final_total} pts</span>' in row
        assert f"<strong>{seat.final_total}</strong>" in board.fragments["results"]


def test_the_grace_of_a_player_who_is_away_is_shown_with_its_clock_and_ends_when_they_are_back(table):
    """Issue 15: "a hidden 30 s disconnect cut": the board shows it, with the seconds left."""
    match, users = table
    now = Match.objects.get(pk=match.pk)
    to_act = now.state["round"]["seat_to_act"]
    _data, boards_now = boards(match.pk, users)
    head = boards_now[1 - to_act].fragments["board-head"]
    assert "timer-away" in head and users[to_act].username in head and "data-deadline-ms" in head
    # Their socket opens: the grace ends, and a new version says so to every board.
    services.table_connection_open(match_id=match.pk, user=users[to_act], token="back")
    after = Match.objects.get(pk=match.pk)
    assert after.version == now.version + 1 and after.deadline is None
    _data, boards_after = boards(match.pk, users)
    assert "timer-away" not in boards_after[1 - to_act].fragments["board-head"]


def test_a_viewers_unchanged_private_fragments_are_reused_not_drawn_again(table, monkeypatch):
    """A watching player's hand does not change when another player moves: their next board reuses
    the markup of their last one (the fragment's inputs are the same); the mover's is drawn anew."""
    match, users = table
    _data, before = boards(match.pk, users)
    drawn = []
    real = fragments._render_all
    monkeypatch.setattr(
        fragments,
        "_render_all",
        lambda frags, ctx, request=None, **kw: (drawn.append({f.name for f in frags}), real(frags, ctx, request, **kw))[
            1
        ],
    )
    mover = move(match.pk, users)
    data = boardcache.load(Match.objects.get(pk=match.pk))
    after = {i: fragments.board_for(data, users[i], previous=before[i].kept()) for i in range(len(users))}
    watcher = (mover + 1) % len(users)
    assert after[watcher].fragments["hand-area"] is before[watcher].fragments["hand-area"]
    assert after[mover].fragments["hand-area"] != before[mover].fragments["hand-area"]  # the drawn card
    assert all("board-error" not in names and "open-panel" not in names for names in drawn)
    # What a reused board shows is what a board drawn from scratch shows (but the clock in its meta).
    for i in range(len(users)):
        fresh = fragments.board_for(data, users[i])
        assert {**after[i].fragments, "board-meta": ""} == {**fresh.fragments, "board-meta": ""}


def test_fragments_kept_by_their_inputs_are_the_markup_their_partials_draw(table, settings):
    """Every fragment kept by its inputs (the head, the results' slot, the melds, the buttons) and those
    kept with values filled in (the seat rows, the log's lines, the hand) is, for every viewer and version, the
    markup its partial draws from the whole context (in debug nothing is kept: each one is drawn)."""
    match, users = table
    viewers = [*users, fragments.SPECTATOR]
    for _ in range(8):
        row = Match.objects.get(pk=match.pk)
        settings.DEBUG = False
        # Twice, each from a load of its own (a load keeps its public fragments): the second drawing
        # takes what the first kept.
        kept = [fragments.board_for(boardcache.load(row), u, meta=False) for u in viewers]
        kept = [fragments.board_for(boardcache.load(row), u, meta=False) for u in viewers]
        settings.DEBUG = True
        drawn = [fragments.board_for(boardcache.load(row), u, meta=False) for u in viewers]
        for k, d in zip(kept, drawn, strict=True):
            assert k.fragments == d.fragments
            assert k.parts == d.parts
        move(match.pk, users)
