"""What the notifications app does when the game announces something (games.signals; connected in
notifications.apps).  Each receiver only stores rows (services.notice_create): the signal is sent
inside a move's request or the clock's step, which must never wait for a push service or a mail
server, and never fail because of a notice: an error is logged and the move stands."""

from __future__ import annotations

import logging

from notifications import services
from notifications.models import NoticeKind

logger = logging.getLogger(__name__)


def on_your_move(sender, *, match_id, user_id, deadline=None, turn_based=False, **kwargs) -> None:
    # A real-time table: the player is at it; a hidden tab tells them itself (static/js/notify.js).
    if not turn_based:
        return
    try:
        services.notice_create(user_id=user_id, match_id=match_id, kind=NoticeKind.YOUR_MOVE, deadline=deadline)
    except Exception:
        logger.exception("no 'your move' notice for match %s", match_id)


def on_move_reminder(sender, *, match_id, user_id, deadline=None, **kwargs) -> None:
    try:
        services.notice_create(user_id=user_id, match_id=match_id, kind=NoticeKind.REMINDER, deadline=deadline)
    except Exception:
        logger.exception("no reminder notice for match %s", match_id)


def on_match_finished(sender, *, match, **kwargs) -> None:
    try:
        services.notices_for_finished(match=match)
    except Exception:
        logger.exception("no 'match ended' notices for match %s", match.pk)


def on_logged_out(sender, *, request=None, user=None, **kwargs) -> None:
    """Log-out forgets the device whose "Notify me" was pressed in this session."""
    if request is None or user is None:
        return
    device = request.session.get(services.SESSION_DEVICE)
    if isinstance(device, int):
        services.subscription_delete(user_id=user.pk, subscription_id=device)
