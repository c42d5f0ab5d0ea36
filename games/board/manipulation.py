"""The Manipulation board's own part: the melds (the viewer's draft, or another's arrangement
face down), the hand in the viewer's order, what the viewer may do and the prompt."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.board import bidi, faces, speech, words
from games.board.data import LogEvent
from games.board.kept import Kept
from games.board.markup import collapsed
from games.engine.cards import Card, hand_points
from games.messages import refusal_text
from games.models import Match, MatchStatus, Seat


def manipulation_context(
    *,
    match: Match,
    view: dict,
    me: Seat | None,
    state,
    seats: list[Seat],
    events: Sequence[LogEvent] = (),
    names: dict[int, str],
    public: dict[str, Any] | None = None,
    language: str,
    **_parts,
) -> dict[str, Any]:
    """The Manipulation board's own part: the melds (the viewer's draft, or another's face down),
    the hand in the viewer's order, what the viewer may do and the prompt.  ``names``: the seats'
    names in sentences (``words.sentence_names``, once per version).  ``public``: this part of the
    version's board for a viewer with no seat, when worked out already: a seat that is not arranging
    a draft sees the same melds, made from the same things.  ``language``: the current one."""
    my_turn = me is not None and view.get("seat_to_act") == me.index and match.status == MatchStatus.PLAYING
    actions = {a["type"] for a in view.get("legal_actions", [])}
    draft, drafting, table_refs, hand_ids, reports = _draft_table(match, view, me)
    hand_cards, hand_html, hand_words = _hand(tuple(hand_ids), tuple(me.hand_order or ()) if me else (), language)
    draft_report = (match.draft or {}).get("report") if drafting else None
    marks = _marks_of(events)
    shared = public if public is not None and not drafting else None  # the melds everyone but a drafter sees
    return {
        # Worked out only if drawn: the melds are this viewer's own only while it is their turn (else
        # the public board's are shown: board.fragments), and drawn only when ``melds_key`` is new.
        "melds": shared["melds"]
        if shared is not None and "meld" not in actions
        else SimpleLazyObject(
            partial(meld_rows, table_refs, reports, drafting, view["table"], marks, names, can_meld="meld" in actions)
        ),
        # Everything the melds are made from (board.fragments keeps their markup by it, for every table).
        "melds_key": shared["melds_key"]
        if shared is not None
        else (
            tuple(map(tuple, table_refs)),
            json.dumps(reports, sort_keys=True) if reports else "",
            drafting,
            tuple(map(tuple, view["table"])),
            tuple(sorted(marks.items())),
            tuple(sorted(names.items())),
        ),
        "hand": hand_html,
        "hand_cards": hand_cards,  # (id, markup): a socket sends the cards a move adds or takes (board.fragments)
        "hand_words": hand_words,  # the hand in words, for the command line's readers
        "my_turn": my_turn,
        "can_draw": "draw" in actions,
        "can_meld": "meld" in actions,
        "can_knock": "knock" in actions,
        "can_end_turn": "end_turn" in actions,
        "drafting": drafting,
        "draft_ok": bool(draft_report and draft_report.get("ok")),
        "draft_errors": [
            {"code": e.get("code"), "message": refusal_text(e, "manipulation")}
            for e in (draft_report or {}).get("errors", [])
        ],
        "someone_drafting": draft is not None and not drafting,
        "prompt": _manipulation_prompt(match, view, my_turn, actions, state.rules.max_draws_per_turn, names, language),
        "stock_count": view.get("stock_count"),
        "phase": view.get("phase"),
        "draws": view.get("draws_this_turn", 0),
        # The hand as it is now: while a move is built, without the cards it lays.
        "hand_points": hand_points((Card.from_code(c) for c in hand_ids), state.rules.joker_value)
        if drafting
        else view.get("hand_points"),
        "knock_limit": state.rules.knock_limit,
    }


# A hand as the viewer has it (its cards in the viewer's order, as (id, markup), the markup of them all,
# the hand in words), per hand, order and language: a seat's hand is drawn again at every version, and
# between two of its own moves it is the same.  ~9.5 KB of memory a hand (~6.5 K characters, kept at two bytes
# a character for the suits' symbols; bench/README.md "Twenty-first round"); the least recently used go first.
_HANDS = Kept(4096)


def _hand(
    hand_ids: tuple[str, ...], order: tuple[str, ...], language: str
) -> tuple[tuple[tuple[str, SafeString], ...], SafeString, str]:
    key = (language, hand_ids, order)
    hand = _HANDS.get(key)
    if hand is None:
        in_order = faces.sorted_hand(list(hand_ids), list(order))
        cards = tuple(zip([Card.from_code(ref).id for ref in in_order], faces.card_items(in_order), strict=True))
        html = mark_safe("".join(markup for _id, markup in cards))  # each card escaped
        hand = (cards, html, speech.hand_words(in_order))
        _HANDS.put(key, hand)
    return hand


def _draft_table(match: Match, view: dict, me: Seat | None):
    """(draft, the viewer drafts, the melds shown, the hand left, the draft's meld reports).

    The drafting player sees the arrangement with the cards it takes from the hand; the others see
    it live, with the cards from the player's hand face down ("")."""
    draft = match.draft if match.draft and match.status == MatchStatus.PLAYING else None
    hand_ids = list(view.get("hand") or [])
    table_refs = [list(m) for m in view["table"]]
    if draft is None:
        return None, False, table_refs, hand_ids, []
    reports = draft.get("report", {}).get("melds", [])
    lying = [_as_lying(list(m), reports[i] if i < len(reports) else {}) for i, m in enumerate(draft["table"])]
    if me is not None and draft.get("seat") == me.index:
        placed = {Card.from_code(ref).id for m in lying for ref in m}
        hand_ids = [cid for cid in hand_ids if cid not in placed]
        return draft, True, lying, hand_ids, reports
    public_ids = {Card.from_code(ref).id for m in view["table"] for ref in m}
    table_refs = [[ref if Card.from_code(ref).id in public_ids else "" for ref in m] for m in lying]
    return draft, False, table_refs, hand_ids, []


def _as_lying(refs: list[str], report: dict) -> list[str]:
    """A draft meld's refs with the jokers the engine declared anew where they now lie (a freed
    joker, a joker moved from one meld to another): its one fitting card, or bare while the player
    is to choose (``report["jokers"]``: id -> ref)."""
    jokers = report.get("jokers") or {}
    if not jokers:
        return refs
    return [jokers.get(Card.from_code(ref).id, ref) if ref else ref for ref in refs]


# A meld's box and its line in words (``meld-box`` and ``meld-line``), per everything they are drawn from
# and the language: a move changes a meld or two of a table, and a board whose melds changed drew them all
# (bench/README.md "Twenty-third round").  ~3 KB a meld with its key (~6.5 MB when full); the least
# recently used go first.
_MELDS = Kept(2048)


def meld_rows(
    table_refs: list[list[str]],
    reports: list[dict],
    drafting: bool,
    table: list[list[str]],
    marks: dict[str, Mark] | None = None,
    names: dict[int, str] | None = None,
    *,
    can_meld: bool = False,
) -> MeldRows:
    """The melds shown, each as a row of what its partials read and their markup (``box``: the
    ``meld-box`` partial, ``line``: the ``meld-line`` partial).  ``table_refs``: a draft's
    or the table's melds; ``table``: the melds lying on the table when the step began (its cards never
    go back to a hand); ``marks``: each player's last move (:func:`last_moves`), by card id;
    ``can_meld``: the melds are the viewer's to arrange (drop targets).  While drafting, the last meld
    is the one being built when it holds only cards of the hand (the board shows it beside the
    new-meld zone)."""
    on_table = {Card.from_code(r).id for m in table for r in m}
    marks = marks or {}
    names = names or {}
    lang = get_language()
    melds = []
    for i, meld in enumerate(table_refs):
        report = reports[i] if i < len(reports) else {}
        ids = [Card.from_code(ref).id if ref else "" for ref in meld]  # "" = face down
        laid = tuple(ids[k] in on_table for k, ref in enumerate(meld) if ref)
        card_marks = tuple(marks.get(cid) for cid in ids)
        marked = [m for m in card_marks if m is not None]
        whole = marks.get(_meld_key(ids))  # a meld the move changed by taking cards out of it
        if whole is not None:
            marked.append(whole)
        mark = max(marked, key=lambda m: m.seq) if marked else None
        row = {
            "index": i,
            "ids": ids,
            "valid": report.get("valid", True),
            "reason": refusal_text(report, "manipulation") if drafting and report.get("reason") else None,
            "joker_options": [faces.joker_option(code) for code in report.get("joker_options", [])] if drafting else [],
            "needs_joker": drafting and report.get("code") == "joker_identity_needed",
            "building": drafting and i == len(table_refs) - 1 and not on_table & set(ids),
            "mark": {"seq": mark.seq, "seat": mark.seat, "name": names.get(mark.seat, "")} if mark else None,
        }
        # Everything the two partials read besides the row: the cards, how each is marked, the language.
        key = (lang, can_meld, tuple(meld), laid, card_marks, repr(row))
        drawn = _MELDS.get(key)
        if drawn is None:
            drawn = _draw_meld(row, meld, on_table, card_marks, can_meld)
            _MELDS.put(key, drawn)
        row["box"], row["line"] = drawn
        melds.append(row)
    return MeldRows(melds, can_meld)


class MeldRows(list):
    """:func:`meld_rows`' rows, with their markup put together as the ``frag-melds`` partial shows it
    (one join, not a template loop over the melds, three times a board)."""

    def __init__(self, rows: list[dict[str, Any]], can_meld: bool):
        super().__init__(rows)
        # The boxes in the row: every meld's but the one being built while the viewer may meld (that one
        # is docked beside the new-meld zone: ``dock``).  Apart by a space, as the page collapses the
        # white space a template loop put between them.
        self.boxes = mark_safe(" ".join(row["box"] for row in rows if not (row["building"] and can_meld)))
        self.dock = mark_safe(" ".join(row["box"] for row in rows if row["building"] and can_meld))
        self.lines = mark_safe("".join(row["line"] for row in rows))  # the table in words, a meld a line


def _draw_meld(row: dict[str, Any], meld: list[str], on_table: set[str], card_marks: tuple, can_meld: bool):
    """(the ``meld-box`` partial, the ``meld-line`` partial) of one meld's row (:func:`meld_rows`)."""
    ids = row["ids"]
    shown = {
        **row,
        # The meld in words ("seven, eight, nine of hearts"): the table as a list a screen reader walks.
        "words": speech.meld_words(meld),
        "cards_html": mark_safe(
            "".join(
                faces.card_html(ref, pressable=True, on_table=bool(ref) and ids[k] in on_table, mark=card_marks[k])
                for k, ref in enumerate(meld)
            )
        ),
    }
    ctx = {"meld": shown, "can_meld": can_meld}
    return (
        collapsed(render_to_string("games/table.html#meld-box", ctx)),
        collapsed(render_to_string("games/table.html#meld-line", ctx)),
    )


_last_marks: tuple = (None, {})  # (a version's log, its marks): its views ask for the same log's marks


def _marks_of(events: Sequence[LogEvent]) -> dict[str, Mark]:
    """:func:`last_moves` of a version's log, worked out once for all its views (the log is the version's one list)."""
    global _last_marks
    log, marks = _last_marks
    if log is not events:
        marks = last_moves(events)
        _last_marks = (events, marks)  # one assignment: another thread sees the old pair or this one
    return marks


@dataclass(frozen=True, slots=True)
class Mark:
    """A card's part in a player's last move: ``kind`` "laid" (from the hand) or "moved" (from another meld)."""

    kind: str
    seat: int
    seq: int


def _meld_key(ids: Sequence[str]) -> str:
    return "meld:" + " ".join(sorted(ids))


def last_moves(events: Sequence[LogEvent]) -> dict[str, Mark]:
    """The cards each player's last turn of this round laid or moved, by card id, and the melds it
    changed, by :func:`_meld_key` (public: the table before and after each meld step, as the engine
    described it).  A later turn's mark wins."""
    start = max((i + 1 for i, e in enumerate(events) if e.summary.get("code") == "deal"), default=0)
    turns: dict[int, list[LogEvent]] = {}  # seat -> its last run of events
    previous = None
    for e in events[start:]:
        if e.seat is None:
            previous = None
            continue
        if e.seat != previous:
            turns[e.seat] = []
        turns[e.seat].append(e)
        previous = e.seat
    marks: dict[str, Mark] = {}
    steps = sorted((e for run in turns.values() for e in run if e.summary.get("code") == "meld"), key=lambda e: e.seq)
    for e in steps:
        for kind in ("laid", "moved"):
            for ref in e.summary.get(kind) or ():
                marks[Card.from_code(ref).id] = Mark(kind, e.seat, e.seq)
        for meld in e.summary.get("melds") or ():
            marks[_meld_key([Card.from_code(ref).id for ref in meld])] = Mark("changed", e.seat, e.seq)
    return marks


def _manipulation_prompt(
    match: Match, view: dict, my_turn: bool, actions: set[str], max_draws: int, names: dict[int, str], language: str
) -> str:
    phase, draws = view.get("phase"), view.get("draws_this_turn", 0)
    if my_turn:
        if phase == "start":
            return _("Your turn: draw a card.")
        if phase == "drawn":
            return words.drawn_prompt(draws, max_draws, "draw" in actions)
        if phase == "end":
            if "knock" in actions:
                return _("Your draws are done. Knock or end your turn.")
            return _("Your draws are done. End your turn.")
        if phase == "final":
            return _("Final lap: meld once more if you can, then end your turn.")
        return ""
    to_act = view.get("seat_to_act")
    if to_act is not None and match.status == MatchStatus.PLAYING:
        return _waiting_for(names.get(to_act, ""), language)
    return ""


# "Waiting for <name> to play…" by language and name: every viewer but the player to act is shown it,
# at every version (its words and the name's isolation each look the language up: ~11 us a viewer).
_WAITING = Kept(1024)


def _waiting_for(name: str, language: str) -> str:
    key = (language, name)
    said = _WAITING.get(key)
    if said is None:
        said = _("Waiting for %(name)s to play…") % {"name": bidi.isolate(name)}
        _WAITING.put(key, said)
    return said
