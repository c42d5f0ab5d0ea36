"""Issue 25 (points 11 and 14): what an organiser and the players see of a tournament.

* An elimination round advances who won the table: a duplicate one by the round's matchpoints (the
  duplicate standings' measure), not the luck of the match; a bracket with byes keeps its order.
* Closing a duplicate round tells every table of it (a new version over its socket) that the seeds are out.
* The tournament socket pushes the status line and the viewer's "Your tournament tables".
* The logged-out home page links "How to play"; a tournament line names the variant by its label.
* The admin's add form: rule options and placement points as fields (no JSON), entrants by username,
  and after saving a "Seat round 1" next step.
"""

from __future__ import annotations

import pytest
from django import forms
from django.urls import reverse

from games.history.models import PlayerRating
from games.models import Match, Round, RoundScore, Seat
from games.tournaments import selectors, services
from games.tournaments.admin import TournamentForm
from games.tournaments.consumers import TournamentConsumer
from games.tournaments.models import Entry, Tournament, TournamentSeat
from tests.games.tournaments.test_services import make_tournament, play_out

pytestmark = pytest.mark.django_db

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]


@pytest.fixture
def staff(make_user):
    return make_user("staff", is_staff=True, is_superuser=True)


@pytest.fixture
def players(make_user):
    return [make_user(n) for n in NAMES]


@pytest.fixture
def fast(settings):
    settings.RUMMYHUB_BOT_DELAY = 0
    settings.RUMMYHUB_FIXED_SEED = "11"
    return settings


def admin_add_data(**fields) -> dict[str, str]:
    """The admin's add form as a browser posts it: every field at its initial value, then ``fields``."""
    form = TournamentForm()
    data: dict[str, str] = {
        "variant": "manipulation",
        "format": "swiss",
        "table_size": "4",
        "rounds_count": "3",
        "turn_timer": "0",
        "starts_at_0": "",
        "starts_at_1": "",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
    }
    for name in (*TournamentForm.RULE_FIELDS, *TournamentForm.POINT_FIELDS):
        value = form[name].value()
        if isinstance(form.fields[name], forms.BooleanField):
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else str(value)
    for name, value in fields.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    return data


def seat_and_publish(t: Tournament, staff):
    return services.round_publish(round_id=services.round_seat(tournament_id=t.pk, by=staff).pk, by=staff)


def names_of(rnd) -> list[list[str]]:
    return [
        sorted(s.entry.user.username for s in table.seats.select_related("entry__user"))
        for table in rnd.tables.order_by("number")
    ]


# ----------------------------------------------------------------- elimination: who advances


def test_a_duplicate_elimination_advances_the_player_with_more_matchpoints(staff, players, fast):
    t = make_tournament(
        staff, variant="gin", format="elimination", table_size=2, duplicate=True, options={"game_target": 10}
    )
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES)
    rnd = seat_and_publish(t, staff)
    tables = list(rnd.tables.order_by("number"))
    for table in tables:
        play_out(table.match_id)
    # At table 1 the match's loser held the better cards' results on every deal: +50 where the
    # other tables' results are a few points; the match (its final totals) still went to the winner.
    first = tables[0]
    seats = {s.index: s for s in Seat.objects.filter(match=first.match_id)}
    loser = next(i for i, s in seats.items() if not s.is_winner)
    for r in Round.objects.filter(match_id=first.match_id):
        RoundScore.objects.filter(round=r).delete()
        RoundScore.objects.bulk_create(
            [RoundScore(round=r, seat=i, score=50 if i == loser else 0) for i in range(2)], ignore_conflicts=True
        )
    services.round_close(round_id=rnd.pk, by=staff)
    placed_first = TournamentSeat.objects.get(table=first, placement=1).entry
    better = TournamentSeat.objects.get(table=first, index=loser).entry
    assert placed_first != better  # the match's winner is not the one with the better results
    mp = {s.entry: s.matchpoints for s in selectors.tournament_standings(t)}
    assert mp[better.pk] > mp[placed_first.pk]

    advancing = selectors.round_winners(t, 1)
    assert advancing[0] == better.pk
    nxt = services.round_seat(tournament_id=t.pk, by=staff)
    seated = set(TournamentSeat.objects.filter(table__round=nxt).values_list("entry_id", flat=True))
    assert better.pk in seated and placed_first.pk not in seated


def test_a_plain_elimination_still_advances_the_match_winner(staff, players, fast):
    t = make_tournament(staff, variant="gin", format="elimination", table_size=2, options={"game_target": 10})
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:4])
    rnd = seat_and_publish(t, staff)
    for table in rnd.tables.all():
        play_out(table.match_id)
    services.round_close(round_id=rnd.pk, by=staff)
    winners = [TournamentSeat.objects.get(table=table, placement=1).entry_id for table in rnd.tables.order_by("number")]
    assert selectors.round_winners(t, 1) == winners


def test_a_bracket_with_byes_keeps_the_top_seeds_apart_until_the_final(staff, players, fast):
    """Six entrants: seeds 1 and 2 have byes and may meet only in the final (1 v 4/5, 2 v 3/6)."""
    t = make_tournament(staff, variant="gin", format="elimination", table_size=2, options={"game_target": 10})
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:6])
    for k, name in enumerate(NAMES[:6]):
        Entry.objects.filter(tournament=t, user__username=name).update(seed=100 - k)  # alice is seed 1
    rnd = seat_and_publish(t, staff)
    for table in rnd.tables.exclude(match=None):
        services.table_override(table_id=table.pk, by=staff, places=[1, 2], reason="quick")
    services.round_close(round_id=rnd.pk, by=staff)
    nxt = services.round_seat(tournament_id=t.pk, by=staff)
    semis = names_of(nxt)
    assert not any({"alice", "bob"} <= set(pair) for pair in semis), semis


# ----------------------------------------------------------------- duplicate: the seeds reach the open boards


def test_closing_a_duplicate_round_pushes_a_new_version_to_each_of_its_tables(
    staff, players, fast, sent, django_capture_on_commit_callbacks
):
    t = make_tournament(staff, variant="gin", table_size=2, duplicate=True, rounds_count=2, options={"game_target": 10})
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:4])
    rnd = seat_and_publish(t, staff)
    tables = list(rnd.tables.exclude(match=None))
    for table in tables:
        play_out(table.match_id)
    before = {m.pk: m.version for m in Match.objects.filter(pk__in=[tb.match_id for tb in tables])}
    assert all(m.deals_held for m in Match.objects.filter(pk__in=before))
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.round_close(round_id=rnd.pk, by=staff)
    for match in Match.objects.filter(pk__in=before):
        assert not match.deals_held and match.version > before[match.pk]
        assert (f"table-{match.pk}", {"type": "table.changed", "id": match.pk, "version": match.version}) in sent


# ----------------------------------------------------------------- the tournament socket


def test_the_socket_pushes_the_status_line_and_the_players_tables(staff, players, fast):
    t = make_tournament(staff, rounds_count=1)
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:4])
    consumer = TournamentConsumer()
    consumer.scope, consumer.tournament_id, consumer.sent = {"user": players[1]}, t.pk, {}
    first = consumer._render()
    assert 'id="tournament-status"' in first and "Upcoming" in first
    rnd = seat_and_publish(t, staff)
    match_id = rnd.tables.get().match_id
    frame = consumer._render()
    status = frame[frame.index('id="tournament-status"') :]
    assert "Running" in status[: status.index("</p>")]
    assert 'id="tournament-tables-notice"' in frame and f'href="/tables/{match_id}/"' in frame
    assert "Your tournament tables" in frame
    # A spectator's frame has the status line, and an empty slot for tables of their own.
    spectator = TournamentConsumer()
    spectator.scope, spectator.tournament_id, spectator.sent = {"user": None}, t.pk, {}
    other = spectator._render()
    assert 'id="tournament-status"' in other and "Your tournament tables" not in other


# ----------------------------------------------------------------- home, variant labels


def test_the_logged_out_home_page_links_how_to_play(client):
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("games:howto_index")}"' in html


def test_tournament_lines_name_the_variant_by_its_label(client, staff, players, fast):
    t = make_tournament(staff, rounds_count=1)
    g = make_tournament(staff, name="Gin Night", variant="gin", table_size=2, options={})
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:4])
    pages = {
        "list": client.get(reverse("tournaments:list")).content.decode(),
        "detail": client.get(reverse("tournaments:detail", args=[t.pk])).content.decode(),
    }
    client.force_login(staff)
    pages["admin list"] = client.get(reverse("admin:games_tournament_changelist")).content.decode()
    pages["run"] = client.get(reverse("admin:games_tournament_run", args=[t.pk])).content.decode()
    for where, html in pages.items():
        assert "Manipulation Rummy" in html, where
        assert "· manipulation" not in html and ">manipulation<" not in html, where
    assert "Gin Rummy (two players)" in pages["list"] and "Gin Rummy (two players)" in pages["admin list"]
    assert str(t.variant_label) == "Manipulation Rummy" and str(g.variant_label) == "Gin Rummy (two players)"


# ----------------------------------------------------------------- the admin: add by username, next step


def test_the_add_form_takes_usernames_and_the_change_page_leads_to_round_1(client, staff, players, fast):
    client.force_login(staff)
    url = reverse("admin:games_tournament_add")
    refused = client.post(url, admin_add_data(name="Club", usernames="alice\nzed, yolanda"))
    assert refused.status_code == 200 and not Tournament.objects.exists()
    assert (
        "No player has these usernames: zed, yolanda. Check the spelling, or remove them." in refused.content.decode()
    )
    no_points = client.post(url, admin_add_data(name="Club", points_2="", points_3="", points_4="", points_5=""))
    assert "Give the placement points of at least the chosen table size." in no_points.content.decode()
    assert not Tournament.objects.exists()
    page = client.get(url).content.decode()
    assert 'name="options"' not in page and 'name="placement_points"' not in page and "[4, 2, 1, 0]" not in page
    assert 'name="opt_game_target"' in page and 'name="gin_gin_bonus"' in page and 'value="4 2 1 0"' in page

    response = client.post(
        url,
        admin_add_data(
            name="Club", usernames="alice\nBOB, carol\n\ndave\nerin, frank\ngrace\nheidi", opt_game_target="30"
        ),
        follow=True,
    )
    t = Tournament.objects.get(name="Club")
    assert response.redirect_chain[-1][0] == reverse("admin:games_tournament_change", args=[t.pk])
    html = response.content.decode()
    assert "was created with 8 entrants." in html and "8 entrants. Next: seat round 1." in html
    assert t.options == {"game_target": 30} and t.placement_points == {
        "2": [4, 0],
        "3": [4, 2, 0],
        "4": [4, 2, 1, 0],
        "5": [4, 3, 2, 1, 0],
    }
    assert Entry.objects.filter(tournament=t).count() == 8
    seat = reverse("admin:games_tournament_seat", args=[t.pk])
    assert f'action="{seat}"' in html and "Seat round 1" in html

    client.post(seat)
    change = client.get(reverse("admin:games_tournament_change", args=[t.pk])).content.decode()
    assert "Round 1 is seated as a preview" in change and "Publish round 1" in change
    rnd = t.rounds.get()
    published = client.post(reverse("admin:games_tournament_publish", args=[rnd.pk]), follow=True).content.decode()
    assert "Round 1 published: 2 tables are open." in published
    assert published.count("live table") == 2
    change = client.get(reverse("admin:games_tournament_change", args=[t.pk])).content.decode()
    assert "Round 1 is in play: 0 of 2 tables have a result." in change
    assert "Game ends at (points): 30" in change  # the rules, in words, read-only now
    assert 'name="opt_game_target"' not in change


def test_an_entrant_added_in_the_list_is_seeded_by_rating_and_audited(client, staff, players, fast):
    PlayerRating.objects.create(user=players[0], variant="manipulation", mu=25, sigma=4, ordinal=12.34)
    t = make_tournament(staff)
    client.force_login(staff)
    data = admin_add_data(
        name=t.name,
        opt_game_target="30",
        **{
            "entries-TOTAL_FORMS": "1",
            "entries-0-user": str(players[0].pk),
            "entries-0-seed": "0",
            "entries-0-tournament": str(t.pk),
        },
    )
    response = client.post(reverse("admin:games_tournament_change", args=[t.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    entry = Entry.objects.get(tournament=t, user=players[0])
    assert entry.seed == 123 and entry.rating == pytest.approx(12.34)
    assert t.audit.filter(action="entrants_imported").exists()


@pytest.mark.parametrize("points", ["4 ² 1 0", "4 ٢ 1 0", "9" * 5000 + " 2 1 0", "-4 2 1 0"])
def test_placement_points_that_are_not_plain_whole_numbers_are_refused_with_a_sentence(client, staff, points):
    client.force_login(staff)
    response = client.post(reverse("admin:games_tournament_add"), admin_add_data(name="Club", points_4=points))
    assert response.status_code == 200
    assert "Whole numbers of at least 0, one per place" in response.content.decode()
    assert not Tournament.objects.exists()


def test_placement_points_with_a_nul_byte_are_refused_before_the_form(client, staff):
    client.force_login(staff)
    response = client.post(reverse("admin:games_tournament_add"), admin_add_data(name="Club", points_4="4 2 1 0\x00"))
    assert response.status_code == 400  # the input layer refuses a NUL in any field
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("object_id", ["²", "٣", "9" * 40])
def test_a_change_page_with_a_forged_id_is_not_found(client, staff, object_id):
    client.force_login(staff)
    response = client.get(f"/admin/games/tournament/{object_id}/change/", follow=True)
    assert response.status_code in (200, 404)  # Django's admin: "doesn't exist" and back to the list, not 500
