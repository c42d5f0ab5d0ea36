"""A table command's fields → the service that carries it out.

The table page sends its moves as form fields, over HTTP (``/tables/<id>/act/``,
``/tables/<id>/draft/``: real forms, the fallback without a socket) or over the
table's socket while it is open (``{"type": "command", "kind": "act", "fields":
{...}}``).  Both arrive here, so both are checked the same way; the services and
the engine validate everything else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from games import services
from games.engine.errors import RulesError
from games.messages import refusal_text
from games.variants import spec_for
from plumbing import inputs

MAX_BODY = 64 * 1024  # a draft of 106 cards is ~2 KB; anything this large is refused
MAX_FIELD = 16 * 1024  # one field (a draft's table, a custom hand order)

KINDS = ("act", "draft")

ACTION_TYPES = {
    # Manipulation (RULES B.5)
    "draw",
    "meld",
    "knock",
    "end_turn",
    # Gin (RULES C.4-C.6, D)
    "take_upcard",
    "pass_upcard",
    "draw_stock",
    "draw_discard",
    "discard",
    "suggest",
    "pass",
}


REFUSALS = (services.ActionRefused, RulesError)  # what a command may answer with: shown, nothing changed


def error_text(error: Exception, variant: str) -> str:
    """What the player reads: engine refusals through the translation catalogue when they can be."""
    if isinstance(error, RulesError):
        return refusal_text(error, spec_for(variant).family)
    return getattr(error, "message", str(error))


def error_context(error: Exception, variant: str) -> dict[str, str]:
    """The board's ``error`` (shown to the one player whose command was refused)."""
    return {"code": getattr(error, "code", "error"), "message": error_text(error, variant)}


def _json(text: str) -> Any:
    """A field's JSON value through the input layer (shallow, small, clean), or ActionRefused."""
    try:
        return inputs.parse_json(text, max_length=MAX_FIELD)
    except inputs.BadInput as exc:
        raise services.ActionRefused(exc.code, exc.message) from None


def action_from_fields(fields: Mapping[str, str]) -> dict | None:
    """A form's fields as an engine action; the engine validates everything else."""
    kind = fields.get("action", "")
    if kind not in ACTION_TYPES:
        return None
    action: dict = {"type": kind}
    if fields.get("card"):
        action["card"] = fields["card"]
    for key in ("melds", "suggestion"):
        if fields.get(key):
            action[key] = _json(fields[key])
    return action


def command_for(kind: str, fields: Mapping[str, Any]) -> tuple[Callable[..., Any], dict[str, Any]]:
    """The service and its keyword arguments (besides ``match_id`` and ``user``); ActionRefused if malformed."""
    if kind not in KINDS:
        raise services.ActionRefused("bad_command", _("Unknown request; moves are sent with the page's buttons."))
    try:
        inputs.check_fields(fields, max_length=MAX_FIELD)
    except inputs.BadInput as exc:
        raise services.ActionRefused(exc.code, exc.message) from None
    version = fields.get("version")  # required by every service that takes it (services.write._check_version)
    if kind == "draft":
        table = _json(fields.get("table", ""))
        return services.draft_update, {"table": table, "expected_version": version}
    name = fields.get("action", "")
    if name == "reset":
        return services.draft_reset, {"expected_version": version}
    if name == "sort":
        order = _json(fields["order"]) if "order" in fields else None
        return services.hand_sort, {"mode": fields.get("mode", "suit"), "order": order}
    action = action_from_fields(fields)
    if action is None:
        raise services.ActionRefused("bad_action", _("That is not a move of this game."))
    return services.turn_submit, {"action": action, "expected_version": version}
