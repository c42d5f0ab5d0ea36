"""Each version's boards, rendered once per **view** in this process, and what one socket's page shows.

A table has a few views: each seat (its own hand and buttons; in box Gin the advisor's seat also
sees its captain's hand) and the seatless viewers (the spectators, one view; the host without a
seat, another: their open-table panel has the host's buttons).  Everything a viewer's board holds
follows from its view and the version, so for each version a process draws:

* the public fragments once (``games.board.fragments``, kept on the version's data);
* each view's board once, whatever the number of its sockets (:func:`view_of`, kept on the
  version's data too); its private fragments are drawn only when their inputs changed since the
  view's last board (the view's last board is kept here, :data:`_last`, not per socket), so a
  move usually draws the private fragments of the mover's view only;
* ``#board-meta`` per frame (:func:`meta_html`): it carries the server's clock and whether the
  frame answers this socket.

Each socket then sends what differs from what its page shows: :class:`Shown`, the one object that
holds a socket's diff state.  No socket builds a context or renders a fragment of its own, except
a refusal's board (its error is for that socket only).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.board import fragments
from games.board.data import BoardData
from games.board.markup import collapsed

KEEP_VIEWS = 4096  # views whose last board is kept (a few per table in play)
# Seconds a view's last board is kept after its last board was drawn, as the board cache keeps a match's
# data (``boardcache.KEEP``): a finished or replaced table's views go with its data, not when 4,096 newer
# views have pushed them out (at 100 bot tables, ~60 replaced a minute, that took over an hour: ~6 KB a
# view, a steady growth of the process until then).
KEEP_IDLE = 120.0

_lock = threading.Lock()
# (match id, view) -> (the match's creation, language, the view's last board, its version, when it was
# drawn): its private fragments are reused by the view's next board while their inputs are the same.
# In order of the last board drawn, the oldest first.
_last: OrderedDict[tuple, tuple] = OrderedDict()


def view_key(data: BoardData, user, seat_refusal: str | None = None) -> tuple:
    """Which view of the table ``user`` has: their seat's, or a seatless viewer's (the host's or anyone's,
    and at an open table whether fair play keeps them out of its free seats, and why).

    ``board.table.table_context`` reads nothing else of the user: a seated viewer's board is their seat's
    (their hand, their hints at a practice table), a seatless viewer's differs only by being the host and
    by ``seat_refusal``.
    """
    if user.is_authenticated:
        seat = next((s.index for s in data.seats if s.user_id == user.pk), None)
        if seat is not None:
            return ("seat", seat)
    return ("watch", user.is_authenticated and data.match.host_id == user.pk, seat_refusal)


@dataclass(frozen=True)
class View:
    """One view's board of one version, shared by the view's sockets: its fragments (``#board-meta``
    apart, drawn per frame from ``meta``) and their parts."""

    version: int
    my_index: int | None
    fragments: dict[str, SafeString]
    parts: dict[str, fragments.Parts]
    meta: dict = field(repr=False)  # what ``#board-meta`` is drawn from
    drawn_meta: dict = field(default_factory=dict, repr=False, compare=False)  # reply -> the meta, its clock a mark
    # The version's deltas, shared by its views (a public fragment is the same string in every view, and
    # most sockets showed the same before): (name, markup, markup shown) -> (parts, parts shown, delta).
    deltas: dict = field(default_factory=dict, repr=False, compare=False)


META = ("version", "can_meld", "status", "timer", "meta")  # what the frag-board-meta partial reads


def view_of(data: BoardData, user, *, seat_refusal: str | None = None) -> View:
    """``user``'s view of this version in the current language: drawn by its first socket, shared by the others.

    ``seat_refusal``: why fair play keeps this viewer out of an open table's free seats (the caller asks
    the database, ``services.seat_refusal_shown``)."""
    language = get_language()
    key = view_key(data, user, seat_refusal)
    slot = ("view", language, key)
    view = data.shared.get(slot)
    if view is not None:
        return view
    last_key = (data.match.pk, key)
    with _lock:
        kept = _last.get(last_key)
    previous = kept[2] if kept is not None and kept[0] == data.match.created_at and kept[1] == language else None
    board = fragments.board_for(data, user, previous=previous, meta=False, seat_refusal=seat_refusal, language=language)
    view = _view(data, board)
    data.shared[slot] = view  # two sockets drawing it at once each draw the same board: no harm
    now = time.monotonic()
    with _lock:
        current = _last.get(last_key)
        if current is None or current[3] <= data.version or current[0] != data.match.created_at:
            _last[last_key] = (data.match.created_at, language, board.kept(), data.version, now)
        else:
            _last[last_key] = (*current[:4], now)
        _last.move_to_end(last_key)
        while len(_last) > KEEP_VIEWS or now - next(iter(_last.values()))[4] > KEEP_IDLE:
            _last.popitem(last=False)
    return view


def answer_of(data: BoardData, user, error: dict, *, seat_refusal: str | None = None) -> View:
    """``user``'s board with a refusal for them alone: drawn for that socket, never shared."""
    return _view(data, fragments.board_for(data, user, error=error, meta=False, seat_refusal=seat_refusal))


def _view(data: BoardData, board: fragments.Board) -> View:
    ctx = board.ctx
    meta = {name: ctx.get(name) for name in META}
    return View(
        version=data.version,
        my_index=ctx["my_index"],
        fragments=board.fragments,
        parts=board.parts,
        meta=meta,
        deltas=data.shared.setdefault("deltas", {}),
    )


_CLOCK = "\ue000"  # where a frame's clock goes in its view's meta: a private-use character no template writes
# ``#board-meta`` drawn with marks for the clock and the version, by what else its partial reads (a few
# dozen combinations in all; it has no words, so no language): see :func:`meta_html`.
_METAS: dict[tuple, str] = {}


def meta_html(view: View, *, reply: bool) -> SafeString:
    """The frame's ``#board-meta``: the view's, with the server's clock now and whether it answers this socket.

    Drawn once per combination of what the ``frag-board-meta`` partial reads besides the version and the
    clock, with marks where those go; each view puts its version in, each frame its time.
    """
    drawn = view.drawn_meta.get(reply)
    if drawn is None:
        meta = view.meta
        # Everything the partial reads but the version and the clock (a template change that reads more adds it here).
        seat, mine = meta["meta"]["my_seat"], meta["meta"]["my_turn"]
        key = (reply, bool(mine), bool(meta["can_meld"]), str(meta["status"]), str(seat), bool(meta["timer"]))
        shape = _METAS.get(key)
        if shape is None:
            ctx = {**meta, "version": fragments.VERSION, "meta": {**meta["meta"], "now_ms": _CLOCK}, "reply": reply}
            shape = _METAS[key] = collapsed(render_to_string(f"{fragments.PAGE}#frag-board-meta", ctx))
        drawn = view.drawn_meta[reply] = shape.replace(fragments.VERSION, str(view.version), 1)
    return mark_safe(drawn.replace(_CLOCK, str(int(timezone.now().timestamp() * 1000)), 1))


def forget(match_id: int) -> None:
    """Drop the kept views of a match (tests; a match that is gone)."""
    with _lock:
        for key in [k for k in _last if k[0] == match_id]:
            del _last[key]


def _delta(view: View, name: str, html: str, sent: str | None, sent_parts: fragments.Parts | None) -> str | None:
    """``fragments.delta`` of a fragment, worked out once per version for the sockets that showed the same."""
    parts = view.parts.get(name)
    if sent is None or html is sent:
        return fragments.delta(html, parts, sent, sent_parts)  # the whole fragment, or nothing: no work
    key = (name, html, sent)
    kept = view.deltas.get(key)
    if kept is not None and kept[0] == parts and kept[1] == sent_parts:
        return kept[2]
    piece = fragments.delta(html, parts, sent, sent_parts)
    view.deltas[key] = (parts, sent_parts, piece)
    return piece


class Shown:
    """What one socket's page shows of the board, and the frames that bring it up to a view.

    The contract: ``fragments`` and ``parts`` are the markup (by fragment id) the page shows since the
    socket's last frame, ``version`` the version it shows (-1: none known).  :meth:`frame` returns
    what to send for a new view (``#board-meta`` first, then each fragment that differs: whole, or
    only its changed parts, ``fragments.delta``) and records it as shown; :meth:`adopt` records a
    view as shown without sending it (the page was rendered at that version); :meth:`forget` says the
    page shows nothing known (it replaced its board, or asked for all of it), so the next frame sends
    every fragment.  The version only grows, but for a socket's own answers (``reply``), which the
    page shows whatever version it has.
    """

    __slots__ = ("version", "fragments", "parts")

    def __init__(self, version: int = -1):
        self.version = version
        self.fragments: dict[str, str] = {}
        self.parts: dict[str, fragments.Parts] = {}

    def is_new(self, version: int) -> bool:
        return version > self.version

    def frame(self, view: View, *, reply: bool = False, always: tuple[str, ...] = ()) -> str:
        """The frame that shows ``view`` on this page (``always``: fragments sent even when unchanged)."""
        out = [meta_html(view, reply=reply)]
        for name, html in view.fragments.items():
            if name in always:
                out.append(html)
                continue
            piece = _delta(view, name, html, self.fragments.get(name), self.parts.get(name))
            if piece:
                out.append(piece)
        self.adopt(view)
        return "".join(out)

    def adopt(self, view: View) -> None:
        self.fragments.update(view.fragments)
        self.parts.update(view.parts)
        self.version = max(self.version, view.version)

    def forget(self) -> None:
        self.fragments, self.parts = {}, {}
