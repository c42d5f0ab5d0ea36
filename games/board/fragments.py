"""A table's board as named fragments: what a page shows and what a socket pushes.

The board (``games/table.html#table-board``) is a row of fragments, each an element with its own
id: the seats, the melds, the piles, the hand, the actions, the results, the log...  A socket sends
only the fragments whose markup changed since its last frame (``games.live.consumers``), so a move
that changes the melds and a seat's card count sends those two and the log, and the hand someone is
picking cards in, the button they focused and a drag in progress stay as they are.

Two kinds of fragment:

* **public**: drawn from the board of a viewer with no seat (``table_context(data, spectator)``),
  so it can hold nothing that only one seat may see.  Rendered once per version, language and
  process, kept on the version's :class:`~games.board.data.BoardData`, and sent as the same
  string to every socket that shows it.  What differs per viewer in them (which seat is "you") is
  marked by the page from ``#board-meta``'s ``data-my-seat``.
* **private**: drawn from this viewer's own board (their hand, their buttons, their draft).

Which kind a fragment is may depend on the viewer (``Fragment.public``): the melds are public
except for the player to act, whose melds are the draft they are arranging.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.board.data import BoardData
from games.board.table import table_context

SPECTATOR = AnonymousUser()
PAGE = "games/table.html"


def _always(ctx) -> bool:
    return True


def _never(ctx) -> bool:
    return False


def _seats_public(ctx) -> bool:
    return not ctx["is_open"]  # an open table's seats carry this viewer's buttons (sit here, add a bot)


def _melds_public(ctx) -> bool:
    me, view = ctx["me"], ctx["view"]
    return me is None or view is None or view.get("seat_to_act") != me.index


def _log_public(ctx) -> bool:
    # Some entries are for some seats only (``audience``): the seats they are for see their own log.
    return ctx["me"] is None or not ctx["log_private"]


@dataclass(frozen=True)
class Fragment:
    name: str  # the element's id; the partial is ``frag-<name>`` in games/table.html (or the game's template)
    public: Callable[[dict], bool]
    template: str = PAGE

    @property
    def partial(self) -> str:
        return f"{self.template}#frag-{self.name}"


GIN = "games/gin_board.html"

COMMON_TOP = (
    Fragment("board-meta", _never),
    Fragment("board-head", _always),
    Fragment("board-error", _never),
    Fragment("seats", _seats_public),
    Fragment("open-panel", _never),
)
COMMON_BOTTOM = (
    Fragment("results", _always),
    Fragment("log", _log_public),
)
GAME_FRAGMENTS = {
    "manipulation": (
        Fragment("melds", _melds_public),
        Fragment("hand-area", _never),
        Fragment("actions", _never),
    ),
    "gin": (
        Fragment("gin-top", _always, GIN),
        Fragment("gin-board", _never, GIN),
        Fragment("gin-end", _always, GIN),
        Fragment("actions", _never),
    ),
}


def fragments_for(family: str | None) -> tuple[Fragment, ...]:
    return COMMON_TOP + GAME_FRAGMENTS.get(family, ()) + COMMON_BOTTOM


@dataclass
class Board:
    """One viewer's board: its context (the page reads a few more fields from it) and its fragments."""

    ctx: dict[str, Any]
    fragments: dict[str, SafeString]  # id -> markup, in page order

    @property
    def version(self) -> int:
        return self.ctx["version"]

    def html(self) -> SafeString:
        return mark_safe("".join(self.fragments.values()))  # every piece was rendered by a template


def board_for(data: BoardData, user, *, error: dict | None = None, reply: bool = False, request=None) -> Board:
    """``user``'s board of the version ``data`` holds, as fragments (a spectator's when seatless).

    ``request``: a page's or a form's answer over HTTP; its private fragments' forms then carry the
    CSRF token, so they work before the page's scripts have loaded.  A socket frame has none (the
    page's scripts send the token with every request).
    """
    ctx = table_context(data, user)
    ctx["error"] = error
    ctx["reply"] = reply
    ctx["meta"] = _meta(ctx, data)
    public: dict[str, SafeString] | None = None
    out: dict[str, SafeString] = {}
    for frag in fragments_for(ctx["spec"].family):
        if frag.public(ctx):
            if public is None:
                public = _public_store(data)
            html = public.get(frag.name)
            if html is None:
                html = render_to_string(frag.partial, _spectator_ctx(data, public))
                public[frag.name] = html
        else:
            html = render_to_string(frag.partial, ctx, request=request)
        out[frag.name] = html
    return Board(ctx, out)


def _public_store(data: BoardData) -> dict:
    """This version's public fragments in the current language, kept on the data they are drawn from."""
    return data.shared.setdefault(("fragments", get_language()), {})


def _spectator_ctx(data: BoardData, public: dict) -> dict:
    ctx = public.get("__ctx__")
    if ctx is None:
        ctx = table_context(data, SPECTATOR)
        ctx["meta"] = None
        public["__ctx__"] = ctx
    return ctx


def _meta(ctx: dict, data: BoardData) -> dict[str, Any]:
    """What the page needs to know about this board that no fragment shows: its version, whose turn,
    which seat is the viewer's, the clock (as a deadline, so a kept fragment never shows a stale count)."""
    match = data.match
    view = ctx["view"]
    to_act = view.get("seat_to_act") if view is not None and ctx["is_playing"] else None
    names = {s.index: s.name for s in ctx["seats"]}
    deadline = match.deadline
    return {
        "now_ms": int(timezone.now().timestamp() * 1000),
        "turn_seat": "" if to_act is None else to_act,
        "turn_name": names.get(to_act, "") if to_act is not None else "",
        "my_seat": "" if ctx["my_index"] is None else ctx["my_index"],
        "deadline_ms": int(deadline.timestamp() * 1000) if deadline and ctx["timer"] else "",
    }
