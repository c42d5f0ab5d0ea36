"""Fair play's writes, one per intent: blocks and table mutes, reports, the moderators' actions on a
report (each with its audit entry), lifting a sanction, and the abandon rule.

The rule (docs/fair-play.md): a finished match whose seat a bot was playing at the end
(``Seat.abandoned``: the player timed out turn after turn, or left and did not come back) is one
abandon.  Counting the abandons of the last ``RUMMYHUB_ABANDON_WINDOW_DAYS`` days, the
``RUMMYHUB_ABANDON_WARN_AT``-th warns, and each one after it bars the player from rated tables for
the next period of ``RUMMYHUB_ABANDON_BAR_HOURS`` (the last period repeats).  Staff may lift a bar.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from fairplay import limits, selectors
from fairplay.models import (
    MAX_NOTE,
    MAX_REPORT_DETAILS,
    Abandon,
    AuditAction,
    AuditEntry,
    Block,
    Report,
    ReportReason,
    ReportStatus,
    Sanction,
    SanctionKind,
    TableMute,
)
from games.models import ChatMessage, Match, MatchStatus, Seat
from plumbing import realtime

EVIDENCE_AROUND = 6  # chat lines kept before and after a reported line
EVIDENCE_MATCH_LINES = 30  # the last chat lines of a match reported without a line
MAX_SANCTION_HOURS = 24 * 365


class Refused(Exception):
    """A fair-play action refused: ``code`` stable, ``message`` in the active language."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _limited(user, group: str, rate: str) -> None:
    minutes = limits.wait_minutes(user=user, group=group, rate=rate)
    if minutes is not None:
        raise Refused(
            "rate_limited",
            ngettext(
                "Too many requests. Wait %(minutes)d minute and try again.",
                "Too many requests. Wait %(minutes)d minutes and try again.",
                minutes,
            )
            % {"minutes": minutes},
        )


def _active_player(user_id) -> object:
    target = get_user_model().objects.filter(pk=user_id, is_active=True).first() if user_id else None
    if target is None:
        raise Refused("no_player", _("There is no such player."))
    return target


def _audit(*, action: str, actor=None, subject=None, report=None, sanction=None, note: str = "", now=None):
    return AuditEntry.objects.create(
        at=now or timezone.now(),
        action=action,
        actor=actor,
        subject=subject,
        report=report,
        sanction=sanction,
        note=note[:MAX_NOTE],
    )


# ------------------------------------------------------------------ blocks and mutes
def block_set(*, user, target_id: int, blocked: bool) -> None:
    """``user`` blocks (or unblocks) the player ``target_id``."""
    _limited(user, "fairplay.block", settings.RUMMYHUB_FAIRPLAY_LIMIT)
    target = _active_player(target_id)
    if target.pk == user.pk:
        raise Refused("self", _("You cannot block yourself."))
    if not blocked:
        Block.objects.filter(blocker=user, blocked=target).delete()
        return
    try:
        with transaction.atomic():
            Block.objects.get_or_create(blocker=user, blocked=target)
    except IntegrityError:
        pass  # blocked twice at once: one row


def table_mute_set(*, user, match_id: int, muted: bool) -> None:
    """``user`` hides (or shows again) the chat of the table ``match_id`` (a table they can see)."""
    _limited(user, "fairplay.mute", settings.RUMMYHUB_FAIRPLAY_LIMIT)
    if not Match.objects.filter(pk=match_id).exists():
        raise Refused("no_match", _("There is no such table."))
    if not muted:
        TableMute.objects.filter(user=user, match_id=match_id).delete()
        return
    try:
        with transaction.atomic():
            TableMute.objects.get_or_create(user=user, match_id=match_id)
    except IntegrityError:
        pass


# ------------------------------------------------------------------------- reports
def _line(message: ChatMessage, reported_id: int | None) -> dict:
    return {
        "id": message.pk,
        "user": message.user.username,
        "text": message.text,
        "at": message.created_at.isoformat(),
        "reported": message.pk == reported_id,
    }


def report_create(
    *,
    reporter,
    reason: str,
    details: str = "",
    reported_id: int | None = None,
    match_id: int | None = None,
    message_id: int | None = None,
) -> Report:
    """``reporter`` reports a chat line (``message_id``), a player at a match they shared (``match_id``),
    or a player (``reported_id``, from a profile).  The evidence is copied into the report now."""
    _limited(reporter, "fairplay.report", settings.RUMMYHUB_REPORT_LIMIT)
    if reason not in ReportReason.values:
        raise Refused("bad_reason", _("Choose a reason."))
    details = (details or "").strip()
    if len(details) > MAX_REPORT_DETAILS:
        raise Refused(
            "too_long",
            ngettext(
                "Details are limited to %(n)d character.",
                "Details are limited to %(n)d characters.",
                MAX_REPORT_DETAILS,
            )
            % {"n": MAX_REPORT_DETAILS},
        )
    message = None
    if message_id is not None:
        message = ChatMessage.objects.select_related("user").filter(pk=message_id).first()
        if message is None or not Seat.objects.filter(match_id=message.match_id, user=reporter).exists():
            raise Refused("no_message", _("There is no such chat line at a table of yours."))
        match_id, reported_id = message.match_id, message.user_id
    elif match_id is not None:
        seated = set(Seat.objects.filter(match_id=match_id, user__isnull=False).values_list("user_id", flat=True))
        if reporter.pk not in seated or reported_id not in seated:
            raise Refused("no_match", _("You can report a player of a match only if you both played it."))
    reported = _active_player(reported_id)
    if reported.pk == reporter.pk:
        raise Refused("self", _("You cannot report yourself."))
    evidence: dict = {}
    if match_id is not None:
        evidence["match"] = match_id
        chat = ChatMessage.objects.filter(match_id=match_id).select_related("user")
        if message is not None:
            before = list(chat.filter(pk__lt=message.pk).order_by("-pk")[:EVIDENCE_AROUND])[::-1]
            after = list(chat.filter(pk__gt=message.pk).order_by("pk")[:EVIDENCE_AROUND])
            lines = [*before, message, *after]
        else:
            lines = list(chat.order_by("-pk")[:EVIDENCE_MATCH_LINES])[::-1]
        evidence["chat"] = [_line(m, message.pk if message else None) for m in lines]
    with transaction.atomic():
        report = Report.objects.create(
            reporter=reporter,
            reported=reported,
            reason=reason,
            details=details,
            match_id=match_id,
            chat_message=message,
            evidence=evidence,
        )
        _audit(action=AuditAction.REPORT, actor=reporter, subject=reported, report=report)
    return report


def reports_told(*, user) -> None:
    """``user`` has seen that their handled reports were handled."""
    Report.objects.filter(reporter=user, reporter_told=False).exclude(status=ReportStatus.OPEN).update(
        reporter_told=True
    )


# ------------------------------------------------------------- the moderators' actions
MODERATION = {
    # action: (sanction kind or None, audit action, the report's status)
    "warn": (SanctionKind.WARNING, AuditAction.WARN, ReportStatus.ACTIONED),
    "mute": (SanctionKind.CHAT_MUTE, AuditAction.MUTE, ReportStatus.ACTIONED),
    "bar": (SanctionKind.RATED_BAR, AuditAction.BAR, ReportStatus.ACTIONED),
    "unfounded": (None, AuditAction.UNFOUNDED, ReportStatus.UNFOUNDED),
}


def report_handle(*, report_id: int, staff, action: str, hours: int | None = None, note: str = "", now=None) -> Report:
    """Staff handle an open report: warn, mute the chat or bar from rated tables for ``hours`` (a
    mute or bar without hours lasts until lifted), or close it as unfounded.  One audit entry."""
    if not getattr(staff, "is_staff", False):
        raise Refused("not_staff", _("Only staff can handle reports."))
    if action not in MODERATION:
        raise Refused("bad_action", _("Unknown action."))
    if hours is not None and not 1 <= hours <= MAX_SANCTION_HOURS:
        raise Refused("bad_hours", _("A period is 1 to 8,760 hours."))
    note = (note or "").strip()
    if len(note) > MAX_NOTE:
        raise Refused("too_long", _("The note is too long."))
    now = now or timezone.now()
    kind, audit_action, status = MODERATION[action]
    with transaction.atomic():
        report = Report.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise Refused("no_report", _("There is no such report."))
        if report.status != ReportStatus.OPEN:
            raise Refused("handled", _("This report was handled already."))
        sanction = None
        if kind is not None:
            sanction = Sanction.objects.create(
                user_id=report.reported_id,
                kind=kind,
                note=note,
                starts_at=now,
                ends_at=now + timedelta(hours=hours) if hours and kind != SanctionKind.WARNING else None,
                created_by=staff,
            )
        if kind == SanctionKind.CHAT_MUTE:
            _tell_muted(sanction)
        report.status = status
        report.handled_at = now
        report.save(update_fields=["status", "handled_at"])
        _audit(
            action=audit_action,
            actor=staff,
            subject=report.reported,
            report=report,
            sanction=sanction,
            note=note,
            now=now,
        )
    return report


def _tell_muted(sanction: Sanction) -> None:
    """The muted player's open table pages show the mute at once, not at their next chat line or
    reload: their chat's slot becomes the notice."""
    until = sanction.ends_at.isoformat() if sanction.ends_at else ""
    _tell_table_pages(sanction.user_id, "fairplay/chat_muted.html", {"until": until})


def _tell_unmuted(user_id: int) -> None:
    """The player's last mute was lifted: their open table pages say so at once, and each fetches its
    chat again (``?part=side``, relative to the table's page; the chat's form is that table's)."""
    _tell_table_pages(user_id, "fairplay/chat_unmuted.html", {})


def _tell_table_pages(user_id: int, template: str, context: dict) -> None:
    """A partial for the chat's slot of the player's open table pages, once the transaction commits: sent
    over their user's group (which a table socket joins; the presence socket of the other pages, with no
    chat, skips it: ``pages``)."""
    realtime.broadcast_on_commit(
        realtime.user_group(user_id),
        {"type": "user.fragment", "template": template, "context": context, "pages": "table"},
    )


def sanction_lift(*, sanction_id: int, staff, note: str = "", now=None) -> Sanction:
    """Staff lift a sanction (a bar of the abandon rule, a mute): it ends now.  One audit entry."""
    if not getattr(staff, "is_staff", False):
        raise Refused("not_staff", _("Only staff can lift a sanction."))
    now = now or timezone.now()
    with transaction.atomic():
        sanction = Sanction.objects.select_for_update().filter(pk=sanction_id).first()
        if sanction is None:
            raise Refused("no_sanction", _("There is no such sanction."))
        if sanction.lifted_at is not None:
            return sanction
        sanction.lifted_at = now
        sanction.save(update_fields=["lifted_at"])
        if sanction.kind == SanctionKind.CHAT_MUTE and not selectors.sanction_in_force(
            user_id=sanction.user_id, kind=SanctionKind.CHAT_MUTE, now=now
        ):
            _tell_unmuted(sanction.user_id)
        _audit(
            action=AuditAction.LIFT,
            actor=staff,
            subject=sanction.user,
            sanction=sanction,
            note=note[:MAX_NOTE],
            now=now,
        )
    return sanction


# ---------------------------------------------------------------------- the abandon rule
# Stored in English, shown translated (templates/fairplay/standing.html translates them).
RULE_WARNING = gettext_noop(
    "You left several matches for a bot to finish. If you leave more, you will be barred from rated tables for a while."
)
RULE_BAR = gettext_noop("You left too many matches for a bot to finish: you are barred from rated tables for a while.")


def bar_hours(count: int) -> int | None:
    """The bar earned by the ``count``-th abandon in the window (None: no bar)."""
    step = count - settings.RUMMYHUB_ABANDON_WARN_AT - 1
    if step < 0:
        return None
    ladder = settings.RUMMYHUB_ABANDON_BAR_HOURS
    return ladder[min(step, len(ladder) - 1)]


def abandons_record(*, match_id: int, now=None) -> list[Abandon]:
    """Count the abandons of a finished match (once; ``Seat.abandoned``) and apply the rule to each."""
    now = now or timezone.now()
    match = Match.objects.filter(pk=match_id, status=MatchStatus.FINISHED).first()
    if match is None:
        return []
    at = match.finished_at or now
    seats = list(Seat.objects.filter(match=match, user__isnull=False).select_related("user"))
    made = []
    for seat in seats:
        # Only a match with someone else to let down counts: a table of bots is left at no one's cost.
        if not seat.abandoned or len(seats) < 2:
            continue
        with transaction.atomic():
            abandon, created = Abandon.objects.get_or_create(user=seat.user, match=match, defaults={"at": at})
            if not created:
                continue
            made.append(abandon)
            _apply_rule(seat.user, at)
    return made


def _apply_rule(user, now) -> None:
    count = selectors.abandons_in_window(user_id=user.pk, now=now, days=settings.RUMMYHUB_ABANDON_WINDOW_DAYS)
    if count == settings.RUMMYHUB_ABANDON_WARN_AT:
        sanction = Sanction.objects.create(
            user=user, kind=SanctionKind.WARNING, note=RULE_WARNING, by_rule=True, starts_at=now
        )
        _audit(action=AuditAction.RULE_WARN, subject=user, sanction=sanction, note=f"{count} abandons", now=now)
        return
    hours = bar_hours(count)
    if hours is None:
        return
    current = selectors.sanction_in_force(user_id=user.pk, kind=SanctionKind.RATED_BAR, now=now)
    starts = now if current is None or current.ends_at is None else max(now, current.ends_at)
    sanction = Sanction.objects.create(
        user=user,
        kind=SanctionKind.RATED_BAR,
        note=RULE_BAR,
        by_rule=True,
        starts_at=now,
        ends_at=starts + timedelta(hours=hours),
    )
    _audit(action=AuditAction.RULE_BAR, subject=user, sanction=sanction, note=f"{count} abandons, {hours} h", now=now)
