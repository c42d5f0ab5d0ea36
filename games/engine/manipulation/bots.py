"""Bot policies for Manipulation Rummy.

``choose_action(state, seat, policy="basic", rng=None) -> action dict``; ``choose_move`` gives the same
action with the state after it where the bot applied it to check it (a meld), so the clock applies it once.

* ``basic``: draws; after a draw plays the solver's best play when it lowers the
  hand (maximum points laid from hand); knocks whenever allowed; otherwise
  passes and draws / ends the turn.  In the rare positions where the exact
  search would exceed ``BOT_MAX_STATES`` it plays the greedy meld instead.
* ``greedy``: the same without the exact solver (lays hand-only melds and
  lay-offs found greedily) — cheap, for the web layer and for tests.
* ``random-legal``: a random legal action (melds found greedily), for tests.

Every policy only returns legal actions (property-tested).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..cards import Card
from ..errors import RulesError
from .diff import table_diff
from .melds import classify, sort_meld
from .solver import SearchBudgetExceeded, best_play
from .state import ManipulationState
from .turn import apply, legal_actions

POLICIES = ("basic", "greedy", "random-legal")
# the exact solver is cut off beyond this many search states (rare, joker-heavy positions): greedy then
BOT_MAX_STATES = 20_000


def choose_action(state: ManipulationState, seat: int, policy: str = "basic", rng: random.Random | None = None) -> dict:
    """The action ``seat`` takes now (only called when it is ``seat``'s turn)."""
    return choose_move(state, seat, policy, rng)[0]


def choose_move(
    state: ManipulationState, seat: int, policy: str = "basic", rng: random.Random | None = None
) -> tuple[dict, ManipulationState | None]:
    """:func:`choose_action`'s action, and the state after it when the bot applied it already: a meld is
    applied here to check it (:func:`apply`, as a player's would be), so its caller need not apply it
    again (None: the action is yet to be applied)."""
    if policy not in POLICIES:
        raise ValueError(f"unknown bot policy {policy!r}")
    rng = rng or random.Random(0)
    legal = legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no action to take")
    types = [a["type"] for a in legal]
    if policy == "random-legal":
        options = [t for t in types if t != "meld"]
        if "meld" in types:
            meld = _greedy_move(state, seat)
            if meld is not None:
                options.append("meld")
        pick = rng.choice(options)
        if pick == "meld":
            return meld  # type: ignore[return-value]
        return {"type": pick}, None
    if "knock" in types:
        return {"type": "knock"}, None
    if "meld" in types:
        move = _best_meld_move(state, seat) if policy == "basic" else _greedy_move(state, seat)
        if move is not None:
            return move
    if "draw" in types:
        return {"type": "draw"}, None
    return {"type": "end_turn"}, None


def _table_refs(table: Sequence[Sequence[Card]]) -> list[list[str]]:
    return [[f"{c.code}.{c.deck}" for c in meld] for meld in table]


def _as_laid(before: Sequence[Sequence[Card]], after: Sequence[Sequence[Card]]) -> list[list[str]]:
    """The table ``after`` (the solver's, in an order of its own) as a player watching can follow it from
    ``before``: its melds in the order of their numbers (``diff.table_diff``, as the log names them: the
    melds continued where they lay, the new ones after them), and a meld of the very cards it had kept as
    it lay (the solver may put its joker at the other end)."""
    table = []
    for number, refs, new in table_diff(before, after).melds:
        old = None if new else before[number - 1]
        if old is not None and sorted(c.id for c in old) == sorted(Card.from_code(ref).id for ref in refs):
            refs = _table_refs([old])[0]
        table.append(list(refs))
    return table


def best_meld(state: ManipulationState, seat: int) -> dict | None:
    """The exact solver's best play (most points laid from hand) as a meld action, or None."""
    move = _best_meld_move(state, seat)
    return None if move is None else move[0]


def _best_meld_move(state: ManipulationState, seat: int) -> tuple[dict, ManipulationState] | None:
    """:func:`best_meld`'s action with the state after it (applied to check it)."""
    rules = state.rules
    if rules.first_meld_min_points > 0 and not state.has_melded[seat]:
        return _greedy_move(state, seat)  # the solver knows nothing of the first-meld minimum
    try:
        play = best_play(list(state.table), list(state.hands[seat]), rules=rules, max_states=BOT_MAX_STATES)
    except SearchBudgetExceeded:
        return _greedy_move(state, seat)
    if not play.played:
        return None
    action = {"type": "meld", "table": _as_laid(state.table, play.table_cards)}
    try:
        return action, apply(state, seat, action)
    except RulesError:  # pragma: no cover - the solver and the checker agree (property test)
        return _greedy_move(state, seat)


def _hand_melds(cards: list[Card], rules: Any) -> list[list[Card]]:
    """Greedy disjoint melds of natural hand cards: longest sequences first, then groups."""
    pool = [c for c in cards if not c.is_joker]
    out: list[list[Card]] = []
    ace_high = getattr(rules, "ace_in_sequences", "high_or_low") != "low_only"
    ace_low = getattr(rules, "ace_in_sequences", "high_or_low") != "high_only"
    changed = True
    while changed:
        changed = False
        best: list[Card] = []
        for suit in range(4):
            by_rank: dict[int, Card] = {}
            for c in pool:
                if c.suit == suit and c.rank not in by_rank:
                    by_rank[c.rank] = c
            if ace_high and 1 in by_rank:
                by_rank[14] = by_rank[1]
            lo_start = 1 if ace_low else 2
            for start in range(lo_start, 15):
                run = []
                r = start
                while r in by_rank and r <= 14 and (r != 14 or start > 1):
                    run.append(by_rank[r])
                    r += 1
                if len(run) >= 3 and len(run) > len(best):
                    best = run
        for rank in range(1, 14):
            group: dict[int, Card] = {}
            for c in pool:
                if c.rank == rank and c.suit not in group:
                    group[c.suit] = c
            if len(group) >= 3 and len(group) > len(best):
                best = list(group.values())
        if best:
            out.append(best)
            ids = {c.id for c in best}
            pool = [c for c in pool if c.id not in ids]
            changed = True
    return out


def greedy_meld(state: ManipulationState, seat: int) -> dict | None:
    """A legal meld action found greedily (new melds from hand, then single lay-offs), or None."""
    move = _greedy_move(state, seat)
    return None if move is None else move[0]


def _greedy_move(state: ManipulationState, seat: int) -> tuple[dict, ManipulationState] | None:
    """:func:`greedy_meld`'s action with the state after it (applied to check it)."""
    rules = state.rules
    hand = list(state.hands[seat])
    table = [list(m) for m in state.table]
    new = _hand_melds(hand, rules)
    used = {c.id for m in new for c in m}
    rest = [c for c in hand if c.id not in used and not c.is_joker]
    table.extend(new)
    progress = True
    while progress:
        progress = False
        for c in list(rest):
            for i, meld in enumerate(table):
                if classify(meld + [c], rules) is not None:
                    table[i] = sort_meld(meld + [c], rules)
                    rest.remove(c)
                    progress = True
                    break
    if len(rest) == len([c for c in hand if not c.is_joker]) and not new:
        return None
    action = {"type": "meld", "table": _table_refs(table)}
    try:
        return action, apply(state, seat, action)
    except RulesError:
        return None
