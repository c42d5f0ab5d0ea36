"""A table command's fields → the service that carries it out.

The table page sends its moves as form fields, over HTTP (``/tables/<id>/act/``,
``/tables/<id>/draft/``: real forms, the fallback without a socket) or over the
table's socket while it is open (``{"type": "command", "kind": "act", "fields":
{...}}``).  Both arrive here, so both are checked the same way; the services and
the engine validate everything else.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from games import services
from games.engine.errors import RulesError
from games.messages import refusal_text

MAX_BODY = 64 * 1024  # a draft of 106 cards is ~2 KB; anything this large is refused
MAX_FIELD = 16 * 1024  # one field (a draft's table, a custom hand order)

KINDS = ("act", "draft")

ACTION_TYPES = {
    # Manipulation (RULES B.5)
    "draw", "meld", "knock", "end_turn",
    # Gin (RULES C.4-C.6, D)
    "take_upcard", "pass_upcard", "draw_stock", "draw_discard", "discard", "suggest", "pass",
}


REFUSALS = (services.ActionRefused, RulesError)  # what a command may answer with: shown, nothing changed


def error_text(error: Exception, variant: str) -> str:
    """What the player reads: engine refusals through the translation catalogue when they can be."""
    if isinstance(error, RulesError):
        return refusal_text(error, "manipulation" if variant == "manipulation" else "gin")
    return getattr(error, "message", str(error))


def error_context(error: Exception, variant: str) -> dict[str, str]:
    """The board's ``error`` (shown to the one player whose command was refused)."""
    return {"code": getattr(error, "code", "error"), "message": error_text(error, variant)}


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


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
            value = _json(fields[key])
            if value is None:
                return None
            action[key] = value
    return action


def command_for(kind: str, fields: Mapping[str, Any]) -> tuple[Callable[..., Any], dict[str, Any]]:
    """The service and its keyword arguments (besides ``match_id`` and ``user``); ActionRefused if malformed."""
    if kind not in KINDS:
        raise services.ActionRefused("bad_command", _("Unknown request; moves are sent with the page's buttons."))
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items()):
        raise services.ActionRefused("bad_action", _("That request is not a move."))
    if any(len(v) > MAX_FIELD for v in fields.values()):
        raise services.ActionRefused("too_large", _("That request is too large."))
    version = fields.get("version")
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
