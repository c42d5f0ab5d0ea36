"""Admin registrations of the games app (each feature registers its own in its admin module).

Matches: staff find them (filters, search by id or player), see a match with its seats and its
state, and end a stuck one with the "End (abandon)" action, which goes through
``services.match_abandon``.  Nothing of a match is edited here: the write path is the services'.
"""

from __future__ import annotations

import json

from django.contrib import admin, messages
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import services
from games.analysis import admin as _analysis_admin  # noqa: F401
from games.models import Match, Seat
from games.puzzles import admin as _puzzle_admin  # noqa: F401
from games.tournaments import admin as _tournament_admin  # noqa: F401


class SeatInline(admin.TabularInline):
    model = Seat
    fields = [
        "index",
        "user",
        "bot_name",
        "bot_policy",
        "role",
        "autopilot",
        "missed_turns",
        "final_total",
        "is_winner",
    ]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class ClockFailureFilter(admin.SimpleListFilter):
    """Matches whose automatic step failed (``services.clock._put_off`` records it in ``state["clock"]``)."""

    title = _("clock failures")
    parameter_name = "clock"

    def lookups(self, request, model_admin):
        return [("failing", _("failing (put off)")), ("held", _("held (no deadline)"))]

    def queryset(self, request, queryset):
        if self.value() == "failing":
            return queryset.filter(state__has_key="clock").exclude(state__clock__held=True)
        if self.value() == "held":
            return queryset.filter(state__clock__held=True)
        return queryset


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "variant", "status", "deadline", "version", "created_at", "clock_failures"]
    list_filter = ["status", "variant", ClockFailureFilter, "is_private"]
    search_fields = ["seats__user__username", "host__username"]
    search_help_text = _("A match number, or a player's user name.")
    actions = ["abandon_matches"]
    inlines = [SeatInline]
    fields = [
        "id",
        "variant",
        "status",
        "seats_count",
        "host",
        "is_private",
        "turn_timer",
        "move_time",
        "options",
        "round_number",
        "version",
        "deadline",
        "turn_started_at",
        "turn_seat",
        "turn_deadline",
        "turn_notices",
        "created_at",
        "started_at",
        "finished_at",
        "rematch_of",
        "clock_record",
        "state_display",
    ]
    readonly_fields = fields

    def get_search_results(self, request, queryset, search_term):
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        number = search_term.strip().lstrip("#")
        if number.isdigit():
            results |= queryset.filter(pk=int(number))
        return results, may_have_duplicates

    # Shown, never edited: no add, no delete, and the change page is a view.
    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request)  # the list's action only

    @admin.display(description=_("clock failures"))
    def clock_failures(self, obj):
        record = (obj.state or {}).get("clock")
        if not record:
            return ""
        n = record.get("failures", 0)
        return _("%(n)d (held)") % {"n": n} if record.get("held") else str(n)

    @admin.display(description=_("clock record"))
    def clock_record(self, obj):
        record = (obj.state or {}).get("clock")
        if not record:
            return "—"
        n = record.get("failures", 0)
        if record.get("held"):
            text = ngettext(
                "%(n)d failure in a row, the last at %(at)s (held: no deadline):",
                "%(n)d failures in a row, the last at %(at)s (held: no deadline):",
                n,
            )
        else:
            text = ngettext(
                "%(n)d failure in a row, the last at %(at)s:", "%(n)d failures in a row, the last at %(at)s:", n
            )
        return format_html("{} <code>{}</code>", text % {"n": n, "at": record.get("at", "?")}, record.get("error", ""))

    @admin.display(description=_("state"))
    def state_display(self, obj):
        return format_html(
            '<pre style="max-height: 40em; overflow: auto">{}</pre>', json.dumps(obj.state, indent=1, sort_keys=True)
        )

    @admin.action(description=_("End (abandon) selected matches"), permissions=["change"])
    def abandon_matches(self, request, queryset):
        ended, refused = 0, []
        for match_id in queryset.order_by("pk").values_list("pk", flat=True).distinct():
            try:
                services.match_abandon(match_id=match_id, by=request.user)
                ended += 1
            except services.ActionRefused as exc:
                refused.append(f"#{match_id}: {exc.message}")
        if ended:
            self.message_user(
                request, ngettext("%(n)d match ended.", "%(n)d matches ended.", ended) % {"n": ended}, messages.SUCCESS
            )
        if refused:
            self.message_user(request, " ".join(refused), messages.WARNING)
