"""Exact best play for Manipulation Rummy: ``best_play(table, hand)`` (RULES B.2, B.3, B.5.2).

The whole table may be rearranged.  Table cards are *forced* (they must all
end in valid melds), hand cards are *optional*; the play maximises the points
laid from hand (``objective="points"``, then the number of cards) or the
number of cards (``objective="cards"``, then the points).

Jokers (B.3): a table joker keeps its declared identity — it behaves like one
more forced natural card of that identity — unless it is *freed* by a natural
card identical to its identity (from the hand, or from the table with option
``joker_substitute_from = hand_or_table``; each natural card frees at most one
joker).  A freed joker is a forced wildcard, a hand joker an optional
wildcard.  The search enumerates how many table jokers of each identity are
freed (freeing dominates keeping when no hand card is needed for it).  With
option ``freed_joker_reuse = new_meld_only`` the new melds holding the freed
jokers (hand cards only) are enumerated exactly, for any number of freed
jokers — as shapes over the multiset of hand values and the number of hand
jokers, declared so that every freed joker really changes identity — and the
rest is solved by the DP (one case per distinct set of hand cards used).

Core: a dynamic programme over ranks (after van Rijn, Takes & Vis, "The
complexity of Rummikub problems"): ranks 1…13 (and 14 for a high ace, each
physical ace used low or high once), state = per suit the number of open runs
of length 1, 2 and ≥3 (packed in one int) and the number of wildcards used so
far.  At each rank and suit it chooses how many cards are used, how many
extend or start runs and how many go to groups, whose feasibility at that rank
is a closed formula.  Wildcards extend open runs, start runs as a prefix
before a natural card, fill groups, or — three or more — form melds of their
own.  The aces kept at rank 1 for the high end only matter at rank 14, so they
are not part of the state: a state's value is a vector over every reservation
(capped by the Q-K-A runs the suit can hold), computed once for all of them.
The DP runs forward rank by rank as a branch and bound (:mod:`.forward`): a
state whose gain plus what the ranks to come could still add cannot beat the
best play found (in an earlier joker case, or earlier in the same case) is
dropped.  Each joker case is searched depth first first, best gain first
(``Forward.dfs``, a few thousand states at most): a play within a point of
the case's bound ends it at once — the hard positions, where nearly every
hand card can be laid, end in a few paths —, and otherwise the best play it
finds is the floor of the tail.  The tail (:mod:`.lp`) sees every suit at
once, as a cover of the cells (rank, suit) by runs of three to five cells and
groups: its linear programme (HiGHS) bounds the case — no search when the
bound is not above the floor —, and its integer programme gives the case's
best play exactly (a few tens of milliseconds where the search took hundreds).
Under ``new_meld_only`` the cases are thousands: they are searched one by one
as they are made, and once they have gone on for a while the whole step goes
to one integer programme with the option inside it (:mod:`.lp_step`: melds
without a freed joker, melds of hand cards holding the freed ones, how many
jokers of each identity are freed a variable), whose play is the step's best.
Where an integer programme runs past its time limit (or no play can be built
from the whole step's solution), the floor goes to a layer-by-layer search
(``Forward.run``) in which states are kept in a canonical form and dominated
ones are dropped (an open run of three or more can always close, so it stands
for a shorter one).  The
joker cases are searched best bound first (under ``new_meld_only``, as they
are made, cases that leave the same cards to place bounded by one shared
relaxation); the melds are rebuilt along the best path of states, its
choices found again rank by rank.
"""

from .dp import SearchBudgetExceeded
from .search import Play, best_play

__all__ = ["Play", "best_play", "SearchBudgetExceeded"]
