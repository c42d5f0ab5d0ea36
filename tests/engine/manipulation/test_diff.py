"""The table diff of a shown rearrangement (games.engine.manipulation.diff): identical cards are one card.

A step's new table comes from the solver or the player with whatever physical copy of a card (two packs:
``9S.0`` and ``9S.1``) it picked; the diff shown to a player must not move one 9♠ out of a meld and
another 9♠ into it ("Move 9♠ from meld 4 to meld 6. Move 9♠ from meld 6 to meld 4."): no move is undone
by another, and the moves are as few as any numbering of the melds allows.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import Card
from games.engine.manipulation import diff
from games.engine.manipulation.diff import table_diff
from tests.engine.manipulation.helpers import cards


def face(ref: str) -> str:
    """A card ref as the player sees it: its value (a joker is a joker, whatever it stands for)."""
    code = ref.split(".")[0]
    return "JK" if code.startswith("JK") else code


def test_two_identical_cards_swapped_between_melds_are_no_move():
    old = [cards("9S.0 9H.0 9D.0"), cards("7S.1 8S.1 9S.1")]
    new = [cards("9S.1 9H.0 9D.0"), cards("7S.1 8S.1 9S.0")]
    d = table_diff(old, new)
    assert d.moves == () and d.laid == () and d.gone == ()
    assert [n for n, _c, fresh in d.melds] == [1, 2] and not any(fresh for _n, _c, fresh in d.melds)


def test_a_hand_card_identical_to_a_table_card_is_laid_where_it_goes():
    # the hand's 9♠ (the second pack's) ends in the group, the table's 9♠ in the new run: one 9♠ laid
    # with 7♠ 8♠, nothing moved
    old = [cards("9S.0 9H.0 9D.0")]
    new = [cards("9S.1 9H.0 9D.0"), cards("7S.0 8S.0 9S.0")]
    d = table_diff(old, new)
    assert d.moves == ()
    assert [(to, [face(r) for r in refs]) for to, refs in d.laid] == [(2, ["7S", "8S", "9S"])]


def test_two_table_jokers_that_trade_places_are_no_move():
    old = [cards("5H.0 JK=6H.0 7H.0"), cards("KS.0 KH.0 JK=KD.1")]
    new = [cards("5H.0 JK=6H.1 7H.0"), cards("KS.0 KH.0 JK=KD.0")]
    assert table_diff(old, new).moves == ()


def test_the_numbering_keeps_the_most_cards_in_place():
    # Largest overlap first would number the long run 1 (three cards of old meld 1), move 6♠ 7♠ into it
    # and K♥ K♦ out to a new meld 3: four moves.  Numbering the kings 1 and the run 2 moves three.
    old = [cards("3S.0 4S.0 5S.0 KH.0 KD.0"), cards("6S.0 7S.0")]
    new = [cards("3S.0 4S.0 5S.0 6S.0 7S.0"), cards("KH.0 KD.0 KC.0")]
    d = table_diff(old, new)
    assert d.moves == ((1, 2, ("3S.0", "4S.0", "5S.0")),)
    assert d.laid == ((1, ("KC.0",)),) and d.gone == ()


# ---------------------------------------------------------------------------------- the property

FACES = ["9S", "9H", "8S", "JK"]
DECLARED = ["7S", "9D", "KC"]


@st.composite
def steps(draw):
    """A table of up to 4 melds and a new table of the same cards and a few hand cards, reshuffled into
    up to 6 melds: faces from a small set so that many cards have an identical twin."""
    used: Counter[str] = Counter()

    def card(f: str, table: bool) -> Card:
        deck = used[f]
        used[f] += 1
        code = f"JK={draw(st.sampled_from(DECLARED))}" if f == "JK" else f
        return Card.from_code(f"{code}.{deck}")

    old_faces = draw(st.lists(st.lists(st.sampled_from(FACES), min_size=1, max_size=4), max_size=4))
    old = [[card(f, True) for f in meld] for meld in old_faces]
    hand = [card(f, False) for f in draw(st.lists(st.sampled_from(FACES), max_size=4))]
    pool = [c for meld in old for c in meld] + hand
    if not pool:
        return old, []
    order = draw(st.permutations(pool))
    cuts = sorted(draw(st.sets(st.integers(1, len(order) - 1), max_size=5)) if len(order) > 1 else [])
    bounds = [0, *cuts, len(order)]
    new = [list(order[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]
    # a declared joker may take a new identity in the step: the new table says what it stands for now
    new = [
        [c.declare(*Card.from_code(draw(st.sampled_from(DECLARED))).key) if c.is_joker else c for c in m] for m in new
    ]
    return old, new


def most_kept(old, new) -> int:
    """The most table cards that can stay in their meld, over every numbering (brute force)."""
    counts_old = [Counter(face(diff.ref(c)) for c in m) for m in old]
    counts_new = [Counter(face(diff.ref(c)) for c in m) for m in new]
    best = 0
    for choice in product(range(-1, len(new)), repeat=len(old)):
        picked = [j for j in choice if j >= 0]
        if len(picked) != len(set(picked)):
            continue
        kept = sum(sum((counts_old[i] & counts_new[j]).values()) for i, j in enumerate(choice) if j >= 0)
        best = max(best, kept)
    return best


@settings(max_examples=200, deadline=None)
@given(steps())
def test_a_shown_rearrangement_has_no_move_undone_and_the_fewest_moves(step):
    old, new = step
    d = table_diff(old, new)
    numbers = [n for n, _c, _f in d.melds]
    assert sorted(numbers) == numbers and len(set(numbers)) == len(new)
    # Played out from the old table, the moves and the laid cards give the new table, meld by meld.
    table = {i + 1: Counter(face(diff.ref(c)) for c in m) for i, m in enumerate(old)}
    for a, b, refs in d.moves:
        for r in refs:
            assert table[a][face(r)] > 0, f"{r} moved out of meld {a}, which does not hold it"
            table[a][face(r)] -= 1
            table.setdefault(b, Counter())[face(r)] += 1
    for b, refs in d.laid:
        for r in refs:
            table.setdefault(b, Counter())[face(r)] += 1
    for n, refs, _fresh in d.melds:
        assert +table.pop(n) == Counter(face(r) for r in refs)
    assert not any(+rest for n, rest in table.items() if n not in d.gone)
    assert all(not +table[n] for n in d.gone)
    # No card leaves a meld that another card of the same face enters.
    left = {(a, face(r)) for a, _b, refs in d.moves for r in refs}
    came = {(b, face(r)) for _a, b, refs in d.moves for r in refs} | {(b, face(r)) for b, refs in d.laid for r in refs}
    assert not left & came
    # As few moves as any numbering allows; as many hand cards laid as the hand gave.
    table_cards = sum(len(m) for m in old)
    assert sum(len(refs) for _a, _b, refs in d.moves) == table_cards - most_kept(old, new)
    assert sum(len(refs) for _b, refs in d.laid) == sum(len(m) for m in new) - table_cards
