"""Provably fair deals: the documented shuffle and the commitment to its seed (docs/fairness.md).

A round's deal is driven only by its seed.  Rounds dealt since provably fair deals use
:data:`CURRENT` (``"fy-hmac-sha256-v1"``): a seed of 256 random bits, written as 64 lowercase hex
digits; the random numbers are HMAC-SHA-256(seed, counter), taken 32 bits at a time with rejection
sampling; the deck, in its documented order (:func:`deck_ids`), is shuffled by Fisher–Yates.  Rounds
dealt before keep :data:`LEGACY` (``"python-random"``: Python's ``random.Random(int(seed))``), which
another language cannot easily reproduce; they are replayed with it.

At the deal the table shows :func:`commitment` (a SHA-256 over the round's identity and the seed);
the seed is revealed once the round is over, and anyone can then check both the commitment and the
deal (:func:`deal`, the static/js/verify.js verifier, ``python -m games.verify``).

The engines' ``new_round`` take any object with ``randrange(n)`` and ``shuffle(list)`` (a
:class:`DealRandom`, or a ``random.Random`` for the old rounds): :func:`rng_for` gives the right one.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import make_deck
from .errors import InvalidAction

CURRENT = "fy-hmac-sha256-v1"
LEGACY = "python-random"
ALGORITHMS = (CURRENT, LEGACY)

SEED_BYTES = 32
_SEED_RE = re.compile(r"[0-9a-f]{64}")
_U32 = 1 << 32


class DealRng(Protocol):
    """What a deal asks of its random source (``random.Random`` has both)."""

    def randrange(self, stop: int) -> int: ...

    def shuffle(self, x: MutableSequence[Any]) -> None: ...


def new_seed() -> str:
    """A fresh seed for :data:`CURRENT`: 256 bits from the operating system, as 64 lowercase hex digits."""
    return secrets.token_hex(SEED_BYTES)


def seed_key(seed: Any) -> bytes:
    """The 32 bytes of a :data:`CURRENT` seed (the HMAC key); ``InvalidAction`` for anything else."""
    if not isinstance(seed, str) or not _SEED_RE.fullmatch(seed):
        raise InvalidAction("A seed is 64 lowercase hexadecimal digits.", code="bad_seed")
    return bytes.fromhex(seed)


class DealRandom:
    """The random numbers of one :data:`CURRENT` deal.

    Draw *k* (from 0) is ``HMAC-SHA-256(key=seed bytes, message=k as 8 bytes big-endian)``; its first
    4 bytes, big-endian, are a number ``x`` below 2**32.  ``below(n)`` takes draws until ``x`` is under
    the largest multiple of ``n`` not above 2**32 and returns ``x mod n`` (rejection sampling: every
    result equally likely).  ``counter`` is the number of draws taken so far.
    """

    def __init__(self, seed: str):
        self._key = seed_key(seed)
        self.counter = 0

    def next_u32(self) -> int:
        block = hmac.digest(self._key, self.counter.to_bytes(8, "big"), "sha256")
        self.counter += 1
        return int.from_bytes(block[:4], "big")

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``, each equally likely."""
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= _U32:
            raise ValueError(f"below() needs 1 <= n <= 2**32, not {n!r}")
        limit = _U32 - _U32 % n
        while True:
            x = self.next_u32()
            if x < limit:
                return x % n

    def randrange(self, stop: int) -> int:
        return self.below(stop)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Fisher–Yates: for i from the last position down to 1, swap x[i] with x[below(i + 1)]."""
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]


def rng_for(algorithm: str, seed: Any) -> DealRng:
    """The random source a round was dealt with: its algorithm's, from its stored seed."""
    if algorithm == CURRENT:
        return DealRandom(seed)
    if algorithm == LEGACY:
        try:
            return random.Random(int(seed))
        except (TypeError, ValueError):
            raise InvalidAction("A python-random seed is a whole number.", code="bad_seed") from None
    raise InvalidAction(f"Unknown shuffle {algorithm!r}.", code="bad_shuffle")


def commitment_message(seed: str, *, match_id: int, round_number: int, algorithm: str = CURRENT) -> bytes:
    """The bytes the commitment hashes: ``rummyhub-deal|<algorithm>|<match id>|<round>|<seed>`` in
    ASCII, the numbers in decimal without leading zeros, the seed as its 64 lowercase hex digits."""
    seed_key(seed)
    for value in (match_id, round_number):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidAction("A match id and a round number are whole numbers.", code="bad_identity")
    if algorithm not in ALGORITHMS:
        raise InvalidAction(f"Unknown shuffle {algorithm!r}.", code="bad_shuffle")
    return f"rummyhub-deal|{algorithm}|{match_id}|{round_number}|{seed}".encode("ascii")


def commitment(seed: str, *, match_id: int, round_number: int, algorithm: str = CURRENT) -> str:
    """SHA-256 of :func:`commitment_message`, 64 lowercase hex digits: shown at the deal, it binds the
    table to a seed it does not reveal (and, by the match and round, to this round only)."""
    message = commitment_message(seed, match_id=match_id, round_number=round_number, algorithm=algorithm)
    return hashlib.sha256(message).hexdigest()


def deck_ids(packs: int, jokers: int) -> list[str]:
    """The deck before the shuffle, as card ids: pack by pack, suits S H D C, ranks A 2 … 10 J Q K
    (``AS.0`` … ``KC.0``, then ``AS.1`` …), then the jokers ``JK.0``, ``JK.1`` …"""
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (packs, jokers)) or not (
        1 <= packs <= 2 and 0 <= jokers <= 4
    ):
        raise InvalidAction("A deck is 1 or 2 packs and 0 to 4 jokers.", code="bad_deck")
    return [card.id for card in make_deck(packs, jokers)]


@dataclass(frozen=True)
class Dealt:
    """A deal as the documented layout makes it: ``hands`` per seat in the order dealt, the
    ``upcard`` (or None), the ``stock`` top first, and the ``dealer`` when the first draw chose it."""

    dealer: int | None
    hands: list[list[str]]
    upcard: str | None
    stock: list[str]


def deal(
    seed: Any,
    *,
    packs: int,
    jokers: int,
    seats: int,
    order: Sequence[int],
    hand_size: int,
    upcard: bool = False,
    dealer_drawn: bool = False,
    algorithm: str = CURRENT,
) -> Dealt:
    """Deal from ``seed``: the dealer first when ``dealer_drawn`` (``below(seats)``), then the deck
    shuffled, then ``hand_size`` passes of one card to each seat of ``order`` in turn, then the upcard
    when the game turns one; the rest is the stock, its first card on top."""
    if (
        not isinstance(seats, int)
        or not 1 <= seats <= 5
        or not all(isinstance(s, int) and 0 <= s < seats for s in order)
        or len(set(order)) != len(order)
        or not isinstance(hand_size, int)
        or hand_size < 0
    ):
        raise InvalidAction("A deal's seats, order and hand size do not fit together.", code="bad_deal")
    deck = deck_ids(packs, jokers)
    if hand_size * len(order) + (1 if upcard else 0) > len(deck):
        raise InvalidAction("The deck is too small for this deal.", code="bad_deal")
    rng = rng_for(algorithm, seed)
    dealer = rng.randrange(seats) if dealer_drawn else None
    rng.shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(seats)]
    pos = 0
    for _ in range(hand_size):
        for seat in order:
            hands[seat].append(deck[pos])
            pos += 1
    up = None
    if upcard:
        up, pos = deck[pos], pos + 1
    return Dealt(dealer=dealer, hands=hands, upcard=up, stock=deck[pos:])
