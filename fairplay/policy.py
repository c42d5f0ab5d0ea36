"""Fair play's answers to the game services' questions (``games.guards``), installed by ``fairplay.apps``.

Tournament tables are seated by staff and never ask (``games.services.tables.match_create_seated``):
a block does not keep two players out of a tournament (docs/fair-play.md).
"""

from __future__ import annotations

from django.conf import settings
from django.utils import formats
from django.utils.translation import gettext as _

from fairplay import selectors
from fairplay.models import SanctionKind
from games.guards import Guards


def _until(sanction) -> str:
    return formats.date_format(sanction.ends_at, "DATETIME_FORMAT") if sanction.ends_at else ""


class FairPlayGuards(Guards):
    def seating_refusal(self, *, user, others) -> str | None:
        if selectors.blocked_pair_among(user_id=user.pk, others=others):
            # Translators: said to a player who cannot join a table; it names no one on purpose.
            return _("You cannot sit at this table: you have blocked a player seated there, or they have blocked you.")
        return None

    def rated_refusal(self, *, user) -> str | None:
        bar = selectors.sanction_in_force(user_id=user.pk, kind=SanctionKind.RATED_BAR)
        if bar is None:
            return None
        if bar.ends_at is None:
            return _("You are barred from rated tables. Practice tables are open to you.")
        return _("You are barred from rated tables (until %(until)s). Practice tables are open to you.") % {
            "until": _until(bar)
        }

    def chat_refusal(self, *, user) -> str | None:
        mute = selectors.sanction_in_force(user_id=user.pk, kind=SanctionKind.CHAT_MUTE)
        if mute is None:
            return None
        if mute.ends_at is None:
            return _("Your chat is muted by the moderators.")
        return _("Your chat is muted by the moderators (until %(until)s).") % {"until": _until(mute)}

    def lobby_notice(self, *, user) -> str | None:
        bar = self.rated_refusal(user=user)
        if bar:
            return bar
        warning = selectors.recent_warning(user_id=user.pk, days=settings.RUMMYHUB_ABANDON_WINDOW_DAYS)
        if warning is None:
            return None
        note = _(warning.note) if warning.by_rule else warning.note
        # Translators: %(note)s is the warning's text (the abandon rule's, or a moderator's note).
        return _("You have a warning: %(note)s") % {"note": note} if note else _("You have a warning.")

    def chat_hidden_authors(self, *, viewer_id, match_id) -> frozenset[int] | None:
        if viewer_id is None:
            return frozenset()
        if selectors.table_muted(user_id=viewer_id, match_id=match_id):
            return None
        return selectors.blocks_of(user_id=viewer_id)

    def chat_line_hidden_from(self, *, author_id, match_id) -> frozenset[int]:
        return selectors.table_muters(match_id=match_id) | selectors.blocks_of(user_id=author_id)
