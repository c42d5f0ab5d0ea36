"""Practice hints: offered and answered only to a player of a practice table where every other seat is
a bot, at their own step; refused (403 / 409 with a code, nothing changed) everywhere else; bounded
(a position too large gets "no hint" at once, one past the search budget the best play found, "not
proven best"); never telling more than the player sees.  Practice
tables are not rated."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services
from games.analysis.selectors import short
from games.history.models import RatedMatch
from games.history.services import rating_update_for_match, rating_update_pending
from games.models import Match, Seat
from games.tournaments.models import Tournament, TournamentRound, TournamentTable
from games.variants import spec_for
from tests.games.analysis.support import DeclineOneMeldStepPerRound, play_with_mistakes

# The hint is worked out on a thread of its own (its own database connection): the rows must be committed.
pytestmark = pytest.mark.django_db(transaction=True)


def practice_table(host, *, variant="manipulation", seats=2, practice=True, bots=None):
    match = services.match_create(
        host=host, variant=variant, seats_count=seats, bots=seats - 1 if bots is None else bots, practice=practice
    )
    return match


def to_my_meld_step(match, user):
    """Start the match and play on (bots at once) until it is ``user``'s meld step (after a draw)."""
    services.match_start(match_id=match.pk, user=user)
    for _ in range(50):
        services.run_until_human(match_id=match.pk)
        match.refresh_from_db()
        state = spec_for(match.variant).load(match.state["round"])
        if state.phase in ("drawn", "final", "discard"):
            return state
        action = (
            {"type": "draw"}
            if match.variant == "manipulation"
            else ({"type": "draw_stock"} if state.phase == "draw" else {"type": "pass_upcard"})
        )
        services.turn_submit(match_id=match.pk, user=user, action=action, expected_version=match.version)
    raise AssertionError("never reached the meld step")


def hint(client, match):
    return client.post(reverse("games:hint", args=[match.pk]))


def test_a_hint_at_a_practice_table_shows_the_best_play_from_what_the_player_sees(client, alice, settings, sent):
    settings.RUMMYHUB_FIXED_SEED = "8"
    match = practice_table(alice)
    state = to_my_meld_step(match, alice)
    client.force_login(alice)
    board = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert 'data-action="hint"' in board and 'id="hint-box"' in board
    before = Match.objects.get(pk=match.pk).version
    response = hint(client, match)
    html = response.content.decode()
    assert response.status_code == 200 and 'data-hint="manipulation"' in html
    assert "Best play" in html or "No card of your hand can be laid now" in html
    # every card the hint names is in the player's hand or on the table (a joker by what it stands for)
    seen = {short(c.id) for c in state.hands[0]} | {short(c.undeclared().id) for m in state.table for c in m}
    named = {re.sub(r"joker \(.*\)", "joker", n) for n in re.findall(r"<bdi>([^<]+)</bdi>", html)}
    assert named and named <= seen
    assert Match.objects.get(pk=match.pk).version == before  # a hint changes nothing


def test_a_gin_hint(client, alice, settings, sent):
    settings.RUMMYHUB_FIXED_SEED = "8"
    match = practice_table(alice, variant="gin")
    to_my_meld_step(match, alice)
    client.force_login(alice)
    html = hint(client, match).content.decode()
    assert 'data-hint="gin"' in html and ("Discard" in html or "Knock" in html or "Gin" in html)


def test_a_hint_past_its_search_budget_shows_the_best_play_found_not_proven_best(
    client, alice, settings, sent, monkeypatch
):
    """Issue 25.14: a position the budget cannot search fully is answered with the best play found by
    then, labelled "not proven best" (it was "no hint").  The solver's integer programme, which settles
    this position within the budget, is given no time (as when it runs past its limit)."""
    from games.engine.manipulation.solver import lp
    from tests.engine.manipulation.helpers import make_state
    from tests.engine.test_analysis import BIG_HAND, BIG_OTHERS, BIG_STOCK, BIG_TABLE

    monkeypatch.setattr(lp, "MILP_SECONDS", 0)

    settings.RUMMYHUB_FIXED_SEED = "8"
    settings.RUMMYHUB_HINT_MAX_STATES = 1_500
    match = practice_table(alice, seats=3)
    to_my_meld_step(match, alice)
    match.refresh_from_db()
    big = make_state([BIG_HAND, *BIG_OTHERS], table=BIG_TABLE, stock=BIG_STOCK)
    state = spec_for("manipulation").load(match.state["round"])
    big = big.__class__(**{**{f: getattr(big, f) for f in big.__dataclass_fields__}, "rules": state.rules})
    Match.objects.filter(pk=match.pk).update(state={**match.state, "round": spec_for("manipulation").dump(big)})
    client.force_login(alice)
    html = hint(client, match).content.decode()
    assert 'data-hint="manipulation"' in html and 'data-proven="false"' in html
    assert "Best play found" in html and "not proven best" in html and "No hint" not in html
    assert 'class="analysis-moves"' in html


def test_a_position_too_large_gets_no_hint_at_once(client, alice, settings, sent, monkeypatch):
    settings.RUMMYHUB_FIXED_SEED = "8"
    monkeypatch.setattr("games.analysis.hints.MAX_HAND", 3)  # beyond it a position is not searched at all
    match = practice_table(alice)
    to_my_meld_step(match, alice)
    client.force_login(alice)
    response = hint(client, match)
    assert response.status_code == 200 and "No hint for this position" in response.content.decode()


@pytest.mark.parametrize("case", ["rated", "human_opponent", "spectator", "tournament"])
def test_hints_are_refused_off_practice_tables(client, alice, bob, settings, sent, case):
    settings.RUMMYHUB_FIXED_SEED = "8"
    match = practice_table(alice, practice=case != "rated", bots=0 if case == "human_opponent" else None)
    if case == "human_opponent":
        services.seat_join(match_id=match.pk, user=bob)
    if case == "tournament":
        cup = Tournament.objects.create(name="Cup", variant="manipulation")
        TournamentTable.objects.create(
            round=TournamentRound.objects.create(tournament=cup, number=1), number=1, match=match
        )
    to_my_meld_step(match, alice)
    client.force_login(bob if case == "spectator" else alice)
    response = hint(client, match)
    assert response.status_code == 403 and 'data-error-code="hints_not_here"' in response.content.decode()
    board = client.get(reverse("games:table", args=[match.pk])).content.decode()
    if case != "tournament":  # (a tournament's own tables are never practice tables: the board is not asked)
        assert 'data-action="hint"' not in board


def test_no_hint_off_the_players_step(client, alice, settings, sent):
    settings.RUMMYHUB_FIXED_SEED = "8"
    match = practice_table(alice)
    client.force_login(alice)
    assert hint(client, match).status_code == 409  # not started
    services.match_start(match_id=match.pk, user=alice)
    services.run_until_human(match_id=match.pk)
    state = spec_for("manipulation").load(Match.objects.get(pk=match.pk).state["round"])
    assert state.phase == "start"
    response = hint(client, match)
    assert response.status_code == 409 and 'data-error-code="no_hint_now"' in response.content.decode()
    assert 'data-action="hint"' not in client.get(reverse("games:table", args=[match.pk])).content.decode()


def test_hint_requests_must_be_posts_by_signed_in_players(client, alice, settings, sent):
    match = practice_table(alice)
    assert hint(client, match).status_code == 302  # to the log-in page
    client.force_login(alice)
    assert client.get(reverse("games:hint", args=[match.pk])).status_code == 405
    assert client.post(reverse("games:hint", args=[99999])).status_code == 403


def test_a_practice_table_is_not_rated_and_its_rematch_is_practice_too(alice, settings, sent):
    match, _ = play_with_mistakes(
        alice,
        settings=settings,
        policy=DeclineOneMeldStepPerRound(),
        seed="5",
        options={"game_target": 30},
        practice=True,
    )
    # finished (and committed): match_finished was sent, the ratings passed it by
    assert not RatedMatch.objects.filter(match=match).exists()
    assert rating_update_for_match(match=match) is None and rating_update_pending() == 0
    assert not RatedMatch.objects.filter(match=match).exists()
    rematch = services.match_rematch(match_id=match.pk, user=alice)
    assert rematch.practice and Seat.objects.filter(match=rematch).count() == 2


def test_the_lobby_creates_a_practice_table(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("games:create"),
        {
            "variant": "manipulation",
            "seats": 3,
            "bots": 2,
            "turn_timer": 0,
            "practice": "on",
            "opt_hand_size": 10,
            **_manipulation_defaults(),
        },
    )
    assert response.status_code == 302
    assert Match.objects.get(host=alice).practice


def _manipulation_defaults():
    from games.forms import TableCreateForm

    form = TableCreateForm()
    out = {}
    for field in form.option_fields():
        value = field.initial if field.initial is not None else ""
        if isinstance(value, bool):
            if value:
                out[field.html_name] = "on"
            continue
        out[field.html_name] = value
    return out


def test_a_burst_of_hint_requests_gets_busy_at_once(client, alice, settings, sent, monkeypatch):
    import threading

    from games.analysis import hints

    settings.RUMMYHUB_FIXED_SEED = "8"
    match = practice_table(alice)
    to_my_meld_step(match, alice)
    client.force_login(alice)
    monkeypatch.setattr(hints, "SEARCHES", threading.BoundedSemaphore(1))
    hints.SEARCHES.acquire()  # another search is running
    response = hint(client, match)
    assert response.status_code == 429 and 'data-error-code="hints_busy"' in response.content.decode()
    hints.SEARCHES.release()
    assert hint(client, match).status_code == 200
