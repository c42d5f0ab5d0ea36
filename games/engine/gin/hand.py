"""The Gin hand state machine (RULES C.3-C.8, D.1-D.2): the deal, ``apply``, legal and timeout actions,
and the hand's outcome."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ..cards import Card
from ..errors import InvalidAction
from ..shuffle import DealRng
from .deadwood import deadwood_mask
from .knock import parse_melds, settle_knock
from .masks import FULL_DECK, IDS, VALUES, card_index, card_items, hand_mask, illegal, mask_cards, mask_points
from .rules import GinRules, as_rules
from .state import GinAction, GinState, HandResult, RoleDraw, action_from_dict, draw_roles, suggestion_from_dict


def oklahoma_knock_limit(upcard: int, rules: GinRules) -> int:
    """RULES D.2.1: 2-9 face value, 10/J/Q/K 10, ace → 0 (gin only) or 1 (option ``oklahoma_ace``)."""
    r = upcard % 13 + 1
    if r == 1:
        return 0 if rules.oklahoma_ace == "gin_only" else 1
    return min(r, 10)


def _seat_count(seats: Any) -> int:
    if isinstance(seats, int) and not isinstance(seats, bool):
        return seats
    try:
        return len(seats)
    except TypeError:
        raise InvalidAction("seats must be a number of seats or a list of seats.", code="bad_seats") from None


def _seats(n: int, rng: DealRng, kw: dict[str, Any]) -> tuple[int, int, int | None, RoleDraw | None]:
    """``(dealer, non-dealer, advisor, role draw)``: three players' roles given or drawn (C.2.1), else
    the two-player dealer given or chosen at random (D.1.2)."""
    if n != 3:
        dealer = kw.get("dealer")
        if dealer is None:
            dealer = rng.randrange(2)
        if dealer not in (0, 1) or isinstance(dealer, bool):
            raise InvalidAction("dealer must be 0 or 1.", code="bad_roles")
        return dealer, 1 - dealer, None, None
    role_draw = None
    roles = kw.get("roles")
    if roles is None and "box" in kw:
        roles = (kw["box"], kw["captain"], kw["advisor"])
    if roles is None:
        role_draw = draw_roles(rng)
        roles = role_draw.roles
    roles = tuple(roles)
    if sorted(roles) != [0, 1, 2] or any(isinstance(x, bool) for x in roles):
        raise InvalidAction("roles must be (box, captain, advisor), a permutation of 0, 1, 2.", code="bad_roles")
    box, captain, advisor = roles
    return box, captain, advisor, role_draw


def new_round(rules: Any, seats: Any, rng: DealRng, **kw: Any) -> GinState:
    """Deal a hand.  ``seats``: 3 for the box game, 2 otherwise (an int or a list of players).

    Keywords: three players — ``roles=(box, captain, advisor)`` (else roles are drawn, C.2.1, and the
    draw is kept in ``state.role_draw``); two players — ``dealer`` (else chosen at random, D.1.2).
    The dealer deals 10 cards each one at a time starting with the non-dealer, then turns the upcard;
    the rest is the 31-card stock (C.3, D.1.3).
    """
    rules = as_rules(rules)
    n = _seat_count(seats)
    if n != rules.players:
        raise InvalidAction(f"The {rules.variant} variant needs {rules.players} seats, not {n}.", code="bad_seats")
    unknown = set(kw) - {"roles", "dealer", "box", "captain", "advisor", "role_draw", "hand_number"}
    if unknown:
        raise InvalidAction(f"Unknown new_round argument(s): {', '.join(sorted(unknown))}.", code="bad_seats")
    dealer, nondealer, advisor, role_draw = _seats(n, rng, kw)
    deck = list(range(52))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    for k in range(20):
        hands[nondealer if k % 2 == 0 else dealer].append(deck[k])
    upcard = deck[20]
    stock = tuple(deck[21:])
    if rules.oklahoma:
        limit = oklahoma_knock_limit(upcard, rules)
        mult = 2 if (upcard // 13 == 0 and rules.oklahoma_spades_double) else 1
    else:
        limit, mult = rules.knock_limit, 1
    return GinState(
        rules=rules,
        n_seats=n,
        dealer=dealer,
        nondealer=nondealer,
        advisor=advisor,
        hands=tuple(tuple(sorted(h)) for h in hands),
        stock=stock,
        discard=(upcard,),
        first_upcard=upcard,
        knock_limit=limit,
        multiplier=mult,
        phase="upcard",
        seat_to_act=nondealer,
        role_draw=role_draw,
    )


def deal_from_cards(rules: Any, hands: Any, upcard: Any, stock: Any = None, **kw: Any) -> GinState:
    """A hand dealt with given cards (fixtures, tests, puzzles): ``hands`` per seat (the advisor's ``[]``),
    the ``upcard`` and optionally the ``stock`` (top first; default: the remaining cards in pack order).
    Roles / dealer as in :func:`new_round` (required here: ``roles=`` or ``dealer=``)."""
    rules = as_rules(rules)
    base = new_round(rules, rules.players, random.Random(0), **kw)
    hs = tuple(tuple(sorted(mask_cards(hand_mask(h)))) for h in hands)
    if len(hs) != base.n_seats:
        raise InvalidAction("hands must list every seat.", code="bad_deal")
    up = card_index(upcard)
    used = 1 << up
    for h in hs:
        m = hand_mask(h)
        if used & m:
            raise InvalidAction("A card is dealt twice.", code="bad_deal")
        used |= m
    if stock is None:
        st = tuple(mask_cards(FULL_DECK & ~used))
    else:
        st = tuple(card_index(c) for c in card_items(stock))
        if hand_mask(st) & used:
            raise InvalidAction("A stock card is also dealt.", code="bad_deal")
    if rules.oklahoma:
        limit = oklahoma_knock_limit(up, rules)
        mult = 2 if (up // 13 == 0 and rules.oklahoma_spades_double) else 1
    else:
        limit, mult = rules.knock_limit, 1
    return replace(
        base, hands=hs, stock=st, discard=(up,), first_upcard=up, knock_limit=limit, multiplier=mult, role_draw=None
    )


def is_over(state: GinState) -> bool:
    return state.phase == "over"


def outcome(state: GinState) -> dict[str, Any] | None:
    """The finished hand as a dict (None while playing): ``kind`` (= ``outcome``: "gin", "knock",
    "undercut", "tie", "dead"), ``knocker`` / ``defender`` / ``winner`` / ``loser`` seats (None when not
    applicable), ``points`` (for the winner, Oklahoma doubling included), ``multiplier``, ``knock_card``,
    every seat's ``hands``, the layout (``knocker_melds``, ``knocker_deadwood_cards``, ``defender_melds``,
    ``defender_deadwood_cards``, ``layoffs`` [{card, meld}], ``knocker_deadwood``, ``defender_deadwood``,
    ``big_gin``; also nested in ``settlement``) and the ``roles`` of the hand."""
    if state.result is None:
        return None
    r = state.result
    d = r.to_dict()
    d["outcome"] = r.kind
    d["defender"] = state.other(r.knocker) if r.knocker is not None else None
    d["loser"] = state.other(r.winner) if r.winner is not None else None
    st = d["settlement"] or {}
    for k in (
        "knocker_melds",
        "knocker_deadwood_cards",
        "defender_melds",
        "defender_deadwood_cards",
        "layoffs",
        "knocker_deadwood",
        "defender_deadwood",
        "big_gin",
    ):
        d[k] = st.get(k)
    if r.kind == "dead":
        d["layoffs"] = []
        d["big_gin"] = False
    d["roles"] = (
        {"box": state.dealer, "captain": state.nondealer, "advisor": state.advisor}
        if state.n_seats == 3
        else {"dealer": state.dealer, "nondealer": state.nondealer}
    )
    d["winners"] = [] if r.winner is None else [r.winner]
    d["scores"] = [r.points if seat == r.winner else 0 for seat in range(state.n_seats)]
    # deadwood per seat as laid out (knocker: his laid deadwood; defender: after lay-offs; advisor: None)
    hp: list[int | None] = [None] * state.n_seats
    for seat in state.active_seats:
        hp[seat] = deadwood_mask(hand_mask(r.hands[seat]))
    if r.settlement is not None:
        hp[r.knocker] = r.settlement.knocker_deadwood
        hp[state.other(r.knocker)] = r.settlement.defender_deadwood
    d["hand_points"] = hp
    return d


def to_dict(state: GinState) -> dict[str, Any]:
    """Module-level alias of :meth:`GinState.to_dict` (same shape as the Manipulation engine)."""
    return state.to_dict()


def from_dict(d: dict[str, Any]) -> GinState:
    return GinState.from_dict(d)


def hand_of(state: GinState, seat: int) -> list[Card]:
    """The cards of ``seat`` as :class:`Card` objects (the advisor's is empty)."""
    return [Card(i % 13 + 1, i // 13, 0) for i in state.hands[seat]]


def cards_in_play(state: GinState) -> list[Card]:
    """Every card of the hand: hands, stock, discard pile and the knocker's face-down discard (52)."""
    cards = [c for h in state.hands for c in h] + list(state.stock) + list(state.discard)
    if state.result is not None and state.result.knock_card is not None:
        cards.append(state.result.knock_card)
    return [Card(i % 13 + 1, i // 13, 0) for i in cards]


# ---------------------------------------------------------------------------------------------
# Transitions
# ---------------------------------------------------------------------------------------------


def _with_hand(state: GinState, seat: int, hand: Iterable[int]) -> tuple[tuple[int, ...], ...]:
    hands = list(state.hands)
    hands[seat] = tuple(sorted(hand))
    return tuple(hands)


def _knock_check(state: GinState, seat: int, a: GinAction) -> tuple[int, int, int | None, list[int] | None]:
    """Validate a knock; returns (knocker mask after discard, deadwood, discarded card, melds)."""
    hand = state.hands[seat]
    hm = hand_mask(hand)
    if a.card is None:
        if state.rules.big_gin == "off":
            raise illegal("big_gin_not_allowed")
        if deadwood_mask(hm) != 0:
            raise illegal("not_big_gin")
        km, card = hm, None
    else:
        if a.card not in hand:
            raise illegal("card_not_in_hand", cards=[a.card])
        if a.card == state.taken and state.rules.no_discard_of_taken_card:
            raise illegal("cannot_discard_taken_card", cards=[a.card])
        km, card = hm & ~(1 << a.card), a.card
    melds = None
    if a.melds is not None:
        melds = parse_melds(list(a.melds), km)
        used = 0
        for m in melds:
            used |= m
        dw = mask_points(km & ~used)
    else:
        dw = deadwood_mask(km)
    if dw > state.knock_limit:
        if state.knock_limit == 0 and state.rules.oklahoma:
            raise illegal("gin_only")
        if a.melds is not None:
            raise illegal("knock_too_high", "knock_too_high_laid", deadwood=dw, limit=state.knock_limit)
        raise illegal("knock_too_high", cards=[card] if card is not None else [], deadwood=dw, limit=state.knock_limit)
    return km, dw, card, melds


def _end_turn_after_discard(state: GinState, seat: int, hands: Any, discard: tuple[int, ...], log: Any) -> GinState:
    other = state.other(seat)
    base = dict(
        hands=hands, discard=discard, taken=None, stock_only=False, must_knock=False, turn=state.turn + 1, log=log
    )
    if len(state.stock) <= state.rules.dead_hand_at_stock:
        if state.rules.fiftieth_card_rule:
            return replace(state, phase="fiftieth", seat_to_act=other, **base)
        return _dead(replace(state, **base))
    return replace(state, phase="draw", seat_to_act=other, **base)


def _dead(state: GinState) -> GinState:
    res = HandResult("dead", None, None, 0, state.multiplier, None, state.hands, None)
    return replace(state, phase="over", seat_to_act=None, result=res, log=state.log + (("dead", None, None),))


def _knock(state: GinState, seat: int, a: GinAction) -> GinState:
    km, _dw, card, melds = _knock_check(state, seat, a)
    other = state.other(seat)
    s = settle_knock(
        km,
        state.hands[other],
        knocker_melds=melds,
        rules=state.rules,
        knock_limit=state.knock_limit,
        multiplier=state.multiplier,
    )
    winner = {"knocker": seat, "defender": other, None: None}[s.winner]
    hands = _with_hand(state, seat, mask_cards(km))
    res = HandResult(s.outcome, seat, winner, s.points, state.multiplier, card, hands, s)
    return replace(
        state,
        hands=hands,
        phase="over",
        seat_to_act=None,
        result=res,
        taken=None,
        log=state.log + (("knock", seat, None),),
        turn=state.turn + 1,
    )


def apply(state: GinState, seat: int, action: Any) -> GinState:
    """Apply ``action`` (dict or :class:`GinAction`) by ``seat``; raises IllegalMove / InvalidAction."""
    a = action_from_dict(action)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n_seats:
        raise InvalidAction(f"Seat {seat!r} is not at this table.", code="bad_seat")
    if state.phase == "over":
        raise illegal("hand_over")
    if a.type == "suggest":
        return _suggest(state, seat, a)
    if seat == state.advisor:
        raise illegal("advisor_cannot_act")
    if seat != state.seat_to_act:
        raise illegal("not_your_turn")
    if state.phase in ("upcard", "upcard_dealer"):
        return _upcard_phase(state, seat, a.type)
    if a.type in ("take_upcard", "pass_upcard"):
        raise illegal("no_upcard_now")
    if state.phase == "draw":
        return _draw_phase(state, seat, a.type)
    if state.phase == "fiftieth":
        return _fiftieth_phase(state, seat, a.type)
    return _discard_phase(state, seat, a)


def _suggest(state: GinState, seat: int, a: GinAction) -> GinState:
    """The advisor's suggestion to the captain (C.4); the last 20 are kept."""
    if seat != state.advisor:
        raise illegal("not_advisor")
    if not state.rules.advisor_can_advise:
        raise illegal("advice_disabled")
    text = _checked_suggestion(state, a.suggestion)
    return replace(state, suggestions=(state.suggestions + ((seat, state.turn, text),))[-20:])


def _take(state: GinState, seat: int, kind: str, **changes: Any) -> GinState:
    """``seat`` takes the top discard (``kind``: take_upcard / draw_discard) and must discard next."""
    c = state.discard[-1]
    return replace(
        state,
        hands=_with_hand(state, seat, state.hands[seat] + (c,)),
        discard=state.discard[:-1],
        taken=c,
        phase="discard",
        log=state.log + ((kind, seat, c),),
        **changes,
    )


def _upcard_phase(state: GinState, seat: int, t: str) -> GinState:
    """The first upcard: the non-dealer, then the dealer, takes or passes it (C.3.2, D.1.3)."""
    if t == "take_upcard":
        return _take(state, seat, "take_upcard")
    if t == "pass_upcard":
        log = state.log + (("pass_upcard", seat, None),)
        if state.phase == "upcard":
            return replace(state, phase="upcard_dealer", seat_to_act=state.other(seat), log=log)
        return replace(state, phase="draw", seat_to_act=state.other(seat), stock_only=True, log=log)
    raise illegal("upcard_decision")


def _draw_phase(state: GinState, seat: int, t: str) -> GinState:
    if t == "draw_stock":
        c = state.stock[0]
        return replace(
            state,
            hands=_with_hand(state, seat, state.hands[seat] + (c,)),
            stock=state.stock[1:],
            taken=None,
            phase="discard",
            stock_only=False,
            log=state.log + (("draw_stock", seat, c),),
        )
    if t == "draw_discard":
        if state.stock_only:
            raise illegal("must_draw_stock")
        return _take(state, seat, "draw_discard")
    raise illegal("must_draw_stock" if state.stock_only else "must_draw")


def _fiftieth_phase(state: GinState, seat: int, t: str) -> GinState:
    """Two stock cards left with the 50th-card rule: take the last discard only to knock, or pass."""
    if t == "pass":
        return _dead(replace(state, log=state.log + (("pass", seat, None),)))
    c = state.discard[-1]
    if t == "draw_discard" and _can_knock_after_taking(state, seat, c):
        return _take(state, seat, "draw_discard", must_knock=True)
    raise illegal("fiftieth_card_knock_only", cards=[c])


def _discard_phase(state: GinState, seat: int, a: GinAction) -> GinState:
    if a.type == "knock":
        return _knock(state, seat, a)
    if a.type == "discard":
        hand = state.hands[seat]
        if state.must_knock:
            raise illegal("must_knock")
        if a.card not in hand:
            raise illegal("card_not_in_hand", cards=[a.card])
        if a.card == state.taken and state.rules.no_discard_of_taken_card:
            raise illegal("cannot_discard_taken_card", cards=[a.card])
        hands = _with_hand(state, seat, [c for c in hand if c != a.card])
        log = state.log + (("discard", seat, a.card),)
        return _end_turn_after_discard(state, seat, hands, state.discard + (a.card,), log)
    if a.type == "pass":
        raise illegal("no_pass_now")
    raise illegal("must_discard")


def _can_knock_after_taking(state: GinState, seat: int, c: int) -> bool:
    hm = hand_mask(state.hands[seat]) | (1 << c)
    for x in mask_cards(hm):
        if x == c and state.rules.no_discard_of_taken_card:
            continue
        if deadwood_mask(hm & ~(1 << x)) <= state.knock_limit:
            return True
    return state.rules.big_gin != "off" and deadwood_mask(hm) == 0


def _knock_options(state: GinState, seat: int) -> list[tuple[int, int]]:
    """(card, deadwood after discarding it) for every legal discard in the discard phase."""
    hand = state.hands[seat]
    hm = hand_mask(hand)
    out = []
    for c in hand:
        if c == state.taken and state.rules.no_discard_of_taken_card:
            continue
        out.append((c, deadwood_mask(hm & ~(1 << c))))
    return out


def well_formed_suggestion(text: str) -> bool:
    """False for a suggestion stored before suggestions were checked (one naming no card, say)."""
    try:
        suggestion_from_dict({k: v for k, v in json.loads(text).items() if k != "gin"})
    except (InvalidAction, ValueError, AttributeError):
        return False
    return True


def _checked_suggestion(state: GinState, text: str) -> str:
    """The suggestion (canonical JSON) with ``"gin"`` set for a knock that leaves no deadwood, if the
    card it names is in the captain's hand; otherwise ``bad_suggestion`` (nothing changes).

    Advice may look ahead (RULES C.2.4 sets no form for it: "discard the 8♠" while the captain still
    decides on the upcard), so the move need not be legal this instant; it must be one the captain's
    own cards allow."""
    sug = json.loads(text)
    if sug["action"] == "draw_discard":
        refusal = _no_discard_to_take(state)
        if refusal is not None:
            raise illegal(refusal)
    hm = hand_mask(state.hands[state.nondealer])
    if "card" in sug:
        card = card_index(sug["card"])
        if not hm >> card & 1:
            raise illegal("bad_suggestion")
        hm &= ~(1 << card)
    if sug["action"] == "knock" and deadwood_mask(hm) == 0:
        sug["gin"] = True
    return json.dumps(sug, sort_keys=True)


def _no_discard_to_take(state: GinState) -> str | None:
    """Why "take the top discard" is no advice now, or None: the pile is empty (the captain has just
    taken its only card, C.5.4: only the top discard is available), or both players refused the
    upcard and the captain starts from the stock (C.4.4)."""
    if not state.discard:
        return "discard_pile_empty"
    if state.stock_only:
        return "must_draw_stock"
    return None


def suggestible(state: GinState) -> list[str]:
    """The captain's moves the advisor may suggest now, in the order the board offers them: the
    upcard's choice at the start of the hand, otherwise the draw (the discard only while there is
    one to take), then a discard (of a card the captain holds) and a knock.  Empty when there is no
    advisor, advice is off, or the hand is over; :func:`apply` refuses the draws left out."""
    if state.advisor is None or state.phase == "over" or not state.rules.advisor_can_advise:
        return []
    if state.phase in ("upcard", "upcard_dealer"):
        draws = ["take_upcard", "pass_upcard"]
    else:
        draws = ["draw_stock"] + ([] if _no_discard_to_take(state) else ["draw_discard"])
    return [*draws, "discard", "knock"]


def legal_actions(state: GinState, seat: int) -> list[dict[str, Any]]:
    """Every legal action of ``seat`` as dicts (knocks with the default arrangement).  The advisor's
    open-ended ``suggest`` is not listed; it is legal while the hand runs if ``advisor_can_advise``."""
    if state.phase == "over" or seat != state.seat_to_act or seat == state.advisor:
        return []
    ph = state.phase
    if ph in ("upcard", "upcard_dealer"):
        return [{"type": "take_upcard"}, {"type": "pass_upcard"}]
    if ph == "draw":
        acts = [{"type": "draw_stock"}]
        if not state.stock_only:
            acts.append({"type": "draw_discard"})
        return acts
    if ph == "fiftieth":
        acts = [{"type": "pass"}]
        if _can_knock_after_taking(state, seat, state.discard[-1]):
            acts.insert(0, {"type": "draw_discard"})
        return acts
    acts = []
    opts = _knock_options(state, seat)
    if not state.must_knock:
        acts.extend({"type": "discard", "card": IDS[c]} for c, _ in opts)
    acts.extend({"type": "knock", "card": IDS[c]} for c, dw in opts if dw <= state.knock_limit)
    if state.rules.big_gin != "off" and deadwood_mask(hand_mask(state.hands[seat])) == 0:
        acts.append({"type": "knock"})
    return acts


def timeout_actions(state: GinState, seat: int) -> list[dict[str, Any]]:
    """The actions that finish ``seat``'s current turn with no voluntary play: pass the upcard, draw from
    the stock, discard the card that leaves the least deadwood (never the card just taken; highest value
    on ties), pass the 50th card; no knock.  Under the 50th-card rule a forced knock stays a knock."""
    out: list[dict[str, Any]] = []
    s = state
    while s.phase != "over" and s.seat_to_act == seat and seat != s.advisor and len(out) < 4:
        ph = s.phase
        if ph in ("upcard", "upcard_dealer"):
            a = {"type": "pass_upcard"}
        elif ph == "draw":
            a = {"type": "draw_stock"}
        elif ph == "fiftieth":
            a = {"type": "pass"}
        else:
            opts = _knock_options(s, seat)
            c, dw = min(opts, key=lambda o: (o[1], -VALUES[o[0]], -o[0]))
            a = {"type": "knock" if s.must_knock else "discard", "card": IDS[c]}
        out.append(a)
        s = apply(s, seat, a)
    return out
