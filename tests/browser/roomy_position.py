"""A three-player Manipulation table with twenty melds on it, in a known position (the engine state is
data): every hand and the table written into the match's state, with ``to_act`` to play, drawn once."""

from __future__ import annotations

import dataclasses

from games import services
from games.engine import manipulation as manip
from games.engine.cards import Card, make_deck
from games.models import Match, Seat

# Twenty melds from two packs: thirteen groups of three (deck 0), three club runs (deck 0) and four runs
# of deck 1; the 7s group takes 7♣ from the run 4♣-7♣ and the 9s take 9♣ in the moves below.
TWENTY = [f"{r}S.0 {r}H.0 {r}D.0" for r in "23456789TJQKA"] + [
    "2C.0 3C.0 4C.0 5C.0",
    "6C.0 7C.0 8C.0",
    "TC.0 JC.0 QC.0 KC.0",
    "4C.1 5C.1 6C.1 7C.1",
    "2H.1 3H.1 4H.1",
    "5H.1 6H.1 7H.1",
    "8H.1 9H.1 TH.1",
]
HANDS = {
    0: "2D.1 3D.1 KD.1 QS.1 8S.1 JH.1 AC.0 TS.1 5D.1 AD.1",
    1: "4S.1 5S.1 6S.1 2S.1 9D.1 KH.1 QH.1 JD.1 3S.1 8D.1",
    2: "9C.1 JS.1 KS.1 AH.1 2C.1 3C.1 7D.1 TD.1 QD.1 6D.1",
}


def three_players(make_user):
    """A started table of three people, as (match, the users by seat)."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = services.match_create(host=alice, variant="manipulation", seats_count=3)
    services.seat_join(match_id=match.pk, user=bob)
    services.seat_join(match_id=match.pk, user=carol)
    services.match_start(match_id=match.pk, user=alice)
    by_seat = {s.user_id: s.index for s in Seat.objects.filter(match=match)}
    return match, tuple(sorted((alice, bob, carol), key=lambda u: by_seat[u.pk]))


def place(match: Match, *, to_act: int, table=TWENTY, hands=HANDS) -> Match:
    match = Match.objects.get(pk=match.pk)
    state = manip.from_dict(match.state["round"])
    used = {Card.from_code(c).id for h in hands.values() for c in h.split()}
    used |= {Card.from_code(c).id for m in table for c in m.split()}
    stock = tuple(c for c in make_deck(state.rules.packs, state.rules.jokers) if c.id not in used)
    state = dataclasses.replace(
        state,
        hands=tuple(tuple(Card.from_code(c) for c in hands[s].split()) for s in range(state.players)),
        table=tuple(tuple(Card.from_code(c) for c in m.split()) for m in table),
        stock=stock,
        seat_to_act=to_act,
        phase="drawn",
        draws=1,
        has_melded=(True,) * state.players,
    )
    match.state = {**match.state, "round": manip.to_dict(state)}
    match.draft = None
    match.deadline = None  # no automatic step due (a bot's, or a turn played for someone away)
    match.version += 1
    match.save(update_fields=["state", "draft", "deadline", "version"])
    return match


def table_now(match: Match) -> list[list[str]]:
    return [list(m) for m in Match.objects.get(pk=match.pk).state["round"]["table"]]


def play(match: Match, user, action: dict) -> Match:
    match = Match.objects.get(pk=match.pk)
    return services.turn_submit(match_id=match.pk, user=user, action=action, expected_version=match.version)


def end_turn(match: Match, user) -> None:
    """A meld ends the turn by itself unless the player may knock: then they end it."""
    match = Match.objects.get(pk=match.pk)
    seat = Seat.objects.get(match=match, user=user).index
    if match.state["round"]["seat_to_act"] == seat:
        play(match, user, {"type": "end_turn"})


def opponents_move(match: Match, bob, carol) -> None:
    """Bob (to act, drawn) lays 4♠ 5♠ 6♠ as a new meld and moves 7♣ from the run 4♣-7♣ to the 7s; Carol
    draws and lays 9♣ on the 9s.  Then it is Alice's turn."""
    table = table_now(match)
    run = table.index(["4C.1", "5C.1", "6C.1", "7C.1"])
    sevens = table.index(["7S.0", "7H.0", "7D.0"])
    table[run] = ["4C.1", "5C.1", "6C.1"]
    table[sevens] = ["7S.0", "7H.0", "7D.0", "7C.1"]
    play(match, bob, {"type": "meld", "table": [*table, ["4S.1", "5S.1", "6S.1"]]})
    end_turn(match, bob)
    play(match, carol, {"type": "draw"})
    table = table_now(match)
    nines = table.index(["9S.0", "9H.0", "9D.0"])
    table[nines] = ["9S.0", "9H.0", "9D.0", "9C.1"]
    play(match, carol, {"type": "meld", "table": table})
    end_turn(match, carol)
