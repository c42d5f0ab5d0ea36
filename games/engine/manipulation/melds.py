"""Groups, sequences and jokers with a declared identity (RULES B.2, B.3).

A meld is a list of cards (codes, ids or :class:`~games.engine.cards.Card`).
A joker on the table carries its declared card (``"JK=9H"``); a *bare* joker
(``"JK"``) means "any identity that makes the meld legal" — used by the UI
while a player drags cards, and by :func:`joker_options` to ask which card a
dropped joker stands for.

Ace in sequences (option ``ace_in_sequences``): ``high_or_low`` (A-2-3… or
…Q-K-A, never K-A-2), ``low_only`` or ``high_only``.  Inside this module a
high ace has rank 14.

Public:

* :func:`classify` — ``"group"``, ``"sequence"`` or ``None``;
* :func:`validate_meld` — ``None`` when valid, else a sentence naming the cards and the reason;
* :func:`meld_problem` — the same as ``(code, sentence)``;
* :func:`meld_refusal` — the same as ``(code, params)`` for the template of ``text.MELD_MESSAGES``;
* :func:`joker_options` — the identities (codes) the first bare joker of a meld could take;
* :func:`completions` — every full assignment of identities to the bare jokers;
* :func:`sort_meld` — the canonical display order of a valid meld.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations

from ..cards import Card, as_cards, value_code, value_points
from ..text import MELD_MESSAGES, english

ACE_MODES = ("high_or_low", "low_only", "high_only")

GROUP = "group"
SEQUENCE = "sequence"


def ace_mode_of(rules: object = None) -> str:
    """The ``ace_in_sequences`` option of ``rules`` (an object, a dict, a mode string or ``None``)."""
    if rules is None:
        return "high_or_low"
    if isinstance(rules, str):
        mode = rules
    elif isinstance(rules, dict):
        mode = rules.get("ace_in_sequences", "high_or_low")
    else:
        mode = getattr(rules, "ace_in_sequences", "high_or_low")
    if mode not in ACE_MODES:
        raise ValueError(f"unknown ace_in_sequences mode {mode!r}")
    return mode


def _windows(n: int, mode: str) -> range:
    """Lowest ranks ``lo`` of the sequence windows ``lo..lo+n-1`` allowed by the ace mode."""
    if mode == "low_only":
        return range(1, 13 - n + 2)
    if mode == "high_only":
        return range(2, 14 - n + 2)
    return range(1, 14 - n + 2)


def _group_completions(fixed: list[tuple[int, int]], bare: int) -> Iterator[tuple[tuple[int, int], ...]]:
    n = len(fixed) + bare
    if n < 3 or n > 4:
        return
    ranks = {r for r, _ in fixed}
    suits = [s for _, s in fixed]
    if len(ranks) > 1 or len(set(suits)) != len(suits):
        return
    for rank in sorted(ranks) if ranks else range(1, 14):
        free = [s for s in range(4) if s not in suits]
        for combo in combinations(free, bare):
            yield tuple((rank, s) for s in combo)


def _sequence_completions(fixed: list[tuple[int, int]], bare: int, mode: str) -> Iterator[tuple[tuple[int, int], ...]]:
    n = len(fixed) + bare
    if n < 3 or n > 13:
        return
    suits = {s for _, s in fixed}
    if len(suits) > 1:
        return
    for suit in sorted(suits) if suits else range(4):
        for lo in _windows(n, mode):
            hi = lo + n - 1
            taken = set()
            ok = True
            for r, _ in fixed:
                if r == 1:
                    pos = 1 if lo == 1 else (14 if hi == 14 else 0)
                else:
                    pos = r
                if not lo <= pos <= hi or pos in taken:
                    ok = False
                    break
                taken.add(pos)
            if not ok:
                continue
            missing = [p for p in range(lo, hi + 1) if p not in taken]
            yield tuple((1 if p == 14 else p, suit) for p in missing)


def completions(meld: Iterable[str | Card], rules: object = None) -> list[tuple[str, tuple[tuple[int, int], ...]]]:
    """Every way to make ``meld`` valid: ``(kind, identities of the bare jokers in order)``.

    Declared jokers keep their declaration; only bare jokers are assigned.
    """
    cards = as_cards(meld) if not _all_cards(meld) else list(meld)
    mode = ace_mode_of(rules)
    fixed = [c.effective for c in cards if c.effective is not None]
    bare = sum(1 for c in cards if c.effective is None)
    out: list[tuple[str, tuple[tuple[int, int], ...]]] = []
    for ids in _group_completions(fixed, bare):
        out.append((GROUP, ids))
    for ids in _sequence_completions(fixed, bare, mode):
        out.append((SEQUENCE, ids))
    return out


def _all_cards(meld: object) -> bool:
    return isinstance(meld, (list, tuple)) and all(isinstance(c, Card) for c in meld)


def classify(meld: Iterable[str | Card], rules: object = None) -> str | None:
    """``"group"``, ``"sequence"`` or ``None`` (RULES B.2).

    A bare joker stands for any identity that makes the meld legal; when both
    readings are possible (e.g. ``JK JK 7S``) ``"group"`` is returned.
    """
    cards = as_cards(meld) if not _all_cards(meld) else list(meld)
    mode = ace_mode_of(rules)
    fixed = [c.effective for c in cards if c.effective is not None]
    bare = len(cards) - len(fixed)
    for _ in _group_completions(fixed, bare):
        return GROUP
    for _ in _sequence_completions(fixed, bare, mode):
        return SEQUENCE
    return None


def meld_refusal(meld: Iterable[str | Card], rules: object = None) -> tuple[str, dict[str, object]] | None:
    """``None`` when the meld is valid, else ``(code, params)`` for its template in ``MELD_MESSAGES``:
    ``cards`` (the meld's codes) and, for a declared joker that does not fit, its ``identity``."""
    cards = as_cards(meld) if not _all_cards(meld) else list(meld)
    if classify(cards, rules) is not None:
        return None
    mode = ace_mode_of(rules)
    code = _problem_code(cards, mode)
    params: dict[str, object] = {"cards": [c.code for c in cards]}
    if code == "joker_not_fitting":
        params["identity"] = value_code(*_misfit_joker(cards, mode).declared)
    return code, params


def meld_problem(meld: Iterable[str | Card], rules: object = None) -> tuple[str, str] | None:
    """``None`` when the meld is valid, else ``(code, sentence)`` explaining why not."""
    refusal = meld_refusal(meld, rules)
    if refusal is None:
        return None
    code, params = refusal
    return code, english(MELD_MESSAGES[code], params)


def _misfit_joker(cards: list[Card], mode: str) -> Card:
    """The declared joker whose card keeps the meld from being valid: the first that, alone made bare,
    makes it valid (else the first declared joker)."""
    declared = [k for k, c in enumerate(cards) if c.is_joker and c.declared is not None]
    for k in declared:
        loose = list(cards)
        loose[k] = cards[k].undeclared()
        if classify(loose, mode) is not None:
            return cards[k]
    return cards[declared[0]]


def validate_meld(cards: Iterable[str | Card], rules: object = None) -> str | None:
    """``None`` when valid, else the reason as a sentence, e.g. ``"5♠ 6♠ 7♥: a sequence must be one suit."``."""
    problem = meld_problem(cards, rules)
    return None if problem is None else problem[1]


def _problem_code(cards: list[Card], mode: str) -> str:
    if len(cards) < 3:
        return "too_short"
    fixed = [c.effective for c in cards if c.effective is not None]
    naturals = [c.key for c in cards if not c.is_joker]
    declared = [c for c in cards if c.is_joker and c.declared is not None]
    ranks = [r for r, _ in fixed]
    suits = [s for _, s in fixed]
    if declared:
        # does the meld work if the declared jokers were bare?
        loose = [c.undeclared() if c.is_joker else c for c in cards]
        if classify(loose, mode) is not None:
            return "joker_not_fitting"
    if not fixed:
        return "joker_no_identity"
    if len(set(ranks)) == 1:
        if len(cards) > 4:
            return "group_too_long"
        return "group_same_suit"
    if len(set(suits)) == 1:
        if len(cards) > 13:
            return "sequence_too_long"
        if len(set(ranks)) != len(ranks):
            return "sequence_duplicate_rank"
        if 1 in ranks:
            plain = sorted(ranks)
            hi_ranks = sorted(14 if r == 1 else r for r in ranks)
            low_ok = plain[-1] - plain[0] < len(cards)
            high_ok = hi_ranks[-1] - hi_ranks[0] < len(cards)
            if high_ok and mode == "low_only":
                return "ace_low_only"
            if low_ok and mode == "high_only":
                return "ace_high_only"
            if 2 in ranks and (13 in ranks or 12 in ranks):
                return "ace_wrap"
        if naturals and len(naturals) < len(cards):
            return "joker_no_identity"
        return "sequence_gap"
    if len(set(ranks)) == len(ranks):
        return "sequence_one_suit"
    return "group_one_rank"


def joker_options(meld_cards: Iterable[str | Card], rules: object = None) -> list[str]:
    """Codes the first bare joker of ``meld_cards`` could stand for so that the meld is valid.

    Other bare jokers may take any identity that completes the meld.  An empty
    list means no identity works (or there is no bare joker); a single code
    means the identity is forced.
    """
    cards = as_cards(meld_cards) if not _all_cards(meld_cards) else list(meld_cards)
    if not any(c.is_joker and c.declared is None for c in cards):
        return []
    seen: dict[tuple[int, int], None] = {}
    for _kind, ids in completions(cards, rules):
        seen.setdefault(ids[0], None)
    if sum(1 for c in cards if c.is_joker and c.declared is None) > 1:
        # with two bare jokers the order of assignment is free: any identity of either joker
        for _kind, ids in completions(cards, rules):
            for ident in ids:
                seen.setdefault(ident, None)
    return [value_code(r, s) for r, s in sorted(seen, key=lambda rs: (rs[1], rs[0]))]


def _position(card: Card, cards: Sequence[Card]) -> int:
    r, _ = card.effective  # type: ignore[misc]
    if r != 1:
        return r
    others = [c.effective[0] for c in cards if c.effective is not None and c is not card]
    return 14 if any(o >= 12 for o in others) and not any(o == 2 for o in others) else 1


def sort_meld(cards: Sequence[Card], rules: object = None) -> list[Card]:
    """Canonical order of a valid meld with declared jokers: sequences by rank, groups by suit."""
    cards = list(cards)
    if any(c.effective is None for c in cards):
        return cards
    kind = classify(cards, rules)
    if kind == SEQUENCE:
        return sorted(cards, key=lambda c: (_position(c, cards), c.is_joker, c.deck))
    if kind == GROUP:
        return sorted(cards, key=lambda c: (c.effective[1], c.is_joker, c.deck))  # type: ignore[index]
    return cards


def meld_points(cards: Iterable[Card]) -> int:
    """Points of a meld by effective identity (jokers count as the card they stand for)."""
    return sum(value_points(c.effective[0]) for c in cards if c.effective is not None)
