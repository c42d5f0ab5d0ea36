"""The analyses in the admin: staff see the failed ones with their error (filter "status") and put
them back in the queue (``services.analysis_retry``); nothing else is edited here."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.analysis import services
from games.analysis.models import MatchAnalysis


@admin.register(MatchAnalysis)
class MatchAnalysisAdmin(admin.ModelAdmin):
    list_display = ["id", "match", "version", "status", "progress", "total", "cpu_seconds", "finished_at"]
    list_filter = ["status", "version"]
    search_fields = ["match__id"]
    fields = [
        "match",
        "version",
        "status",
        "progress",
        "total",
        "created_at",
        "claimed_at",
        "finished_at",
        "cpu_seconds",
        "error_display",
    ]
    readonly_fields = fields
    actions = ["retry"]

    def has_add_permission(self, request):
        return False

    @admin.display(description=_("error"))
    def error_display(self, obj):
        return format_html('<pre style="max-height: 40em; overflow: auto">{}</pre>', obj.error or "—")

    @admin.action(description=_("Analyse the selected matches again"), permissions=["change"])
    def retry(self, request, queryset):
        n = services.analysis_retry(analysis_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(
            request,
            ngettext("%(n)d analysis queued again.", "%(n)d analyses queued again.", n) % {"n": n},
            messages.SUCCESS,
        )
