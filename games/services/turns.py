"""A player's moves: a turn's action, the meld draft, the hand's order, a Gin knock layout."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

import games.services.rounds as rounds
from games.engine import gin
from games.engine.cards import Card, sort_by_rank, sort_by_suit
from games.engine.errors import IllegalMove, RulesError
from games.models import (
    Match,
    MatchStatus,
    Seat,
)
from games.services.refusals import ActionRefused
from games.services.rounds import gin_bot_advice
from games.services.write import Write, match_rules, own_seat, schedule_next_step, seat_of, writing


def turn_submit(*, match_id: int, user, action: dict[str, Any], expected_version: Any) -> Match:
    """A human's move for their own seat."""
    if not isinstance(action, dict):
        raise ActionRefused("bad_action", _("That request is not a move."))
    with writing(match_id, expected_version=expected_version, seats=True) as write:
        match = write.match
        seat = own_seat(match, user, write.seats)
        if match.status != MatchStatus.PLAYING:
            raise ActionRefused("not_playing", _("There is no hand in play."))
        if action.get("type") == "meld" and "table" not in action:
            draft = match.draft or {}
            if draft.get("seat") != seat.index:
                raise ActionRefused("no_draft", _("Arrange the table first, then press Meld."))
            action = {"type": "meld", "table": draft.get("table", [])}
        if seat.missed_turns or seat.autopilot:
            write.update_seat(seat, missed_turns=0, autopilot=False)
        apply_action(write, seat.index, action, by_bot=False)
        return match


def apply_action(write: Write, seat_index: int, action: dict[str, Any], *, by_bot: bool, after: Any = None) -> None:
    """Apply one move of ``seat_index`` and save the new version.

    ``after``: the state after the move when the engine applied it already to the current state (a bot's
    move, ``GameSpec.bot_move``), so it is not applied twice.
    """
    match, spec = write.match, write.spec
    before = write.state
    if after is None:
        after = spec.apply(before, seat_index, action)  # raises RulesError; nothing has been written
    stored_action = action if isinstance(action, dict) else action.to_dict()
    write.event(
        kind="action",
        seat=seat_index,
        action=stored_action,
        summary=spec.describe(before, after, seat_index, stored_action),
        by_bot=by_bot,
    )
    write.set_state(after)
    if spec.acting_seats(before) != spec.acting_seats(after) or getattr(before, "turn", None) != getattr(
        after, "turn", None
    ):
        match.turn_started_at = timezone.now()
    # Any accepted move ends the draft: a meld committed it, a draw or a knock abandoned it.
    # (Gin advice is no move of the captain's: his knock layout stays.)
    if stored_action.get("type") != "suggest":
        match.draft = None
        gin_bot_advice(write)
    if spec.is_round_over(write.state):
        rounds.close_round(write, match_rules(match), write.state)
    schedule_next_step(write)
    write.save("state", "draft", "deadline", "turn_started_at", "status", "finished_at")


DRAFT_REFUSALS = frozenset(
    {"bad_table", "bad_action", "unknown_card", "duplicate_card", "bad_card", "card_not_available"}
)
DRAFT_KEEPS_TABLE = frozenset({"table_card_missing", "freed_joker_not_placed"})


def draft_update(*, match_id: int, user, table: Any, expected_version: Any) -> Match:
    """Store the acting player's unsaved arrangement, validated by the engine for display."""
    if isinstance(table, dict):  # Gin: the knocker's layout (gin_knock_layout, at the end of this module)
        return gin_knock_layout(match_id=match_id, user=user, layout=table, expected_version=expected_version)
    if not isinstance(table, list) or len(table) > 60 or any(not isinstance(m, list) or len(m) > 20 for m in table):
        raise ActionRefused("bad_draft", _("That arrangement is not a list of melds."))
    if any(not isinstance(c, str) or len(c) > 12 for m in table for c in m):
        raise ActionRefused("bad_draft", _("That arrangement contains something that is not a card."))
    table = [m for m in table if m]
    with writing(match_id, expected_version=expected_version) as write:
        match, spec = write.match, write.spec
        seat = own_seat(match, user)
        if match.status != MatchStatus.PLAYING or not spec.meld_drafts:
            raise ActionRefused("not_playing", _("There is no hand in play."))
        state = write.state
        if state.seat_to_act != seat.index:
            raise IllegalMove("not_your_turn", _("It is not your turn."))
        report = spec.engine.check_table(state, seat.index, table)
        # A draft may be any arrangement of the cards the player can use; one naming a card twice, or
        # a card that is neither in the hand nor on the table (forged, or stale), is refused.
        forged = next((e for e in report["errors"] if e["code"] in DRAFT_REFUSALS), None)
        if forged is not None:
            raise ActionRefused(forged["code"], forged["message"])
        # RULES B.5.2 (M2): a card on the table never returns to a hand, freed jokers included; a
        # draft without one is refused (the page snaps such a drop back), with the engine's reason.
        dropped = next((e for e in report["errors"] if e["code"] in DRAFT_KEEPS_TABLE), None)
        if dropped is not None:
            raise IllegalMove(dropped["code"], dropped.get("template") or dropped["message"], dropped.get("params"))
        match.draft = {"seat": seat.index, "table": table, "report": report}
        write.save("draft")
        return match


def draft_reset(*, match_id: int, user, expected_version: Any) -> Match:
    with writing(match_id, expected_version=expected_version) as write:
        match = write.match
        seat = seat_of(match, user)
        if seat is None or not match.draft or match.draft.get("seat") != seat.index:
            raise ActionRefused("no_draft", _("There is nothing to reset."))
        match.draft = None
        write.save("draft")
        return match


def hand_sort(*, match_id: int, user, mode: str = "suit", order: list[str] | None = None) -> None:
    """Remember the player's own order of their hand (by suit, by rank, or as dragged) while its round is
    played: at a round's end the hand shown is the one it ended with, with nothing left to arrange."""
    with writing(match_id) as write:
        seat = own_seat(write.match, user)
        if write.match.status != MatchStatus.PLAYING:  # a round in play has its state (rounds.deal_round)
            raise ActionRefused("not_playing", _("There is no hand in play."))
        view = write.spec.view(write.state, seat.index)
        hand = list(view.get("hand") or [])
        if mode == "custom":
            if (
                not isinstance(order, list)
                or len(order) > 30
                or not all(isinstance(c, str) for c in order)
                or not set(order) <= set(hand)
            ):
                raise ActionRefused("bad_order", _("That order does not match your hand."))
            ids = list(order) + [c for c in hand if c not in order]
        elif mode in ("suit", "rank"):
            cards = [Card.from_code(c) for c in hand]
            ids = [c.id for c in (sort_by_suit(cards) if mode == "suit" else sort_by_rank(cards))]
        else:
            raise ActionRefused("bad_order", _("Sort by suit or by rank."))
        Seat.objects.filter(pk=seat.pk).update(hand_order=ids)


GIN_LAYOUT_KEYS = {"card", "melds", "cancel"}


def gin_knock_layout(*, match_id: int, user, layout: Any, expected_version: Any) -> Match:
    """Gin: the layout the acting player prepares before knocking (RULES C.6.2), kept in ``Match.draft``.

    ``{"card": id}`` opens it with a minimum-deadwood layout after discarding that card;
    ``{"card": id, "melds": [[id, ...], ...]}`` stores the player's own (a group that is not a meld is
    kept and shown with the reason; cards in no group are deadwood); ``{"cancel": true}`` drops it.
    Only legal knock cards and cards of the player's own hand are accepted; the engine checks the
    layout as it would check the knock (and checks it again on the knock).  Only the knocker sees the
    draft, so it is saved without a version bump or broadcast: nobody learns a knock is being prepared.
    """

    def ids(value: Any) -> bool:
        return isinstance(value, list) and len(value) <= 11 and all(isinstance(c, str) and len(c) <= 12 for c in value)

    if not isinstance(layout, dict) or not set(layout) <= GIN_LAYOUT_KEYS:
        raise ActionRefused("bad_draft", _("That layout is not a card and a list of melds."))
    cancel = layout.get("cancel") is True
    card, melds = layout.get("card"), layout.get("melds")
    if not cancel and (
        not isinstance(card, str)
        or len(card) > 12
        or (melds is not None and not (isinstance(melds, list) and len(melds) <= 11 and all(ids(m) for m in melds)))
    ):
        raise ActionRefused("bad_draft", _("That layout is not a card and a list of melds."))
    with writing(match_id, expected_version=expected_version) as write:
        match, spec = write.match, write.spec
        seat = own_seat(match, user)
        if match.status != MatchStatus.PLAYING or not spec.knock_layouts:
            raise ActionRefused("not_playing", _("There is no hand in play."))
        if cancel:
            if (match.draft or {}).get("seat") == seat.index:
                match.draft = None
                match.save(update_fields=["draft"])
            return match
        state = write.state
        view = spec.view(state, seat.index)
        if {"type": "knock", "card": card} not in view["legal_actions"]:
            if state.seat_to_act != seat.index:
                raise IllegalMove("not_your_turn", _("It is not your turn."))
            raise ActionRefused("cannot_knock", _("You cannot knock discarding that card."))
        rest = [c for c in view["hand"] if c != card]
        edited = melds is not None
        if melds is None:
            melds = gin.best_melds(rest)[0]
        melds = [list(m) for m in melds if m]
        placed = [c for m in melds for c in m]
        if not set(placed) <= set(rest):
            raise ActionRefused("card_not_in_hand", _("That layout names a card that is not in your hand."))
        if len(placed) != len(set(placed)):
            raise ActionRefused("duplicate_card", _("A card can be in only one meld."))
        try:  # the engine's own check of this knock; its outcome is not kept (it depends on the other hand)
            spec.apply(state, seat.index, {"type": "knock", "card": card, "melds": melds})
            report: dict[str, Any] = {"ok": True}
        except RulesError as exc:
            report = {"ok": False, "code": exc.code}
        match.draft = {
            "seat": seat.index,
            "game": "gin_knock",
            "turn": state.turn,
            "card": card,
            "melds": melds,
            "edited": edited,
            "report": report,
        }
        match.save(update_fields=["draft"])
        return match
