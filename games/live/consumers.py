"""The table socket: one per open table page.

Thin: it checks access, joins the table's group, and on every "table changed"
message renders *its own viewer's* board (``board.table.table_context``) and
pushes it as an htmx out-of-band swap.  While it is open it also carries the
page's moves (``{"type": "command", ...}``, checked by ``games.commands`` exactly
as the HTTP forms are) and a "resync" request; see docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import logging

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import Http404
from django.template.loader import render_to_string
from django.utils.translation import gettext, gettext_noop

from games import commands, selectors, services
from games.live import boardcache, boardviews, chatlines
from games.live.heartbeats import heartbeats
from games.models import new_connection_token
from plumbing import inputs, realtime
from plumbing.realtime import LOBBY_GROUP, override_scope_language, scope_language, table_group

log = logging.getLogger(__name__)

FRAME_DEPTH = 2  # {"type": "command", "fields": {name: text}}: the fields' JSON is read by games.commands


def _query_version(scope) -> int:
    """The version the page was rendered at (``?v=N``), or -1."""
    query = scope.get("query_string", b"").decode("latin-1")
    for part in query.split("&"):
        key, _, value = part.partition("=")
        if key == "v":
            version = commands.parse_version(value)
            return -1 if version is None else version
    return -1


class TableConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        """Channels' dispatch without its ``aclose_old_connections()`` before every message.

        That call hops to the process's one thread-sensitive worker thread and back for every
        message of every socket (four or five per move at a table).  This consumer touches the
        database only through ``database_sync_to_async``, which closes stale connections around
        each of its calls already.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except BaseException:
            # Any failure ends this socket's application, and Channels then calls no disconnect: a
            # send to a page that closed meanwhile ("Attempt to send on a closed protocol", while a
            # group push was on its way) would leave its presence row to the heartbeat for ever.
            # (A normal close ends with StopConsumer, after disconnect has left already.)
            await asyncio.shield(self._leave())
            raise

    async def connect(self):
        self.user = self.scope.get("user")
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.shown = boardviews.Shown()  # what this socket's page shows: the one diff state
        # Why fair play keeps this viewer out of an open table's free seats, by who sat there when it was
        # asked (``services.seat_refusal_shown`` reads the database: asked again when they change).
        self.refused: tuple[tuple | None, str | None] = (None, None)
        self.refusal_watch: asyncio.Task | None = None  # asks again while a refusal is shown (_watch_refusal)
        self.rate = commands.Rate()  # its commands and resyncs
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=4401)
            return
        session = self.scope.get("session") or {}
        try:
            # The access check of every command this socket carries (commands.Admitted).
            self.admitted, match = await database_sync_to_async(commands.admit)(
                match_id=self.match_id, user=self.user, invite=session.get(f"invite-{self.match_id}")
            )
        except Http404:
            await self.close(code=4404)
            return
        self.match_created = match.created_at
        await self.accept()
        self.seat_index = await database_sync_to_async(selectors.seat_index_of)(match_id=self.match_id, user=self.user)
        await self.channel_layer.group_add(table_group(self.match_id), self.channel_name)
        # The page's line to its user (a table page has no presence socket): the header's bell.
        await self.channel_layer.group_add(realtime.user_group(self.user.pk), self.channel_name)
        self.token = new_connection_token()
        self.beating = True  # from here on, disconnect (or a failure below) closes this socket's row
        try:
            # The open and the close run on the same thread-sensitive executor, in order: a
            # close after an open cut short (cancelled) still finds the row it committed.
            try:
                await database_sync_to_async(services.with_retry)(
                    services.table_connection_open, match_id=self.match_id, user=self.user, token=self.token
                )
            except services.TableBusy:
                # The table's row stayed locked past the bound (a burst of moves): the socket opens
                # all the same, and the next heartbeat finds its row missing and opens it then.
                log.warning("table %s: a socket's presence row put off to the next heartbeat", self.match_id)
            heartbeats.add(self.token, self.match_id, self.user)
            if self.seat_index is not None:
                # This seat may just have come online: a version loaded before shows it away.
                boardcache.stale(self.match_id)
            # The page was rendered at version ?v=N: push a board only if the table moved on since;
            # otherwise just the online dots, which may have changed between the page and the socket.
            self.shown.version = _query_version(self.scope)
            # A seat's first board is loaded after its row committed: a version kept here may have been
            # loaded (by another socket's push, or a move's commit) a moment before, with this seat away.
            await self.push_board(fresh=self.seat_index is not None)
            if self.shown.version == _query_version(self.scope):
                await self.send(text_data=await database_sync_to_async(self._render_dots, thread_sensitive=False)())
        except BaseException:
            # Connect failed half-way: Channels calls no disconnect for it, so leave no row behind.
            await asyncio.shield(self._leave())
            raise

    async def disconnect(self, code):
        await self._leave()

    async def _leave(self):
        """Leave the table's group and close this socket's row; a second call does nothing."""
        if not getattr(self, "beating", False):
            return
        self.beating = False
        heartbeats.remove(self.token)
        if self.refusal_watch is not None:
            self.refusal_watch.cancel()
        try:
            await self.channel_layer.group_discard(table_group(self.match_id), self.channel_name)
            await self.channel_layer.group_discard(realtime.user_group(self.user.pk), self.channel_name)
            await database_sync_to_async(services.table_connection_close)(token=self.token)
        except services.ActionRefused:
            pass  # the table is gone (deleted while this socket was open): its rows went with it
        except Exception:
            # The row is left to lapse: presence_sweep deletes it once no heartbeat refreshes it.
            log.exception("table %s: closing a socket's presence row failed", self.match_id)

    async def receive(self, text_data=None, bytes_data=None):
        try:  # the input layer: size, depth, characters, before anything else reads the frame
            message = inputs.parse_json(text_data, max_depth=FRAME_DEPTH, max_length=commands.MAX_COMMAND)
        except inputs.BadInput:
            await self.send_error("bad_frame", gettext_noop("Messages on this socket are small JSON requests."))
            return
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "resync":
            # A forced board is a fresh load from the database: a flood of them is refused like commands.
            if not self.rate.take():
                await self.send_error("too_fast", gettext_noop("Too many moves at once: wait a moment and try again."))
                return
            self.shown.forget()  # asked for the whole board (a drag held pushes back): send it all
            try:
                await self.push_board(force=True)
            except Exception:  # a fault, not the frame's: say so and keep the socket open (no 1011)
                log.exception("table %s: a resync failed", self.match_id)
                await self.send_error("server_error", gettext_noop("The server could not send the table. Try again."))
        elif kind == "shown":
            # The page replaced its whole board (a form's answer over HTTP): what this socket sent
            # is no longer what it shows, so the next push sends every fragment.
            self.shown.forget()
        elif kind == "command" and isinstance(message.get("fields"), dict):
            await self.run_command(str(message.get("kind")), message["fields"])
        else:
            await self.send_error("bad_frame", gettext_noop("Unknown request; moves are sent with the page's buttons."))

    async def run_command(self, kind: str, fields: dict):
        """A move sent over the socket: the one edge of every move (``commands.carry_out_async``);
        this only turns its outcome into a frame.

        Success needs no answer of its own beyond this viewer's fresh board (the group
        push brings everyone else theirs); a refusal shows its reason on this viewer's
        board only and changes nothing.
        """
        try:
            outcome = await commands.carry_out_async(
                kind,
                fields,
                match_id=self.match_id,
                user=self.user,
                invite=(self.scope.get("session") or {}).get(f"invite-{self.match_id}"),
                language=scope_language(self.scope),
                rate=self.rate,
                admitted=self.admitted,
            )
        except Http404:
            await self.close(code=4404)  # this viewer may no longer see the table
            return
        except Exception:
            # Not a refusal: a fault (the database gone, a bug). The transaction rolled back, so
            # nothing changed; say so on this viewer's board and keep the socket open.
            log.exception("table %s: a %s command failed", self.match_id, kind)
            await self.send_error(
                "server_error",
                gettext_noop("The server could not carry out that move, and nothing changed. Try again."),
            )
            return
        if kind == "typed":
            await self.typed_reply(outcome)
            return
        if outcome.moved_to is not None:
            # The command made a new version: this reply shares that version's one load with
            # the group push to the other sockets here.
            await self.push_board(version=outcome.moved_to, reply=True)
        elif outcome.code == "too_fast":
            await self.send_error("too_fast", gettext_noop("Too many moves at once: wait a moment and try again."))
        elif outcome.code == "server_busy":
            # No database connection came in time: a board could not be loaded either.
            await self.send_error("server_busy", gettext_noop("The server is busy; try again in a moment."))
        else:
            # A refusal, or a change without a new version (the player's own hand order, a Gin
            # knock layout): this viewer's board as it is now.
            await self.push_board(force=True, error=outcome.refusal)

    async def typed_reply(self, outcome: commands.Outcome):
        """A typed command's answer: the board first when the command made a version (or the table
        moved on), then the answer for the command line's live region.  A read or a refused command
        sends no board: the answer says it once (the board's alert would say it a second time)."""
        if outcome.moved_to is not None:
            await self.push_board(version=outcome.moved_to, reply=True)
        elif outcome.code in ("stale_version", "table_busy"):
            await self.push_board(force=True)
        answer = outcome.answer
        if not answer and outcome.refusal is not None:
            answer = getattr(outcome.refusal, "message", "")
            with override_scope_language(self.scope):
                answer = gettext(answer)
        with override_scope_language(self.scope):
            html = render_to_string("games/table.html#typed-answer", {"answer": answer, "oob": True})
        await self.send(text_data=html)

    async def send_error(self, code: str, message: str):
        """``message`` is marked with gettext_noop; it is translated here, in the viewer's language."""
        with override_scope_language(self.scope):
            html = render_to_string("games/table.html#socket-error", {"code": code, "message": gettext(message)})
        await self.send(text_data=html)

    # ----- group messages --------------------------------------------------
    async def user_fragment(self, event):
        """A partial for this socket's user (the header's bell): plumbing.realtime.render_user_fragment."""
        await self.send(text_data=realtime.render_user_fragment(self.scope, event))

    async def table_changed(self, event):
        version = event.get("version", 0)
        if self.shown.is_new(version):
            # Made in another process: kept from what it handed over, if it did (else loaded by the push;
            # a version kept here already, this process's own, returns at once).
            await boardcache.take_handed(self.match_id, version)
            await self.push_board(version=version)

    async def table_presence(self, event):
        """A seat's first socket opened, or its last one closed or lapsed: just its online dot changes."""
        boardcache.stale(self.match_id)  # a later push of this version must show the new dot
        if event.get("seat") == self.seat_index:
            return  # while this socket is open, this viewer's own dot is "online" anyway
        with override_scope_language(self.scope):
            html = render_to_string(
                "games/table.html#seat-conn",
                {"index": int(event["seat"]), "online": bool(event["online"]), "oob": True},
            )
        await self.send(text_data=html)

    async def table_chat(self, event):
        viewer = self.scope.get("user")
        message, hidden_from = await chatlines.line(int(event["message"]))
        if message is None or (viewer is not None and viewer.pk in hidden_from):
            return  # a muted table, a blocked author (fair play): this socket hears nothing
        with override_scope_language(self.scope):
            html = chatlines.frame(message, viewer=viewer, seated=self.seat_index is not None)
        await self.send(text_data=html)

    async def push_board(
        self,
        force: bool = False,
        version: int = -1,
        error: Exception | None = None,
        reply: bool = False,
        fresh: bool = False,
    ):
        """Send this viewer's board: at ``version`` or later, or (``force``) as it is now.

        A forced board or a ``reply`` answers this socket (a resync, a command, its refusal): the page
        shows it even when its version is not newer than the board it has.  ``fresh``: loaded from the
        database, not a version kept here, but sent only if newer (a seat's socket just opened).
        """
        data = (
            None
            if force or fresh
            else boardcache.peek(self.match_id, min_version=version, created_at=self.match_created)
        )
        if data is not None:
            # The version is loaded already (this process made the move, or another socket's push
            # loaded it): its views are CPU only (and usually drawn already), done here rather than
            # through the thread pool.
            if self._refusal_stale(data):
                await database_sync_to_async(self._ask_refusal, thread_sensitive=False)(data)
            view = None  # drawn below, in the socket's language with its frame
        else:
            # Loading reads the database: on the thread pool, in parallel, not on the one
            # thread-sensitive executor that every write of this process queues on.
            view = await database_sync_to_async(self._load_view, thread_sensitive=False)(version, force or fresh, error)
            if view is None:
                return  # nothing loaded to show
        # One language for the view and its frame (each switch of it costs as much as a small render).
        with override_scope_language(self.scope):
            if view is None:
                view = self._view(data, error)
            frame = self._frame(view, force or reply)
        if frame is not None:
            await self.send(text_data=frame)

    def _frame(self, view, answer: bool) -> str | None:
        """What this socket sends for ``view`` (None: nothing), in the current language; ``answer``: the frame
        answers this socket (a resync, a command, its refusal)."""
        if not answer and not self.shown.is_new(view.version):
            if not self.shown.fragments and view.version == self.shown.version:
                # The page was rendered at this version (a socket just opened): it shows these
                # fragments, so the next push sends only what changes from them.
                self.shown.adopt(view)
            return None
        self.seat_index = view.my_index  # a seat taken or left since the socket opened
        if self.refused[1] is not None and self.refusal_watch is None:
            self.refusal_watch = asyncio.create_task(self._watch_refusal())
        # An answer says its refusal (or that there is none) each time, even when the page shows the same.
        always = ("board-error",) if answer else ()
        return self.shown.frame(view, reply=answer, always=always)

    def _load_view(self, min_version: int, fresh: bool, error: Exception | None = None):
        # The sockets of one table in this process share one load of the version's data.
        data = boardcache.board_data_for(
            self.match_id, min_version=min_version, fresh=fresh, created_at=self.match_created
        )
        if data is None:
            return None
        if self._refusal_stale(data):
            self._ask_refusal(data)
        with override_scope_language(self.scope):
            return self._view(data, error)

    async def _watch_refusal(self):
        """While this viewer is shown why fair play keeps them out of the free seats, ask again every
        ``RUMMYHUB_SEAT_REFUSAL_RECHECK`` seconds: a bar that ends or a block lifted changes nothing
        at the table, so no version would bring the seats back to them.  Sends a board only when the
        answer changed."""
        try:
            while self.refused[1] is not None:
                await asyncio.sleep(settings.RUMMYHUB_SEAT_REFUSAL_RECHECK)
                if await database_sync_to_async(self._ask_again, thread_sensitive=False)():
                    await self.push_board(force=True)
        except asyncio.CancelledError:
            raise
        except Exception:  # the next push asks anyway; this socket goes on
            log.exception("table %s: asking fair play again failed", self.match_id)
        finally:
            self.refusal_watch = None

    def _ask_again(self) -> bool:
        """Fair play asked again at the table as it is now; True if its answer changed."""
        data = boardcache.board_data_for(self.match_id, created_at=self.match_created)
        if data is None:
            return False
        before = self.refused[1]
        if self._refusal_key(data) is None:
            self.refused = (None, None)
        else:
            self._ask_refusal(data)
        return self.refused[1] != before

    def _refusal_key(self, data) -> tuple | None:
        """What this viewer's seat refusal depends on in the loaded version (None: there is none to ask)."""
        return services.seat_refusal_inputs(data.match, data.seats, self.user)

    def _refusal_stale(self, data) -> bool:
        """Whether fair play must be asked (again) for this version: who sits there changed since."""
        key = self._refusal_key(data)
        return key is not None and key != self.refused[0]

    def _ask_refusal(self, data) -> None:
        """Ask fair play (the database) why this viewer may not sit at the table now, if so."""
        with override_scope_language(self.scope):
            self.refused = (self._refusal_key(data), services.seat_refusal_shown(data.match, data.seats, self.user))

    def _view(self, data, error: Exception | None) -> boardviews.View:
        """This viewer's view of the loaded version, in the current language (the caller's
        ``override_scope_language``): no database access (it also runs on the event loop)."""
        refusal = self.refused[1] if self._refusal_key(data) == self.refused[0] else None
        if error is not None:
            context = commands.error_context(error, data.match.variant)
            return boardviews.answer_of(data, self.user, context, seat_refusal=refusal)
        return boardviews.view_of(data, self.user, seat_refusal=refusal)

    def _render_dots(self) -> str:
        with override_scope_language(self.scope):
            return "".join(
                render_to_string("games/table.html#seat-conn", {"index": index, "online": online, "oob": True})
                for index, online in selectors.seat_presence(match_id=self.match_id, viewer=self.seat_index)
            )


class LobbyConsumer(AsyncWebsocketConsumer):
    """The lobby's lists (open tables, the user's, the turn-based games where it is their move),
    re-rendered for this user whenever a table changes or a turn-based turn passes; on the home page
    (``?only=moves``) the "Your move" list alone."""

    async def connect(self):
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=4401)
            return
        # The home page's socket (``?only=moves``) keeps only its "Your move" list up to date.
        self.only_moves = b"only=moves" in self.scope.get("query_string", b"").split(b"&")
        await self.accept()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        return  # nothing to receive

    async def lobby_changed(self, event):
        html = await database_sync_to_async(self._render)()
        await self.send(text_data=html)

    def _render(self):
        with override_scope_language(self.scope):
            if self.only_moves:
                ctx = {"your_moves": selectors.your_moves(user=self.user), "oob": True}
                return render_to_string("games/your_moves.html", ctx)
            ctx = selectors.lobby_tables(user=self.user)
            ctx["oob"] = True
            return render_to_string("games/lobby.html#lobby-tables", ctx)
