"""A puzzle's board, no database: the game's own board fragments (``games/table.html#frag-melds``,
``#frag-hand-area``, ``games/gin_board.html#frag-gin-board``) filled from the puzzle's position with a
puzzle's context (no match, no seats, no socket), and the answer checked by the engine."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games.analysis.selectors import diff_view
from games.board import faces
from games.board.gin import hand_faces
from games.board.manipulation import meld_rows
from games.engine import puzzles as engine_puzzles
from games.engine.cards import Card, hand_points
from games.engine.errors import RulesError
from games.engine.manipulation import ManipulationState, check_table
from games.engine.manipulation.diff import table_diff
from games.messages import refusal_text
from games.puzzles.models import Puzzle
from plumbing import inputs


def manipulation_state(puzzle: Puzzle) -> ManipulationState:
    return ManipulationState.from_dict(puzzle.position)


def check(puzzle: Puzzle, answer: Any) -> dict[str, Any]:
    """The engine's verdict on ``answer`` (already parsed): ``{"solved", "valid", "errors"}``."""
    if puzzle.family == "manipulation":
        report = engine_puzzles.manipulation.check_answer(
            manipulation_state(puzzle), puzzle.seat, puzzle.solution, answer["table"]
        )
        return {"solved": report["ok"], "valid": report["valid"], "errors": report["errors"], "laid": report["laid"]}
    ok = engine_puzzles.gin.check_answer(puzzle.kind, puzzle.solution, answer)
    return {"solved": ok, "valid": True, "errors": [], "laid": 0}


def refusal(report: dict[str, Any]) -> tuple[str, str]:
    """``(code, message)`` of an answer the engine refused (the first of its errors, in the reader's
    language): such an answer is not rated, the player may fix it."""
    errors = report.get("errors") or [{}]
    first = errors[0]
    if not first.get("code"):
        return "invalid_arrangement", _("That arrangement is not a legal play: fix it before you submit it.")
    return first["code"], refusal_text(first, "manipulation")


def manipulation_board(puzzle: Puzzle, draft: list | None) -> dict[str, Any]:
    """The Manipulation board of a puzzle: the table as it lay (or the player's draft, checked by the
    engine's table check) and the hand left."""
    state = manipulation_state(puzzle)
    table = [[c.id if not c.is_joker else f"{c.code}.{c.deck}" for c in m] for m in state.table]
    hand_ids = [c.id for c in state.hands[puzzle.seat]]
    reports: list[dict] = []
    errors: list[dict] = []
    refs = table
    if draft is not None:
        report = engine_puzzles.manipulation.check_answer(state, puzzle.seat, puzzle.solution, draft)
        full = manipulation_check(state, puzzle.seat, draft)
        reports = full.get("melds", [])
        errors = report["errors"]
        refs = [list(m) for m in draft]
        placed = {Card.from_code(r).id for m in refs for r in m}
        hand_ids = [cid for cid in hand_ids if cid not in placed]
    drafting = draft is not None
    melds = meld_rows(refs, reports, drafting, table, can_meld=True)
    return {
        "view": True,
        "me": True,
        "can_meld": True,
        "melds": melds,
        "hand": mark_safe("".join(faces.card_items(hand_ids))),
        "drafting": drafting,
        "draft_json": draft,
        "draft_errors": [{"code": e.get("code"), "message": refusal_text(e, "manipulation")} for e in errors],
        "hand_points": hand_points((Card.from_code(c) for c in hand_ids), state.rules.joker_value),
        "knock_limit": state.rules.knock_limit,
        "stock_count": None,
    }


def manipulation_check(state: ManipulationState, seat: int, draft: list) -> dict[str, Any]:
    return check_table(state, seat, draft)


def gin_board(puzzle: Puzzle, *, answered: bool = False, by_rank: bool = False) -> dict[str, Any]:
    """The Gin board of a puzzle: the hand after the draw, the discard pile's top, the stock's count;
    the discard list without each card's deadwood (that would be the answer); nothing to play once
    ``answered``.  ``by_rank``: the hand sorted by rank (the board's "Sort by rank"; by suit otherwise)."""
    pos = puzzle.position
    hand = list(pos["hand"])
    order = sorted(hand, key=lambda cid: (Card.from_code(cid).rank, Card.from_code(cid).suit)) if by_rank else []
    taken = pos.get("taken")
    options = [{"card": faces.card_face(c), "deadwood": None, "best": False} for c in hand if c != taken]
    discard = pos.get("discard") or []
    return {
        "gin": {
            "phase": "discard",
            "my_turn": True,
            "over": False,
            "hand": hand_faces(hand, order),
            "prompt": _("Your turn: discard a card.") if puzzle.kind == "discard" and not answered else "",
            "can_discard": not answered,
            "discard_options": options,
            "best_discard": None,
            "knock_options": [],
            "discard_top": faces.card_face(discard[-1]) if discard else None,
            "discard_count": len(discard),
            "stock_count": pos.get("stock_count"),
            "knock_limit": pos.get("knock_limit"),
            "oklahoma": False,
            "opponent_backs": [{"name": _("Opponent"), "backs": range(pos.get("opponent_count", 10))}],
        },
    }


def solution(puzzle: Puzzle) -> dict[str, Any]:
    """The solution for the page, step by step: Manipulation's rearrangement as moves from the table
    as it lay (the analysis' words), Gin's card or choice."""
    if puzzle.family == "manipulation":
        state = manipulation_state(puzzle)
        after = [[Card.from_code(r) for r in m] for m in puzzle.solution["table"]]
        return {"diff": diff_view(table_diff(state.table, after).to_dict()), "cards": puzzle.solution["cards"]}
    sol = puzzle.solution
    if puzzle.kind == "discard":
        return {
            "cards": [faces.card_face(c) for c in sol["cards"]],
            "deadwood": sol["deadwood"],
            "second": sol["second"],
        }
    return {"answer": sol["answer"], "undercut": round(100 * sol["undercut"]), "deadwood": sol["deadwood"]}


MAX_MELDS = 60
MAX_MELD_CARDS = 13


def check_shape(table) -> None:
    """A draft's shape: a list of at most ``MAX_MELDS`` lists of at most ``MAX_MELD_CARDS`` card refs."""
    ok = isinstance(table, list) and len(table) <= MAX_MELDS
    ok = ok and all(
        isinstance(m, list) and 0 < len(m) <= MAX_MELD_CARDS and all(isinstance(r, str) and len(r) <= 12 for r in m)
        for m in table
    )
    if not ok:
        raise inputs.BadInput("bad_table", _("That arrangement is not a list of melds of cards."))


def check_cards(puzzle: Puzzle, table: list) -> None:
    """Every card of a Manipulation arrangement is a card of the position (its hand or its table), once;
    else BadInput (a forged id, another player's card, a card twice)."""
    state = manipulation_state(puzzle)
    known = {c.id for c in state.hands[puzzle.seat]} | {c.id for m in state.table for c in m}
    seen: set[str] = set()
    for meld in table:
        for ref in meld:
            try:
                cid = Card.from_code(ref).id
            except RulesError:
                cid = None
            if cid not in known or cid in seen:
                raise inputs.BadInput("bad_card", _("That arrangement holds a card that is not in this position."))
            seen.add(cid)


def parse_draft(puzzle: Puzzle, text: Any) -> list:
    """A Manipulation arrangement sent by the page (JSON), checked for shape and cards; else BadInput."""
    if puzzle.family != "manipulation":
        raise inputs.BadInput("bad_action", _("That is not an answer to this puzzle."))
    table = inputs.parse_json(text, max_depth=3, max_length=8 * 1024)
    check_shape(table)
    check_cards(puzzle, table)
    return table


def parse_answer(puzzle: Puzzle, post, draft: list | None) -> dict[str, Any]:
    """The answer a form sent, checked for shape (the engine checks the rest); BadInput when malformed."""
    action = inputs.check_text(post.get("action", ""), max_length=20)
    if puzzle.family == "manipulation":
        if action == "sort":
            return {"action": "sort", "mode": ""}
        text = post.get("table")
        table = parse_draft(puzzle, text) if text else draft
        if table is None:
            raise inputs.BadInput("no_answer", _("Lay your cards on the table first."))
        return {"action": "meld", "table": table}
    if action == "sort":
        return {"action": "sort", "mode": "rank" if post.get("mode") == "rank" else "suit"}
    if action == "discard":
        card = inputs.check_text(post.get("card", ""), max_length=12)
        if card not in puzzle.position["hand"] or card == puzzle.position.get("taken"):
            raise inputs.BadInput("bad_card", _("That card is not one you may discard."))
        return {"action": "discard", "card": card}
    if action in ("knock", "wait") and puzzle.kind == "knock_or_wait":
        return {"action": action}
    raise inputs.BadInput("bad_action", _("That is not an answer to this puzzle."))
