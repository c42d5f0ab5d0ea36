"""Puzzles from real positions, pure: a position of a finished match becomes a puzzle only when exactly
one answer is clearly best (after lichess-puzzler: the best must beat the second best by a margin).

- :mod:`.manipulation`: "lay the most" — the table and the hand after the draw; the best play lays at
  least ``CARD_MARGIN`` more hand cards than any play with another set of hand cards, and no play that
  leaves the table's melds whole (new melds from the hand, lay-offs) lays as many: a rearrangement is
  needed.  Uniqueness is judged by which hand cards are laid (by value: two 7♥ of two decks are one).
- :mod:`.gin`: "the discard" — the hand after the draw; the best discard's deadwood beats the next
  distinct discard's by at least ``DEADWOOD_MARGIN`` (discards leaving the same deadwood and the same
  meld chances are one answer); and "knock now or wait" (see that module for the margin).

Each finder takes a state and a seat and returns a puzzle record (JSON-ready: the position as the
player saw it, the solution, the themes) or None.  A position holds nothing the player did not see.
"""

from __future__ import annotations

from . import gin, manipulation

VERSION = 1  # raised when what makes a puzzle changes (the generator records it on each puzzle)

__all__ = ["VERSION", "gin", "manipulation"]
