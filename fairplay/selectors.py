"""Fair play's reads: who blocks whom, a player's sanctions in force, the figures of a profile, a
player's own fair-play page (never who reported them), a report's evidence."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from fairplay import collusion
from fairplay.collusion import Table
from fairplay.models import Abandon, Block, Report, ReportStatus, Sanction, SanctionKind, TableMute
from games.models import Match, MatchStatus, Seat


def blocked_pair_among(*, user_id: int, others: Iterable[int]) -> bool:
    """Whether ``user_id`` blocks, or is blocked by, any of ``others``."""
    others = [o for o in others if o is not None and o != user_id]
    if not others:
        return False
    return Block.objects.filter(
        Q(blocker_id=user_id, blocked_id__in=others) | Q(blocked_id=user_id, blocker_id__in=others)
    ).exists()


def blocks_of(*, user_id: int) -> frozenset[int]:
    """Everyone ``user_id`` blocks or is blocked by (their chat is hidden both ways)."""
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list("blocker_id", "blocked_id")
    return frozenset(b if a == user_id else a for a, b in rows)


def is_blocking(*, user, other) -> bool:
    return Block.objects.filter(blocker=user, blocked=other).exists()


def table_muted(*, user_id: int, match_id: int) -> bool:
    return TableMute.objects.filter(user_id=user_id, match_id=match_id).exists()


def table_muters(*, match_id: int) -> frozenset[int]:
    """Everyone who muted this table's chat."""
    return frozenset(TableMute.objects.filter(match_id=match_id).values_list("user_id", flat=True))


def sanction_in_force(*, user_id: int, kind: str, now=None) -> Sanction | None:
    """The sanction of ``kind`` in force for ``user_id`` at ``now`` that ends last (None: none)."""
    now = now or timezone.now()
    return (
        Sanction.objects.filter(user_id=user_id, kind=kind, lifted_at__isnull=True, starts_at__lte=now)
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now))
        .order_by("-ends_at")
        .first()
    )


def recent_warning(*, user_id: int, days: int, now=None) -> Sanction | None:
    """The newest warning of ``user_id`` given in the last ``days`` days and not lifted."""
    now = now or timezone.now()
    return (
        Sanction.objects.filter(
            user_id=user_id, kind=SanctionKind.WARNING, lifted_at__isnull=True, starts_at__gt=now - timedelta(days=days)
        )
        .order_by("-starts_at")
        .first()
    )


def abandons_in_window(*, user_id: int, now=None, days: int) -> int:
    now = now or timezone.now()
    return Abandon.objects.filter(user_id=user_id, at__gt=now - timedelta(days=days), at__lte=now).count()


def games_figures(*, player) -> dict[str, int]:
    """A profile's figures: matches finished at the table and matches left to a bot."""
    seats = Seat.objects.filter(user=player, match__status=MatchStatus.FINISHED)
    abandoned = seats.filter(abandoned=True).count()
    return {"finished": seats.count() - abandoned, "abandoned": abandoned}


def own_standing(*, user, now=None) -> dict:
    """A player's own fair-play page: their sanctions (in force and past), their reports' status (theirs
    only), the players they block.  Nothing here names anyone who reported them."""
    now = now or timezone.now()
    sanctions = list(Sanction.objects.filter(user=user).order_by("-starts_at")[:20])
    for s in sanctions:
        s.in_force = s.lifted_at is None and s.starts_at <= now and (s.ends_at is None or s.ends_at > now)
    return {
        "sanctions": sanctions,
        "reports": list(Report.objects.filter(reporter=user).select_related("reported").order_by("-created_at")[:20]),
        "blocks": list(Block.objects.filter(blocker=user).select_related("blocked").order_by("-created_at")),
        "rated_bar": sanction_in_force(user_id=user.pk, kind=SanctionKind.RATED_BAR, now=now),
        "chat_mute": sanction_in_force(user_id=user.pk, kind=SanctionKind.CHAT_MUTE, now=now),
    }


def handled_reports_untold(*, user) -> int:
    """How many of ``user``'s reports were handled since they last looked."""
    return Report.objects.filter(reporter=user, reporter_told=False).exclude(status=ReportStatus.OPEN).count()


def collusion_tables(*, since=None) -> list[Table]:
    """Finished matches of 3–5 seats (not practice tables) as the collusion statistic reads them: the
    human seats, each one's placement among all seats (bots included), the winners."""
    matches = Match.objects.filter(status=MatchStatus.FINISHED, practice=False, seats_count__gte=3, seats_count__lte=5)
    if since is not None:
        matches = matches.filter(finished_at__gte=since)
    rows: dict[int, list] = {}
    for match_id, seats_count, user_id, total, winner in Seat.objects.filter(
        match__in=matches, final_total__isnull=False
    ).values_list("match_id", "match__seats_count", "user_id", "final_total", "is_winner"):
        rows.setdefault(match_id, []).append((seats_count, user_id, total, winner))
    tables = []
    for match_id, seats in rows.items():
        place = collusion.placements([total for _k, _u, total, _w in seats])
        humans = [(u, p, w) for (_k, u, _t, w), p in zip(seats, place, strict=True) if u is not None]
        tables.append(
            Table(
                match_id=match_id,
                players=tuple(u for u, _p, _w in humans),
                placement={u: p for u, p, _w in humans},
                winners=frozenset(u for u, _p, w in humans if w),
                seats=seats[0][0],
            )
        )
    return tables


def collusion_leads(*, since=None) -> list[collusion.PairLead]:
    return collusion.find_leads(collusion_tables(since=since))
