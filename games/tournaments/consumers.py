"""The tournament page's socket: pushes the re-rendered status line, standings, entrants and rounds (and a
duplicate tournament's deals) and the viewer's own "Your tournament tables" on "tournament.changed" — each
only when it changed since this socket's last push, so that a part the page has opened (a round's deals)
stays as it is."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from games.tournaments import selectors
from plumbing.realtime import override_scope_language, tournament_group


class TournamentConsumer(AsyncWebsocketConsumer):
    """Anyone who may see the public page may listen; nothing is received."""

    async def connect(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        exists = await database_sync_to_async(selectors.get_tournament)(self.tournament_id)
        if exists is None:
            await self.close(code=4404)
            return
        self.group = tournament_group(self.tournament_id)
        self.sent: dict[str, str] = {}  # partial name -> the markup last pushed
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        return  # a push-only socket

    async def tournament_changed(self, event):
        html = await database_sync_to_async(self._render)()
        if html:
            await self.send(text_data=html)

    def _render(self) -> str:
        tournament = selectors.get_tournament(self.tournament_id)
        if tournament is None:
            return ""
        user = self.scope.get("user")
        context = {**selectors.tournament_page(tournament, user), "user": user, "oob": True}
        names = ["status", "standings", "entrants", "rounds", *(["deals"] if tournament.duplicate else [])]
        templates = [f"games/tournaments/detail.html#{name}" for name in names]
        templates.append("games/tournaments/notice.html#tournament-tables-notice")  # this viewer's own tables
        changed = []
        with override_scope_language(self.scope):
            for name in templates:
                html = render_to_string(name, context)
                if self.sent.get(name) != html:
                    self.sent[name] = html
                    changed.append(html)
        return "".join(changed)
