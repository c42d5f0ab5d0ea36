"""Tournament pages (public, with and without HX-Request) and the admin's Run page as staff and non-staff."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.models import Match, MatchStatus
from games.tournaments import services
from games.tournaments.models import (
    Entry,
    RoundStatus,
    Tournament,
    TournamentAudit,
    TournamentRound,
    TournamentSeat,
    TournamentStatus,
)
from tests.games.tournaments.test_organiser import admin_add_data

pytestmark = pytest.mark.django_db

NAMES = ["alice", "bob", "carol", "dave"]
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def staff(make_user):
    return make_user("staff", is_staff=True, is_superuser=True)


@pytest.fixture
def players(make_user):
    return [make_user(n) for n in NAMES]


@pytest.fixture
def tournament(staff):
    t = Tournament(
        name="Spring Swiss",
        variant="manipulation",
        options={"game_target": 30},
        format="swiss",
        table_size=4,
        rounds_count=2,
        registration_open=True,
    )
    return services.tournament_save(tournament=t, by=staff, created=True)


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


def run_url(t):
    return reverse("admin:games_tournament_run", args=[t.pk])


# ----------------------------------------------------------------- public pages


def test_list_shows_sections_and_nav_link(client, tournament):
    response = client.get(reverse("tournaments:list"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Spring Swiss" in html and "Upcoming" in html and "Running" in html and "Finished" in html
    assert f'href="{reverse("tournaments:list")}"' in html  # the nav link


def test_detail_page_and_htmx_partial(client, tournament):
    response = client.get(reverse("tournaments:detail", args=[tournament.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert f'ws-connect="/ws/tournaments/{tournament.pk}/"' in html and 'id="standings"' in html
    partial = client.get(reverse("tournaments:detail", args=[tournament.pk]), **HX).content.decode()
    assert partial.strip().startswith('<div id="standings"') and "<html" not in partial
    assert client.get(reverse("tournaments:detail", args=[999999])).status_code == 404


def test_register_and_withdraw_without_and_with_htmx(client, tournament, players):
    url = reverse("tournaments:register", args=[tournament.pk])
    assert client.post(url).status_code == 302 and not Entry.objects.exists()  # anonymous: to the login page
    client.force_login(players[0])
    response = client.post(url)
    assert response.status_code == 302 and response.url == reverse("tournaments:detail", args=[tournament.pk])
    assert Entry.objects.filter(user=players[0], withdrawn=False).exists()
    partial = client.post(reverse("tournaments:withdraw", args=[tournament.pk]), **HX).content.decode()
    assert partial.strip().startswith('<div id="registration"') and "Register" in partial
    assert Entry.objects.get(user=players[0]).withdrawn
    client.post(url, **HX)
    services.tournament_set_registration(tournament_id=tournament.pk, by=None, is_open=False)
    client.force_login(players[1])
    partial = client.post(url, **HX).content.decode()
    assert "Registration for this tournament is closed." in partial
    assert client.get(url).status_code == 405


def test_player_sees_their_table_notice(client, tournament, players, staff, settings):
    settings.RUMMYHUB_BOT_DELAY = 0
    services.entries_import(tournament_id=tournament.pk, by=staff, usernames=NAMES)
    rnd = services.round_publish(round_id=services.round_seat(tournament_id=tournament.pk, by=staff).pk, by=staff)
    match_id = rnd.tables.get().match_id
    client.force_login(players[2])
    for url in (reverse("tournaments:list"), reverse("tournaments:detail", args=[tournament.pk])):
        html = client.get(url).content.decode()
        assert "Your tournament tables" in html and f'href="/tables/{match_id}/"' in html
    detail = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "score group 0" in detail  # the reason is shown publicly too
    client.force_login(staff)
    assert "Your tournament tables" not in client.get(reverse("tournaments:list")).content.decode()


# ----------------------------------------------------------------- admin


def _add_form(**overrides):
    """The add form as a browser posts it: every field's initial value, then these."""
    fields = {
        "name": "Autumn Open",
        "opt_game_target": "30",
        "points_4": "4 2 1 0",
        "points_3": "4 2 0",
        "points_2": "",
        "points_5": "",
        "registration_open": "on",
    }
    return admin_add_data(**{**fields, **overrides})


def test_admin_create_validates_options_with_the_engine(staff_client):
    url = reverse("admin:games_tournament_add")
    response = staff_client.post(url, _add_form(opt_hand_size="99"))
    assert response.status_code == 200 and "Ensure this value is less than or equal to" in response.content.decode()
    assert not Tournament.objects.exists()
    response = staff_client.post(url, _add_form(points_4="4 2 1"))
    assert "A table of 4 seats needs 4 numbers, one per place." in response.content.decode()
    response = staff_client.post(url, _add_form(points_4="1 2 3 4"))
    assert "A better placement cannot score fewer points." in response.content.decode()
    response = staff_client.post(url, _add_form(table_size="7"))
    assert "This game is for 2, 3, 4, 5 players." in response.content.decode()
    response = staff_client.post(url, _add_form())
    assert response.status_code == 302
    t = Tournament.objects.get(name="Autumn Open")
    assert t.options == {"game_target": 30} and t.registration_open
    assert t.placement_points == {"3": [4, 2, 0], "4": [4, 2, 1, 0]}
    assert response.url == reverse("admin:games_tournament_change", args=[t.pk])  # where the next step is
    assert TournamentAudit.objects.filter(tournament=t, action="created").exists()


def test_admin_runs_a_round(staff_client, tournament, players, staff, settings):
    settings.RUMMYHUB_BOT_DELAY = 0
    r = staff_client.post(
        reverse("admin:games_tournament_import", args=[tournament.pk]),
        {"usernames": "alice, bob\ncarol\ndave\nzed"},
        follow=True,
    )
    assert "4 entrants added." in r.content.decode() and "Unknown players: zed" in r.content.decode()
    r = staff_client.post(reverse("admin:games_tournament_seat", args=[tournament.pk]), follow=True)
    html = r.content.decode()
    assert "seating preview" in html and "score group 0" in html and "Publish" in html
    rnd = TournamentRound.objects.get(tournament=tournament)
    assert rnd.status == RoundStatus.DRAFT and not rnd.tables.get().match_id
    staff_client.post(reverse("admin:games_tournament_publish", args=[rnd.pk]))
    rnd.refresh_from_db()
    table = rnd.tables.get()
    assert rnd.status == RoundStatus.PLAYING and table.match.status == MatchStatus.PLAYING
    # Close refused while the table plays; the message is shown.
    r = staff_client.post(reverse("admin:games_tournament_close", args=[rnd.pk]), follow=True)
    assert "Tables still playing: 1." in r.content.decode()
    # A forfeit and an override, each with a reason in the audit log.
    seat = table.seats.get(entry__user__username="dave")
    staff_client.post(reverse("admin:games_tournament_forfeit", args=[seat.pk]), {"reason": "no show"})
    staff_client.post(
        reverse("admin:games_tournament_override", args=[table.pk]), {"places": "1 2 3 4", "reason": "table crashed"}
    )
    seat.refresh_from_db()
    assert seat.forfeit and seat.placement == 4 and seat.overridden
    staff_client.post(reverse("admin:games_tournament_close", args=[rnd.pk]))
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED
    page = staff_client.get(run_url(tournament)).content.decode()
    assert "table crashed" in page and "no show" in page and "Seat next round" in page
    response = staff_client.get(reverse("admin:games_tournament_csv", args=[tournament.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["rank", "player", "points"]
    assert [(r[1], r[2]) for r in rows[1:]] == [("alice", "4"), ("bob", "2"), ("carol", "1"), ("dave", "0")]
    actions = set(TournamentAudit.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert {
        "entrants_imported",
        "round_seated",
        "round_published",
        "forfeit",
        "result_overridden",
        "round_closed",
        "standings_exported",
    } <= actions
    assert not Match.objects.filter(status=MatchStatus.FINISHED).exists()


def test_admin_actions_are_refused_for_non_staff(client, tournament, players):
    client.force_login(players[0])
    assert client.get(run_url(tournament)).status_code == 302  # to the admin login
    r = client.post(reverse("admin:games_tournament_seat", args=[tournament.pk]))
    assert r.status_code == 302 and "/admin/login/" in r.url
    assert not TournamentRound.objects.exists()
    r = client.get(reverse("admin:games_tournament_csv", args=[tournament.pk]))
    assert r.status_code == 302 and "/admin/login/" in r.url


def test_staff_without_change_permission_is_refused(client, make_user, tournament):
    viewer = make_user("viewer", is_staff=True)
    client.force_login(viewer)
    assert client.get(run_url(tournament)).status_code == 403
    assert client.post(reverse("admin:games_tournament_seat", args=[tournament.pk])).status_code == 403


def test_admin_list_actions(staff_client, tournament, players):
    url = reverse("admin:games_tournament_changelist")
    staff_client.post(url, {"action": "close_registration", "_selected_action": [tournament.pk]})
    tournament.refresh_from_db()
    assert not tournament.registration_open
    services.entries_import(tournament_id=tournament.pk, by=None, usernames=NAMES[:2])
    response = staff_client.post(url, {"action": "export_standings", "_selected_action": [tournament.pk]})
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][0] == "tournament" and {r[2] for r in rows[1:]} == {"alice", "bob"}


def test_final_round_closes_the_tournament_in_the_admin(staff_client, tournament, players, staff):
    services.entries_import(tournament_id=tournament.pk, by=staff, usernames=NAMES)
    for _ in range(2):
        staff_client.post(reverse("admin:games_tournament_seat", args=[tournament.pk]))
        rnd = TournamentRound.objects.get(tournament=tournament, status=RoundStatus.DRAFT)
        staff_client.post(reverse("admin:games_tournament_publish", args=[rnd.pk]))
        for table in rnd.tables.all():
            staff_client.post(
                reverse("admin:games_tournament_override", args=[table.pk]), {"places": "4 3 2 1", "reason": "test"}
            )
        staff_client.post(reverse("admin:games_tournament_close", args=[rnd.pk]))
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert TournamentSeat.objects.filter(placement__isnull=True).count() == 0
    page = staff_client.get(run_url(tournament)).content.decode()
    assert "Seat next round" not in page


# ----------------------------------------------------------------- fixes of issue 18 (point 5)


class _Outline(HTMLParser):
    """Every id in a page, and the seat lists of the public rounds: (list tag, [text of each seat])."""

    def __init__(self):
        super().__init__()
        self.ids: list[str] = []
        self.seat_lists: list[tuple[str, list[str]]] = []
        self._seat_list = None
        self._item = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if "table-seats" in (attrs.get("class") or "").split():
            self._seat_list = (tag, [])
            self.seat_lists.append(self._seat_list)
        elif tag == "li" and self._seat_list is not None:
            self._item = []

    def handle_endtag(self, tag):
        if tag == "li" and self._item is not None:
            self._seat_list[1].append(" ".join("".join(self._item).split()))
            self._item = None
        elif self._seat_list is not None and tag == self._seat_list[0]:
            self._seat_list = None

    def handle_data(self, data):
        if self._item is not None:
            self._item.append(data)


def _outline(html: str) -> _Outline:
    parser = _Outline()
    parser.feed(html)
    return parser


def _entrants(html: str) -> str:
    match = re.search(r'<ol[^>]*class="entrants"[^>]*>(.*?)</ol>', html, re.S)
    return match.group(0) if match else ""


def test_register_with_htmx_lists_the_player_among_the_entrants_at_once(client, tournament, players):
    client.force_login(players[0])
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "No entrants yet." in _entrants(page)
    html = client.post(reverse("tournaments:register", args=[tournament.pk]), **HX).content.decode()
    assert "You are registered." in html
    entrants = _entrants(html)
    assert 'hx-swap-oob="true"' in entrants and "alice" in entrants and "No entrants yet." not in entrants
    assert '<div id="standings" hx-swap-oob="true">' in html  # the standings come along too
    html = client.post(reverse("tournaments:withdraw", args=[tournament.pk]), **HX).content.decode()
    assert "No entrants yet." in _entrants(html)


def test_a_table_settled_by_override_is_over_and_not_offered_for_play(client, staff, tournament, players, settings):
    settings.RUMMYHUB_BOT_DELAY = 0
    services.entries_import(tournament_id=tournament.pk, by=staff, usernames=NAMES)
    rnd = services.round_publish(round_id=services.round_seat(tournament_id=tournament.pk, by=staff).pk, by=staff)
    table = rnd.tables.get()
    services.table_override(table_id=table.pk, by=staff, places=[1, 2, 3, 4], reason="the players agreed")
    services.round_close(round_id=rnd.pk, by=staff)
    match = Match.objects.get(pk=table.match_id)
    assert match.status == MatchStatus.ABANDONED and match.deadline is None  # no clock takes it again
    client.force_login(players[0])
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "Watch or play" not in page and "Your tournament tables" not in page
    assert f'href="/matches/{match.pk}/"' in page
    assert client.get(f"/matches/{match.pk}/").status_code == 200
    detail = TournamentAudit.objects.get(tournament=tournament, action="result_overridden").detail
    assert detail["ended_match"] == match.pk


def test_the_run_page_and_the_public_page_have_each_id_once(staff_client, staff, tournament, players):
    services.entries_import(tournament_id=tournament.pk, by=staff, usernames=NAMES)
    rnd = services.round_publish(round_id=services.round_seat(tournament_id=tournament.pk, by=staff).pk, by=staff)
    services.table_override(table_id=rnd.tables.get().pk, by=staff, places=[1, 2, 3, 4], reason="test")
    services.round_close(round_id=rnd.pk, by=staff)
    services.round_seat(tournament_id=tournament.pk, by=staff)  # a preview too
    for url in (run_url(tournament), reverse("tournaments:detail", args=[tournament.pk])):
        ids = _outline(staff_client.get(url).content.decode()).ids
        assert "standings" in ids
        assert sorted(i for i in set(ids) if ids.count(i) > 1) == [], url


def test_a_seat_reads_name_then_place_and_points_without_a_second_number(client, staff, tournament, players):
    services.entries_import(tournament_id=tournament.pk, by=staff, usernames=NAMES)
    rnd = services.round_publish(round_id=services.round_seat(tournament_id=tournament.pk, by=staff).pk, by=staff)
    table = rnd.tables.get()
    order = [s.entry.user.username for s in table.seats.order_by("index")]
    services.table_override(table_id=table.pk, by=staff, places=[2, 1, 3, 4], reason="test")
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    [(tag, seats)] = _outline(page).seat_lists
    assert tag == "ul"  # seat order is no ranking: no numbers before the names
    assert seats == [
        f"{order[0]} place 2 · 2 points",
        f"{order[1]} place 1 · 4 points",
        f"{order[2]} place 3 · 1 point",
        f"{order[3]} place 4 · 0 points",
    ]
