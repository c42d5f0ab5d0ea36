"""Issue 13: what a user sends cannot break a table or the site.

Bounded options (13.1), malformed values refused with a clear 400 before anything runs
(13.3), moves that must name their version (13.7), and the input layer itself.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import commands, services
from games.engine import gin
from games.engine import manipulation as manip
from games.engine.errors import InvalidAction
from games.forms import TableCreateForm
from games.models import ChatMessage, Event, Match, Seat
from plumbing import inputs

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def deep(n: int) -> str:
    return "[" * n + "]" * n


@pytest.fixture
def table(client, make_user, settings):
    """A started two-player Manipulation table; alice (seat 0, the host) is signed in."""
    settings.RUMMYHUB_FIXED_SEED = "5"
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    mover = alice if match.state["round"]["seat_to_act"] == 0 else bob
    client.force_login(mover)
    client.mover = mover
    return match


def snapshot(match_id: int):
    match = Match.objects.get(pk=match_id)
    seats = list(
        Seat.objects.filter(match_id=match_id)
        .order_by("index")
        .values_list("user_id", "bot_policy", "hand_order", "ready")
    )
    return (
        match.version,
        match.state,
        match.draft,
        match.status,
        seats,
        Event.objects.filter(match_id=match_id).count(),
        ChatMessage.objects.filter(match_id=match_id).count(),
    )


# --------------------------------------------------------------------- 13.1 bounded options


@pytest.mark.parametrize(
    "key",
    [
        "game_bonus",
        "round_won_bonus",
        "going_out_bonus",
        "undercut_bonus",
        "joker_value",
        "first_meld_min_points",
        "game_target",
    ],
)
def test_every_manipulation_score_option_has_an_upper_bound_in_the_engine(key):
    lo, hi = manip.OPTION_RANGES[key]
    manip.ManipulationRules(**{key: hi})
    with pytest.raises(InvalidAction) as exc:
        manip.ManipulationRules(**{key: 3_000_000_000})
    assert exc.value.code == "bad_option" and str(hi) in exc.value.message


def test_the_bounds_keep_any_match_total_inside_a_32_bit_column():
    r = manip.OPTION_RANGES
    per_round = (
        5 * 13 * r["joker_value"][1] + r["undercut_bonus"][1] + r["going_out_bonus"][1] + 4 * r["round_won_bonus"][1]
    )
    assert r["game_target"][1] + per_round + r["game_bonus"][1] < 2**31 // 1000
    assert gin.OPTION_RANGES["game_target"][1] + gin.OPTION_RANGES["game_bonus"][1] < 2**31 // 1000


def test_the_lobby_form_refuses_a_huge_bonus_and_shows_every_range(client, make_user):
    client.force_login(make_user("alice"))
    response = client.post(
        reverse("games:create"),
        {
            "variant": "manipulation",
            "seats": 2,
            "bots": 1,
            "turn_timer": 0,
            **{
                f"opt_{k}": v
                for k, v in manip.ManipulationRules().for_players(2).to_dict().items()
                if k in manip.OPTION_RANGES
            },
            "opt_game_bonus": "3000000000",
            "opt_game_target": "1",
            "opt_ace_in_sequences": "high_or_low",
            "opt_knock_timing": "end_of_turn",
        },
    )
    assert response.status_code == 400
    assert Match.objects.count() == 0
    assert "10000" in response.content.decode()  # the error names the largest value
    form = TableCreateForm()
    html = str(form["opt_game_bonus"])
    assert 'max="10000"' in html and 'min="0"' in html
    assert "From 0 to 10000." in str(form["opt_game_bonus"].help_text)
    assert 'max="10000"' in str(form["gin_game_bonus"])


def test_a_match_create_service_call_refuses_an_out_of_range_option(make_user):
    with pytest.raises(services.ActionRefused) as exc:
        services.match_create(
            host=make_user("alice"), variant="manipulation", seats_count=2, options={"game_bonus": 3_000_000_000}
        )
    assert exc.value.code == "bad_option"
    assert Match.objects.count() == 0


# --------------------------------------------------------------------- 13.3 malformed values


@pytest.mark.parametrize("field", ["order", "table", "melds"])
def test_json_nested_a_thousand_deep_is_a_400_and_changes_nothing(client, table, field):
    before = snapshot(table.pk)
    if field == "order":
        url, data = "games:act", {"action": "sort", "mode": "custom", "order": deep(1500)}
    elif field == "table":
        url, data = "games:draft", {"table": deep(1500), "version": table.version}
    else:
        url, data = "games:act", {"action": "knock", "melds": deep(1500), "version": table.version}
    response = client.post(reverse(url, args=[table.pk]), data, **HX)
    assert response.status_code == 400
    assert 'data-error-code="too_deep"' in response.content.decode()
    assert snapshot(table.pk) == before


@pytest.mark.parametrize(
    "path", ["/players/a%00b/", "/history/players/?player=%00", "/history/?player=a%00", "/play/?x=%00"]
)
def test_a_nul_byte_in_a_url_is_a_400_with_its_reason(client, make_user, path):
    client.force_login(make_user("alice"))
    response = client.get(path)
    assert response.status_code == 400
    assert 'data-error-code="bad_character"' in response.content.decode()


def test_a_nul_byte_in_chat_or_an_invite_is_a_400_and_nothing_is_stored(client, table):
    before = snapshot(table.pk)
    for url, data in (
        ("games:chat", {"text": "hi\x00there"}),
        ("games:join", {"invite": "\x00"}),
        ("games:act", {"action": "draw", "version": table.version, "card": "\x00"}),
    ):
        response = client.post(reverse(url, args=[table.pk]), data, **HX)
        assert response.status_code == 400, url
        assert 'data-error-code="bad_character"' in response.content.decode()
    assert client.get(reverse("games:table", args=[table.pk]) + "?invite=%00").status_code == 400
    assert snapshot(table.pk) == before


def test_a_nul_byte_in_a_cookie_is_dropped_not_looked_up(client, make_user):
    client.cookies["sessionid"] = "abcdefgh\x01ijkl"
    assert client.get("/").status_code == 200


@pytest.mark.parametrize("seat", ["²", "①", "١", "-1", "99", "1.0", " 1", "x"])
@pytest.mark.parametrize("url", ["games:join", "games:add_bot", "games:remove_bot"])
def test_a_seat_number_in_other_digits_or_out_of_range_is_refused(client, make_user, alice, url, seat):
    match = services.match_create(host=alice, variant="manipulation", seats_count=3, bots=1)
    client.force_login(alice if url != "games:join" else make_user("bob"))
    before = snapshot(match.pk)
    response = client.post(reverse(url, args=[match.pk]), {"seat": seat}, **HX)
    assert response.status_code == 400
    assert 'data-error-code="bad_seat"' in response.content.decode()
    assert snapshot(match.pk) == before


# --------------------------------------------------------------------- 13.7 moves name their version


def test_a_move_without_a_version_is_refused(client, table):
    before = snapshot(table.pk)
    for data in (
        {"action": "draw"},
        {"action": "draw", "version": ""},
        {"action": "draw", "version": "²"},
        {"action": "draw", "version": "١"},
    ):
        response = client.post(reverse("games:act", args=[table.pk]), data, **HX)
        assert response.status_code == 400
        assert 'data-error-code="bad_version"' in response.content.decode()
    assert snapshot(table.pk) == before
    with pytest.raises(services.ActionRefused) as exc:
        services.turn_submit(match_id=table.pk, user=client.mover, action={"type": "draw"}, expected_version=None)
    assert exc.value.code == "bad_version"


def test_twenty_copies_of_one_draw_play_it_once(client, table):
    """A double click (or 20) carries one version: the first copy plays, the others find the table moved on."""
    codes = [
        client.post(
            reverse("games:act", args=[table.pk]), {"action": "draw", "version": table.version}, **HX
        ).status_code
        for _ in range(20)
    ]
    assert codes.count(200) == 1 and codes.count(409) == 19
    assert Event.objects.filter(match=table, kind="action").count() == 1


# --------------------------------------------------------------------- the layer itself


def test_parse_json_limits_depth_size_characters_and_constants():
    assert inputs.parse_json('[["5S.0", "6S.0"]]') == [["5S.0", "6S.0"]]
    for text, code in (
        (deep(7), "too_deep"),
        (deep(30_000), "too_deep"),
        (deep(100_000), "too_large"),
        ('["a\\u0000"]', "bad_character"),
        ('{"\\u0000": 1}', "bad_character"),
        ("NaN", "bad_json"),
        ("1e999", "bad_json"),
        ("[" + "1," * 3000 + "1]", "too_large"),
        ("{", "bad_json"),
        (None, "bad_type"),
        ('"\\ud800"', "bad_character"),
        ("x" * 70_000, "too_large"),
    ):
        with pytest.raises(inputs.BadInput) as exc:
            inputs.parse_json(text)
        assert exc.value.code == code, text[:20] if isinstance(text, str) else text
    assert inputs.parse_json('["[[[[[[[[[["]') == ["[[[[[[[[[["]  # brackets inside a string do not nest


def test_parse_int_takes_ascii_digits_only():
    assert inputs.parse_int("12", lo=0, hi=20) == 12 and inputs.parse_int(3, lo=0, hi=4) == 3
    for value in ("²", "①", "١٢", "12 ", "", None, True, "1e3", "0x1", "99"):
        with pytest.raises(inputs.BadInput):
            inputs.parse_int(value, lo=0, hi=20)


def test_a_socket_command_field_holding_json_is_checked_the_same_way(table):
    with pytest.raises(services.ActionRefused) as exc:
        commands.command_for("draft", {"table": deep(2000), "version": "1"})
    assert exc.value.code == "too_deep"
    with pytest.raises(services.ActionRefused) as exc:
        commands.command_for("act", {"action": "draw", "version": "1", "x\x00": "y"})
    assert exc.value.code == "bad_character"
    with pytest.raises(services.ActionRefused) as exc:
        commands.command_for("act", {"action": "draw", "version": 1})
    assert exc.value.code == "bad_type"


def test_the_suggestion_field_is_json_through_the_layer():
    action = commands.action_from_fields({"action": "suggest", "suggestion": json.dumps({"action": "take_upcard"})})
    assert action == {"type": "suggest", "suggestion": {"action": "take_upcard"}}
