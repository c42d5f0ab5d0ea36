"""Collusion leads: simulated tables of 3–5 where one planted pair shares tables about ten times more
often than chance and trades wins is flagged; 100 honest players are not."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from fairplay import collusion, selectors
from games.models import Match, MatchStatus, Seat
from tests.fairplay.simulate import simulate

PLANTED = (0, 1)


@pytest.mark.parametrize("seed", range(4))
def test_a_planted_pair_is_flagged_and_no_honest_player_is(seed):
    tables = simulate(players=100, tables=1500, seed=seed, planted=PLANTED, planted_share=0.45)
    leads = collusion.find_leads(tables)
    flagged = [(lead.a, lead.b) for lead in leads if lead.flagged]
    assert flagged == [PLANTED]
    lead = leads[0]
    # The pair sat together about ten times what chance gives (the simulation's own count) ...
    assert 7 <= lead.ratio <= 16, lead.ratio
    assert lead.shared == sum(1 for t in tables if 0 in t.players and 1 in t.players)
    # ... and the matches are the evidence.
    assert lead.matches == sorted(t.match_id for t in tables if 0 in t.players and 1 in t.players)
    assert lead.z_split >= collusion.MIN_Z


@pytest.mark.parametrize("seed", range(10))
def test_a_hundred_honest_players_are_not_flagged(seed):
    leads = collusion.find_leads(simulate(players=100, tables=1500, seed=100 + seed))
    assert [lead for lead in leads if lead.flagged] == []


def test_friends_who_sit_together_but_play_honestly_are_a_lead_not_a_flag():
    tables = simulate(players=100, tables=1500, seed=3, planted=PLANTED, planted_share=0.45)
    rng = random.Random(3)
    honest = []
    for t in tables:
        # The same seating, honest results: the places of the pair's tables drawn at random.
        if 0 in t.players and 1 in t.players:
            order = list(t.players)
            rng.shuffle(order)
            place = collusion.placements([len(order) - i for i in range(len(order))])
            t = collusion.Table(
                t.match_id, tuple(order), dict(zip(order, place, strict=True)), frozenset({order[0]}), t.seats
            )
        honest.append(t)
    leads = collusion.find_leads(honest)
    assert [(lead.a, lead.b) for lead in leads] == [PLANTED]
    assert not leads[0].flagged


def test_poisson_tail_is_exact_for_small_cases():
    assert collusion.poisson_upper_tail(0, 2.0) == 1.0
    assert collusion.poisson_upper_tail(1, 2.0) == pytest.approx(1 - 2.718281828**-2)
    assert collusion.poisson_upper_tail(3, 1.0) == pytest.approx(1 - 2.5 * 2.718281828**-1)


def test_placements_share_ties():
    assert collusion.placements([10, 5, 5, 0]) == [1.0, 0.5, 0.5, 0.0]
    assert collusion.placements([3, 2, 1]) == [1.0, 0.5, 0.0]


@pytest.mark.django_db
def test_the_admin_page_lists_the_pair_read_from_stored_matches(client, django_user_model, moderator):
    tables = simulate(players=30, tables=300, seed=5, planted=PLANTED, planted_share=0.6)
    # No password: thirty password hashes would be most of this test's time.
    users = django_user_model.objects.bulk_create([django_user_model(username=f"player{i}") for i in range(30)])
    for t in tables:
        match = Match.objects.create(
            variant="manipulation", seats_count=t.seats, status=MatchStatus.FINISHED, finished_at=timezone.now()
        )
        # Totals in the order of the placements (a bot takes no seat here: every seat is a player).
        Seat.objects.bulk_create(
            Seat(
                match=match,
                index=i,
                user=users[p],
                final_total=round(t.placement[p] * 100),
                is_winner=p in t.winners,
            )
            for i, p in enumerate(t.players)
        )
    leads = selectors.collusion_leads()
    assert [
        (users.index(next(u for u in users if u.pk == lead.a)), users.index(next(u for u in users if u.pk == lead.b)))
        for lead in leads
        if lead.flagged
    ] == [PLANTED]
    client.force_login(moderator)
    page = client.get("/admin/fairplay/report/collusion/").content.decode()
    assert "player0" in page and "player1" in page and 'class="flagged"' in page
    assert page.count('class="flagged"') == 1
    # A forged period falls back to the default; matches older than the period are left out.
    assert client.get("/admin/fairplay/report/collusion/?days=%C2%B2").status_code == 200
    Match.objects.update(finished_at=timezone.now() - timedelta(days=30))
    assert 'class="flagged"' not in client.get("/admin/fairplay/report/collusion/?days=7").content.decode()
    assert 'class="flagged"' in client.get("/admin/fairplay/report/collusion/?days=31").content.decode()
