"""The Gin board's context (three-player box game, two-player Gin, Oklahoma, Hollywood).

Built from the engine's per-seat view only (``view``): the viewer's own hand,
the advisor's copy of the captain's hand, counts, the face-up discard pile and,
once a hand is over, its layout.  Melds and deadwood are computed here on the
viewer's own cards only; nothing of another hand or of the stock is read from
``state`` except while the hand is over (when every hand is shown, RULES C.6).
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.board import bidi, lists, speech, words
from games.board.faces import card_face
from games.engine import gin
from games.engine.gin import gin_next_roles
from games.models import MatchStatus


def _sorted(hand: list[str], order: list[str]) -> list[str]:
    """The player's own order (``Seat.hand_order``), new cards at the end; by suit when none is stored."""
    if not order:
        return sorted(hand, key=lambda cid: (gin.card_index(cid) // 13, gin.card_index(cid) % 13))
    pos = {cid: i for i, cid in enumerate(order)}
    return sorted(hand, key=lambda cid: (pos.get(cid, len(pos)), hand.index(cid)))


def hand_faces(hand: list[str], order: list[str], *, suggested: str | None = None) -> dict[str, Any]:
    """Faces of a visible hand with its best melds highlighted (RULES C.1.3) and the deadwood count."""
    melds, dead = gin.best_melds(hand) if hand else ([], [])
    meld_of = {cid: i for i, m in enumerate(melds) for cid in m}
    cards = []
    for cid in _sorted(hand, order):
        face = card_face(cid)
        face["meld"] = meld_of.get(cid)
        face["suggested"] = cid == suggested
        cards.append(face)
    return {
        "cards": cards,
        "melds": [[card_face(c) for c in m] for m in melds],
        "deadwood_cards": [card_face(c) for c in dead],
        "deadwood": gin.deadwood(hand) if hand else 0,
        # The hand in words, for the command line's readers (the table as text: issue 30).
        "words": speech.hand_words(hand),
        "meld_words": speech.numbered_melds(melds),
        "deadwood_words": lists.items(speech.card_name(c) for c in dead),
    }


# More knock choices than this (the editor's own card aside) are offered as a list to choose from and
# one button, as the discard is: a button per choice ran past the board on a phone (two did, at times;
# five are possible).
KNOCK_BUTTONS_MAX = 1


def _knock_options(view: dict[str, Any], *, editing: str | None = None) -> list[dict[str, Any]]:
    """Every card the viewer may knock with (RULES C.6.1) and the least deadwood it leaves; picking one
    opens the layout editor on it (``editing``: the card the editor is open for).  ``best``: the
    choice leaving the least deadwood (the list's preselected one)."""
    hand = list(view.get("hand") or [])
    out = []
    for act in view.get("legal_actions", []):
        if act["type"] != "knock" or "card" not in act:
            continue  # a knock without a discard (big gin) has its own button (can_big_gin)
        dw = gin.deadwood([c for c in hand if c != act["card"]])
        out.append(
            {
                "card": card_face(act["card"]),
                "deadwood": dw,
                "is_gin": dw == 0,
                "current": act["card"] == editing,
                "open": json.dumps({"card": act["card"]}),
                "best": False,
            }
        )
    others = [o for o in out if not o["current"]]
    if others:
        min(others, key=lambda o: o["deadwood"])["best"] = True
    return out


def _meld_problem(ids: list[str]) -> str:
    """Why a group of the knocker's cards is not a Gin meld (RULES C.1.2), in the player's words."""
    idx = [gin.card_index(c) for c in ids]
    if len(idx) < 3:
        return _("Not a meld: a meld needs at least three cards.")
    ranks, suits = {i % 13 for i in idx}, {i // 13 for i in idx}
    if len(suits) == 1:
        if 0 in ranks and 12 in ranks:
            return _("Not a meld: the ace is low only (A-2-3 is a run, Q-K-A is not).")
        return _("Not a meld: a run needs three or more cards in sequence.")
    if len(ranks) == 1:  # pragma: no cover - one pack: a group of one rank has at most four cards
        return _("Not a meld: a set has three or four cards.")
    return _(
        "Not a meld: a set is three or four cards of one rank; a run is three or more cards in sequence in one suit."
    )


def _knock_editor(
    draft: dict[str, Any] | None, view: dict[str, Any], my_index: int | None, order: list[str]
) -> dict[str, Any] | None:
    """The knocker's layout being edited (``Match.draft``, stored by ``services.gin_knock_layout``): his
    melds with their kind or why they are not melds, his deadwood and whether he may knock with it.
    Only for the player to act whose draft it is, on this turn, with cards of his own hand (checked
    again here: a stale or foreign draft is ignored)."""
    if not draft or draft.get("game") != "gin_knock" or my_index is None or draft.get("seat") != my_index:
        return None
    card = draft.get("card")
    if draft.get("turn") != view.get("turn") or {"type": "knock", "card": card} not in view.get("legal_actions", []):
        return None
    rest = [c for c in view.get("hand") or [] if c != card]
    melds = [list(m) for m in draft.get("melds") or [] if m]
    placed = [c for m in melds for c in m]
    if not set(placed) <= set(rest) or len(placed) != len(set(placed)):
        return None
    groups, invalid_points = [], 0
    for i, m in enumerate(melds):
        kind = gin.meld_kind(m)
        if not kind:
            invalid_points += sum(gin.VALUES[gin.card_index(c)] for c in m)
        ordered = sorted(m, key=lambda c: (gin.card_index(c) % 13, gin.card_index(c) // 13))
        groups.append(
            {
                "index": i,
                "number": i + 1,
                "cards": [card_face(c) for c in ordered],
                "kind": kind,
                # Translators: Gin melds: a "set" is 3-4 cards of one rank, a "run" 3+ in sequence in one suit.
                "kind_label": {"set": pgettext("Gin meld", "set"), "run": pgettext("Gin meld", "run")}.get(
                    kind or "", ""
                ),
                "reason": None if kind else _meld_problem(m),
            }
        )
    dead = [c for c in _sorted(rest, order) if c not in placed]
    deadwood = invalid_points + sum(gin.VALUES[gin.card_index(c)] for c in dead)
    limit = view.get("knock_limit", 10)
    report = draft.get("report") or {}
    ok = bool(report.get("ok"))
    invalid = [g["number"] for g in groups if not g["kind"]]
    args = {"d": deadwood, "k": limit}
    if ok and deadwood == 0:
        # Translators: Gin: "deadwood" is the cards of a hand in no meld, and the points they count;
        # "gin" is a hand with no deadwood at all.
        status = _("Gin: every card is in a meld.")
    elif ok:
        status = _("You can knock with this layout: deadwood %(d)d (the limit is %(k)d).") % args
    elif invalid:
        status = _("Not every group is a meld: move those cards into melds or onto the deadwood.")
    elif deadwood > limit and view.get("gin_only"):
        status = _("Only gin ends this hand: every card must be in a meld.")
    elif deadwood > limit:
        status = _("Deadwood %(d)d is more than the knock limit %(k)d: you cannot knock with this layout.") % args
    else:  # pragma: no cover - the engine refused for a reason the board does not know
        status = _("You cannot knock with this layout.")
    return {
        "card": card_face(card),
        "groups": groups,
        "deadwood_cards": [card_face(c) for c in dead],
        "deadwood": deadwood,
        "limit": limit,
        "ok": ok,
        "is_gin": ok and deadwood == 0,
        "status": status,
        "edited": bool(draft.get("edited")),
        # an untouched proposal is confirmed without melds: the engine then picks, among the
        # minimum-deadwood layouts, the one that leaves the opponent the fewest lay-offs (C.6.2)
        "melds_json": json.dumps(melds) if draft.get("edited") else "",
        "proposal": json.dumps({"card": card}),
        "cancel": json.dumps({"cancel": True}),
    }


def _discard_options(view: dict[str, Any]) -> list[dict[str, Any]]:
    hand = list(view.get("hand") or [])
    out = []
    for act in view.get("legal_actions", []):
        if act["type"] == "discard":
            rest = [c for c in hand if c != act["card"]]
            out.append({"card": card_face(act["card"]), "deadwood": gin.deadwood(rest), "best": False})
    if out:
        min(out, key=lambda o: o["deadwood"])["best"] = True  # preselected: the discard leaving least deadwood
    return out


def _suggestion_text(sug: dict[str, Any]) -> str:
    """The advisor's suggestion as an order to the captain, shown after "(advisor) suggests:"."""
    kind = sug.get("action")
    if kind == "discard" and sug.get("card"):
        face = card_face(sug["card"])
        # Translators: this and the texts below are what the advisor suggests to the captain (Gin for three),
        # shown after "You suggested:" or "NAME (advisor) suggests:".
        return _("discard %(card)s") % {"card": face.get("label", "")}
    if kind == "knock" and sug.get("card") and sug.get("gin"):
        face = card_face(sug["card"])
        return _("go gin, discarding %(card)s") % {"card": face.get("label", "")}
    if kind == "knock" and sug.get("card"):
        face = card_face(sug["card"])
        return _("knock, discarding %(card)s") % {"card": face.get("label", "")}
    return {
        "take_upcard": _("take the upcard"),
        "pass_upcard": _("pass the upcard"),
        "draw_stock": _("draw from the stock"),
        "draw_discard": _("take the top discard"),
        # Translators: an order to the captain (a verb), not how a hand ended.
        "knock": pgettext("advice to the captain", "knock"),
    }.get(kind, _("something else"))


def _role_draw(data: dict[str, Any] | None, names: dict[int, str]) -> list[dict[str, Any]] | None:
    """The draws for roles, round by round (ties draw again).  Cards of that separate pack are shown
    without ids, so they can never be taken for a card in play."""
    if not data:
        return None
    rounds = []
    for n, rnd in enumerate(data.get("draws") or []):
        draws = []
        for k, d in enumerate(rnd):
            face = card_face(d["card"] + ".0")
            draws.append(
                {
                    "name": names.get(d["seat"], "?"),
                    "rank": face["rank"],
                    "suit": face["suit"],
                    "suit_key": face["suit_key"],
                    "label": face["label"],
                    "delay": n * len(rnd) + k,
                }
            )
        rounds.append({"draws": draws, "redraw": n > 0})
    roles = [{"role": words.role_label(r), "name": names.get(data.get(r), "?")} for r in ("box", "captain", "advisor")]
    # Translators: who plays a role after the draw, an item of a list: "Box: alice, Captain: bob, Advisor: carol".
    item = pgettext("a role and its player", "%(role)s: %(name)s")
    text = lists.items(item % {"role": r["role"], "name": bidi.isolate(r["name"])} for r in roles)
    return [{"rounds": rounds, "roles": roles, "roles_text": text}]


def rotation_text(roles: dict[str, int], winner: int | None, names: dict[int, str]) -> str:
    """RULES C.9 in words, e.g. "Alice stays in the box; Bob and Carol swap"."""
    box, captain, advisor = roles["box"], roles["captain"], roles["advisor"]
    if winner is None:
        return _("Nobody scored: the roles stay and %(box)s deals again.") % bidi.isolated({"box": names.get(box, "?")})
    nb, nc, na = gin_next_roles((box, captain, advisor), winner)
    if winner == box:
        # Translators: Gin for three (RULES C.9): "the box" is the player who plays alone against the other two.
        return _("%(box)s stays in the box; %(c)s and %(a)s swap (%(nc)s is the new captain).") % bidi.isolated(
            {
                "box": names.get(box, "?"),
                "c": names.get(captain, "?"),
                "a": names.get(advisor, "?"),
                "nc": names.get(nc, "?"),
            }
        )
    return _("%(c)s won as captain and takes the box; %(a)s becomes captain and %(b)s sits out as advisor.") % (
        bidi.isolated({"c": names.get(nb, "?"), "a": names.get(nc, "?"), "b": names.get(na, "?")})
    )


def _result(result: dict[str, Any], names: dict[int, str], rules: dict[str, Any]) -> dict[str, Any]:
    """The finished hand, explained: the layout, lay-offs, the points and why."""
    kind = result["kind"]
    knocker, winner = result.get("knocker"), result.get("winner")
    k, d = result.get("knocker_deadwood") or 0, result.get("defender_deadwood") or 0
    mult = result.get("multiplier") or 1
    layoffs: dict[int, list[str]] = {}
    for lay in result.get("layoffs") or []:
        layoffs.setdefault(lay["meld"], []).append(lay["card"])
    knocker_melds = [
        {"cards": [card_face(c) for c in m], "laid": [card_face(c) for c in layoffs.get(i, [])]}
        for i, m in enumerate(result.get("knocker_melds") or [])
    ]
    args = bidi.isolated(
        {
            "k": k,
            "d": d,
            "p": result.get("points", 0),
            "gb": rules.get("gin_bonus"),
            "ub": rules.get("undercut_bonus"),
            "knocker": names.get(knocker, "?"),
            "defender": names.get(result.get("defender"), "?"),
            "winner": names.get(winner, "?"),
        }
    )
    if kind == "gin":
        text = _("%(knocker)s went gin: %(defender)s's deadwood %(d)d + gin bonus %(gb)d = %(p)d.") % args
    elif kind == "knock":
        text = _("%(knocker)s knocked with %(k)d; %(defender)s has %(d)d after lay-offs: %(d)d − %(k)d = %(p)d.") % args
    elif kind == "undercut":
        text = (
            _(
                "Undercut! %(knocker)s knocked with %(k)d but %(defender)s has only %(d)d: "
                "%(k)d − %(d)d + undercut bonus %(ub)d = %(p)d for %(defender)s."
            )
            % args
        )
    elif kind == "tie":
        text = _("%(knocker)s knocked with %(k)d and %(defender)s also has %(d)d: nobody scores.") % args
    else:
        text = _(
            "Dead hand: only two cards are left in the stock and nobody knocked. Nobody scores; "
            "the same dealer deals again."
        )
    if mult > 1 and kind != "dead":
        text += " " + _("Spades double: the score is doubled (×%(m)d).") % {"m": mult}
    return {
        "kind": kind,
        "text": text,
        "winner_name": names.get(winner) if winner is not None else None,
        "points": result.get("points", 0),
        "knocker_name": names.get(knocker) if knocker is not None else None,
        "defender_name": names.get(result.get("defender")) if result.get("defender") is not None else None,
        "knock_card": card_face(result["knock_card"]) if result.get("knock_card") else None,
        "knocker_melds": knocker_melds,
        "knocker_deadwood_cards": [card_face(c) for c in result.get("knocker_deadwood_cards") or []],
        "defender_melds": [[card_face(c) for c in m] for m in result.get("defender_melds") or []],
        "defender_deadwood_cards": [card_face(c) for c in result.get("defender_deadwood_cards") or []],
        "knocker_deadwood": k,
        "defender_deadwood": d,
        "has_layout": bool(result.get("knocker_melds") is not None and kind != "dead"),
        "dead_hands": [
            {"name": names.get(i, "?"), "cards": [card_face(c) for c in h]}
            for i, h in enumerate(result.get("hands") or [])
            if h
        ]
        if kind == "dead"
        else [],
    }


def _hollywood(tally: dict[str, Any], seats, rules) -> list[dict[str, Any]]:
    games = tally.get("hollywood") or []
    if not games:
        return []
    target = tally.get("rules", {}).get("hollywood_target", 100)
    out = []
    for n, g in enumerate(games, start=1):
        out.append(
            {
                "number": n,
                "closed": g["closed"],
                "target": target,
                "cells": [
                    {"name": s.display_name, "score": g["scores"][s.index], "boxes": g["boxes"][s.index]} for s in seats
                ],
            }
        )
    return out


def _bonuses(tally: dict[str, Any], seats) -> list[dict[str, Any]]:
    """End-of-game breakdown (the engine's, C.10.2, D.1.8): points, box bonuses, game bonus (with a
    shutout's); empty before the end."""
    if not tally.get("final_totals"):
        return []
    breakdown = gin.GinMatch.from_dict(tally).end_breakdown()
    totals = breakdown.totals
    out = []
    for s in seats:
        i = s.index
        out.append(
            {
                "name": s.display_name,
                "points": breakdown.points[i],
                "boxes": breakdown.boxes[i],
                "box_bonus": breakdown.bonus(i, "box"),
                "game_bonus": breakdown.bonus(i, "game", "shutout"),
                "total": totals[i],
                "winner": i == tally.get("winner"),
            }
        )
    return out


def gin_context(*, match, view: dict[str, Any], me, state, seats, rounds, names, **_parts) -> dict[str, Any]:
    """One viewer's Gin board; ``rounds``: the match's finished rounds (``board.data.BoardData.rounds``);
    ``names``: the seats' names in sentences (``words.sentence_names``, once per version)."""
    my_index = me.index if me else None
    tally = (match.state or {}).get("tally") or {}
    playing = match.status == MatchStatus.PLAYING
    phase = view.get("phase")
    over = phase == "over"
    role = view.get("role", "")
    roles = view.get("roles")
    three = view.get("n_seats") == 3
    my_turn = playing and my_index is not None and view.get("seat_to_act") == my_index
    actions = {a["type"] for a in view.get("legal_actions", [])}
    suggestions = _suggestions(view, names)
    latest = suggestions[-1] if suggestions else None
    order = list(me.hand_order) if me else []
    discards = _discard_options(view) if "discard" in actions else []
    # The knock layout editor: only in the knocker's own board, only on his turn (C.6.2).
    editor = _knock_editor(match.draft, view, my_index, order) if my_turn and "knock" in actions else None
    role_draw = _role_draw(view.get("role_draw") or tally.get("role_draw"), names) if three else None
    return {
        "my_turn": my_turn,
        "can_meld": False,
        "stock_count": view.get("stock_count"),
        "gin": {
            "three": three,
            "phase": phase,
            "over": over,
            "role": role,
            "role_label": words.role_label(role),
            "is_advisor": role == "advisor" and three,
            # The advisor's note (RULES C.2.4, C.9): what they may do this hand, and that they play the next.
            "advisor_may_advise": bool((view.get("rules") or {}).get("advisor_can_advise")),
            "roles": roles,
            **_hands(view, seats, my_index, order, suggested=latest["card"] if latest and role == "captain" else None),
            "prompt": _gin_prompt(view, my_turn, actions, playing, names),
            "my_turn": my_turn,
            **_gin_actions(view, actions, editor),
            "discard_options": discards,
            "best_discard": min((o["deadwood"] for o in discards), default=None),
            **_piles(view),
            "can_suggest": bool(view.get("can_suggest")) and playing,
            **_suggest_buttons(view),
            "captain_name": names.get(roles.get("captain")) if roles else None,
            "suggestions": suggestions,
            "latest_suggestion": latest,
            "suggested_action": latest["action"] if latest and role == "captain" and my_turn else "",
            "role_draw": role_draw[0] if role_draw else None,
            # open (and animated) while the first hand has not started: the draw "as it happens"
            "show_role_draw": bool(role_draw)
            and match.round_number <= 1
            and view.get("turn") == 0
            and phase == "upcard",
            **_scores(match, view, rounds, seats, names, tally),
        },
    }


def _piles(view: dict) -> dict[str, Any]:
    """The stock and the discard pile, what was taken or drawn, and the hand's limits (C.3-C.6)."""
    first_upcard = view.get("first_upcard")
    return {
        "discard_top": card_face(view["discard_top"]) if view.get("discard_top") else None,
        "discard_count": len(view.get("discard") or []),
        "stock_count": view.get("stock_count"),
        "taken": view.get("taken"),
        "drawn": view.get("drawn"),
        "oklahoma": view.get("oklahoma"),
        "first_upcard": card_face(first_upcard) if first_upcard and view.get("oklahoma") else None,
        "knock_limit": view.get("knock_limit"),
        "gin_only": view.get("gin_only"),
        "multiplier": view.get("multiplier") or 1,
    }


def _scores(match, view: dict, rounds, seats, names: dict[int, str], tally: dict) -> dict[str, Any]:
    """The hand's result, the roles' rotation, the Hollywood lines and the match's end bonuses."""
    rules = view.get("rules") or {}
    over = view.get("phase") == "over"
    return {
        "rotation": _rotation(match, view, rounds, names) if view.get("n_seats") == 3 else None,
        "result": _result(view["result"], names, rules) if over and view.get("result") else None,
        "hollywood": _hollywood(tally, seats, view.get("rules")),
        "bonuses": _bonuses(tally, seats) if match.status == MatchStatus.FINISHED else [],
        "end_bonuses": rules.get("end_bonuses"),
        "target": tally.get("rules", {}).get("game_target"),
    }


def _suggest_buttons(view: dict) -> dict[str, Any]:
    """The advisor's suggestion buttons: only what the engine lets him suggest now (``suggestible``:
    no "take the discard" while the pile is empty, say).  ``suggest_buttons``: the moves naming no
    card, each with its ``sug`` (the form's JSON) and ``label``; ``can_suggest_discard``: the select of
    the captain's cards."""
    allowed = view.get("suggestible") or []
    labels = {
        "take_upcard": _("Suggest: take the upcard"),
        "pass_upcard": _("Suggest: pass"),
        "draw_discard": _("Suggest: take the discard"),
        "draw_stock": _("Suggest: draw from the stock"),
        "knock": _("Suggest: knock"),
    }
    return {
        "suggest_buttons": [
            {"action": kind, "sug": json.dumps({"action": kind}), "label": labels[kind]}
            for kind in allowed
            if kind in labels
        ],
        "can_suggest_discard": "discard" in allowed,
    }


def _suggestions(view: dict, names: dict[int, str]) -> list[dict[str, Any]]:
    """Only the captain and the advisor receive suggestions in their view (never the box)."""
    return [
        {
            "by": names.get(x["seat"], "?"),
            "text": _suggestion_text(x["suggestion"]),
            "card": x["suggestion"].get("card"),
            "action": x["suggestion"].get("action"),
        }
        for x in (view.get("suggestions") or [])
    ]


def _hands(view: dict, seats, my_index: int | None, order: list[str], *, suggested) -> dict[str, Any]:
    """The viewer's hand, the captain's hand (the advisor sees it) and the other hands' backs."""
    if view.get("phase") == "over":
        return {"hand": None, "captain_hand": None, "opponent_backs": []}
    roles = view.get("roles")
    hand = hand_faces(view["hand"], order, suggested=suggested) if view.get("hand") else None
    captain_hand = hand_faces(view["captain_hand"], []) if view.get("captain_hand") is not None else None
    backs = []
    for s in seats:
        if s.index == my_index or view["hand_counts"][s.index] == 0:
            continue
        if captain_hand is not None and roles and s.index == roles.get("captain"):
            continue
        backs.append({"name": s.display_name, "backs": range(view["hand_counts"][s.index])})
    return {"hand": hand, "captain_hand": captain_hand, "opponent_backs": backs}


def _gin_prompt(view: dict, my_turn: bool, actions: set[str], playing: bool, names: dict[int, str]) -> str:
    phase, to_act = view.get("phase"), view.get("seat_to_act")
    if my_turn:
        if phase in ("upcard", "upcard_dealer"):
            return _("Take the upcard or pass.")
        if phase == "draw":
            if "draw_discard" not in actions:
                return _("Draw from the stock.")
            return _("Draw: take the top card of the stock or of the discard pile.")
        if phase == "fiftieth":
            return _("Two stock cards left: take the last discard only to knock with it, or pass.")
        if phase == "discard":
            if view.get("must_knock"):
                return _("You must knock now.")
            return _("Discard a card (drag it onto the pile, or pick it and press Discard) — or knock.")
        return ""
    if playing and to_act is not None:
        who = bidi.isolate(names.get(to_act, "?"))
        if phase in ("upcard", "upcard_dealer"):
            return _("%(name)s decides on the upcard…") % {"name": who}
        return _("Waiting for %(name)s…") % {"name": who}
    return ""


def _gin_actions(view: dict, actions: set[str], editor: dict | None) -> dict[str, Any]:
    knocks = _knock_options(view, editing=editor["card"]["id"] if editor else None) if "knock" in actions else []
    return {
        "can_take_upcard": "take_upcard" in actions,
        "can_pass_upcard": "pass_upcard" in actions,
        "can_draw_stock": "draw_stock" in actions,
        "can_draw_discard": "draw_discard" in actions,
        "can_pass": "pass" in actions,
        "can_discard": "discard" in actions,
        "knock_options": knocks,
        "knock_editor": editor,
        "knock_as_list": sum(1 for o in knocks if not o["current"]) > KNOCK_BUTTONS_MAX,
        # Big gin (RULES D.1.6, option big_gin): all eleven cards in melds, knock without discarding.
        "can_big_gin": {"type": "knock"} in view.get("legal_actions", []),
    }


def _rotation(match, view: dict, rounds, names: dict[int, str]) -> str | None:
    """Three-player Gin: how the roles turn after the hand (RULES C.9), at its end and at the next start."""
    roles = view.get("roles")
    over = view.get("phase") == "over"
    if over and view.get("result") and roles:
        return rotation_text(roles, view["result"].get("winner"), names)
    if not over and match.round_number > 1 and view.get("turn", 0) == 0:
        prev = next((r for r in rounds if r.number == match.round_number - 1), None)
        out = (prev.outcome or {}) if prev else {}
        if out.get("roles"):
            return rotation_text(out["roles"], out.get("winner"), names)
    return None
