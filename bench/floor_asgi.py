"""The app with its boards not drawn: what ``bench/ws_load.py`` measures of everything else.

``ws_load.py --app bench.floor_asgi:application`` runs the real app (sockets, sessions, the command
edge with its thread hop, the write path and its commit, the board cache's load of each version,
the group messages, each socket's ``Shown`` and ``#board-meta``) with one thing replaced: a view's
board (``games.live.boardviews.view_of`` and ``answer_of``) is not drawn from the table's context
and templates but is a fixed fragment naming the viewer's buttons, worked out from the engine's
legal actions of the seat to act, once per version.  Its CPU per move is the floor under any way of
drawing the boards: no render, however cheap, brings the app's CPU below it.

A bench experiment, never served: the frames it sends hold no cards and no board.
"""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyhub.settings")
django.setup()

from django.utils.safestring import mark_safe  # noqa: E402

from games.live import boardviews  # noqa: E402
from games.variants import spec_for  # noqa: E402
from rummyhub.asgi import application  # noqa: E402

EMPTY = mark_safe('<div id="actions"></div>')


def _buttons(data) -> tuple[int | None, str]:
    """The seat to act and its buttons, once per version (kept on the version's shared data)."""
    kept = data.shared.get("floor")
    if kept is None:
        state, to_act, html = data.state, None, EMPTY
        if state is not None and data.match.status == "playing":
            to_act = state.seat_to_act
            legal = spec_for(data.match.variant).view(state, to_act)["legal_actions"]
            kinds = sorted({a["type"] for a in legal if a.get("type") in ("draw", "end_turn")})
            html = mark_safe('<div id="actions">' + "".join(f'<b data-action="{k}"></b>' for k in kinds) + "</div>")
        kept = data.shared["floor"] = (to_act, html)
    return kept


def view_of(data, user, *, seat_refusal=None) -> boardviews.View:
    key = boardviews.view_key(data, user, seat_refusal)
    my_index = key[1] if key[0] == "seat" else None
    to_act, html = _buttons(data)
    mine = to_act is not None and to_act == my_index
    return boardviews.View(
        version=data.version,
        my_index=my_index,
        fragments={"actions": html if mine else EMPTY},
        parts={},
        meta={
            "version": data.version,
            "can_meld": False,
            "status": data.match.status,
            "timer": None,
            "meta": {"my_turn": mine, "my_seat": "" if my_index is None else my_index},
        },
        deltas=data.shared.setdefault("deltas", {}),
    )


def answer_of(data, user, error, *, seat_refusal=None) -> boardviews.View:
    return view_of(data, user, seat_refusal=seat_refusal)


boardviews.view_of = view_of
boardviews.answer_of = answer_of

__all__ = ["application"]
