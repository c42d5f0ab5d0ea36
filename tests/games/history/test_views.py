"""History pages: the list with its filters, the match page, privacy (with and without htmx)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.engine import scoring
from games.history.display import card_face
from games.models import Match, MatchStatus, Round, RoundScore, Seat, Tournament, TournamentRound, TournamentTable
from games.variants import spec_for
from tests.games.history.support import play_match, play_one_round

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def test_list_shows_finished_matches_newest_first_page_and_partial(client, alice, settings):
    first = play_match(alice, settings=settings, seed="3")
    second = play_match(alice, settings=settings, seed="4", seats=3, bots=2)
    Match.objects.filter(pk=first.pk).update(finished_at=timezone.now() - timedelta(days=1))
    page = client.get("/history/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<html" in html and 'id="history-results"' in html
    assert html.index(f"/matches/{second.pk}/") < html.index(f"/matches/{first.pk}/")
    # Each row: players with final totals, the winner marked, the number of rounds.
    winner = Seat.objects.get(match=second, is_winner=True)
    assert f'<span class="total">{winner.final_total}</span>' in html
    assert 'class="winner"' in html and "winner:" in html
    partial = client.get("/history/", **HX)
    body = partial.content.decode()
    assert "<html" not in body and body.strip().startswith('<section id="history-results"')
    assert f"/matches/{second.pk}/" in body


def test_list_filters_by_variant_player_mine_and_dates(client, alice, bob, settings):
    solo = play_match(alice, settings=settings, seed="3")
    duo = play_match(alice, settings=settings, seed="5", seats=3, bots=1, others=[bob])
    client.force_login(bob)
    html = client.get("/history/?player=BOB").content.decode()
    assert f"/matches/{duo.pk}/" in html and f"/matches/{solo.pk}/" not in html
    html = client.get("/history/?mine=on", **HX).content.decode()
    assert f"/matches/{duo.pk}/" in html and f"/matches/{solo.pk}/" not in html
    html = client.get("/history/?variant=gin").content.decode()
    assert "/matches/" not in html.split('id="history-results"')[1]
    today = timezone.localdate()
    html = client.get(f"/history/?date_from={today}&date_to={today}").content.decode()
    assert f"/matches/{duo.pk}/" in html and f"/matches/{solo.pk}/" in html
    yesterday = today - timedelta(days=1)
    html = client.get(f"/history/?date_to={yesterday}").content.decode()
    assert f"/matches/{duo.pk}/" not in html
    # A bad range is reported on the form, the list is unfiltered.
    html = client.get(f"/history/?date_from={today}&date_to={yesterday}").content.decode()
    assert "The end date is before the start date." in html


def test_list_paginates_and_keeps_the_query_in_page_links(client, alice, settings):
    match = play_match(alice, settings=settings, seed="3")
    seats = list(Seat.objects.filter(match=match))
    # 30 more finished copies of the match (rows only) to get two pages.
    for k in range(30):
        copy = Match.objects.create(
            variant=match.variant,
            options=match.options,
            seats_count=2,
            status=MatchStatus.FINISHED,
            started_at=match.started_at,
            finished_at=match.finished_at - timedelta(minutes=k + 1),
            round_number=1,
        )
        Seat.objects.bulk_create(
            [
                Seat(
                    match=copy,
                    index=s.index,
                    user=s.user,
                    bot_policy=s.bot_policy,
                    bot_name=s.bot_name,
                    final_total=s.final_total,
                    is_winner=s.is_winner,
                )
                for s in seats
            ]
        )
    html = client.get("/history/?variant=manipulation").content.decode()
    assert "Page 1 of 2" in html
    assert 'href="?variant=manipulation&amp;page=2"' in html
    html = client.get("/history/?variant=manipulation&page=2", **HX).content.decode()
    assert "Page 2 of 2" in html and html.count("<tr>") + html.count("<tr class") == 6 + 1


def test_player_autocomplete(client, alice, bob, make_user):
    make_user("albert")
    html = client.get("/history/players/?player=al").content.decode()
    assert '<datalist id="player-options">' in html
    assert 'value="albert"' in html and 'value="alice"' in html and "bob" not in html
    assert client.get("/history/players/?player=").content.decode().count("<option") == 0


def test_live_matches_are_listed_only_on_request_and_show_no_totals(client, alice, settings):
    live = play_one_round(alice, settings=settings)
    assert live.status in (MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS)
    assert f"/matches/{live.pk}/" not in client.get("/history/").content.decode()
    html = client.get("/history/?live=on").content.decode()
    assert f"/matches/{live.pk}/" in html and ">live<" in html


def test_match_page_explains_every_point(client, alice, settings):
    match = play_match(alice, settings=settings, seed="7", seats=3, bots=2)
    page = client.get(f"/matches/{match.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    ctx = page.context
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    assert len(ctx["rounds"]) == len(rounds) == match.round_number
    # Running totals equal the stored round scores; winners and reasons come from the stored rows.
    for row, rnd in zip(ctx["rounds"], rounds, strict=True):
        for seat, cell in enumerate(row["cells"]):
            expected = sum(
                RoundScore.objects.filter(round__match=match, round__number__lte=rnd.number, seat=seat).values_list(
                    "score", flat=True
                )
            )
            assert cell["total"] == expected
            assert cell["won"] == (seat in rnd.winners)
    # End bonuses: the engine's B.8 totals, equal to the stored final totals.
    tally = match.state["tally"]
    rules = spec_for("manipulation").rules(match.options, 3)
    totals = scoring.manipulation_final_totals(tally["scores"], tally["rounds_won"], rules)
    assert [b["total"] for b in ctx["bonuses"]] == totals
    assert totals == [s.final_total for s in Seat.objects.filter(match=match).order_by("index")]
    assert any("game bonus" in part for b in ctx["bonuses"] for part in b["parts"])
    # The chart: an SVG with one series per seat, different marker shapes and direct labels; the data table too.
    assert '<svg class="score-chart"' in html and html.count('class="series"') == 3
    assert "<circle" in html and "<rect" in html and "<polygon" in html
    assert html.count('class="direct-label"') == 3
    assert "The chart&#x27;s numbers as a table" in html or "The chart's numbers as a table" in html
    # With htmx: the record partial only.
    body = client.get(f"/matches/{match.pk}/", **HX).content.decode()
    assert body.strip().startswith('<div id="match-record"') and "<html" not in body


def test_live_match_page_shows_finished_rounds_only_and_no_hand(client, alice, settings):
    live = play_one_round(alice, settings=settings)
    html = client.get(f"/matches/{live.pk}/").content.decode()
    assert "still being played" in html
    rnd = Round.objects.get(match=live, number=live.round_number)
    state = spec_for(live.variant).load(live.state["round"])
    assert rnd.finished_at is None
    # No card of the round in play appears anywhere (card labels such as "7 of hearts").

    # The page draws no cards of a round in play at all: no card's name, id or code in any form.
    for hand in state.hands:
        for card in hand:
            face = card_face(card.id)
            assert face["label"] not in html and f'"{card.id}"' not in html and f'data-ref="{face["ref"]}"' not in html
    replay = client.get(f"/matches/{live.pk}/replay/")
    assert replay.status_code == 200 and "available when the match ends" in replay.content.decode()
    assert "replay-step" not in replay.content.decode()


def test_private_matches_are_for_their_players_and_staff(client, alice, bob, make_user, settings):
    private = play_match(alice, settings=settings, seed="9", seats=3, bots=1, others=[bob], private=True)
    public = play_match(alice, settings=settings, seed="3")
    urls = [f"/matches/{private.pk}/", f"/matches/{private.pk}/replay/", f"/matches/{private.pk}/export.json"]
    carol = make_user("carol")
    staff = make_user("erin", is_staff=True)
    for who in (None, carol):
        client.logout()
        if who:
            client.force_login(who)
        for url in urls:
            for extra in ({}, HX):
                assert client.get(url, **extra).status_code == 404
        assert client.get("/matches/999999/").status_code == 404
        html = client.get("/history/").content.decode()
        assert f"/matches/{private.pk}/" not in html and f"/matches/{public.pk}/" in html
        assert f"/matches/{private.pk}/" not in client.get("/players/alice/").content.decode()
    for who in (bob, staff):
        client.force_login(who)
        for url in urls:
            assert client.get(url).status_code == 200
        assert f"/matches/{private.pk}/" in client.get("/history/").content.decode()


def test_open_tables_have_no_history_page(client, alice):
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    client.force_login(alice)
    assert client.get(f"/matches/{match.pk}/").status_code == 404


def test_list_filters_by_tournament(client, alice, settings):
    in_cup = play_match(alice, settings=settings, seed="3")
    friendly = play_match(alice, settings=settings, seed="4")
    cup = Tournament.objects.create(name="Winter cup", variant="manipulation")
    rnd = TournamentRound.objects.create(tournament=cup, number=1)
    TournamentTable.objects.create(round=rnd, number=1, match=in_cup)
    page = client.get("/history/").content.decode()
    assert "Winter cup" in page  # the filter is offered once a tournament exists
    html = client.get(f"/history/?tournament={cup.pk}", **HX).content.decode()
    assert f"/matches/{in_cup.pk}/" in html and f"/matches/{friendly.pk}/" not in html


def test_player_page_with_and_without_htmx(client, alice, settings):
    match = play_match(alice, settings=settings, seed="3")
    for extra in ({}, HX):
        html = client.get("/players/alice/", **extra).content.decode()
        assert 'id="player-stats"' in html and f"/matches/{match.pk}/" in html
    assert client.get("/players/nobody/").status_code == 404


def test_htmx_history_restore_gets_the_whole_page(client, alice, settings):
    match = play_match(alice, settings=settings, seed="3")
    restore = {**HX, "HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}
    for url in ("/history/?mine=on", f"/matches/{match.pk}/", f"/matches/{match.pk}/replay/?step=3", "/leaderboard/"):
        assert "<html" in client.get(url, **restore).content.decode()
        assert "<html" not in client.get(url, **HX).content.decode()


@pytest.mark.parametrize(
    ("kind", "sentence", "role"),
    [
        ("went_out", "went out", "went out"),
        ("knock", "knocked", "knocker"),
        ("gin", "went gin", "went gin"),
        ("undercut", "knocked", "knocker"),
    ],
)
def test_the_player_who_ended_a_round_is_named_by_how_it_ended(client, alice, settings, kind, sentence, role):
    """A round won by going out does not call its winner "knocker" (issue 25.9); a Gin hand won by gin
    says gin."""
    match = play_match(alice, settings=settings, seed="7", seats=2, bots=1)
    rnd = Round.objects.filter(match=match).order_by("number").first()
    Round.objects.filter(pk=rnd.pk).update(result_kind=kind, knocker=0, winners=[0])
    page = client.get(f"/matches/{match.pk}/")
    row = page.context["rounds"][0]
    assert row["ended_as"] == {"went_out": "went_out", "gin": "gin"}.get(kind, "knock")
    html = page.content.decode()
    start = html.index(f'<th scope="row">{rnd.number}</th>', html.index("rounds-table"))
    cells = html[start : html.index("</tr>", start)]
    assert f"{sentence}" in cells and f"· {role}" in cells
    if role != "knocker":
        assert "knocker" not in cells and "knocked" not in cells
