"""``best_play``: the joker cases of a meld step, each solved by the DP of :mod:`.dp`, best bound first."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...cards import Card, as_cards
from ...errors import InvalidAction
from ..melds import ace_mode_of, classify, sort_meld
from .dp import NEG, Problem, SearchBudgetExceeded
from .forward import CapReached, Forward
from .freed import iter_freed_meld_sets
from .lp import Built, cover_bound
from .lp import solve as solve_cover
from .lp_step import StepCards
from .lp_step import solve as solve_step


@dataclass(frozen=True, slots=True)
class Play:
    """The result of :func:`best_play`.

    ``table``: the complete new arrangement as codes (jokers ``"JK=7S"``);
    ``played``: codes of the hand cards laid; ``points``: their value (jokers 25);
    ``table_cards`` / ``played_cards``: the same as :class:`Card` objects (deck indices kept);
    ``proven``: False when the search budget ran out first (``best_effort``): the best play found by
    then, which may not be the best there is.
    """

    table: list[list[str]]
    played: list[str]
    points: int
    table_cards: list[list[Card]] = field(default_factory=list)
    played_cards: list[Card] = field(default_factory=list)
    proven: bool = True

    @property
    def cards(self) -> int:
        return len(self.played)

    @property
    def table_ids(self) -> list[list[str]]:
        return [[f"{c.code}.{c.deck}" for c in meld] for meld in self.table_cards]


def _opt(rules: Any, key: str, default: Any) -> Any:
    if rules is None:
        return default
    if isinstance(rules, dict):
        return rules.get(key, default)
    return getattr(rules, key, default)


def _parse_inputs(table: Iterable[Iterable[Any]], hand: Iterable[Any]) -> tuple[list[list[Card]], list[Card]]:
    melds = [list(m) for m in table]
    hand_items = list(hand)
    flat = [c for m in melds for c in m] + hand_items
    if all(isinstance(c, Card) for c in flat):
        cards = flat
    else:
        cards = as_cards(flat)
    out, pos = [], 0
    for m in melds:
        out.append(cards[pos : pos + len(m)])
        pos += len(m)
    hand_cards = [c.undeclared() if c.is_joker else c for c in cards[pos:]]
    for m in out:
        for c in m:
            if c.is_joker and c.declared is None:
                raise InvalidAction("A joker on the table must carry its declared card (JK=xx).", code="bad_table")
    return out, hand_cards


# ---------------------------------------------------------------------------- public entry point

Key = tuple[int, int]  # a natural card's value (rank, suit)


def best_play(
    table: Sequence[Sequence[Any]],
    hand: Sequence[Any],
    *,
    objective: str = "points",
    rules: Any = None,
    max_states: int | None = None,
    best_effort: bool = False,
) -> Play:
    """The best legal new table for a meld step (exact; see the package docstring).

    ``table``: melds of codes/ids/Cards (table jokers declared ``JK=7S``);
    ``hand``: codes/ids/Cards.  An empty play (``played == []``, the table
    unchanged) when nothing can be laid.  ``max_states`` bounds the search (the
    total over joker cases); beyond it :class:`SearchBudgetExceeded` is raised —
    for callers that prefer a quick answer (bots) to an exact one — or, with
    ``best_effort``, the best play found by then is returned with ``proven``
    False (a practice hint).
    """
    if objective not in ("points", "cards"):
        raise InvalidAction(f"Unknown objective {objective!r}.", code="bad_objective")
    melds, hand_cards = _parse_inputs(table, hand)
    if sum(c.is_joker for m in melds for c in m) + sum(c.is_joker for c in hand_cards) > 8:
        raise InvalidAction("At most 8 jokers can be searched.", code="bad_table")  # the DP packs counts in 4 bits
    step = _Step(melds, hand_cards, objective, rules)
    if step.new_meld_only and step.table_jokers:
        # every case's bound is about the same (the whole hand): the cases are searched as they are made,
        # and the search ends as soon as a play reaches a bound on them all: every hand card; once the
        # cases are many, the whole step's integer programme (.lp_step) gives the best play, or a bound
        # when no play can be built from its solution (else the best play when a freed joker may go into
        # any meld: every play of this option is one of that option too)
        def whole(found: tuple | None) -> tuple[float, tuple | None]:
            solved = solve_step(step.cards(), None if found is None else found[0])
            if solved is not None and solved.built is not None:
                return solved.value, (solved.built.melds, solved.built.used)
            if solved is not None:
                return solved.value, None
            return _any_meld_value(melds, hand_cards, objective, rules, max_states), None

        best, proven = _search([], max_states, best_effort, step, stream=step.stream(), upper=step.upper(), whole=whole)
    else:
        best, proven = _search(step.cases(), max_states, best_effort, step)
    joker_value = step.joker_value
    if best is None:
        return Play(
            table=[[c.code for c in m] for m in melds],
            played=[],
            points=0,
            table_cards=[list(m) for m in melds],
            played_cards=[],
            proven=proven,
        )
    new_melds, played = best
    new_melds = [sort_meld(m, step.ace_mode) for m in new_melds]
    new_melds.sort(key=_meld_sort_key)
    for m in new_melds:  # defensive: the DP only builds valid melds
        if classify(m, step.ace_mode) is None:  # pragma: no cover
            raise AssertionError(f"solver built an invalid meld {[c.code for c in m]}")
    played_ids = {(c.rank, c.suit, c.deck) for c in played}
    played_sorted = [c for c in hand_cards if (c.rank, c.suit, c.deck) in played_ids]
    return Play(
        table=[[c.code for c in m] for m in new_melds],
        played=[c.code for c in played_sorted],
        points=sum(c.points(joker_value) for c in played_sorted),
        table_cards=new_melds,
        played_cards=played_sorted,
        proven=proven,
    )


# With ``best_effort``: how many times ``max_states`` a case's search may use before any play is found
# (a hint has a play to show for all but the largest positions; its depth-first steps stop at DFS_CAP_QUICK
# states each, so the layer-by-layer search from their floor is what may use it).
FIRST_PASS_ALLOWANCE = 20
DFS_CAP_QUICK = 300  # states the depth-first searches near a bound may visit (steps 1 and 2 of _solve_case)
SMALL_CASE = 13  # a case with at most as many optional cards and wildcards is searched from the floor
DFS_CAP_BEFORE_COVER = 3000  # (at most as many states) before the cover programme
DFS_CAP_FROM_FLOOR = 3000  # and the one from the floor (step 3)
# new_meld_only: the cases made, or the states their searches visited, before the whole step's programme
# is asked (_search); most positions end before (their best play lays every hand card)
TIGHTER_AFTER = 8
TIGHTER_STATES = 5000


def _search(
    prepared: list[tuple],
    max_states: int | None,
    best_effort: bool = False,
    step: _Step | None = None,
    gap_unit: int = 1 << 12,
    stream: Iterator[tuple] | None = None,
    upper: float | None = None,
    whole: Any = None,
) -> tuple[tuple[list[list[Card]], list[Card]] | None, bool]:
    """The best play over the prepared joker cases, and whether it is proven best (with ``best_effort`` a
    search past ``max_states`` stops there with the best play found by then instead of raising
    :class:`SearchBudgetExceeded`).

    Cases go best bound first (ties: more freed jokers first); a case whose bound cannot beat the best
    found so far ends the search.  Each case is searched in up to three steps, each exact for what it
    claims (:func:`_solve_case`).  With option ``freed_joker_reuse = new_meld_only`` (``step.groups``)
    the cases that leave the same cards to place (kept jokers, hand naturals that must free jokers) and as
    many hand jokers share a relaxation, the problem with every hand natural left, solved once: no case of
    the group does better than its own constant plus that value, and none has a play at all when the
    relaxation has none (most of the thousands of cases of a hand with several jokers, found in one search
    instead of one each).
    With ``stream`` (new_meld_only) the cases come as they are made, in their order, and the search ends
    when the best play reaches ``upper``, a bound on them all.  Past :data:`TIGHTER_AFTER` cases or
    :data:`TIGHTER_STATES` states, ``whole(best)`` is asked once: ``(value, play)``, the step's best play
    (the whole step's programme, which takes the best play found so far as its start), or ``(bound,
    None)``: a bound on every case, which becomes ``upper`` if it is less.
    """
    prepared.sort(key=lambda item: (-item[0], item[1]))
    best_val: float = 0.0
    spent = 0
    best = None
    proven = True
    shared_half: dict = {}  # pairs of suit option lists, shared by the cases of this step
    shared_comps: dict = {}
    relaxed: dict[tuple, float | None] = {}  # per group of cases: the best value of its relaxation

    def problem(args: tuple) -> Problem:
        prob = Problem(*args)
        prob.shared_half, prob.shared_comps = shared_half, shared_comps
        return prob

    if stream is None:
        upper = None
    for bound, i, args, const, pre_melds, extra_played in prepared if stream is None else stream:
        if whole is not None and (i >= TIGHTER_AFTER or spent >= TIGHTER_STATES):
            top, play = whole(best)
            whole = None
            if play is not None:  # the best play of the step
                if top > best_val:
                    best_val, best = top, play
                break
            upper = min(upper, top)  # type: ignore[type-var]
        if upper is not None and best_val >= upper:
            break  # no case does better
        if bound <= best_val:
            if upper is None:
                break
            continue
        found = None
        fw = None
        try:
            group = step.group_of.get(i) if step is not None else None
            if group is not None:
                if group not in relaxed:
                    rb, rargs, rc, _req = step.groups[group]  # type: ignore[union-attr]
                    rfw = Forward(problem(rargs))
                    if max_states is not None:
                        rfw.budget = max_states - spent
                    try:
                        got = _solve_case(rfw, rb - rc, NEG, gap_unit)
                    finally:
                        spent += rfw.states
                    relaxed[group] = None if got is None else got[0]
                top = relaxed[group]
                if top is None:
                    continue  # no play for the rest of the step with these jokers and hand cards
                bound = min(bound, const + top)
                if bound <= best_val:
                    continue
            prob = problem(args)
            fw = Forward(prob)
            if max_states is not None:
                # with best_effort, until a play is found the search may use FIRST_PASS_ALLOWANCE times the
                # budget: a hint has a play to show for all but the largest positions
                allowance = FIRST_PASS_ALLOWANCE if best_effort and best is None else 1
                fw.budget = max_states * allowance - spent
            found = _solve_case(fw, bound - const, best_val - const, gap_unit, max_states, spent, cover=stream is None)
        except SearchBudgetExceeded:
            if not best_effort:
                raise
            proven = False
            found = fw.best_found() if fw is not None else None
        if fw is not None:
            spent += fw.states
        if found is not None and found[0] + const > best_val:
            best_val = found[0] + const
            if isinstance(found[1], Built):
                melds_out, used_opt = found[1].melds, found[1].used
            else:
                melds_out, used_opt = fw.p.rebuild(fw.p.path_of(found[1], fw.canonical))  # type: ignore[union-attr]
            best = (pre_melds + melds_out, used_opt + extra_played)
        if not proven:
            break
    return best, proven


def _any_meld_value(
    melds: list[list[Card]], hand_cards: list[Card], objective: str, rules: Any, max_states: int | None
) -> float:
    """The value of the best play when freed jokers may go into any meld (``freed_joker_reuse =
    any_meld``): a bound on every play under ``new_meld_only``, which only restricts where they go.
    Infinite when its search runs past ``max_states`` (no bound then)."""
    step = _Step(melds, hand_cards, objective, {**_options(rules), "freed_joker_reuse": "any_meld"})
    try:
        best, _proven = _search(step.cases(), max_states, False, step)
    except SearchBudgetExceeded:
        return float("inf")
    if best is None:
        return 0
    return sum(step.joker_weight if c.is_joker else step.weight[c.rank] for c in best[1])


def _options(rules: Any) -> dict:
    """The options the solver reads (:func:`_opt`), as a dict."""
    names = ("ace_in_sequences", "joker_value", "joker_substitute_from", "freed_joker_reuse")
    return {name: _opt(rules, name, None) for name in names if _opt(rules, name, None) is not None}


def _solve_case(
    fw: Forward,
    bound: float,
    floor: float,
    gap_unit: int,
    max_states: int | None = None,
    spent: int = 0,
    cover: bool = True,
) -> tuple[float, list | Built] | None:
    """The best play of one case better than ``floor`` (values without the case's constant; ``bound``:
    the case's upper bound), or None:

    1. depth first (:meth:`.forward.Forward.dfs`, at most :data:`DFS_CAP_QUICK` states) for a play within
       ``gap_unit`` of the bound (a point, with the weights of :class:`_Step`): where nearly every hand
       card can be laid — most positions — it is found in a few paths and the case ends there;
    2. the tail (``cover``): the bound of the cover programme (:func:`.lp.cover_bound`, a linear programme
       that sees every suit at once): no search when it is not above ``floor``, else it ends every
       search that reaches it, and a short depth-first search near it; then the integer programme of
       the same cover (:func:`.lp.solve`, exact), whose play is the case's best;
    3. without ``cover`` (the thousands of cases of ``new_meld_only``: a programme each would cost more
       than most of their searches), or when the programme gives no answer in its time limit: depth
       first from ``floor`` (at most :data:`DFS_CAP_FROM_FLOOR` states); where that does not end, the
       integer programme (if not asked yet), else layer by layer from the best play found
       (:meth:`.forward.Forward.run`: the layers merge equal states and drop dominated ones).

    Past the budget (:class:`SearchBudgetExceeded`) ``fw.best_found()`` holds the best play found.
    """
    found = _near(fw, bound - gap_unit, floor)
    if found is not None:
        return found
    if not cover:
        return _search_case(fw, floor, max_states, spent, solve=True)
    # A small case (few optional cards: most of a real game's) is settled sooner by the search from the
    # floor than by the programmes (a few milliseconds against tens); within a budget, it leaves room for
    # the tail's short search so that the programme can still prove the case.
    cap = DFS_CAP_BEFORE_COVER
    if max_states is not None:
        cap = min(cap, max_states - spent - fw.states - DFS_CAP_QUICK)
    if cap > 0 and sum(map(sum, fw.p.O)) + fw.p.Jo <= SMALL_CASE:
        try:
            return fw.dfs(floor, cap)
        except CapReached:
            pass
    # The tail: the cover programme (.lp) sees what the search's bound cannot.
    top = cover_bound(fw.p)
    if top is None or top <= floor:
        return None
    fw.target = top  # a play reaching it is the case's best: every search ends there
    if top < bound:
        found = _near(fw, top - gap_unit, floor)
        if found is not None:
            return found
    solved = solve_cover(fw.p)  # the integer programme: exact, a few tens of milliseconds
    if solved is not None:
        return solved if solved[0] > floor else None
    return _search_case(fw, floor, max_states, spent)


def _near(fw: Forward, high: float, floor: float) -> tuple[float, list] | None:
    """The case's best play if one is better than ``high`` (above ``floor``) and a short depth-first search
    (:data:`DFS_CAP_QUICK` states) settles it; else None."""
    if high <= floor:
        return None
    try:
        return fw.dfs(high, DFS_CAP_QUICK)
    except CapReached:
        return None


def _search_case(
    fw: Forward, floor: float, max_states: int | None, spent: int, solve: bool = False
) -> tuple[float, list | Built] | None:
    """Step 3 of :func:`_solve_case`: depth first from the floor; where that does not end in its cap, the
    integer programme (``solve``: it has not been asked yet), then layer by layer."""
    try:
        return fw.dfs(floor, DFS_CAP_FROM_FLOOR)
    except CapReached:
        found = fw.best_found()
    if found is not None and found[0] >= fw.target:
        return found
    if solve:
        solved = solve_cover(fw.p)
        if solved is not None:
            return solved if solved[0] > floor else None
    if max_states is not None:
        fw.budget = max_states - spent
    exact, _ = fw.run(floor if found is None else max(found[0], floor), None)
    if exact is not None:
        fw.keep_found(exact)
    return exact or found


def _by_key(cards: Iterable[Card]) -> tuple[dict[Key, list[Card]], list[Card]]:
    """Naturals by value, and the jokers."""
    naturals: dict[Key, list[Card]] = {}
    jokers: list[Card] = []
    for c in cards:
        if c.is_joker:
            jokers.append(c)
        else:
            naturals.setdefault(c.key, []).append(c)
    return naturals, jokers


class _Step:
    """One meld step to search: the cards by value, the options and the weights of the objective, and
    the joker cases (which table jokers are freed), each prepared as one DP problem."""

    def __init__(self, melds: list[list[Card]], hand_cards: list[Card], objective: str, rules: Any) -> None:
        self.ace_mode = ace_mode_of(rules)
        self.joker_value = _opt(rules, "joker_value", 25)
        self.substitute_from = _opt(rules, "joker_substitute_from", "hand_or_table")
        self.new_meld_only = _opt(rules, "freed_joker_reuse", "any_meld") == "new_meld_only"
        big = 1 << 12
        pts = [0] + [min(r, 10) for r in range(1, 14)]
        if objective == "points":
            self.weight = [0] + [pts[r] * big + 1 for r in range(1, 14)]
            self.joker_weight = self.joker_value * big + 1
        else:
            self.weight = [0] + [big + pts[r] for r in range(1, 14)]
            self.joker_weight = big + self.joker_value
        self.table_nat, self.table_jokers = _by_key(c for m in melds for c in m)
        hand_nat, self.hand_jokers = _by_key(hand_cards)
        # hand cards that fit no meld whatever happens are left out of the search (exactness is kept)
        wild = len(self.table_jokers) + len(self.hand_jokers)
        self.hand_nat = _drop_unplayable(hand_nat, self.table_nat, wild, self.ace_mode)
        self.by_ident: dict[Key, list[Card]] = {}
        for jk in self.table_jokers:
            self.by_ident.setdefault(jk.declared, []).append(jk)  # type: ignore[arg-type]
        self.prepared: list[tuple] = []
        # new_meld_only: the cases by what the rest of the step must place (kept jokers, hand naturals that
        # free the jokers) and the hand jokers left, each group with the problem of its cases with every
        # hand natural left (a relaxation)
        self.groups: dict[tuple, tuple] = {}
        self.group_of: dict[int, tuple] = {}

    def cards(self) -> StepCards:
        """The step's cards as the whole step's programme counts them (new_meld_only)."""
        return StepCards(
            self.table_nat,
            self.by_ident,
            self.hand_nat,
            self.hand_jokers,
            self.substitute_from == "hand_or_table",
            self.ace_mode,
            self.weight,
            self.joker_weight,
        )

    def _on_table(self, ident: Key) -> int:
        """Naturals of ``ident`` on the table that may free a joker (option ``joker_substitute_from``)."""
        return len(self.table_nat.get(ident, ())) if self.substitute_from == "hand_or_table" else 0

    def joker_choices(self) -> list[list[list[Card]]]:
        """Per identity, the choices of table jokers freed.  A freed joker is a wildcard, which may take
        its old identity again, so freeing dominates keeping whenever the substitution needs no hand card
        (an identical natural is on the table and the option allows it): those are always freed.  Jokers
        of one identity are interchangeable, so only the number freed per identity is enumerated."""
        choices = []
        for ident, jks in self.by_ident.items():
            hi = min(len(jks), self._on_table(ident) + len(self.hand_nat.get(ident, ())))
            # under new_meld_only a freed joker is restricted, so freeing no longer dominates keeping
            lo = 0 if self.new_meld_only else min(len(jks), self._on_table(ident))
            choices.append([jks[:k] for k in range(lo, hi + 1)])
        return choices

    def cases(self) -> list[tuple]:
        """Every joker case prepared: ``(bound, index, Problem args, constant, pre-melds, cards played)``."""
        for _ in self.stream():
            pass
        return self.prepared

    def stream(self) -> Iterator[tuple]:
        """The joker cases one at a time as they are prepared (more freed jokers first; under
        new_meld_only, the thousands of sets of new melds one by one, so that a search that can stop early
        does not make them all)."""
        parts_list = sorted(itertools.product(*self.joker_choices()), key=lambda parts: -sum(map(len, parts)))
        for parts in parts_list:
            freed = [jk for part in parts for jk in part]
            kept = [jk for jk in self.table_jokers if jk not in freed]
            if self.new_meld_only and freed:
                yield from self._new_meld_only_cases(freed, kept)
            else:
                n = len(self.prepared)
                self._any_meld_case(freed, kept)
                yield from self.prepared[n:]

    def upper(self) -> int:
        """A bound on every case's value: every hand card laid (the unplayable ones left out)."""
        naturals = sum(len(cs) * self.weight[key[0]] for key, cs in self.hand_nat.items())
        return naturals + len(self.hand_jokers) * self.joker_weight

    def _any_meld_case(self, freed: list[Card], kept: list[Card]) -> None:
        required = self.requirements(freed, self.hand_nat, [])
        if required is None:
            return
        hand_case = self.hand_nat
        if not self.new_meld_only:
            # A hand natural identical to a kept joker, played beyond the substitutes, could free that
            # joker instead (the joker taking the natural's place, same identity): the case with one
            # more joker freed holds that play, so here such naturals stay in hand.
            for ident, jks in self.by_ident.items():
                req = required.get(ident, 0)
                if (
                    sum(1 for jk in freed if jk.declared == ident) < len(jks)
                    and len(self.hand_nat.get(ident, ())) > req
                ):
                    if hand_case is self.hand_nat:
                        hand_case = dict(self.hand_nat)
                    hand_case[ident] = self.hand_nat[ident][:req]
        self.prepare(freed, hand_case, self.hand_jokers, required, kept, [], [])

    def _new_meld_only_cases(self, freed: list[Card], kept: list[Card]) -> Iterator[tuple]:
        """Option freed_joker_reuse = new_meld_only: the freed jokers go into new melds made of hand cards
        (each case yielded as it is prepared)."""
        for pre_melds in iter_freed_meld_sets(freed, self.hand_nat, self.hand_jokers, self.ace_mode):
            used = [c for m in pre_melds for c in m if not (c.is_joker and any(c.same_physical(f) for f in freed))]
            used_ids = {(c.rank, c.suit, c.deck) for c in used}
            hand_rest = {
                k: [c for c in cs if (c.rank, c.suit, c.deck) not in used_ids] for k, cs in self.hand_nat.items()
            }
            jokers_rest = [c for c in self.hand_jokers if (c.rank, c.suit, c.deck) not in used_ids]
            required = self.requirements(freed, hand_rest, [c for c in used if not c.is_joker])
            if required is None:
                continue
            played = [c.undeclared() if c.is_joker else c for c in used]
            group = (tuple(c.deck for c in kept), tuple(sorted(required.items())), len(jokers_rest))
            if group not in self.groups:
                jokers = self.hand_jokers[: len(jokers_rest)]
                self.groups[group] = self.problem_args([], self.hand_nat, jokers, required, kept)
            self.group_of[len(self.prepared)] = group
            self.prepare([], hand_rest, jokers_rest, required, kept, pre_melds, played)
            yield self.prepared[-1]

    def requirements(
        self, freed: list[Card], hand_avail: dict[Key, list[Card]], used_naturals: list[Card]
    ) -> dict[Key, int] | None:
        """Hand naturals each identity needs to free its jokers (beyond the table's and those already
        used), or None when the hand has too few."""
        need: dict[Key, int] = {}
        for jk in freed:
            need[jk.declared] = need.get(jk.declared, 0) + 1  # type: ignore[index]
        required: dict[Key, int] = {}
        for ident, cnt in need.items():
            have_used = sum(1 for c in used_naturals if c.key == ident)
            req = max(0, cnt - self._on_table(ident) - have_used)
            if req > len(hand_avail.get(ident, ())):
                return None
            if req:
                required[ident] = req
        return required

    def prepare(
        self,
        freed_dp: list[Card],
        hand_avail: dict[Key, list[Card]],
        jokers_avail: list[Card],
        required: dict[Key, int],
        kept: list[Card],
        pre_melds: list[list[Card]],
        pre_played: list[Card],
    ) -> None:
        """One case as a DP problem's arguments, with its bound (the problem is built only if searched)."""
        bound, args, const, req_cards = self.problem_args(freed_dp, hand_avail, jokers_avail, required, kept)
        pre = sum(self.joker_weight if c.is_joker else self.weight[c.rank] for c in pre_played)
        bound, const = bound + pre, const + pre
        self.prepared.append((bound, len(self.prepared), args, const, pre_melds, req_cards + pre_played))

    def problem_args(
        self,
        freed_dp: list[Card],
        hand_avail: dict[Key, list[Card]],
        jokers_avail: list[Card],
        required: dict[Key, int],
        kept: list[Card],
    ) -> tuple[int, tuple, int, list[Card]]:
        """``(bound, Problem args, constant, required hand cards)`` of a case without its pre-melds."""
        weight, joker_weight = self.weight, self.joker_weight
        forced: dict[Key, list[Card]] = {}
        optional: dict[Key, list[Card]] = {}
        const = 0
        for key, cs in self.table_nat.items():
            forced.setdefault(key, []).extend(cs)
        for jk in kept:
            forced.setdefault(jk.declared, []).append(jk)  # type: ignore[arg-type]
        for key, cs in hand_avail.items():
            req = required.get(key, 0)
            if req:
                forced.setdefault(key, []).extend(cs[:req])
            if cs[req:]:
                optional[key] = list(cs[req:])
            const += req * weight[key[0]]
        # an optimistic value: every optional card and wildcard laid
        bound = const + sum(len(cs) * weight[key[0]] for key, cs in optional.items()) + len(jokers_avail) * joker_weight
        args = (forced, optional, list(freed_dp), jokers_avail, self.ace_mode, weight, joker_weight)
        req_cards = [c for key, cs in hand_avail.items() for c in cs[: required.get(key, 0)]]
        return bound, args, const, req_cards


def _drop_unplayable(
    hand_nat: dict[tuple[int, int], list[Card]], table_nat: dict[tuple[int, int], list[Card]], wild: int, mode: str
) -> dict[tuple[int, int], list[Card]]:
    """Hand naturals that could belong to some meld of the available cards (a superset of the playable ones)."""
    low = mode != "high_only"
    high = mode != "low_only"
    hand = {k: v for k, v in hand_nat.items() if v}
    while True:
        present = {k for k, v in table_nat.items() if v} | set(hand)

        drop = []
        for r, s in hand:
            others = sum(1 for t in range(4) if t != s and (r, t) in present)
            if others + wild >= 2:
                continue
            positions = ([1] if low else []) + ([14] if high else []) if r == 1 else [r]
            ok = False
            for p in positions:
                for lo in range(p - 2, p + 1):
                    hi = lo + 2
                    if lo < (1 if low else 2) or hi > (14 if high else 13) or (lo == 1 and hi == 14):
                        continue
                    missing = sum(1 for q in range(lo, hi + 1) if q != p and (1 if q == 14 else q, s) not in present)
                    if missing <= wild:
                        ok = True
                        break
                if ok:
                    break
            if not ok:
                drop.append((r, s))
        if not drop:
            return hand
        for k in drop:
            del hand[k]


def _meld_sort_key(m: list[Card]) -> tuple:
    first = next((c.effective for c in m if c.effective is not None), (0, 0))
    return (first[1], first[0], len(m))
