"""Gin tables in the lobby and on the table page (RULES C, D, E.2): the create form, the board of every
seat (box, captain, advisor, spectator), moves through the real forms with and without htmx."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.urls import reverse

from games import services
from games.board.gin import rotation_text
from games.engine import bots as engine_bots
from games.engine import gin
from games.engine.gin import GinMatch
from games.forms import TableCreateForm
from games.models import Event, Match, MatchStatus, Seat
from games.variants import spec_for
from plumbing import answers
from tests.seeds import assert_no_secret_seed

pytestmark = pytest.mark.django_db

CARD_ATTR = re.compile(r"""data-(?:id|ref)=["']([^"']+)["']""")  # in markup and in a swap's selector
HX = {"HTTP_HX_REQUEST": "true"}


def seed_where_captain(seat: int) -> int:
    """A match seed whose role draw (C.2.1) makes ``seat`` the captain."""
    for seed in range(1, 500):
        t = GinMatch.start(gin.GinRules(variant="box3"), random.Random(seed))
        if t.captain == seat:
            return seed
    raise AssertionError("no seed found")


def start_box_table(make_user, *, captain: int = 0, humans: int = 1):
    users = [make_user(n) for n in ("alice", "bob", "carol")[:humans]]
    match = services.match_create(host=users[0], variant="gin_box", seats_count=3, bots=3 - humans)
    for u in users[1:]:
        services.seat_join(match_id=match.pk, user=u)
    Match.objects.filter(pk=match.pk).update(seed=seed_where_captain(captain))
    services.match_start(match_id=match.pk, user=users[0])
    return Match.objects.get(pk=match.pk), users


def round_state(match: Match):
    match.refresh_from_db()
    return spec_for(match.variant).load(match.state["round"])


def shown_ids(html: str) -> set[str]:
    return set(CARD_ATTR.findall(html))


# ----------------------------------------------------------------------- lobby form


def test_lobby_offers_every_gin_variant_with_per_variant_defaults(client, make_user):
    client.force_login(make_user("alice"))
    html = client.get(reverse("games:lobby")).content.decode()
    for variant in ("gin_box", "gin", "oklahoma", "hollywood", "manipulation"):
        assert f'value="{variant}"' in html
    defaults = json.loads(re.search(r'<script id="gin-defaults" type="application/json">(.*?)</script>', html, re.S)[1])
    # RULES E.2: end bonuses off for three players, on for two; Oklahoma plays to 150.
    assert defaults["gin_box"]["gin_end_bonuses"] == "off"
    assert defaults["gin"]["gin_end_bonuses"] == "on"
    assert defaults["oklahoma"]["gin_game_target"] == 150
    assert defaults["gin"]["gin_game_target"] == 100
    assert 'name="gin_advisor_can_advise"' in html and 'name="opt_jokers"' in html


def test_create_form_posts_a_gin_table_with_only_changed_options(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("games:create"),
        {
            "variant": "oklahoma",
            "seats": "5",
            "bots": "1",
            "turn_timer": "0",
            "gin_game_target": "150",
            "gin_gin_bonus": "20",
            "gin_undercut_bonus": "10",
            "gin_end_bonuses": "",
            "gin_undercut_on_tie": "on",
            "gin_no_discard_of_taken_card": "on",
            "gin_oklahoma_spades_double": "on",
            "gin_knock_limit": "3",  # not an Oklahoma option: the upcard sets the limit (D.2.1)
        },
    )
    match = Match.objects.get(host=alice)
    assert response.status_code == 302 and response["Location"] == reverse("games:table", args=[match.pk])
    assert match.variant == "oklahoma" and match.seats_count == 2
    assert match.options["gin_bonus"] == 20 and match.options["game_target"] == 150
    assert match.options["knock_limit"] == 10
    assert Seat.objects.filter(match=match).exclude(bot_policy="").count() == 1


def test_create_form_keeps_manipulation_tables_as_before():
    form = TableCreateForm(
        {
            "variant": "manipulation",
            "seats": "4",
            "bots": "2",
            "turn_timer": "30",
            **{f.html_name: f.value() for f in TableCreateForm().option_fields()},
        }
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["seats"] == 4 and form.rule_options() == {}


def test_create_form_hollywood_on_oklahoma_play_and_too_many_bots():
    form = TableCreateForm(
        {
            "variant": "hollywood",
            "seats": "3",
            "bots": "1",
            "turn_timer": "0",
            "gin_oklahoma": "on",
            "gin_oklahoma_spades_double": "on",
            "gin_hollywood_target": "125",
            "gin_end_bonuses": "on",
            "gin_undercut_on_tie": "on",
            "gin_no_discard_of_taken_card": "on",
        }
    )
    assert form.is_valid(), form.errors
    assert form.rule_options() == {"oklahoma": True, "hollywood_target": 125}
    too_many = TableCreateForm({"variant": "gin", "seats": "5", "bots": "3", "turn_timer": "0"})
    assert not too_many.is_valid() and "bots" in too_many.errors


# ----------------------------------------------------------------------- the board


def test_each_seat_sees_its_own_board_and_nothing_more(client, make_user):
    match, (alice, bob, carol) = start_box_table(make_user, captain=0, humans=3)
    state = round_state(match)
    assert state.captain == 0
    pages = {}
    for user in (alice, bob, carol):
        client.force_login(user)
        pages[Seat.objects.get(match=match, user=user).index] = client.get(
            reverse("games:table", args=[match.pk])
        ).content.decode()
    client.force_login(make_user("dave"))
    spectator = client.get(reverse("games:table", args=[match.pk])).content.decode()
    hands = {i: {gin.IDS[c] for c in h} for i, h in enumerate(state.hands)}
    stock = {gin.IDS[c] for c in state.stock}
    box, captain, advisor = state.dealer, state.nondealer, state.advisor
    allowed = {box: hands[box], captain: hands[captain], advisor: hands[captain], None: set()}
    for seat, page in [*pages.items(), (None, spectator)]:
        shown = shown_ids(page) - {gin.IDS[c] for c in state.discard}
        assert shown <= allowed[seat], (seat, shown - allowed[seat])
        assert not shown & stock
        assert_no_secret_seed(page, match.pk)
        for role in ("Box", "Captain", "Advisor"):
            assert role in page
    assert "Take the upcard or pass." in pages[captain]
    assert 'data-action="take_upcard"' in pages[captain] and 'data-action="take_upcard"' not in pages[box]
    assert "you advise the captain" in pages[advisor]
    assert "Drawing for roles" in pages[box]


def test_advisor_suggestion_reaches_the_captain_but_never_the_box(client, make_user):
    match, (alice, bob, carol) = start_box_table(make_user, captain=0, humans=3)
    state = round_state(match)
    users = {Seat.objects.get(match=match, user=u).index: u for u in (alice, bob, carol)}
    card = gin.IDS[state.hands[state.captain][0]]
    client.force_login(users[state.advisor])
    response = client.post(
        reverse("games:act", args=[match.pk]),
        {
            "action": "suggest",
            "suggestion": json.dumps({"action": "discard", "card": card}),
            "version": match.version,
        },
        **HX,
    )
    assert response.status_code == 200
    assert "You suggested: discard" in response.content.decode()
    client.force_login(users[state.captain])
    captain_page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert "(advisor) suggests: discard" in captain_page
    assert re.search(rf'class="card[^"]*gin-suggested[^"]*" data-id="{re.escape(card)}"', captain_page)
    client.force_login(users[state.dealer])
    box_page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert "suggest" not in box_page.lower()  # neither the advice nor that it was given (C.2.4)
    assert Event.objects.filter(match=match, summary__code="suggest").count() == 1


def test_captain_plays_through_the_forms_with_and_without_htmx(client, make_user, settings):
    settings.RUMMYHUB_FIXED_SEED = "3"
    match, (alice,) = start_box_table(make_user, captain=0)
    client.force_login(alice)
    url = reverse("games:act", args=[match.pk])
    # without htmx: a redirect back to the table
    response = client.post(url, {"action": "pass_upcard", "version": match.version})
    assert response.status_code == 302
    services.run_until_human(match_id=match.pk)
    match.refresh_from_db()
    state = round_state(match)
    if state.seat_to_act == 0 and state.phase == "draw":
        response = client.post(url, {"action": "draw_stock", "version": match.version}, **HX)
        html = response.content.decode()
        assert response.status_code == 200 and 'id="table-board"' in html and answers.HEADER not in response
        assert 'id="gin-discard-form"' in html and "Deadwood" in html
        # a stale version re-renders the whole board with an error
        stale = client.post(url, {"action": "discard", "card": "AS.0", "version": 0}, **HX)
        assert stale.status_code == 409 and stale[answers.HEADER] == "1"  # the board with the reason, shown
        state = round_state(match)
        taken = state.hands[0][-1]
        card = gin.IDS[taken]
        match.refresh_from_db()
        response = client.post(url, {"action": "discard", "card": card, "version": match.version}, **HX)
        assert response.status_code == 200
        assert len(round_state(match).hands[0]) == 10


def test_knock_layout_is_proposed_and_a_chosen_one_is_validated(client, make_user):
    match, (alice,) = start_box_table(make_user, captain=0)
    # Give the captain a hand that can knock: the engine's fixture deal, saved as the match's round.
    rules = gin.GinRules(variant="box3")
    state = round_state(match)
    roles = {"roles": (state.dealer, state.nondealer, state.advisor)}
    hands = [[], [], []]
    hands[state.nondealer] = "7H 8H 9H 7S 7D 7C AS 2S 3S KD".split()
    hands[state.dealer] = "2H 3H 4C 5C 9D TD JS QS 6H 6D".split()
    dealt = gin.deal_from_cards(rules, hands, "KC", **roles)
    match.state = {**match.state, "round": gin.to_dict(dealt)}
    match.save(update_fields=["state"])
    client.force_login(alice)
    url = reverse("games:act", args=[match.pk])
    client.post(url, {"action": "take_upcard", "version": match.version}, **HX)
    match.refresh_from_db()
    html = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert 'data-knock-card="KD.0"' in html and 'data-knock-card="KC.0"' not in html  # the taken card stays
    assert "Knock discarding King of diamonds — deadwood 0" not in html
    bad = json.dumps([["7H.0", "8H.0", "9H.0"], ["7S.0", "7D.0", "KC.0"]])
    response = client.post(url, {"action": "knock", "card": "KD.0", "melds": bad, "version": match.version}, **HX)
    assert response.status_code == 400 and "not a meld" in response.content.decode()
    match.refresh_from_db()
    response = client.post(url, {"action": "knock", "card": "KD.0", "melds": "", "version": match.version}, **HX)
    html = response.content.decode()
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status in (MatchStatus.BETWEEN_ROUNDS, MatchStatus.FINISHED)
    assert "gin-result" in html and "after lay-offs" in html
    assert "Roles:" in html  # the rotation is announced (C.9)
    # The hand's result is Gin's own: no second, Manipulation-style table of "cards left" (issue 15 point 6).
    assert 'class="panel round-end"' not in html and "Cards left</th>" not in html


def knock_choices_after_taking(client, make_user, captain_hand: str, upcard: str) -> str:
    """The captain's table page after taking ``upcard`` into ``captain_hand`` (ten cards)."""
    match, (alice,) = start_box_table(make_user, captain=0)
    state = round_state(match)
    hands = [[], [], []]
    hands[state.nondealer] = captain_hand.split()
    hands[state.dealer] = "4H 5H 4C 5C 9D TD JS QS 6H 6D".split()
    dealt = gin.deal_from_cards(
        gin.GinRules(variant="box3"), hands, upcard, roles=(state.dealer, state.nondealer, state.advisor)
    )
    match.state = {**match.state, "round": gin.to_dict(dealt)}
    match.save(update_fields=["state"])
    client.force_login(alice)
    client.post(reverse("games:act", args=[match.pk]), {"action": "take_upcard", "version": match.version}, **HX)
    return client.get(reverse("games:table", args=[match.pk])).content.decode()


def test_many_knock_choices_are_one_list_with_the_least_deadwood_chosen(client, make_user):
    """Four cards to knock with (A♦ 2, A♣ 9, 2♣ 8, 3♣ 7 left; not the 2♥ just taken): a list and one
    button, as the discard (a button each ran off a phone's board), opening the layout editor."""
    page = knock_choices_after_taking(client, make_user, "7H 8H 9H KS KH KD AC 2C 3C AD", "2H")
    form = re.search(r'<form[^>]*id="gin-knock-form".*?</form>', page, re.S).group(0)
    options = re.findall(r'<option value="([^"]*)" data-knock-card="([^"]+)"( selected)?', form)
    assert sorted(card for _, card, _ in options) == ["2C.0", "3C.0", "AC.0", "AD.0"]
    assert [card for _, card, chosen in options if chosen] == ["AD.0"]  # deadwood 2, the least
    assert {json.loads(html.unescape(value))["card"] for value, card, _ in options} == {c for _, c, _ in options}
    # The form opens the layout editor: it posts to the table's draft (whatever the match's id).
    draft = reverse("games:draft", args=[987654321]).replace("987654321", r"\d+")
    assert "<button" in form and "data-knock-open" in form and re.search(f'action="{draft}"', form)
    assert '<button class="button button-danger button-small" data-knock-card=' not in page


def test_two_knock_choices_are_a_list_one_is_a_button(client, make_user):
    """Either end of the four hearts (2♦ left, the card just taken): two choices, a list; one end of
    three hearts (2♦ left): one choice, its button."""
    page = knock_choices_after_taking(client, make_user, "7H 8H 9H TH KS KH KD 5S 6S 7S", "2D")
    options = re.findall(r'<option value="[^"]*" data-knock-card="([^"]+)"', page)
    assert sorted(options) == ["7H.0", "TH.0"] and "data-knock-open" in page


def test_one_knock_choice_is_a_button(client, make_user):
    page = knock_choices_after_taking(client, make_user, "7H 8H 9H 4D KS KH KD 5S 6S 7S", "2D")
    assert 'id="gin-knock-form"' not in page and "data-knock-select" not in page
    buttons = re.findall(r'<button class="button button-danger button-small" data-knock-card="([^"]+)"', page)
    assert buttons == ["4D.0"]


def test_big_gin_is_offered_when_the_option_is_on_and_all_eleven_cards_meld(client, make_user):
    """RULES D.1.6 / E.2 ``big_gin``: after taking the eleventh card, knock without discarding."""
    match, (alice,) = start_box_table(make_user, captain=0)
    state = round_state(match)
    rules = gin.GinRules(variant="box3", big_gin="31")
    hands = [[], [], []]
    hands[state.nondealer] = "7H 8H 9H TH 7S 7D 7C AS 2S 3S".split()
    hands[state.dealer] = "2H 3H 4C 5C 9D TD JS QS 6H 6D".split()
    dealt = gin.deal_from_cards(rules, hands, "4S", roles=(state.dealer, state.nondealer, state.advisor))
    match.state = {**match.state, "round": gin.to_dict(dealt)}
    match.options = {**match.options, "big_gin": "31"}
    match.save(update_fields=["state", "options"])
    client.force_login(alice)
    url = reverse("games:act", args=[match.pk])
    board = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert 'data-action="big-gin"' not in board  # ten cards: not yet
    client.post(url, {"action": "take_upcard", "version": match.version}, **HX)
    match.refresh_from_db()
    board = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert 'data-action="big-gin"' in board
    response = client.post(url, {"action": "knock", "version": match.version}, **HX)
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status in (MatchStatus.BETWEEN_ROUNDS, MatchStatus.FINISHED)
    assert match.rounds.order_by("-number").first().outcome.get("big_gin") is True


def test_big_gin_is_not_offered_when_the_option_is_off(client, make_user):
    match, (alice,) = start_box_table(make_user, captain=0)
    state = round_state(match)
    hands = [[], [], []]
    hands[state.nondealer] = "7H 8H 9H TH 7S 7D 7C AS 2S 3S".split()
    hands[state.dealer] = "2H 3H 4C 5C 9D TD JS QS 6H 6D".split()
    dealt = gin.deal_from_cards(
        gin.GinRules(variant="box3"), hands, "4S", roles=(state.dealer, state.nondealer, state.advisor)
    )
    match.state = {**match.state, "round": gin.to_dict(dealt)}
    match.save(update_fields=["state"])
    client.force_login(alice)
    client.post(reverse("games:act", args=[match.pk]), {"action": "take_upcard", "version": match.version}, **HX)
    board = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert 'data-action="big-gin"' not in board and 'data-knock-card="' in board


def test_rotation_is_announced_in_words():
    names = {0: "Ann", 1: "Ben", 2: "Cy"}
    roles = {"box": 0, "captain": 1, "advisor": 2}
    assert rotation_text(roles, 0, names).startswith("Ann stays in the box; Ben and Cy swap")
    assert "Ben won as captain and takes the box; Cy becomes captain and Ann sits out" in rotation_text(roles, 1, names)
    assert "deals again" in rotation_text(roles, None, names)


@pytest.mark.parametrize("variant", ["gin", "oklahoma", "hollywood", "gin_box"])
def test_every_variant_renders_to_the_end_of_the_game(client, alice, settings, variant):
    settings.RUMMYHUB_FIXED_SEED = "7"
    seats = 3 if variant == "gin_box" else 2
    options = {"hollywood_target": 100} if variant == "hollywood" else {"game_target": 60}
    match = services.match_create(host=alice, variant=variant, seats_count=seats, options=options, bots=seats - 1)
    services.match_start(match_id=match.pk, user=alice)
    client.force_login(alice)
    table_url = reverse("games:table", args=[match.pk])
    seen_result = False
    for _ in range(3000):
        services.run_until_human(match_id=match.pk)
        match.refresh_from_db()
        html = client.get(table_url, **HX).content.decode()
        assert 'id="gin-board"' in html
        seen_result |= "gin-result" in html
        if match.status == MatchStatus.FINISHED:
            break
        state = round_state(match)
        if state.seat_to_act != 0:
            continue
        action = engine_bots.choose_action(state, 0, policy="basic")
        services.turn_submit(match_id=match.pk, user=alice, action=action, expected_version=match.version)
    assert match.status == MatchStatus.FINISHED and seen_result
    html = client.get(table_url).content.decode()
    assert "End of the game" in html and "Rematch" in html
    if variant == "hollywood":
        assert all(f"Game {n}" in html for n in (1, 2, 3))


def test_advisor_move_suggestions_are_posted_as_rendered(client, make_user):
    match, (alice, bob, carol) = start_box_table(make_user, captain=0, humans=3)
    state = round_state(match)
    users = {Seat.objects.get(match=match, user=u).index: u for u in (alice, bob, carol)}
    client.force_login(users[state.advisor])
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    values = [html.unescape(v) for v in re.findall(r'name="suggestion" value="([^"]+)"', page)]
    assert {"action": "take_upcard"} in [json.loads(v) for v in values]
    response = client.post(
        reverse("games:act", args=[match.pk]),
        {
            "action": "suggest",
            "suggestion": json.dumps({"action": "take_upcard"}),
            "version": match.version,
        },
        **HX,
    )
    assert response.status_code == 200
    client.force_login(users[state.captain])
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert "(advisor) suggests: take the upcard" in page
    assert 'data-advised-action="take_upcard"' in page


def test_hand_order_is_the_players_own_and_survives_reloads(client, make_user):
    match, (alice,) = start_box_table(make_user, captain=0)
    client.force_login(alice)
    hand = [gin.IDS[c] for c in round_state(match).hands[0]]
    order = list(reversed(hand))
    response = client.post(
        reverse("games:act", args=[match.pk]), {"action": "sort", "mode": "custom", "order": json.dumps(order)}, **HX
    )
    assert response.status_code == 200
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    hand_html = page.split('id="gin-hand"', 1)[1].split("</ol>", 1)[0]
    assert re.findall(r'data-id="([^"]+)"', hand_html) == order
    client.post(reverse("games:act", args=[match.pk]), {"action": "sort", "mode": "rank"})
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    hand_html = page.split('id="gin-hand"', 1)[1].split("</ol>", 1)[0]
    ranks = [gin.card_index(c) % 13 for c in re.findall(r'data-id="([^"]+)"', hand_html)]
    assert ranks == sorted(ranks)


def test_dead_hand_is_announced(client, make_user):
    match, (alice,) = start_box_table(make_user, captain=0)
    state = round_state(match)
    # Two hands of 90 deadwood with no meld in reach (nobody can knock before the stock is down to
    # two cards, whatever the bots draw: RULES C.8), three cards of stock.
    unmeldable = iter(
        [
            ["KS", "QH", "JD", "TC", "9S", "8H", "7D", "6C", "KH", "QD"],
            ["KD", "QC", "JS", "TH", "9D", "8C", "7S", "6H", "KC", "QS"],
        ]
    )
    hands = [[c + ".0" for c in next(unmeldable)] if h else [] for h in state.hands]
    dealt = gin.deal_from_cards(
        state.rules, hands, "2S.0", ["3H.0", "4D.0", "5C.0"], roles=(state.dealer, state.nondealer, state.advisor)
    )
    match.state = {**match.state, "round": gin.to_dict(dealt)}
    match.save(update_fields=["state"])
    client.force_login(alice)
    url = reverse("games:act", args=[match.pk])
    for _ in range(10):
        match.refresh_from_db()
        s = round_state(match)
        if s.phase == "over":
            break
        if s.seat_to_act == 0:
            action = gin.timeout_actions(s, 0)[0]
            client.post(url, {"action": action["type"], "card": action.get("card", ""), "version": match.version})
        else:
            services.run_until_human(match_id=match.pk, deal=False)
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert round_state(match).result.kind == "dead"
    assert "Dead hand" in page and "deals again" in page


# ----------------------------------------------------------------------- the knock layout editor (C.6.2)

EDIT_HAND = "5H 6H 7H 8H 5S 5D AS 2S 3S KD".split()  # + the upcard KC; knock discarding KD


def knock_fixture(client, make_user, *, humans: int = 1):
    """The captain (seat 0, alice) has taken the upcard KC and may knock discarding KD: the proposed
    layout is 5H 5S 5D · 6H 7H 8H · AS 2S 3S with KC as deadwood (10)."""
    match, users = start_box_table(make_user, captain=0, humans=humans)
    state = round_state(match)
    hands = [[], [], []]
    hands[state.nondealer] = EDIT_HAND
    hands[state.dealer] = "2H 3H 4C 5C 9D TD JS QS QH QD".split()
    dealt = gin.deal_from_cards(state.rules, hands, "KC", roles=(state.dealer, state.nondealer, state.advisor))
    match.state = {**match.state, "round": gin.to_dict(dealt)}
    match.save(update_fields=["state"])
    client.force_login(users[0])
    client.post(reverse("games:act", args=[match.pk]), {"action": "take_upcard", "version": match.version}, **HX)
    match.refresh_from_db()
    assert round_state(match).phase == "discard"
    return match, users


def post_layout(client, match, layout, **extra):
    return client.post(
        reverse("games:draft", args=[match.pk]), {"table": json.dumps(layout), "version": match.version, **extra}, **HX
    )


def ids(cards: str) -> list[str]:
    return [c + ".0" for c in cards.split()]


def editor_html(page: str) -> str:
    assert 'id="gin-knock-editor"' in page
    return page.split('id="gin-knock-editor"', 1)[1].split("</section>", 1)[0]


def groups_of(page: str) -> list[list[str]]:
    ed = editor_html(page)
    return [re.findall(r'data-id="([^"]+)"', part.split("</ol>", 1)[0]) for part in ed.split('class="cards-row')[1:]]


def test_knock_editor_opens_with_the_proposed_layout_for_the_knocker_only(client, make_user):
    match, (alice, bob, carol) = knock_fixture(client, make_user, humans=3)
    version = match.version
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert 'data-knock-card="KD.0"' in page and 'id="gin-knock-editor"' not in page
    response = post_layout(client, match, {"card": "KD.0"})
    page = response.content.decode()
    assert response.status_code == 200
    melds, new, dead = (lambda g: (g[:-2], g[-2], g[-1]))(groups_of(page))
    assert sorted(map(sorted, melds)) == sorted(map(sorted, [ids("5H 5S 5D"), ids("6H 7H 8H"), ids("AS 2S 3S")]))
    assert new == [] and dead == ["KC.0"]
    ed = editor_html(page)
    assert "Deadwood: 10 (knock limit 10)" in ed and 'data-layout-ok="true"' in ed
    assert "This is the proposed layout" in ed
    confirm = ed.split('id="gin-knock-confirm"', 1)[1].split("</form>", 1)[0]
    assert 'name="melds" value=""' in confirm and "disabled" not in confirm
    assert 'aria-pressed="false"' in ed and "Move here" in ed
    match.refresh_from_db()
    # Kept on the server (a reload shows it) but without a version bump: nobody else is told.
    assert match.version == version and match.draft["card"] == "KD.0" and match.draft["edited"] is False
    assert 'id="gin-knock-editor"' in client.get(reverse("games:table", args=[match.pk])).content.decode()
    # Nobody else sees the editor: not the box, not the advisor (who sees the captain's hand), not a spectator.
    state = round_state(match)
    others = {
        Seat.objects.get(match=match, index=state.box).user,
        Seat.objects.get(match=match, index=state.advisor).user,
        make_user("dave"),
    }
    for user in others:
        client.force_login(user)
        other = client.get(reverse("games:table", args=[match.pk])).content.decode()
        assert "gin-knock-editor" not in other and "Lay out your cards" not in other and "gin-layout" not in other
    # A human advisor's suggestion does not take the captain's draft away.
    client.force_login(Seat.objects.get(match=match, index=state.advisor).user)
    client.post(
        reverse("games:act", args=[match.pk]),
        {"action": "suggest", "suggestion": json.dumps({"action": "knock"}), "version": match.version},
        **HX,
    )
    match.refresh_from_db()
    assert match.draft and match.draft["card"] == "KD.0"


def test_knock_editor_valid_edit_is_confirmed_with_that_layout(client, make_user):
    match, _ = knock_fixture(client, make_user)
    post_layout(client, match, {"card": "KD.0"})
    layout = [ids("AS 2S 3S"), ids("5S 5H 5D"), ids("8H 7H 6H")]
    page = post_layout(client, match, {"card": "KD.0", "melds": layout}).content.decode()
    ed = editor_html(page)
    assert 'data-layout-ok="true"' in ed and "Meld 2 (set)" in ed and "Meld 3 (run)" in ed
    assert "This is the proposed layout" not in ed and "Back to the proposed layout" in ed
    melds_field = html.unescape(re.search(r'name="melds" value="([^"]*)"', ed)[1])
    assert json.loads(melds_field) == layout
    match.refresh_from_db()
    response = client.post(
        reverse("games:act", args=[match.pk]),
        {"action": "knock", "card": "KD.0", "melds": melds_field, "version": match.version},
        **HX,
    )
    assert response.status_code == 200 and "gin-result" in response.content.decode()
    result = round_state(match).result
    assert result.knocker == 0 and result.settlement.knocker_deadwood == 10
    assert sorted(map(sorted, result.settlement.knocker_melds)) == sorted(map(sorted, layout))
    match.refresh_from_db()
    assert match.draft is None


def test_knock_editor_shows_an_invalid_meld_with_its_reason(client, make_user):
    match, _ = knock_fixture(client, make_user)
    post_layout(client, match, {"card": "KD.0"})
    # 5H moved from the set onto the run: the run is longer, the two fives left are no meld.
    page = post_layout(client, match, {"card": "KD.0", "melds": [ids("5S 5D"), ids("5H 6H 7H 8H"), ids("AS 2S 3S")]})
    ed = editor_html(page.content.decode())
    assert page.status_code == 200
    assert 'class="meld-box meld-invalid"' in ed and "Not a meld: a meld needs at least three cards." in ed
    assert "Deadwood: 20 (knock limit 10)" in ed and "Not every group is a meld" in ed
    assert 'data-layout-ok="false"' in ed
    assert re.search(r'data-action="knock" disabled', ed)
    match.refresh_from_db()
    assert match.draft["report"] == {"ok": False, "code": "invalid_meld"}
    page = post_layout(client, match, {"card": "KD.0", "melds": [ids("QH KH AH")]}).content.decode()  # not in hand
    assert "data-error-code" in page
    ace = post_layout(client, match, {"card": "KD.0", "melds": [ids("AS 2S 3S 5S")]}).content.decode()
    assert "Not a meld: a run needs three or more cards in sequence." in editor_html(ace)


def test_knock_editor_deadwood_over_the_limit_is_refused_on_confirm(client, make_user):
    match, _ = knock_fixture(client, make_user)
    layout = [ids("5H 6H 7H 8H"), ids("AS 2S 3S")]  # 5S 5D KC: deadwood 20
    page = post_layout(client, match, {"card": "KD.0", "melds": layout}).content.decode()
    ed = editor_html(page)
    assert "Deadwood 20 is more than the knock limit 10" in ed and 'data-layout-ok="false"' in ed
    match.refresh_from_db()
    before = (match.version, match.state["round"])
    response = client.post(
        reverse("games:act", args=[match.pk]),
        {"action": "knock", "card": "KD.0", "melds": json.dumps(layout), "version": match.version},
        **HX,
    )
    assert response.status_code == 400 and 'data-error-code="knock_too_high"' in response.content.decode()
    match.refresh_from_db()
    assert (match.version, match.state["round"]) == before and round_state(match).phase == "discard"
    assert match.draft["melds"] == layout  # the layout stays to be fixed
    assert 'id="gin-knock-editor"' in response.content.decode()


@pytest.mark.parametrize(
    "layout",
    [
        {"card": "KD.0", "melds": [["5H.0", "6H.0", "7H.0"], ["QH.0", "QD.0", "QS.0"]]},  # the box's cards
        {"card": "KD.0", "melds": [["5H.0", "6H.0", "ZZ.9"]]},
        {"card": "KD.0", "melds": [["5H.0", "6H.0", "7H.0"], ["7H.0", "8H.0", "9H.0"]]},  # a card twice
        {"card": "KD.0", "melds": [["KD.0", "KC.0", "5H.0"]]},  # the knock card itself
        {"card": "KC.0"},  # the card just taken from the pile (C.5.3)
        {"card": "QH.0"},  # a card of the box
        {"card": "KD.0", "melds": "5H 6H 7H"},
        {"card": "KD.0", "melds": [[5, 6, 7]]},
        {"card": "KD.0", "extra": 1},
        ["KD.0"],
    ],
)
def test_knock_editor_refuses_forged_layouts_and_changes_nothing(client, make_user, layout):
    match, _ = knock_fixture(client, make_user)
    post_layout(client, match, {"card": "KD.0"})
    match.refresh_from_db()
    before = (match.version, match.draft, match.state)
    response = post_layout(client, match, layout)
    assert response.status_code == 400 and "data-error-code" in response.content.decode()
    match.refresh_from_db()
    assert (match.version, match.draft, match.state) == before


def test_knock_editor_only_on_the_players_turn_and_gone_after_another_move(client, make_user):
    match, (alice, bob, carol) = knock_fixture(client, make_user, humans=3)
    state = round_state(match)
    box_user = Seat.objects.get(match=match, index=state.box).user
    client.force_login(box_user)
    response = post_layout(client, match, {"card": "2H.0"})
    assert response.status_code == 400 and 'data-error-code="not_your_turn"' in response.content.decode()
    client.force_login(alice)
    post_layout(client, match, {"card": "KD.0"})
    response = post_layout(client, match, {"cancel": True})
    assert 'id="gin-knock-editor"' not in response.content.decode()
    match.refresh_from_db()
    assert match.draft is None
    post_layout(client, match, {"card": "KD.0", "melds": [ids("AS 2S 3S")]})
    match.refresh_from_db()
    client.post(
        reverse("games:act", args=[match.pk]), {"action": "discard", "card": "KD.0", "version": match.version}, **HX
    )
    match.refresh_from_db()
    assert match.draft is None


@pytest.mark.parametrize(
    "suggestion",
    [
        {"action": "discard", "card": "ZZ"},
        {"action": "discard", "card": "8S.7"},
        {"action": "knock", "card": ["x"]},
        {"action": "fly"},
        {"card": "AS.0"},
    ],
)
def test_a_bad_suggestion_is_refused_and_the_table_still_works_for_everyone(client, make_user, suggestion):
    """Issue 13.2: an advisor's malformed suggestion gave a 500, and then the table page answered 500
    to the advisor and the captain for good."""
    match, (alice, bob, carol) = start_box_table(make_user, captain=0, humans=3)
    state = round_state(match)
    users = {Seat.objects.get(match=match, user=u).index: u for u in (alice, bob, carol)}
    before = Match.objects.get(pk=match.pk)
    client.force_login(users[state.advisor])
    response = client.post(
        reverse("games:act", args=[match.pk]),
        {"action": "suggest", "suggestion": json.dumps(suggestion), "version": match.version},
        **HX,
    )
    assert response.status_code == 400
    assert 'data-error-code="' in response.content.decode() or "error" in response.content.decode()
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.state) == (before.version, before.state)
    for index in (state.advisor, state.captain, state.dealer):
        client.force_login(users[index])
        assert client.get(reverse("games:table", args=[match.pk])).status_code == 200


@pytest.mark.parametrize("variant, seats", [("gin_box", 3), ("gin", 2)])
def test_each_seat_is_listed_once_with_its_role(client, make_user, variant, seats):
    """Issue 15: the three-player board showed the seats twice, a seat bar and a roles bar (the
    second cut off at 1280 px). One list: each seat once, with its role where the game has roles."""
    users = [make_user(n) for n in ("alice", "bob", "carol")[:seats]]
    match = services.match_create(host=users[0], variant=variant, seats_count=seats)
    for user in users[1:]:
        services.seat_join(match_id=match.pk, user=user)
    services.match_start(match_id=match.pk, user=users[0])
    client.force_login(users[0])
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    head = page[page.index('id="board-head"') : page.index('id="actions"')]
    listed = re.findall(r'<li [^>]*data-seat="(\d)"', head)
    assert sorted(listed) == [str(i) for i in range(seats)]
    state = round_state(match)
    if seats == 3:
        for role, index in (("Box", state.dealer), ("Captain", state.nondealer), ("Advisor", state.advisor)):
            row = re.search(rf'<li id="seat-{index}".*?</li>', page, re.S).group(0)
            assert role in row
        advisor_row = re.search(rf'<li id="seat-{state.advisor}".*?</li>', page, re.S).group(0)
        assert "advises the captain" in advisor_row and "0 cards" not in advisor_row


def test_the_advisor_is_told_what_they_may_do_and_that_they_play_next(client, make_user):
    """Issue 25 point 5: a newcomer drawn as the advisor (RULES C.2.1) reads what the advisor does
    (C.2.4: sees the captain's cards, suggests, the captain decides) and that they play the next hand
    (C.9); the captain and the box see no such note."""
    match, (alice, bob, carol) = start_box_table(make_user, captain=0, humans=3)
    state = round_state(match)
    pages = {}
    for user in (alice, bob, carol):
        client.force_login(user)
        pages[Seat.objects.get(match=match, user=user).index] = client.get(
            reverse("games:table", args=[match.pk])
        ).content.decode()
    advisor = pages[state.advisor]
    assert 'id="gin-advisor-note"' in advisor
    assert "You are the advisor this hand." in advisor and "suggest moves to them" in advisor
    assert "you play the next one as the captain" in advisor
    assert 'id="gin-advisor-note"' not in pages[state.dealer] and 'id="gin-advisor-note"' not in pages[state.nondealer]


def test_an_advisor_without_advice_is_told_so(client, make_user):
    alice = make_user("alice")
    match = services.match_create(
        host=alice, variant="gin_box", seats_count=3, bots=2, options={"advisor_can_advise": False}
    )
    Match.objects.filter(pk=match.pk).update(seed=seed_where_captain(1))
    services.match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    if round_state(match).advisor != 0:
        pytest.skip("the seed made alice the box")  # pragma: no cover
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[match.pk])).content.decode()
    assert "At this table the advisor gives no suggestions." in page
    assert "Suggest discarding" not in page
