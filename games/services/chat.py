"""The table chat."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import guards
from games.models import (
    ChatMessage,
)
from games.services.refusals import ActionRefused
from games.services.write import seat_of, writing
from plumbing import realtime

MAX_CHAT_LENGTH = 500
CHAT_RATE = (5, 10)  # at most 5 messages per 10 seconds per player


def chat_post(*, match_id: int, user, text: str) -> ChatMessage:
    text = (text or "").strip()
    if not text:
        raise ActionRefused("empty_chat", _("Write something first."))
    if len(text) > MAX_CHAT_LENGTH:
        raise ActionRefused(
            "chat_too_long",
            ngettext(
                "Messages are limited to %(n)d character.", "Messages are limited to %(n)d characters.", MAX_CHAT_LENGTH
            )
            % {"n": MAX_CHAT_LENGTH},
        )
    with writing(match_id) as write:
        match = write.match
        if seat_of(match, user) is None:
            raise ActionRefused("not_seated", _("Only players at the table can chat."))
        refusal = guards.current().chat_refusal(user=user)
        if refusal:
            raise ActionRefused("chat_muted", refusal)
        count, seconds = CHAT_RATE
        recent = ChatMessage.objects.filter(
            match=match, user=user, created_at__gte=timezone.now() - timedelta(seconds=seconds)
        ).count()
        if recent >= count:
            raise ActionRefused("chat_rate", _("You are sending messages too fast; wait a few seconds."))
        message = ChatMessage.objects.create(match=match, user=user, text=text)
        realtime.broadcast_on_commit(
            realtime.table_group(match.pk), {"type": "table.chat", "id": match.pk, "message": message.pk}
        )
        return message
