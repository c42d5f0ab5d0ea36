"""A typed command and the player's own view of the table → what to answer or which move to make.

A read (hand, table, a meld, what changed, status, the advice, a Gin layout) is answered here
(:class:`Answer`).  A move becomes a :class:`Step`: a kind of ``games.commands`` (``"act"`` or
``"draft"``) and the fields the board's own forms would send, so it goes through the one edge of
every move with the same services, checks and refusals.  A Manipulation move on the table ("new 7H
8H 9H", "add 5S to 3", "move 9C from 2 to new", "joker as 6S") is the player's arrangement (their
draft, or the table as it lies) changed as they said and sent as the draft the board would send;
"meld" lays it, "reset" drops it.  A card the player names that is not where they say is refused
with the engine's own reason ("7♥ is not in your hand or on the table").

Nothing is read beyond :class:`Situation`, which holds only what this player may see.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.board import lists, words
from games.board import speech as speak
from games.board.data import LogEvent
from games.engine import gin
from games.engine.cards import Card
from games.engine.errors import IllegalMove
from games.engine.text import GIN_MESSAGES, MANIPULATION_MESSAGES
from games.typed import vocabulary as vocab
from games.typed.parse import Command, Unclear


@dataclass(frozen=True)
class Situation:
    """What one player sees of a table at one version (their own view: no other hand, no stock)."""

    family: str  # "manipulation" | "gin"
    version: int
    seat: int | None
    view: dict[str, Any] | None  # the engine's player view (None: no round, or no seat)
    draft: dict[str, Any] | None  # Match.draft when it is this player's
    names: dict[int, str]
    events: Sequence[LogEvent] = ()
    playing: bool = False
    team_advice: bool = False


@dataclass(frozen=True)
class Answer:
    text: str


@dataclass(frozen=True)
class Step:
    kind: str  # a games.commands kind: "act" | "draft"
    fields: dict[str, str]
    said: str = ""  # what the step does, said before its result


def plan(command: Command, s: Situation) -> Answer | Step:
    """The answer to ``command``, or the move it makes; :class:`Unclear` or the engine's
    :class:`IllegalMove` when it cannot be made as said (nothing changes)."""
    if command.name in READS:
        return Answer(READS[command.name](s))
    if s.view is None:
        raise Unclear("no_hand", _("There is no hand in play."))
    if s.seat is None and not (s.family == "manipulation" and command.name in ("table", "read_meld")):
        raise Unclear("no_seat", _("You have no hand at this table: you can read the table and what changed."))
    handler = MOVES[s.family].get(command.name)
    if handler is None:
        raise Unclear("not_this_game", _("That command is not a move of this game. Type “help” for the list."))
    return handler(command, s)


# ----- reading -----------------------------------------------------------------------------------


def help_text(family: str) -> str:
    keys = ["hand", "table", "read_meld", "changes", "status"]
    if family == "manipulation":
        keys += ["draw", "new", "add", "move", "joker", "reset", "meld", "end_turn", "knock"]
    else:
        keys += ["take", "pass", "draw_stock", "draw_discard", "discard", "knock", "gin", "layout"]
        keys += ["suggest", "advice", "follow"]
    # Translators: the typed commands' help; %(commands)s is the list of the commands' words.
    return _("Commands: %(commands)s. Cards are written 7H, 10S, QC, JK.") % {
        "commands": lists.items(vocab.first_alias(k) for k in keys)
    }


def changes(s: Situation) -> str:
    """The log's sentences since this player's own last move (at most 10), oldest first."""
    mine = max((i for i, e in enumerate(s.events) if s.seat is not None and e.seat == s.seat), default=-1)
    lines = [
        words.event_sentence(e.summary, s.names.get(e.seat, ""))
        for e in s.events[mine + 1 :]
        if "audience" not in e.summary or s.seat in e.summary["audience"]
    ][-10:]
    if not lines:
        return _("Nothing has happened since your last move.")
    return " ".join(lines)


def status(s: Situation) -> str:
    view = s.view
    if view is None or not s.playing:
        return _("There is no hand in play.")
    to_act = view.get("seat_to_act")
    if s.seat is not None and to_act == s.seat:
        moves = sorted({a["type"] for a in view.get("legal_actions", [])})
        said = [
            vocab.first_alias(_ACTION_COMMAND.get(m, m)) for m in moves if _ACTION_COMMAND.get(m, m) in vocab.COMMANDS
        ]
        if s.family == "manipulation" and "meld" in moves:
            said[:0] = [vocab.first_alias(k) for k in ("new", "add", "move")]
        return _("Your turn. You may: %(moves)s.") % {"moves": lists.items(said)}
    if to_act is None:
        return _("There is no hand in play.")
    return _("Waiting for %(name)s to play…") % {"name": s.names.get(to_act, "")}


_ACTION_COMMAND = {"end_turn": "end_turn", "take_upcard": "take", "pass_upcard": "pass"}


def _hand_manipulation(c: Command, s: Situation) -> Answer:
    hand = _hand_left(s)
    if not hand:
        return Answer(_("Your hand is empty."))
    return Answer(_("Your hand, %(n)d cards: %(cards)s.") % {"n": len(hand), "cards": speak.hand_words(hand)})


def _table_manipulation(c: Command, s: Situation) -> Answer:
    melds = _arrangement(s)
    head = _("%(n)d cards in the stock.") % {"n": s.view.get("stock_count") or 0}
    if not melds:
        return Answer(_("No melds on the table yet.") + " " + head)
    return Answer(" ".join(m + "." for m in speak.numbered_melds(melds)) + " " + head)


def _read_meld(c: Command, s: Situation) -> Answer:
    melds = _arrangement(s) if s.family == "manipulation" else _gin_melds(s)
    n = c.meld or 0
    if not 1 <= n <= len(melds):
        raise Unclear("no_such_meld", _("There is no meld %(n)d.") % {"n": n})
    return Answer(_("Meld %(n)d: %(cards)s.") % {"n": n, "cards": speak.meld_words(melds[n - 1])})


# ----- Manipulation --------------------------------------------------------------------------------


def _mine(s: Situation) -> bool:
    return bool(s.draft) and s.draft.get("seat") == s.seat and isinstance(s.draft.get("table"), list)


def _arrangement(s: Situation) -> list[list[str]]:
    """The melds as this player sees them: their own draft while they build one, else the table."""
    if _mine(s):
        # As the board shows the draft: a joker the engine declared where it lies (its one fitting card).
        reports = (s.draft.get("report") or {}).get("melds") or []
        out = []
        for i, meld in enumerate(s.draft["table"]):
            report = reports[i] if i < len(reports) and isinstance(reports[i], dict) else {}
            jokers = dict(report.get("jokers") or {})
            bare = [ref for ref in meld if ref.startswith("JK.")]
            options = report.get("joker_options") or []
            if report.get("valid") and len(bare) == 1 and len(options) == 1 and bare[0] not in jokers:
                jokers[bare[0]] = "JK=" + options[0] + bare[0][2:]  # its one fitting card ("JK=8H.0")
            out.append([jokers.get(Card.from_code(ref).id, ref) for ref in meld])
        return out
    return [list(m) for m in s.view.get("table") or []]


def _hand_left(s: Situation) -> list[str]:
    hand = list(s.view.get("hand") or [])
    if not _mine(s):
        return hand
    placed = {Card.from_code(r).id for m in s.draft["table"] for r in m}
    return [cid for cid in hand if cid not in placed]


def _not_available(code: str) -> IllegalMove:
    return IllegalMove("card_not_available", MANIPULATION_MESSAGES["card_not_available"], {"card": code})


def _take_from_hand(hand: list[str], code: str) -> str:
    for cid in hand:
        card = Card.from_code(cid)
        if (card.is_joker and code == "JK") or (not card.is_joker and card.code == code):
            hand.remove(cid)
            return cid
    raise _not_available(code)


def _meld_index(melds: list[list[str]], n: int | None) -> int:
    if n is None or not 1 <= n <= len(melds):
        raise Unclear("no_such_meld", _("There is no meld %(n)d.") % {"n": n or 0})
    return n - 1


def _find_in_meld(meld: list[str], code: str) -> int | None:
    for k, ref in enumerate(meld):
        card = Card.from_code(ref)
        if (card.is_joker and code == "JK") or (not card.is_joker and card.code == code):
            return k
    return None


def _draft(melds: list[list[str]], s: Situation, said: str) -> Step:
    table = [m for m in melds if m]
    return Step("draft", {"table": json.dumps(table), "version": str(s.version)}, said)


def _act(action: str, s: Situation, said: str = "", **extra: str) -> Step:
    return Step("act", {"action": action, "version": str(s.version), **extra}, said)


def _new(c: Command, s: Situation) -> Step:
    melds, hand = _arrangement(s), _hand_left(s)
    meld = [_take_from_hand(hand, code) for code in c.cards]
    melds.append(meld)
    return _draft(melds, s, _("New meld %(n)d: %(cards)s.") % {"n": len(melds), "cards": speak.meld_words(meld)})


def _add(c: Command, s: Situation) -> Step:
    melds, hand = _arrangement(s), _hand_left(s)
    if c.target == 0:
        return _new(c, s)
    i = _meld_index(melds, c.target)
    melds[i].extend(_take_from_hand(hand, code) for code in c.cards)
    return _draft(melds, s, _("Meld %(n)d: %(cards)s.") % {"n": i + 1, "cards": speak.meld_words(melds[i])})


def _move(c: Command, s: Situation) -> Step:
    melds = _arrangement(s)
    moved = []
    for code in c.cards:
        sources = [_meld_index(melds, c.meld)] if c.meld is not None else range(len(melds))
        for i in sources:
            k = _find_in_meld(melds[i], code)
            if k is not None:
                moved.append(melds[i].pop(k))
                break
        else:
            raise _not_available(code)
    if c.target == 0:
        melds.append(moved)
        target = len(melds) - 1
    else:
        target = _meld_index(melds, c.target)
        melds[target].extend(moved)
    said = _("Meld %(n)d: %(cards)s.") % {"n": target + 1, "cards": speak.meld_words(melds[target])}
    if any(not m for m in melds):
        said += " " + _("A meld left empty is gone: the melds after it are numbered one less.")
    return _draft(melds, s, said)


def _joker(c: Command, s: Situation) -> Step:
    melds = _arrangement(s)
    rank, suit = Card.from_code(c.declared).rank, Card.from_code(c.declared).suit
    if c.meld is not None:
        _meld_index(melds, c.meld)
    jokers = [
        (i, k)
        for i, meld in enumerate(melds)
        if c.meld is None or i == c.meld - 1
        for k, ref in enumerate(meld)
        if Card.from_code(ref).is_joker
    ]
    # The joker still to be declared, else the one joker there is (the engine says whether it may change).
    places = [(i, k) for i, k in jokers if not Card.from_code(melds[i][k]).declared] or jokers
    if not places:
        raise Unclear("no_joker", _("There is no joker to declare there."))
    if len(places) > 1:
        raise Unclear("which_joker", _("There is more than one joker: say which meld, for example “joker as 6S in 3”."))
    i, k = places[0]
    card = Card.from_code(melds[i][k])
    melds[i][k] = f"JK={speak_code(rank, suit)}.{card.deck}"
    return _draft(melds, s, _("Meld %(n)d: %(cards)s.") % {"n": i + 1, "cards": speak.meld_words(melds[i])})


def speak_code(rank: int, suit: int) -> str:
    return {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank)) + "SHDC"[suit]


_MANIPULATION = {
    "hand": _hand_manipulation,
    "table": _table_manipulation,
    "read_meld": _read_meld,
    "draw": lambda c, s: _act("draw", s),
    "new": _new,
    "add": _add,
    "move": _move,
    "joker": _joker,
    "reset": lambda c, s: _act("reset", s),
    "meld": lambda c, s: _act("meld", s),
    "end_turn": lambda c, s: _act("end_turn", s),
    "knock": lambda c, s: _act("knock", s),
}


# ----- Gin -----------------------------------------------------------------------------------------


def _gin_hand(s: Situation) -> list[str]:
    """The cards this player plays: their own, or the advisor's view of the captain's."""
    return list(s.view.get("hand") or s.view.get("captain_hand") or [])


def _gin_melds(s: Situation) -> list[list[str]]:
    hand = _gin_hand(s)
    return [list(m) for m in gin.best_melds(hand)[0]] if hand else []


def _gin_read_hand(c: Command, s: Situation) -> Answer:
    hand = _gin_hand(s)
    if not hand:
        return Answer(_("Your hand is empty."))
    melds, dead = gin.best_melds(hand)
    parts = [_("Your hand, %(n)d cards: %(cards)s.") % {"n": len(hand), "cards": speak.hand_words(hand)}]
    if s.view.get("captain_hand") and not s.view.get("hand"):
        parts = [_("The captain's hand, %(n)d cards: %(cards)s.") % {"n": len(hand), "cards": speak.hand_words(hand)}]
    parts += [m + "." for m in speak.numbered_melds(melds)]
    parts.append(
        _("Deadwood %(points)d: %(cards)s.")
        % {"points": gin.deadwood(hand), "cards": lists.items(speak.card_name(x) for x in dead)}
        if dead
        else _("No deadwood.")
    )
    return Answer(" ".join(parts))


def _gin_table(c: Command, s: Situation) -> Answer:
    v = s.view
    top = v.get("discard_top")
    parts = [
        _("Top of the discard pile: %(card)s.") % {"card": speak.card_name(top)}
        if top
        else _("The discard pile is empty."),
        _("%(n)d cards in the stock.") % {"n": v.get("stock_count") or 0},
    ]
    for seat, count in enumerate(v.get("hand_counts") or []):
        if seat != s.seat and count:
            parts.append(_("%(name)s holds %(n)d cards.") % {"name": s.names.get(seat, ""), "n": count})
    parts.append(status(s))
    return Answer(" ".join(parts))


def _gin_card(s: Situation, code: str) -> str:
    for cid in _gin_hand(s):
        if Card.from_code(cid).code == code:
            return cid
    raise IllegalMove("card_not_in_hand", GIN_MESSAGES["card_not_in_hand"], {"cards": [code]})


def _legal(s: Situation, kind: str) -> list[dict[str, Any]]:
    return [a for a in s.view.get("legal_actions", []) if a["type"] == kind]


def _gin_knock(c: Command, s: Situation, *, gin_only: bool = False) -> Step:
    if c.cards:
        card = _gin_card(s, c.cards[0])
        return _act("knock", s, card=card)
    knocks = _legal(s, "knock")
    if gin_only:
        hand = _gin_hand(s)
        with_card = [a for a in knocks if "card" in a and gin.deadwood([x for x in hand if x != a["card"]]) == 0]
        if with_card:
            return _act("knock", s, card=with_card[0]["card"])
        if any("card" not in a for a in knocks):
            return _act("knock", s)
        raise (
            IllegalMove("not_big_gin", GIN_MESSAGES["not_big_gin"])
            if len(hand) == 11
            else Unclear("no_gin", _("You cannot go gin now: say the card to discard, for example “gin 8S”."))
        )
    hand = _gin_hand(s)
    cards = [a for a in knocks if "card" in a]
    if not cards:
        raise Unclear("no_knock", _("You cannot knock now: say the card to discard, for example “knock 8S”."))
    best = min(cards, key=lambda a: gin.deadwood([x for x in hand if x != a["card"]]))
    return _act("knock", s, card=best["card"])


def _gin_take(c: Command, s: Situation) -> Step:
    return _act("take_upcard" if s.view.get("phase", "").startswith("upcard") else "draw_discard", s)


def _gin_pass(c: Command, s: Situation) -> Step:
    return _act("pass_upcard" if s.view.get("phase", "").startswith("upcard") else "pass", s)


def _gin_draw(c: Command, s: Situation) -> Step:
    return _act("draw_stock", s)


_SUGGEST_ACTIONS = {
    "draw_stock": "draw_stock",
    "draw_discard": "draw_discard",
    "take": "take_upcard",
    "pass": "pass_upcard",
    "discard": "discard",
    "knock": "knock",
    "gin": "knock",
}


def _suggest(c: Command, s: Situation) -> Step:
    action = _SUGGEST_ACTIONS[c.what]
    if c.what in ("take", "pass") and not s.view.get("phase", "").startswith("upcard"):
        action = "draw_discard" if c.what == "take" else "draw_stock"
    suggestion: dict[str, str] = {"action": action}
    if c.cards:
        suggestion["card"] = _gin_card(s, c.cards[0])
    elif action == "discard":
        raise Unclear("one_card", _("Name one card."))
    return _act("suggest", s, suggestion=json.dumps(suggestion))


def suggestion_words(sug: dict[str, Any]) -> str:
    card = speak.card_name(sug["card"]) if sug.get("card") else ""
    return {
        "draw_stock": _("draw from the stock"),
        "draw_discard": _("take the top discard"),
        "take_upcard": _("take the upcard"),
        "pass_upcard": _("pass the upcard"),
        "discard": _("discard %(card)s") % {"card": card},
        "knock": _("knock, discarding %(card)s") % {"card": card} if card else _("knock"),
    }.get(sug.get("action", ""), sug.get("action", ""))


def _advice(c: Command, s: Situation) -> Answer:
    sugs = s.view.get("suggestions") or []
    if not sugs:
        return Answer(_("No suggestion this turn."))
    return Answer(_("The advisor suggests: %(move)s.") % {"move": suggestion_words(sugs[-1]["suggestion"])})


def _follow(c: Command, s: Situation) -> Step:
    sugs = s.view.get("suggestions") or []
    if not sugs or s.view.get("role") != "captain":
        raise Unclear("no_suggestion", _("There is no suggestion to follow."))
    sug = sugs[-1]["suggestion"]
    extra = {"card": sug["card"]} if sug.get("card") else {}
    return _act(sug["action"], s, _("You follow the advice: %(move)s.") % {"move": suggestion_words(sug)}, **extra)


def _layout(c: Command, s: Situation) -> Answer:
    result = s.view.get("result")
    if not result:
        return _gin_read_hand(c, s)
    parts = [words.result_text(result.get("kind", "")) + "."]
    for who, key in (("knocker", "knocker_melds"), ("defender", "defender_melds")):
        seat = result.get(who)
        if seat is None:
            continue
        melds = result.get(key) or []
        parts.append(
            _("%(name)s: %(melds)s; deadwood %(points)d.")
            % {
                "name": s.names.get(seat, ""),
                "melds": lists.clauses(speak.meld_words(m) for m in melds) or _("no melds"),
                "points": result.get(key.replace("melds", "deadwood")) or 0,
            }
        )
    for lay in result.get("layoffs") or []:
        parts.append(
            _("Laid off %(card)s on meld %(n)d.") % {"card": speak.card_name(lay["card"]), "n": lay["meld"] + 1}
        )
    return Answer(" ".join(parts))


_GIN = {
    "hand": _gin_read_hand,
    "table": _gin_table,
    "read_meld": _read_meld,
    "draw": _gin_draw,
    "draw_stock": _gin_draw,
    "draw_discard": lambda c, s: _act("draw_discard", s),
    "take": _gin_take,
    "pass": _gin_pass,
    "discard": lambda c, s: _act("discard", s, card=_gin_card(s, c.cards[0])),
    "knock": _gin_knock,
    "gin": lambda c, s: _gin_knock(c, s, gin_only=True),
    "suggest": _suggest,
    "advice": _advice,
    "follow": _follow,
    "layout": _layout,
}


# The commands any viewer may give, and each game's own (a command of the other game is refused).
READS = {"help": lambda s: help_text(s.family), "changes": lambda s: changes(s), "status": lambda s: status(s)}
MOVES = {"manipulation": _MANIPULATION, "gin": _GIN}


# ----- after a move --------------------------------------------------------------------------------


def _drawn(cards: Sequence[str]) -> str:
    """The cards a move put in the hand: "You drew seven of hearts." (card names as the other answers
    say them), but one joker alone "You drew a joker." (the bare word "joker" is a list's item)."""
    if len(cards) == 1 and Card.from_code(cards[0]).is_joker:
        # Translators: the answer of the command line after a draw that brought a joker.
        return _("You drew a joker.")
    return _("You drew %(cards)s.") % {"cards": lists.items(speak.card_name(c) for c in cards)}


def after(step: Step, before: Situation, now: Situation, report: dict[str, Any] | None, refusal_text) -> str:
    """What a move's answer says: what it did, the draft's reasons (as the board shows them), a card
    drawn, and what the player may do now."""
    parts = [step.said] if step.said else []
    if step.kind == "draft" and report is not None:
        errors = [refusal_text(e) for e in report.get("errors") or []]
        errors += [refusal_text(m) for m in report.get("melds") or [] if not m.get("valid", True) and m.get("reason")]
        if errors:
            parts += list(dict.fromkeys(errors))  # a meld's reason is also among the step's errors: said once
        else:
            parts.append(_("The table is valid: type “meld” to lay it."))
        return " ".join(parts)
    if before.view is not None and now.view is not None:
        old = set(before.view.get("hand") or [])
        new = [c for c in now.view.get("hand") or [] if c not in old]
        if new:
            parts.append(_drawn(new))
    parts.append(status(now))
    return " ".join(p for p in parts if p)
