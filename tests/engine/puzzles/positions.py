"""Known puzzle positions (and near misses), as data: each with why it is (or is not) a puzzle."""

from dataclasses import replace

from games.engine import gin
from games.engine.gin import card_index
from tests.engine.manipulation.helpers import make_state

# Manipulation, "lay the most".
# The run 4♥…9♥ lies on the table; the hand holds 4♠ 4♦ 9♠ 9♦ and a loose K♣.  Splitting the run
# (4♥ and 9♥ out, 5♥…8♥ stays) lays all four: 4♥4♠4♦ and 9♥9♠9♦.  Without the 4s (or the 9s) only
# the other pair lays (2 cards): 4 beats 2 by 2.  Nothing fits without moving a table card: 0.
UNIQUE = dict(hands=["4S.0 4D.0 9S.0 9D.0 KC.0", "2C.0"], table=["4H.0 5H.0 6H.0 7H.0 8H.0 9H.0"])
# The run 10♥ J♥ Q♥ K♥: its 10♥ makes a group with 10♠ 10♦, or its K♥ one with K♠ K♦ — never both
# (J♥ Q♥ alone is no meld).  With the run 5♣6♣7♣ laid anyway, two sets of hand cards lay 5 each: a tie.
TWO_SETS = dict(hands=["10S.0 10D.0 KS.0 KD.0 5C.0 6C.0 7C.0", "2C.0"], table=["10H.0 JH.0 QH.0 KH.0"])
# The run 4♥5♥6♥; the hand 3♥ 7♥ 8♥ 9♥ K♣ lays four cards by lay-offs alone: no rearrangement needed.
NO_REARRANGING = dict(hands=["3H.0 7H.0 8H.0 9H.0 KC.0", "2C.0"], table=["4H.0 5H.0 6H.0"])


def manipulation(position, **kw):
    kw.setdefault("has_melded", (True, True))
    return make_state(position["hands"], position["table"], stock="2D.0 3D.0", **kw)


# Gin, "the discard" (the hand after the draw, eleven cards, no knock possible).
# Melds 2♠3♠4♠ and 7♥7♦7♣; loose K♣ 5♦ 4♣ 3♥ 2♦.  Discarding K♣ leaves 14; the next best (5♦) 19.
GIN_UNIQUE = "2S 3S 4S 7H 7D 7C KC 5D 4C 3H 2D"
# The same melds; loose K♣ K♦ Q♦ 2♦ A♣: K♣, K♦ and Q♦ each leave 23, the next (2♦) 31; but keeping
# K♦ Q♦ waits for J♦ (a run) and keeping K♣ Q♦ does not: different meld chances, two answers, a tie.
GIN_TIE = "2S 3S 4S 7H 7D 7C KC KD QD 2D AC"
# The same melds; loose K♣ K♦ 3♥ 2♦ A♣: either king leaves 16 with the same meld chances (neither
# king helps a meld): one answer, both cards accepted; the next (3♥) leaves 23.
GIN_SAME = "2S 3S 4S 7H 7D 7C KC KD 3H 2D AC"


def gin_state(hand_codes, *, discard=("9C",), seat=0, opponent_took=()):
    base = gin.new_round(gin.GinRules.two_player(), 2, __import__("random").Random(1), dealer=1)
    hand = tuple(sorted(card_index(c) for c in hand_codes.split()))
    took = [card_index(c) for c in opponent_took]
    used = set(hand) | {card_index(c) for c in discard} | set(took)
    rest = [c for c in range(52) if c not in used]
    other = tuple(sorted(took + rest[: 10 - len(took)]))
    stock = tuple(rest[10 - len(took) :])
    hands = (hand, other) if seat == 0 else (other, hand)
    return replace(
        base,
        hands=hands,
        stock=stock,
        discard=tuple(card_index(c) for c in discard),
        phase="discard",
        seat_to_act=seat,
        taken=None,
        log=tuple(("draw_discard", 1 - seat, c) for c in took),
        turn=4,
    )


# Gin, "knock now or wait": melds 2♠3♠4♠5♠ and the four jacks, A♥ and 7♦ loose, Q♣ drawn.  Knocking
# (Q♣ away) with 8: no single draw makes gin (neither loose card is a card from any meld), and an
# opponent of unknown cards rarely undercuts 8: knock.
KNOCK = "2S 3S 4S 5S JH JD JC JS AH 7D QC"
# The same hand, but the opponent took 6♥ 7♥ 8♥, 3♦ 3♣ 3♥ and 10♦ 10♣ 10♥ from the discard pile (everyone
# saw it): nine cards in melds, one unknown: a knock with 8 is undercut most of the time: wait.
WAIT_OPPONENT_TOOK = ("6H", "7H", "8H", "3D", "3C", "3H", "TD", "TC", "TH")
