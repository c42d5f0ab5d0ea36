"""Reads of the match history feature: lists, match pages, replays, player statistics, leaderboards.

Every function returns plain data for the templates (no querysets in
templates).  One door to a match: ``match_for_viewer`` answers "missing" and
"private and not yours" the same way (404).  Live matches never show a hand
or a seed: the match page shows only finished rounds (by their scores) and
the replay is offered for finished matches only.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, time
from typing import Any
from urllib.parse import quote

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.board import words
from games.engine import scoring
from games.engine.gin import GinMatch, gin_final_totals
from games.history import display, ratings
from games.history.charts import COLOURS, SHAPES, cumulative_chart, marker_svg
from games.history.models import PlayerRating, RatedMatch
from games.models import Event, Match, MatchStatus, Round, RoundScore, Seat, Variant
from games.replay import iter_round_states
from games.variants import spec_for

PAGE_SIZE = 25
LIVE_STATUSES = (MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS)
LIST_FIELDS = (
    "id",
    "variant",
    "status",
    "is_private",
    "seats_count",
    "round_number",
    "created_at",
    "started_at",
    "finished_at",
)


# ------------------------------------------------------------------ access


def _seated(user) -> Exists:
    return Exists(Seat.objects.filter(match=OuterRef("pk"), user=user))


def visible_matches(user) -> QuerySet[Match]:
    """Matches this viewer may look at: public ones, and private ones they played in (staff: all)."""
    qs = Match.objects.all()
    if getattr(user, "is_staff", False):
        return qs
    if user is None or not user.is_authenticated:
        return qs.filter(is_private=False)
    return qs.filter(Q(is_private=False) | Q(_seated(user)))


def match_for_viewer(*, match_id: int, user) -> Match:
    """The one door to a match in the history: missing and not-yours answer the same (404)."""
    match = visible_matches(user).filter(pk=match_id).exclude(status=MatchStatus.OPEN).first()
    if match is None:
        raise Http404
    return match


# ------------------------------------------------------------------ the list


def _list_seats(match_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """The seats of a page of matches in one query (plain values: no model instances to build)."""
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = (
        Seat.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "index")
        .values_list("match_id", "index", "user__username", "bot_policy", "bot_name", "final_total", "is_winner")
    )
    for match_id, index, username, bot_policy, bot_name, total, winner in rows:
        seats[match_id].append(
            {
                "index": index,
                "username": username or "",
                "is_bot": bool(bot_policy),
                "name": (bot_name or "Bot") if bot_policy else (username or ""),
                "total": total,
                "winner": winner,
            }
        )
    return seats


def _day_start(day) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def filtered_matches(*, user, filters: dict[str, Any]) -> QuerySet[Match]:
    statuses = [MatchStatus.FINISHED, *LIVE_STATUSES] if filters.get("live") else [MatchStatus.FINISHED]
    qs = visible_matches(user).filter(status__in=statuses)
    if filters.get("variant"):
        qs = qs.filter(variant=filters["variant"])
    # "Played by": an IN over the seats of that user (their seat index), not a per-match subquery.
    if filters.get("player"):
        player = get_user_model().objects.filter(username__iexact=filters["player"]).values("pk")
        qs = qs.filter(pk__in=Seat.objects.filter(user__in=player).values("match_id"))
    if filters.get("mine") and user.is_authenticated:
        qs = qs.filter(pk__in=Seat.objects.filter(user=user).values("match_id"))
    when = "finished_at" if not filters.get("live") else "started_at"
    if filters.get("date_from"):
        qs = qs.filter(**{f"{when}__gte": _day_start(filters["date_from"])})
    if filters.get("date_to"):
        qs = qs.filter(**{f"{when}__lt": _day_start(filters["date_to"]) + timezone.timedelta(days=1)})
    if filters.get("tournament"):
        # A tournament's matches: Match ← TournamentTable.match → TournamentRound → Tournament.
        qs = qs.filter(tournament_table__round__tournament=filters["tournament"])
    if filters.get("live"):
        return qs.order_by(F("finished_at").desc(nulls_first=True), "-started_at", "-pk")
    return qs.order_by("-finished_at", "-pk")


def match_rows(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One list row per match (``matches``: ``values(*LIST_FIELDS)``): date, variant, players with totals
    and the winner, rounds, duration, and the links (reversed once per page, not once per row)."""
    seats = _list_seats([m["id"] for m in matches])
    variants = dict(Variant.choices)
    match_url = reverse("history:match", args=[0])[: -len("0/")]
    profile_url = reverse("profile", args=["x"])[: -len("x/")]
    rows = []
    for m in matches:
        live = m["status"] != MatchStatus.FINISHED
        players = []
        for seat in seats.get(m["id"], []):
            players.append(
                {
                    **seat,
                    "total": None if live else seat["total"],
                    "winner": (not live) and seat["winner"],
                    "url": f"{profile_url}{quote(seat['username'])}/" if seat["username"] else "",
                }
            )
        seconds = None
        if m["started_at"] and m["finished_at"]:
            seconds = (m["finished_at"] - m["started_at"]).total_seconds()
        rows.append(
            {
                "id": m["id"],
                "url": f"{match_url}{m['id']}/",
                "date": m["finished_at"] or m["started_at"] or m["created_at"],
                "variant": variants.get(m["variant"], m["variant"]),
                "players": players,
                "rounds": m["round_number"],
                "duration": display.duration_text(seconds) if not live else _("in play"),
                "live": live,
                "private": m["is_private"],
            }
        )
    return rows


def history_page(*, user, filters: dict[str, Any], page: Any) -> dict[str, Any]:
    qs = filtered_matches(user=user, filters=filters).values(*LIST_FIELDS)
    paginator = Paginator(qs, PAGE_SIZE)
    page_obj = paginator.get_page(page)
    return {"page": page_obj, "rows": match_rows(list(page_obj.object_list))}


def player_suggestions(*, prefix: str, limit: int = 10) -> list[str]:
    prefix = (prefix or "").strip()
    if not prefix:
        return []
    users = get_user_model().objects.filter(username__istartswith=prefix, is_active=True)
    return list(users.order_by("username").values_list("username", flat=True)[:limit])


# ------------------------------------------------------------------ the match page


@dataclass
class SeatRow:
    index: int
    name: str
    username: str
    is_bot: bool
    role: str
    final_total: int | None
    is_winner: bool
    shape: str
    colour: str
    rating_change: float | None = None

    @property
    def marker(self):
        return marker_svg(self.index)


def _seats(match: Match) -> list[SeatRow]:
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    return [
        SeatRow(
            index=s.index,
            name=s.display_name or _("Seat %(n)d") % {"n": s.index + 1},
            username=s.user.username if s.user_id else "",
            is_bot=s.is_bot,
            role=s.role,
            final_total=s.final_total if match.status == MatchStatus.FINISHED else None,
            is_winner=s.is_winner and match.status == MatchStatus.FINISHED,
            shape=SHAPES[s.index % len(SHAPES)],
            colour=COLOURS[s.index % len(COLOURS)],
        )
        for s in seats
    ]


def _finished_rounds(match: Match) -> list[Round]:
    return list(
        Round.objects.filter(match=match, finished_at__isnull=False)
        .defer("setup", "seed")
        .prefetch_related(Prefetch("scores", queryset=RoundScore.objects.order_by("seat")))
        .order_by("number")
    )


def _name(seats: list[SeatRow], index: Any) -> str:
    if isinstance(index, int) and 0 <= index < len(seats):
        return seats[index].name
    return ""


def round_table(seats: list[SeatRow], rounds: list[Round]) -> list[dict[str, Any]]:
    """Each finished round: who knocked / went out / won, hand points, scores with reasons, running totals."""
    running = [0] * len(seats)
    out = []
    for rnd in rounds:
        by_seat = {sc.seat: sc for sc in rnd.scores.all()}
        winners = [w for w in (rnd.winners or []) if isinstance(w, int)]
        cells = []
        for seat in seats:
            sc = by_seat.get(seat.index)
            score = sc.score if sc else 0
            running[seat.index] += score
            cells.append(
                {
                    "hand_points": sc.hand_points if sc else None,
                    "score": score,
                    "reasons": [words.reason_text(r) for r in (sc.reasons if sc else [])],
                    "total": running[seat.index],
                    "won": seat.index in winners,
                    "knocked": rnd.knocker == seat.index,
                }
            )
        out.append(
            {
                "number": rnd.number,
                "dealer": _name(seats, rnd.dealer),
                "kind": rnd.result_kind,
                "kind_text": words.result_text(rnd.result_kind),
                "knocker": _name(seats, rnd.knocker),
                "winners": [_name(seats, w) for w in winners],
                "cells": cells,
                "extra": _extra_outcome(rnd.outcome),
            }
        )
    return out


def _extra_outcome(outcome: Any) -> list[tuple[str, str]]:
    """What a Gin hand's outcome adds to the round row: both deadwoods, lay-offs, a multiplier, big gin."""
    if not isinstance(outcome, dict):
        return []
    extra = []
    if outcome.get("knocker_deadwood") is not None:
        extra.append((_("knocker's deadwood"), str(outcome["knocker_deadwood"])))
    if outcome.get("defender_deadwood") is not None:
        extra.append((_("defender's deadwood"), str(outcome["defender_deadwood"])))
    if isinstance(outcome.get("layoffs"), list) and outcome["layoffs"]:
        extra.append((_("cards laid off"), str(len(outcome["layoffs"]))))
    if isinstance(outcome.get("multiplier"), int) and outcome["multiplier"] > 1:
        extra.append((_("multiplier"), f"×{outcome['multiplier']}"))
    if outcome.get("big_gin") is True:
        extra.append((_("big gin"), _("yes")))
    return extra


def end_bonuses(match: Match, seats: list[SeatRow], rounds: list[Round]) -> list[dict[str, Any]]:
    """The end-of-match bonuses per seat, computed by the engine's scoring functions (RULES B.8, C/D)."""
    if match.status != MatchStatus.FINISHED:
        return []
    n = len(seats)
    scores = [0] * n
    won = [0] * n
    for rnd in rounds:
        for sc in rnd.scores.all():
            if 0 <= sc.seat < n:
                scores[sc.seat] += sc.score
        for w in rnd.winners or []:
            if isinstance(w, int) and 0 <= w < n:
                won[w] += 1
    out = []
    if match.variant == Variant.MANIPULATION:
        rules = spec_for(match.variant).rules(match.options, match.seats_count)
        totals = scoring.manipulation_final_totals(scores, won, rules)
        for seat in seats:
            i = seat.index
            game = scoring.manipulation_final_totals([scores[i]], [0], rules)[0] - scores[i]
            rounds_part = totals[i] - scores[i] - game
            parts = []
            if game:
                parts.append(_("game bonus %(p)d (reached %(t)d)") % {"p": game, "t": rules.game_target})
            if rounds_part:
                parts.append(
                    ngettext("%(w)d round won × %(b)d = %(p)d", "%(w)d rounds won × %(b)d = %(p)d", won[i])
                    % {"w": won[i], "b": rules.round_won_bonus, "p": rounds_part}
                )
            out.append(
                {"name": seat.name, "score": scores[i], "parts": parts, "total": totals[i], "winner": seat.is_winner}
            )
        return out
    gin = _gin_bonuses(match, seats)
    if gin is not None:
        return gin
    # Otherwise: the stored final totals with bonuses, against the sum of the round scores.
    for seat in seats:
        total = seat.final_total if seat.final_total is not None else scores[seat.index]
        bonus = total - scores[seat.index]
        parts = [_("game, box and shutout bonuses %(p)d") % {"p": bonus}] if bonus else []
        out.append(
            {"name": seat.name, "score": scores[seat.index], "parts": parts, "total": total, "winner": seat.is_winner}
        )
    return out


def _gin_bonuses(match: Match, seats: list[SeatRow]) -> list[dict[str, Any]] | None:
    """Gin (C.10, D.1.8): box bonuses and the game bonus (doubled for a shutout), from the engine's GinMatch."""
    tally = (match.state or {}).get("tally")
    if match.variant == Variant.MANIPULATION or not isinstance(tally, dict):
        return None
    try:
        t = GinMatch.from_dict(tally)
        totals = t.final_totals()
        if t.rules.variant == "hollywood":
            boxes_only = None
        else:
            # The same end-of-match function with an unreachable target: box bonuses alone.
            boxes_only = gin_final_totals(t.scores, t.hands_won, t.rules, boxes=t.boxes, target=10**9)
    except Exception:  # a tally of another shape: fall back to the stored totals
        return None
    out = []
    for seat in seats:
        i = seat.index
        parts = []
        if boxes_only is None:
            if totals[i] != t.scores[i]:
                parts.append(
                    _("the three games (a hand counts in up to three) and their bonuses %(p)d")
                    % {"p": totals[i] - t.scores[i]}
                )
        else:
            box = boxes_only[i] - t.scores[i]
            game = totals[i] - boxes_only[i]
            if box:
                parts.append(
                    ngettext("%(n)d box × %(b)d = %(p)d", "%(n)d boxes × %(b)d = %(p)d", t.boxes[i])
                    % {"n": t.boxes[i], "b": t.rules.box_bonus, "p": box}
                )
            if game:
                parts.append(_("game bonus %(p)d") % {"p": game})
        out.append(
            {"name": seat.name, "score": t.scores[i], "parts": parts, "total": totals[i], "winner": seat.is_winner}
        )
    return out


def chart_for(seats: list[SeatRow], table: list[dict[str, Any]]):
    cumulative = [[row["cells"][s.index]["total"] for row in table] for s in seats]
    return cumulative_chart(
        [s.name for s in seats],
        cumulative,
        title=_("Cumulative score after each round"),
        desc=_("One line per player; each player has a marker of its own shape, and the name at the end of the line."),
        x_label=_("Round"),
        y_label=_("Score"),
    )


def match_detail(*, match: Match) -> dict[str, Any]:
    seats = _seats(match)
    rounds = _finished_rounds(match)
    table = round_table(seats, rounds)
    rated = RatedMatch.objects.filter(match=match).first()
    if rated is not None:
        for change in rated.changes:
            i = change.get("seat")
            if isinstance(i, int) and 0 <= i < len(seats) and not seats[i].is_bot:
                seats[i].rating_change = change["after"][2] - change["before"][2]
    return {
        "match": match,
        "finished": match.status == MatchStatus.FINISHED,
        "seats": seats,
        "options": words.options_text(match.variant, match.options or {}),
        "rounds": table,
        "bonuses": end_bonuses(match, seats, rounds),
        "chart": chart_for(seats, table) if table else None,
        "duration": display.duration_text(
            (match.finished_at - match.started_at).total_seconds() if match.finished_at and match.started_at else None
        ),
    }


# ------------------------------------------------------------------ the replay


def replay_index(match: Match) -> list[tuple[int, int]]:
    """``[(round number, number of actions)]``: round r has 1 + actions steps (the deal, then each action)."""
    counts = dict(
        Event.objects.filter(match=match, kind="action")
        .values("round_number")
        .annotate(n=Count("id"))
        .values_list("round_number", "n")
    )
    numbers = Round.objects.filter(match=match).order_by("number").values_list("number", flat=True)
    return [(number, counts.get(number, 0)) for number in numbers]


def locate_step(index: list[tuple[int, int]], step: int) -> tuple[int, int, int]:
    """``(round number, step within the round, clamped global step)``; step 0 of a round is the deal."""
    total = sum(1 + n for _r, n in index)
    step = max(0, min(step, total - 1))
    first = 0
    for number, n in index:
        if step < first + 1 + n:
            return number, step - first, step
        first += 1 + n
    raise Http404  # a match without rounds has nothing to replay


def _table_melds(state) -> list[list[Any]]:
    return [list(m) for m in getattr(state, "table", ()) or ()]


def _meld_view(melds: list[list[Any]], before: list[list[Any]] | None) -> list[dict[str, Any]]:
    """The table's melds with the changes of this step: cards added, melds new or rearranged."""
    before_ids = {c.id for m in (before or []) for c in m}
    before_sets = {frozenset(c.id for c in m) for m in (before or [])}
    out = []
    for meld in melds:
        ids = frozenset(c.id for c in meld)
        cards = [
            {**display.card_face(f"{c.code}.{c.deck}"), "added": before is not None and c.id not in before_ids}
            for c in meld
        ]
        status = ""
        if before is not None and ids not in before_sets:
            status = "rearranged" if ids & before_ids else "new"
        out.append({"cards": cards, "status": status})
    return out


def replay_step(*, match: Match, step: int) -> dict[str, Any]:
    """The table as it was at ``step`` (every hand revealed; finished matches only)."""
    if match.status != MatchStatus.FINISHED:
        raise Http404
    index = replay_index(match)
    number, k, step = locate_step(index, step)

    rnd = Round.objects.get(match=match, number=number)
    previous = state = event = None
    for i, (ev, st) in enumerate(iter_round_states(match, rnd)):
        previous, state, event = state, st, ev
        if i == k:
            break
    seats = _seats(match)
    total = sum(1 + n for _r, n in index)
    spec = spec_for(match.variant)
    acting = spec.acting_seats(state)
    actor = event.seat if event is not None else None
    if event is None:
        text = _("Round %(n)d dealt.") % {"n": number}
    else:
        text = words.event_sentence(event.summary, _name(seats, event.seat), event.action)
    hands = _hands(spec, state)
    before = _hands(spec, previous) if previous is not None else None
    return {
        "step": step,
        "total": total,
        "last": total - 1,
        "prev": max(0, step - 1),
        "next": min(total - 1, step + 1),
        "round": number,
        "round_step": k,
        "rounds": [{"number": r, "first": sum(1 + n for _r, n in index[:i])} for i, (r, _n) in enumerate(index)],
        "text": text,
        "actor": actor,
        "hands": [
            {
                "seat": seats[i] if i < len(seats) else None,
                "cards": [
                    {
                        **display.card_face(c.id),
                        "new": before is not None and actor == i and c.id not in {x.id for x in before[i]},
                    }
                    for c in hand
                ],
                "acting": i in acting,
                "points": sum(c.points() for c in hand),
            }
            for i, hand in enumerate(hands)
        ],
        "melds": _meld_view(_table_melds(state), _table_melds(previous) if previous is not None else None),
        "discard": [display.card_face(_card_ref(spec, c)) for c in getattr(state, "discard", ()) or ()],
        "has_discard": hasattr(state, "discard"),
        "stock": len(getattr(state, "stock", ()) or ()),
        "phase": getattr(state, "phase", ""),
        "result": _step_result(spec, state, seats),
    }


def _hands(spec, state) -> list[list[Any]]:
    """Every seat's hand as engine ``Card`` objects (the engine's own ``hand_of``: Gin keeps indices)."""
    count = len(getattr(state, "hands", ()) or ())
    return [list(spec.engine.hand_of(state, i)) for i in range(count)]


def _card_ref(spec, card: Any) -> str:
    if isinstance(card, int):
        return spec.engine.IDS[card]
    return getattr(card, "id", str(card))


def _step_result(spec, state, seats: list[SeatRow]) -> dict[str, Any] | None:
    """At a round's last step: how it ended and what each seat scored (the engine's outcome)."""
    if not spec.is_round_over(state):
        return None
    out = spec.engine.outcome(state) or {}
    scores = out.get("scores") or []

    def faces(cards: Any) -> list[dict[str, Any]]:
        return [display.card_face(_card_ref(spec, c)) for c in cards or [] if isinstance(c, (str, int))]

    layout = []
    for role, seat in (("knocker", out.get("knocker")), ("defender", out.get("defender"))):
        melds = out.get(f"{role}_melds")
        if seat is None or not isinstance(melds, list):
            continue
        layout.append(
            {
                "name": _name(seats, seat),
                "melds": [faces(m) for m in melds if isinstance(m, list)],
                "deadwood": faces(out.get(f"{role}_deadwood_cards")),
            }
        )
    layoffs = [lay.get("card") for lay in out.get("layoffs") or [] if isinstance(lay, dict)]
    return {
        "kind": words.result_text(out.get("kind") or out.get("end_reason") or ""),
        "scores": [(_name(seats, i), score) for i, score in enumerate(scores)],
        "layout": layout,
        "layoffs": faces(layoffs),
    }


# ------------------------------------------------------------------ players


def _rank_row(row: PlayerRating) -> dict[str, Any]:
    return {
        "ordinal": row.ordinal,
        "mu": row.mu,
        "sigma": row.sigma,
        "matches": row.matches,
        "provisional": ratings.is_provisional(row.sigma),
    }


def player_stats(*, player, viewer) -> dict[str, Any]:
    """Per variant: played, won, win rate, average round score, knocks, undercuts, gins, going-outs, rating."""
    # Only matches the viewer may see count: a private match's result stays with its players and staff.
    seats = list(
        Seat.objects.filter(
            user=player, match__status=MatchStatus.FINISHED, match__in=visible_matches(viewer).values("pk")
        ).values(
            "match_id", "index", "is_winner", "match__variant"
        )
    )
    seat_of = {s["match_id"]: s["index"] for s in seats}
    per: dict[str, dict[str, Any]] = defaultdict(
        lambda: {
            "played": 0,
            "won": 0,
            "rounds": 0,
            "points": 0,
            "knocks": 0,
            "undercuts_given": 0,
            "undercuts_suffered": 0,
            "gins": 0,
            "going_outs": 0,
        }
    )
    variant_of = {}
    for s in seats:
        v = per[s["match__variant"]]
        v["played"] += 1
        v["won"] += int(s["is_winner"])
        variant_of[s["match_id"]] = s["match__variant"]
    rounds = Round.objects.filter(match_id__in=list(seat_of), finished_at__isnull=False).values(
        "id", "match_id", "knocker", "result_kind", "winners"
    )
    round_info = {r["id"]: r for r in rounds}
    scores = RoundScore.objects.filter(round_id__in=list(round_info)).values("round_id", "seat", "score", "reasons")
    undercut_in: set[int] = set()
    for sc in scores:
        info = round_info[sc["round_id"]]
        me = seat_of[info["match_id"]]
        codes = {r.get("code") for r in sc["reasons"] or [] if isinstance(r, dict)}
        v = per[variant_of[info["match_id"]]]
        if sc["seat"] == me:
            v["rounds"] += 1
            v["points"] += sc["score"]
            if "undercut_bonus" in codes or (info["result_kind"] == "undercut" and me in (info["winners"] or [])):
                v["undercuts_given"] += 1
        elif "undercut_bonus" in codes and info["knocker"] == me:
            undercut_in.add(info["id"])
    for info in round_info.values():
        me = seat_of[info["match_id"]]
        v = per[variant_of[info["match_id"]]]
        mine = info["knocker"] == me
        v["knocks"] += int(mine and info["result_kind"] in ("knock", "went_out", "gin", "big_gin", "undercut"))
        v["going_outs"] += int(mine and info["result_kind"] == "went_out")
        v["gins"] += int(mine and info["result_kind"] in ("gin", "big_gin"))
        v["undercuts_suffered"] += int(info["id"] in undercut_in or (mine and info["result_kind"] == "undercut"))
    rating_rows = {r.variant: r for r in PlayerRating.objects.filter(user=player)}
    labels = dict(Variant.choices)
    variants = []
    for key in [v for v, _label in Variant.choices if v in per]:
        v = per[key]
        variants.append(
            {
                "key": key,
                "label": labels[key],
                **v,
                "win_rate": round(100 * v["won"] / v["played"]) if v["played"] else 0,
                "average": round(v["points"] / v["rounds"], 1) if v["rounds"] else 0,
                "rating": _rank_row(rating_rows[key]) if key in rating_rows else None,
            }
        )
    last = (
        visible_matches(viewer)
        .filter(status=MatchStatus.FINISHED)
        .filter(_seated(player))
        .order_by("-finished_at", "-pk")
        .values(*LIST_FIELDS)[:20]
    )
    return {"variants": variants, "recent": match_rows(list(last))}


def leaderboard(*, variant: str, limit: int = 100) -> list[dict[str, Any]]:
    rows = (
        PlayerRating.objects.filter(variant=variant, user__isnull=False, user__is_active=True)
        .select_related("user")
        .order_by("-ordinal", "pk")[:limit]
    )
    return [{"rank": i + 1, "username": r.user.username, **_rank_row(r)} for i, r in enumerate(rows)]
