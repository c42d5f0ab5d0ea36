"""Checking a proposed meld step: the complete new table against M1–M4 (RULES B.5.2) and the joker
rules (B.3).  :func:`analyse` never looks at whose turn it is (:mod:`.turn` does)."""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..cards import Card, make_deck, value_code
from ..errors import IllegalMove, InvalidAction
from ..text import MELD_MESSAGES
from .melds import completions, meld_points, meld_problem, meld_refusal, sort_meld
from .state import ManipulationState, card_ref, codes, illegal


@functools.lru_cache(maxsize=16)
def _deck_ids(packs: int, jokers: int) -> frozenset[str]:
    return frozenset(c.id for c in make_deck(packs, jokers))


@dataclass(slots=True)
class _Analysis:
    melds: list[dict]
    errors: list[IllegalMove]
    new_table: tuple[tuple[Card, ...], ...]
    played: list[Card]


def analyse(state: ManipulationState, seat: int, proposed: tuple[tuple[Card, ...], ...]) -> _Analysis:
    """Check a proposed complete table against M1–M4 (B.5.2) and the joker rules (B.3).

    Raises InvalidAction only for malformed input (unknown or repeated card ids).  The errors come in
    a fixed order: cards not available, each meld's problem (M3), table cards missing (M2), joker
    identities (M4), no card from hand (M1), the first-meld option.
    """
    r = state.rules
    hand = {c.id: c for c in state.hands[seat]}
    old: dict[str, Card] = {c.id: c for meld in state.table for c in meld}
    seen = _check_ids(proposed, _deck_ids(r.packs, r.jokers))
    errors = [
        illegal("card_not_available", card=c.undeclared().code)
        for meld in proposed
        for c in meld
        if c.id not in hand and c.id not in old
    ]
    melds_eff, freed = _effective_melds(proposed, old)
    naturals = {c.key for meld in proposed for c in meld if not c.is_joker}
    freed_ids = {c.id for c, _i in freed}
    reports, new_table = [], []
    for i, eff in enumerate(melds_eff):  # M3
        eff, loosened = _redeclarable(eff, old, naturals, r)
        report, meld, error = _meld_report(i, proposed[i], eff, r)
        if loosened:
            lying = {c.id: c for c in meld}
            report["jokers"] = {cid: card_ref(lying[cid]) for cid in loosened}
            for cid in loosened:  # a table joker declared anew: freed by its natural card (M4)
                if cid in old and cid not in freed_ids:
                    freed.append((lying[cid], old[cid].declared))  # type: ignore[arg-type]
                    freed_ids.add(cid)
        reports.append(report)
        new_table.append(meld)
        if error is not None:
            errors.append(error)
    errors += _missing_errors(old, seen)  # M2
    played = [hand[c.id] for meld in proposed for c in meld if c.id in hand]
    played_ids = {c.id for c in played}
    if freed:  # M4
        errors += _identity_errors(freed, played, old, r)
        if r.freed_joker_reuse == "new_meld_only":
            errors += _new_meld_only_errors(freed, proposed, new_table, played_ids, reports)
    if not played:  # M1
        errors.append(illegal("no_card_from_hand"))
    if r.first_meld_min_points > 0 and not state.has_melded[seat] and played:
        errors += _first_meld_errors(state, new_table, played_ids)
    return _Analysis(reports, errors, tuple(new_table), played)


def _check_ids(proposed: tuple[tuple[Card, ...], ...], all_ids: frozenset[str]) -> set[str]:
    """The ids of the proposed table; InvalidAction for a card not of this game or given twice."""
    seen: set[str] = set()
    for meld in proposed:
        for c in meld:
            if c.id not in all_ids:
                raise InvalidAction(f"{c.id} is not a card of this game.", code="unknown_card")
            if c.id in seen:
                raise InvalidAction(f"{c.id} appears twice in the proposed table.", code="duplicate_card")
            if not c.is_joker and c.declared is not None:  # pragma: no cover - parser never builds this
                raise InvalidAction(f"{c.id} is not a joker.", code="bad_card")
            seen.add(c.id)
    return seen


def _effective_melds(
    proposed: tuple[tuple[Card, ...], ...], old: dict[str, Card]
) -> tuple[list[list[Card]], list[tuple[Card, tuple[int, int]]]]:
    """The melds with table jokers given bare keeping their identity, and the jokers that change
    identity: ``(joker as placed, old identity)``."""
    melds_eff: list[list[Card]] = []
    freed: list[tuple[Card, tuple[int, int]]] = []
    for meld in proposed:
        eff = []
        for c in meld:
            if c.is_joker and c.id in old:
                before = old[c.id].declared
                if c.declared is None:
                    c = old[c.id]
                elif c.declared != before:
                    freed.append((c, before))  # type: ignore[arg-type]
            eff.append(c)
        melds_eff.append(eff)
    return melds_eff, freed


def _redeclarable(
    eff: list[Card], old: dict[str, Card], naturals: set[tuple[int, int]], rules: Any
) -> tuple[list[Card], list[str]]:
    """A meld whose declared jokers do not fit it, with those that may take a new identity made
    bare again, and their ids (B.3.1, B.3.4): a joker from the hand always may; a table joker may
    once a natural card of its identity is on the table (it was freed by substitution, B.3.3).
    A meld that is valid, or that no new identity of those jokers makes valid, is left as it is."""
    if meld_problem(eff, rules) is None:
        return eff, []
    loose = [
        k
        for k, c in enumerate(eff)
        if c.is_joker and c.declared is not None and (c.id not in old or old[c.id].declared in naturals)
    ]
    if not loose:
        return eff, []
    bare = list(eff)
    for k in loose:
        bare[k] = bare[k].undeclared()
    if meld_problem(bare, rules) is not None:
        return eff, []
    return bare, [eff[k].id for k in loose]


def _meld_report(
    i: int, proposed: tuple[Card, ...], eff: list[Card], rules: Any
) -> tuple[dict[str, Any], tuple[Card, ...], IllegalMove | None]:
    """M3 for one meld: its report for the draft, the meld as it will lie (bare hand jokers given their
    forced identity, sorted) and its error, if any."""
    rep: dict[str, Any] = {
        "index": i,
        "cards": [card_ref(c) for c in proposed],
        "valid": True,
        "kind": None,
        "code": None,
        "reason": None,
        "template": None,
        "params": None,
        "joker_options": [],
    }
    problem = meld_refusal(eff, rules)
    if problem is not None:
        err = IllegalMove("invalid_meld", MELD_MESSAGES[problem[0]], problem[1])
        rep.update(valid=False, code=problem[0], reason=err.message, template=err.template, params=err.params)
        return rep, tuple(eff), err
    bare = [k for k, c in enumerate(eff) if c.effective is None]
    comps = completions(eff, rules)
    rep["kind"] = comps[0][0]
    err = None
    if bare:
        options = sorted({ids[0] for _k, ids in comps}, key=lambda rs: (rs[1], rs[0]))
        rep["joker_options"] = [value_code(*o) for o in options]
        distinct = {ids for _k, ids in comps}
        if len(distinct) == 1:
            ids = next(iter(distinct))
            eff = list(eff)
            for k, ident in zip(bare, ids, strict=True):
                eff[k] = eff[k].declare(*ident)
        else:
            err = illegal("joker_identity_needed", cards=codes(eff), options=rep["joker_options"])
            rep.update(code=err.code, reason=err.message, template=err.template, params=err.params)
    return rep, tuple(sort_meld(eff, rules)), err


def _missing_errors(old: dict[str, Card], seen: set[str]) -> list[IllegalMove]:
    """M2: every table card still on the table (a freed joker placed again)."""
    missing = [c for cid, c in old.items() if cid not in seen]
    errors = []
    missing_nat = [c for c in missing if not c.is_joker]
    if missing_nat:
        errors.append(illegal("table_card_missing", cards=codes(missing_nat)))
    errors += [illegal("freed_joker_not_placed", card=c.code) for c in missing if c.is_joker]
    return errors


def _identity_errors(
    freed: list[tuple[Card, tuple[int, int]]], played: list[Card], old: dict[str, Card], rules: Any
) -> list[IllegalMove]:
    """M4: a joker's identity changes only through substitution by an identical natural card."""
    errors = []
    for ident, count in Counter(ident for _c, ident in freed).items():
        from_hand = sum(1 for c in played if not c.is_joker and c.key == ident)
        from_table = sum(1 for c in old.values() if not c.is_joker and c.key == ident)
        have = from_hand + (from_table if rules.joker_substitute_from == "hand_or_table" else 0)
        if have < count:
            code = "joker_identity_changed"
            if rules.joker_substitute_from == "hand_only" and from_hand + from_table >= count:
                code = "joker_substitute_hand_only"
            errors.append(illegal(code, identity=value_code(*ident)))
    return errors


def _new_meld_only_errors(
    freed: list[tuple[Card, tuple[int, int]]],
    proposed: tuple[tuple[Card, ...], ...],
    new_table: list[tuple[Card, ...]],
    played_ids: set[str],
    reports: list[dict[str, Any]],
) -> list[IllegalMove]:
    """Option ``freed_joker_reuse = new_meld_only``: a freed joker goes only into a new meld of hand
    cards (the meld's report is marked invalid too)."""
    errors = []
    freed_ids = {c.id for c, _i in freed}
    for i, meld in enumerate(proposed):
        if not any(c.id in freed_ids for c in meld):
            continue
        others = [c for c in meld if c.id not in freed_ids]
        if not others or any(c.id not in played_ids for c in others):
            err = illegal("freed_joker_new_meld_only", cards=codes(new_table[i]))
            errors.append(err)
            reports[i].update(valid=False, code=err.code, reason=err.message, template=err.template, params=err.params)
    return errors


def _first_meld_errors(
    state: ManipulationState, new_table: list[tuple[Card, ...]], played_ids: set[str]
) -> list[IllegalMove]:
    """Option ``first_meld_min_points`` (Rummikub-style first meld; off by default)."""
    errors = []
    old_melds = Counter(frozenset(card_ref(c) for c in meld) for meld in state.table)
    new_melds = Counter(frozenset(card_ref(c) for c in meld) for meld in new_table)
    if any(new_melds[m] < k for m, k in old_melds.items()):
        errors.append(illegal("first_meld_table_untouched"))
    fresh = [m for m in new_table if frozenset(card_ref(c) for c in m) not in old_melds]
    if any(c.id not in played_ids for m in fresh for c in m):
        errors.append(illegal("first_meld_table_untouched"))
    pts = sum(meld_points(m) for m in fresh)
    if pts < state.rules.first_meld_min_points:
        errors.append(illegal("first_meld_too_low", min=state.rules.first_meld_min_points, points=pts))
    return errors
