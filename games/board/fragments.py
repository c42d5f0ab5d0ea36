"""A table's board as named fragments: what a page shows and what a socket pushes.

The board (``games/table.html#table-board``) is a row of fragments, each an element with its own
id: the seats, the melds, the piles, the hand, the actions, the results, the log...  A socket sends
only the fragments whose markup changed since its last frame (``games.live.consumers``), so a move
that changes the melds and a seat's card count sends those two and the log, and the hand someone is
picking cards in, the button they focused and a drag in progress stay as they are.

Two kinds of fragment:

* **public**: drawn from the board of a viewer with no seat (``board.table.public_context``),
  so it can hold nothing that only one seat may see.  Rendered once per version, language and
  process, kept on the version's :class:`~games.board.data.BoardData`, and sent as the same
  string to every socket that shows it.  What differs per viewer in them (which seat is "you") is
  marked by the page from ``#board-meta``'s ``data-my-seat``.
* **private**: drawn from this viewer's own board (their hand, their buttons, their draft).

Which kind a fragment is may depend on the viewer (``Fragment.public``): the melds are public
except for the player to act, whose melds are the draft they are arranging.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.template.base import Node, NodeList, TextNode
from django.utils import timezone
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.board import kept
from games.board.data import BoardData
from games.board.markup import collapsed
from games.board.table import public_context, table_context
from games.templatetags import boardparts

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
    # A private fragment's inputs, when they are few: everything of the context its partial reads
    # (FRESH: draw it every time).  A viewer's next board reuses the markup of its last one
    # while they are the same (a watching player's hand does not change when another player moves).
    inputs: Callable[[dict], Any] | None = None
    # Its parts that change on their own (an element with its own id each): the ``{% part "<name>" %}``
    # its partial draws (games/templatetags/boardparts.py records them in the fragment's one render),
    # so a socket can send one alone (``Parts``).
    parts: tuple[str, ...] = ()
    # Its inputs are everything its partial reads whatever the table and viewer (with the language):
    # its markup is kept by them (:data:`_BY_INPUTS`) for every table, public or private, so a version
    # that did not change it draws it for no view (the melds between two meld steps).
    by_inputs: bool = False
    # Context values its partial only puts in its markup as they are (a string, or a list of strings
    # joined): its markup is kept by its other inputs with a mark for each, and each drawing puts them in
    # (:func:`_fill`), so a fragment whose list changes at every version (the log, the seat rows) draws
    # no template.  ``inputs`` is then everything else the partial reads.
    filled: tuple[str, ...] = ()

    @property
    def partial(self) -> str:
        return f"{self.template}#frag-{self.name}"


FRESH = object()  # a fragment's inputs when it must be drawn every time


def _error_inputs(ctx) -> Any:
    return ctx["error"]


def _open_panel_inputs(ctx) -> Any:
    return FRESH if ctx["is_open"] else ()  # an open table's panel has the viewer's buttons


def _hand_inputs(ctx) -> Any:
    """Everything the ``frag-hand-area`` partial (and its parts) reads besides the hand's cards and words
    (``hand``, ``hand_words``: filled in)."""
    return (
        bool(ctx["me"] and ctx["view"]),
        ctx.get("drafting"),
        bool(ctx.get("hand_words")),  # an empty hand is said so
        ctx.get("hand_points"),
        ctx.get("knock_limit"),
        ctx.get("is_playing"),  # how to knock is said only while the round is played
    )


def _melds_inputs(ctx) -> Any:
    """Everything the ``frag-melds`` partial (and ``meld-box``) reads: what the melds are made from
    (``board.manipulation``'s ``melds_key``), whether they are the viewer's to arrange, and the note
    that another player is arranging them."""
    key = ctx.get("melds_key")
    if key is None:
        return FRESH  # a board without it (no round in play) is drawn every time
    return (bool(ctx["view"]), ctx.get("someone_drafting"), ctx.get("can_meld"), key)


def _head_inputs(ctx) -> Any:
    """Everything the ``frag-board-head`` partial (and its ``part-stock`` and ``part-timer``) reads: the
    same for every version of a round between two changes of the stock's count when the table shows
    no clock (a clock's deadline is new at every move: drawn every time)."""
    if ctx.get("timer"):
        return FRESH
    return (
        str(ctx["variant_label"]),
        ctx["match"].round_number,
        str(ctx["status"]),
        str(ctx["status_label"]),
        bool(ctx["is_open"]),
        bool(ctx["has_free_seats"]),
        ctx.get("stock_count"),
        bool(ctx["between_rounds"]),
        bool(ctx["is_finished"]),
        ctx["howto_url"],
    )


def _results_inputs(ctx) -> Any:
    """Everything the ``frag-results`` partial reads while a round is played: its empty slot, named
    by the round and the status (between rounds and at the end it shows the results: drawn every time)."""
    if ctx["between_rounds"] or ctx["is_finished"]:
        return FRESH
    return (ctx["match"].round_number, str(ctx["status"]))


def _seats_inputs(ctx) -> Any:
    """Everything the ``frag-seats`` partial reads besides its kept rows (``seat_rows``, filled in): nothing.
    An open table's seats have the viewer's buttons (no kept rows): drawn every time."""
    return () if ctx["seat_rows"] else FRESH


def _log_inputs(ctx) -> Any:
    """Everything the ``frag-log`` partial reads besides the log's lines (``log``, filled in)."""
    return (ctx["commitment"], ctx["log_length"])


def _actions_inputs(ctx) -> Any:
    """Everything the ``frag-actions`` partial (and its parts) reads: a watching seat's buttons and
    prompt stay the same while another seat moves, and the seats that wait for the same player see
    the same (kept by these inputs, ``Fragment.by_inputs``: a template change that reads more adds it
    here; tests/realtime/test_views_equal_pages.py plays whole games to hold the two together)."""
    me, rematch = ctx["me"], ctx.get("rematch")
    return (
        bool(ctx["view"]) and ctx["spec"].meld_drafts,
        ctx.get("prompt"),
        ctx.get("my_turn"),
        ctx.get("drafting"),
        tuple((e.get("code"), str(e.get("message"))) for e in ctx.get("draft_errors") or ()),
        me is not None and me.ready,
        me is not None,
        ctx.get("can_draw"),
        ctx.get("can_meld"),
        ctx.get("draft_ok"),
        ctx.get("can_knock"),
        ctx.get("can_end_turn"),
        ctx.get("hint_url"),
        ctx["act_url"],
        ctx["is_playing"],  # the hand's sort buttons are shown while its round is played
        ctx["between_rounds"],
        ctx["is_finished"],
        ctx["match"].pk,
        rematch.pk if rematch else None,
        # Not the version: each move button's form names it, but a private fragment is drawn with
        # VERSION in its place, put in per version (:func:`board_for`).
    )


GIN = "games/gin_board.html"

COMMON_TOP = (
    Fragment("board-meta", _never),
    Fragment("board-head", _always, inputs=_head_inputs, parts=("stock", "timer"), by_inputs=True),
    Fragment("board-error", _never, inputs=_error_inputs),
    Fragment("seats", _seats_public, inputs=_seats_inputs, by_inputs=True, filled=("seat_rows",)),
    Fragment("open-panel", _never, inputs=_open_panel_inputs),
)
COMMON_BOTTOM = (
    Fragment("results", _always, inputs=_results_inputs, by_inputs=True),
    Fragment("log", _log_public, inputs=_log_inputs, by_inputs=True, filled=("log",)),
)
GAME_FRAGMENTS = {
    "manipulation": (
        Fragment("melds", _melds_public, inputs=_melds_inputs, by_inputs=True),
        Fragment(
            "hand-area",
            _never,
            inputs=_hand_inputs,
            parts=("hand-info", "hand-words"),
            by_inputs=True,
            filled=("hand", "hand_words"),
        ),
        Fragment("actions", _never, inputs=_actions_inputs, parts=("prompt", "controls"), by_inputs=True),
    ),
    "gin": (
        Fragment("gin-top", _always, GIN),
        Fragment("gin-board", _never, GIN),
        Fragment("gin-end", _always, GIN),
        Fragment("actions", _never, inputs=_actions_inputs, parts=("prompt", "controls"), by_inputs=True),
    ),
}


def fragments_for(family: str | None) -> tuple[Fragment, ...]:
    return COMMON_TOP + GAME_FRAGMENTS.get(family, ()) + COMMON_BOTTOM


# Where a private fragment names its version (each move button's form does): a private-use character no
# template writes.  A private fragment is drawn with it in ``ctx["version"]`` and the version is put in
# after (:func:`versioned`), so its markup serves the viewer's next versions while its inputs are the
# same (a watching seat's buttons do not change when another seat draws).
VERSION = "\ue001"


@dataclass
class Board:
    """One viewer's board: its context (the page reads a few more fields from it) and its fragments."""

    ctx: dict[str, Any]
    fragments: dict[str, SafeString]  # id -> markup, in page order
    parts: dict[str, Parts] = field(default_factory=dict)  # id -> the parts a socket may send alone
    inputs: dict[str, Any] = field(default_factory=dict)  # id -> what a private fragment was drawn from
    language: str = ""
    # id -> a private fragment's markup and parts with VERSION where the version goes (what a next
    # board of this viewer reuses)
    drawn: dict[str, tuple[SafeString, Parts | None]] = field(default_factory=dict)

    def kept(self) -> Board:
        """What a next board of this viewer may reuse (:func:`board_for`'s ``previous``), without the context."""
        return Board({}, {}, {}, self.inputs, self.language, self.drawn)

    def html(self) -> SafeString:
        return mark_safe("".join(self.fragments.values()))  # every piece was rendered by a template


def board_for(
    data: BoardData,
    user,
    *,
    error: dict | None = None,
    reply: bool = False,
    request=None,
    previous: Board | None = None,
    meta: bool = True,
    seat_refusal: str | None = None,
    language: str | None = None,
) -> Board:
    """``user``'s board of the version ``data`` holds, as fragments (a spectator's when seatless).

    ``request``: a page's or a form's answer over HTTP; its private fragments' forms then carry the
    CSRF token, so they work before the page's scripts have loaded.  A socket frame has none (the
    page's scripts send the token with every request).  ``previous``: this viewer's last board in the
    same language (a socket's), whose private fragments are reused where their inputs are the same.
    ``meta=False``: without ``#board-meta`` (a socket draws it per frame, ``games.live.boardviews``).
    ``seat_refusal``: why fair play keeps a viewer without a seat out of the free ones (``table_context``).
    ``language``: the current one, when the caller has it (each lookup of it goes through asgiref's ``Local``).
    """
    language = language or get_language()
    ctx = table_context(data, user, seat_refusal=seat_refusal, language=language)
    ctx["error"] = error
    ctx["reply"] = reply
    ctx["meta"] = _meta(ctx, data)
    frags = fragments_for(ctx["spec"].family)
    if not meta:
        frags = tuple(frag for frag in frags if frag.name != "board-meta")
    shared = [frag.public(ctx) for frag in frags]
    board = Board(ctx, {}, language=language)
    if previous is not None and previous.language != board.language:
        previous = None
    known = {}  # the inputs of the private fragments, as their kept markup is found by
    for frag, is_public in zip(frags, shared, strict=True):
        if is_public or frag.inputs is None or request is not None:
            continue
        known[frag.name] = inputs = frag.inputs(ctx)
        if inputs is not FRESH and frag.filled:
            inputs = (inputs, *(ctx.get(name) for name in frag.filled))  # what it shows: its inputs and these
        board.inputs[frag.name] = inputs
        if (
            previous is not None
            and inputs is not FRESH
            and frag.name in previous.drawn
            and previous.inputs.get(frag.name, FRESH) == inputs
        ):
            board.drawn[frag.name] = previous.drawn[frag.name]
    # This viewer's own fragments in one render (one context, one pass), cut apart after; drawn with
    # VERSION for the version (the context's own is put back for whoever reads it next).
    own = tuple(
        frag for frag, is_public in zip(frags, shared, strict=True) if not is_public and frag.name not in board.drawn
    )
    version, ctx["version"] = ctx["version"], VERSION
    try:
        board.drawn.update(_render_all(own, ctx, request, known=known, language=language))
    finally:
        ctx["version"] = version
    public = _public_fragments(data, frags, language) if any(shared) else {}
    for frag, is_public in zip(frags, shared, strict=True):
        if is_public:
            html, parts = public[frag.name]
        else:
            html, parts = versioned(*board.drawn[frag.name], version)
        board.fragments[frag.name] = html
        if parts is not None:
            board.parts[frag.name] = parts
    return board


def versioned(html: SafeString, parts: Parts | None, version: int) -> tuple[SafeString, Parts | None]:
    """A private fragment drawn with :data:`VERSION` (and its parts), with ``version`` put in its place."""
    if VERSION not in html:
        return html, parts
    number = str(version)
    html = mark_safe(html.replace(VERSION, number))  # a number in place of a character the template wrote
    if parts is not None:
        parts = replace(
            parts,
            by_id=tuple(part.replace(VERSION, number) for part in parts.by_id),
            rows=tuple(row.replace(VERSION, number) for row in parts.rows),
        )
    return html, parts


# The markup of the fragments kept by their inputs (``Fragment.by_inputs``), by name, language and inputs,
# the least recently used dropped first.  An entry may be large: the melds of a table late in a round
# are tens of K characters.  8,192 entries held ~155 MB more than 2,048 at the sixth minute of a soak (RSS
# 456 against 301 MB) for 0.17 fewer misses a version at 250 tables (0.53 against 0.70): bench/README.md,
# "Twentieth round" and "Twenty-first round".
_BY_INPUTS = kept.Kept(2048)

_CUT = "\x1e"  # between two fragments of one render: a control character no template writes
_BUNDLES: dict[tuple[tuple[str, ...], str], Any] = kept.forgettable(
    {}
)  # by a set of fragments and language: a handful per game


class _Drawn(Node):
    """A partial inside a bundle: rendered by its template object, with the render state it keeps apart."""

    child_nodelists = ()

    def __init__(self, template):
        self.template = template

    def render(self, context):
        return self.template.render(context)


def _bundle(partials: tuple[str, ...]):
    """One template drawing these partials one after the other (each followed by :data:`_CUT`): their
    nodes, as the current language's templates hold them (``plumbing.templates``), put together once
    per language, so a render looks up no template by name.  Not kept in debug (a template edited while
    the server runs is read again)."""
    key = (partials, get_language())
    template = _BUNDLES.get(key)
    if template is None:
        engine = engines["django"]
        template = engine.from_string("")
        nodes = NodeList()
        for partial in partials:
            # Each partial drawn through its own template object, as an include drew it (its render state apart).
            nodes.append(_Drawn(engine.get_template(partial).template))
            nodes.append(TextNode(_CUT))
        template.template.nodelist = nodes
        if not settings.DEBUG:
            _BUNDLES[key] = template
    return template


def _render_all(
    frags: tuple[Fragment, ...],
    ctx: dict,
    request=None,
    *,
    known: dict[str, Any] | None = None,
    language: str | None = None,
) -> dict[str, tuple[SafeString, Parts | None]]:
    """These fragments rendered in one pass (one template drawing each partial), by name, each with
    its parts: what its ``{% part %}`` partials drew in that same render (``PARTS`` for the rest).

    A fragment kept by its inputs (``Fragment.by_inputs``) is drawn only when they are new; not with a
    ``request`` (its forms would carry that request's token), nor in debug (a template edited while the
    server runs is read again).  ``known``: the inputs the caller has worked out already, by name;
    ``language``: the current one, when the caller has it."""
    out: dict[str, tuple[SafeString, Parts | None]] = {}
    keys = {}
    known = known or {}
    if request is None and not settings.DEBUG:
        language = language or get_language()
        for frag in frags:
            inputs = (known[frag.name] if frag.name in known else frag.inputs(ctx)) if frag.by_inputs else FRESH
            if any(name not in ctx for name in frag.filled):
                inputs = FRESH  # a board without them (an open table's has no hand): drawn as it is
            if inputs is not FRESH:
                keys[frag.name] = key = (frag.name, language, inputs)
                found = _BY_INPUTS.get(key)
                if found is not None:
                    out[frag.name] = _fill(frag, found, ctx) if frag.filled else found
        if out:
            frags = tuple(frag for frag in frags if frag.name not in out)
    if not frags:
        return out
    # A fragment kept by its inputs with values filled in is drawn with their marks, in a pass of its own.
    shells = tuple(frag for frag in frags if frag.filled and frag.name in keys)
    if shells:
        for frag, shell in zip(shells, _render_shells(shells, ctx), strict=True):
            _BY_INPUTS.put(keys[frag.name], shell)
            out[frag.name] = _fill(frag, shell, ctx)
        frags = tuple(frag for frag in frags if frag.name not in out)
        if not frags:
            return out
    template = _bundle(tuple(f.partial for f in frags))
    ctx[boardparts.SINK] = drawn = {}
    try:
        pieces = template.render(ctx, request).split(_CUT)[:-1]
    finally:
        del ctx[boardparts.SINK]
    # Every piece was rendered by the template, escaped there.  Its runs of white space (the templates'
    # indentation) are one space, as a page shows them (the board has no preformatted text): a frame
    # is sent to every socket at every move.
    for frag, html in zip(frags, pieces, strict=True):
        # A part the fragment does not show this time (a seatless viewer has no controls) is left out.
        shown = [(name, collapsed(drawn[name])) for name in frag.parts if drawn.get(name)]
        out[frag.name] = drawn_frag = (collapsed(html), _parts(frag, ctx, shown))
        if frag.name in keys:
            _BY_INPUTS.put(keys[frag.name], drawn_frag)
    return out


_FILL = "\ue003"  # where a filled value goes in a kept fragment (with its name): a character no template writes


def _fill_mark(name: str) -> str:
    return f"{_FILL}{name}{_FILL}"


@dataclass(frozen=True)
class _Shell:
    """A fragment kept with a mark for each filled value (``Fragment.filled``): its markup and its
    ``{% part %}`` partials as drawn (white space not yet collapsed: that is done once filled)."""

    html: str
    parts: tuple[tuple[str, str], ...]  # (the partial's name, its markup)


def _render_shells(frags: tuple[Fragment, ...], ctx: dict) -> list[_Shell]:
    """These fragments drawn with a mark in place of each filled value: a list drawn as one item, a
    string as itself (the partials read a filled value only to put it in, or to ask whether it is
    empty: its inputs say that)."""
    marked = dict(ctx)
    for frag in frags:
        for name in frag.filled:
            mark = mark_safe(_fill_mark(name))
            marked[name] = [mark] if isinstance(ctx[name], (list, tuple)) else mark
    marked[boardparts.SINK] = drawn = {}
    pieces = _bundle(tuple(f.partial for f in frags)).render(marked).split(_CUT)[:-1]
    return [
        _Shell(html, tuple((name, drawn[name]) for name in frag.parts if drawn.get(name)))
        for frag, html in zip(frags, pieces, strict=True)
    ]


def _filled(frag: Fragment, markup: str, values: dict[str, str]) -> SafeString:
    for name in frag.filled:
        markup = markup.replace(_fill_mark(name), values[name])
    return collapsed(markup)  # collapsed as the whole drawing is


def _fill(frag: Fragment, shell: _Shell, ctx: dict) -> tuple[SafeString, Parts | None]:
    """A fragment kept with marks (:func:`_render_shells`) with this context's values put in, escaped as
    the template puts them in (a list's items one after the other), and its parts: the markup and parts
    the partial draws from the whole context (tests/games/board/test_fragments.py holds them to it)."""
    values = {}
    for name in frag.filled:
        value = ctx[name]
        items = value if isinstance(value, (list, tuple)) else (value,)
        values[name] = "".join(map(conditional_escape, items))
    shown = [(name, _filled(frag, part, values)) for name, part in shell.parts]
    return _filled(frag, shell.html, values), _parts(frag, ctx, shown)


def _parts(frag: Fragment, ctx: dict, shown: list[tuple[str, str]]) -> Parts | None:
    """A drawn fragment's parts: its ``{% part %}`` partials as drawn (``shown``: name, markup) and what
    its context lists (``PARTS``); None for a fragment that has neither."""
    parts = Parts(by_id=tuple(part for _name, part in shown), names=tuple(name for name, _part in shown))
    parts_of = PARTS.get(frag.name)
    if parts_of is not None:
        parts = parts_of(ctx, parts)
    return parts if frag.parts or parts_of else None


def _public_fragments(
    data: BoardData, frags: tuple[Fragment, ...], language: str
) -> dict[str, tuple[SafeString, Parts | None]]:
    """This version's public fragments in ``language`` (the current one), with their parts: every fragment
    that is public for a viewer with no seat (the most any viewer shares), drawn in one pass from that
    viewer's board the first time a viewer needs one, and kept on the data for the version's other viewers."""
    key = ("fragments", language)
    kept = data.shared.get(key)
    if kept is None:
        shown = public_context(data, language)
        shown["meta"] = None
        public = tuple(frag for frag in frags if frag.public(shown))
        kept = data.shared[key] = _render_all(public, shown, language=language)
    return kept


def _meta(ctx: dict, data: BoardData) -> dict[str, Any]:
    """What the page needs to know about this board that no fragment shows: its version, whose turn,
    which seat is the viewer's, the server's clock (the timer counts down to its deadline with it)."""
    view = ctx["view"]
    to_act = view.get("seat_to_act") if view is not None and ctx["is_playing"] else None
    return {
        "now_ms": int(timezone.now().timestamp() * 1000),
        # Only while a round is played: a hand's result is nobody's turn, whatever its state says.
        "my_turn": to_act is not None and to_act == ctx["my_index"],
        "my_seat": "" if ctx["my_index"] is None else ctx["my_index"],
    }


# ----- parts: what of a changed fragment a socket sends -------------------------------------------
#
# A move changes one seat's row, adds a line to the log, a card to a hand and one less to the stock:
# the rest of those fragments is what the page shows already.  A fragment's parts are its pieces that
# change on their own; when only parts changed (the rest of the fragment, its "shell", is the same), a
# socket sends just those: an element with an id replaces the one with that id, new log lines are put
# at the top of the log list (``hx-swap-oob="afterbegin:#log-list"``; the page keeps LOG_LENGTH), and
# a hand's new cards are put in their places and its gone cards taken out (htmx's out-of-band swaps
# ``afterend:<the card before>`` and ``delete:<the card>``), so a draw sends one card, not the hand.


@dataclass(frozen=True)
class Parts:
    """The pieces of a rendered fragment a socket may send alone."""

    by_id: tuple[str, ...] = ()  # elements with their own id: each replaces the element with that id
    rows: tuple[str, ...] = ()  # the items of one list, drawn one after the other in the fragment
    rows_of: str = ""  # that list's id
    order: str = ""  # "newest_first": new rows come at the top (a log); "keyed": rows come and go anywhere
    keys: tuple[str, ...] = ()  # "keyed": each row's ``data-id``
    names: tuple[str, ...] = ()  # the ``by_id`` parts' partials (``Fragment.parts``), when they are partials
    keep: int = 0  # "newest_first": the rows the page keeps (it drops the oldest beyond)

    def shape(self) -> tuple:
        return len(self.by_id), self.names, self.rows_of, self.order


def _seat_parts(ctx, partials: Parts) -> Parts:
    return Parts(by_id=tuple(ctx["seat_rows"] or ()))  # each row is <li id="seat-N">


def _log_parts(ctx, partials: Parts) -> Parts:
    return Parts(rows=tuple(ctx["log_lines"]), rows_of="log-list", order="newest_first", keep=ctx["log_length"])


def _hand_parts(ctx, partials: Parts) -> Parts:
    cards = ctx.get("hand_cards") or ()
    return replace(
        partials,
        rows=tuple(html for _key, html in cards),
        rows_of="hand",
        order="keyed",
        keys=tuple(key for key, _html in cards),
    )


# The parts a fragment's context lists itself (seat rows, log lines, a hand's cards), given the parts
# its ``Fragment.parts`` partials drew.
PARTS: dict[str, Callable[[dict, Parts], Parts]] = {
    "seats": _seat_parts,
    "hand-area": _hand_parts,
    "log": _log_parts,
}


def delta(html: str, parts: Parts | None, sent_html: str | None, sent_parts: Parts | None) -> str | None:
    """What a socket that showed ``sent_html`` sends for a fragment that is now ``html``: nothing when
    it is the same, only its changed parts when the rest is the same, else the whole fragment."""
    if sent_html is None:
        return html
    if html == sent_html:  # usually the same string object (a public fragment): no comparison of text
        return None
    if parts is None or sent_parts is None or parts.shape() != sent_parts.shape():
        return html
    if _shell(html, parts) != _shell(sent_html, sent_parts):
        return html
    out = [new for new, old in zip(parts.by_id, sent_parts.by_id, strict=True) if new != old]
    if parts.rows != sent_parts.rows:
        rows = _new_rows(parts, sent_parts) if parts.order == "newest_first" else _keyed_rows(parts, sent_parts)
        if rows is None:
            return html
        out.append(rows)
    return "".join(out)


def _shell(html: str, parts: Parts) -> str:
    """The fragment without its parts (each one a NUL)."""
    for item in parts.by_id:
        html = html.replace(item, "\0", 1)
    if parts.rows:
        html = html.replace("".join(parts.rows), "\0", 1)
    return html


def _new_rows(parts: Parts, sent: Parts) -> str | None:
    """The rows new at the top, when the list is the one sent with rows put on top (and the oldest gone)."""
    new, old = parts.rows, sent.rows
    if not old or old[0] not in new:
        return None
    k = new.index(old[0])
    if new[k:] != old[: len(new) - k]:
        return None
    if len(new) != min(k + len(old), parts.keep):
        # The page would keep rows the list no longer has (a seat's own log, with entries for others
        # left out, is shorter than the page keeps): send the whole list.
        return None
    return f'<ol hx-swap-oob="afterbegin:#{parts.rows_of}">' + "".join(new[:k]) + "</ol>"


_SAFE_KEY = re.compile(r"[A-Za-z0-9.=_-]+")


def _keyed_rows(parts: Parts, sent: Parts) -> str | None:
    """The rows gone (``delete``) and new (``afterend`` of the row before them, or ``afterbegin`` of the
    list), when the rows kept are the same markup in the same order; else None (the whole fragment)."""
    old = dict(zip(sent.keys, sent.rows, strict=True))
    new = dict(zip(parts.keys, parts.rows, strict=True))
    if len(old) != len(sent.keys) or len(new) != len(parts.keys) or not all(map(_SAFE_KEY.fullmatch, parts.keys)):
        return None
    kept = [key for key in parts.keys if key in old]
    if kept != [key for key in sent.keys if key in new] or any(old[key] != new[key] for key in kept):
        return None
    list_id = parts.rows_of
    out = [f"""<ol hx-swap-oob="delete:#{list_id} > [data-id='{key}']"></ol>""" for key in sent.keys if key not in new]
    before, run = None, []
    for key in [*parts.keys, None]:  # None closes the last run
        if key is not None and key not in old:
            run.append(new[key])
            continue
        if run:
            where = f"afterend:#{list_id} > [data-id='{before}']" if before else f"afterbegin:#{list_id}"
            out.append(f'<ol hx-swap-oob="{where}">' + "".join(run) + "</ol>")
            run = []
        before = key
    return "".join(out)
