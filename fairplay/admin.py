"""The moderators' tools: the report queue (each report's evidence, the reported player's record, and
the actions: warn, mute the chat, bar from rated tables, close as unfounded), sanctions (lift one),
the audit log (read only), abandons and blocks, and the collusion leads."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from fairplay import selectors, services
from fairplay.models import Abandon, AuditEntry, Block, Report, ReportStatus, Sanction
from plumbing import inputs

COLLUSION_DAYS = 180  # the matches the collusion leads read by default: the last half year


class ReadOnly(admin.ModelAdmin):
    """Rows written by the services only: staff read them."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("pk", "created_at", "reported", "reason", "status", "match_link")
    list_filter = ("status", "reason")
    search_fields = ("reported__username",)
    ordering = ("status", "created_at")  # the queue: open ones first, oldest first
    change_form_template = "admin/fairplay/report/change_form.html"
    change_list_template = "admin/fairplay/report/change_list.html"
    fields = (
        "reporter",
        "reported",
        "reason",
        "details",
        "match_link",
        "evidence_lines",
        "record",
        "status",
        "created_at",
        "handled_at",
        "audit_lines",
    )
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("reporter", "reported")

    @admin.display(description=gettext_lazy("match"))
    def match_link(self, obj):
        if not obj.match_id:
            return "—"
        return format_html(
            '<a href="{}">#{}</a> (<a href="{}">{}</a>)',
            reverse("history:match", args=[obj.match_id]),
            obj.match_id,
            reverse("admin:games_match_change", args=[obj.match_id]),
            _("admin"),
        )

    @admin.display(description=gettext_lazy("chat around it"))
    def evidence_lines(self, obj):
        lines = (obj.evidence or {}).get("chat") or []
        if not lines:
            return "—"
        return format_html(
            '<ol class="evidence">{}</ol>',
            format_html_join(
                "",
                '<li{}><strong>{}</strong> <span dir="auto">{}</span> <small>{}</small></li>',
                (
                    (
                        mark_safe(' class="reported-line" style="font-weight:bold"') if line.get("reported") else "",
                        line.get("user", ""),
                        line.get("text", ""),
                        line.get("at", ""),
                    )
                    for line in lines
                ),
            ),
        )

    @admin.display(description=gettext_lazy("the reported player's record"))
    def record(self, obj):
        reports = Report.objects.filter(reported_id=obj.reported_id).count()
        sanctions = Sanction.objects.filter(user_id=obj.reported_id).count()
        abandons = Abandon.objects.filter(user_id=obj.reported_id).count()
        return _("%(reports)d reports, %(sanctions)d sanctions, %(abandons)d abandons") % {
            "reports": reports,
            "sanctions": sanctions,
            "abandons": abandons,
        }

    @admin.display(description=gettext_lazy("audit log"))
    def audit_lines(self, obj):
        entries = obj.audit.select_related("actor").order_by("at", "pk")
        return format_html_join(
            "",
            "<div>{} · {} · {} {}</div>",
            (
                (e.at.strftime("%Y-%m-%d %H:%M"), e.get_action_display(), e.actor or _("the rule"), e.note)
                for e in entries
            ),
        )

    def get_urls(self):
        mine = [
            path(
                "<int:report_id>/handle/", self.admin_site.admin_view(self.handle_view), name="fairplay_report_handle"
            ),
            path("collusion/", self.admin_site.admin_view(self.collusion_view), name="fairplay_collusion"),
        ]
        return mine + super().get_urls()

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # Nothing of a report is edited: the "Act on this report" form is its one action.
        extra = {**(extra_context or {}), "actions_open": False, "show_save": False, "show_save_and_continue": False}
        try:
            report = Report.objects.filter(pk=inputs.parse_int(str(object_id), lo=1, hi=2**62)).first()
        except inputs.BadInput:
            report = None
        if report is not None:
            extra["actions_open"] = report.status == ReportStatus.OPEN
            extra["moderation"] = [
                ("warn", _("Warn")),
                ("mute", _("Mute the chat")),
                ("bar", _("Bar from rated tables")),
                ("unfounded", _("Close as unfounded")),
            ]
        return super().change_view(request, object_id, form_url, extra)

    def handle_view(self, request, report_id: int):
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self.has_change_permission(request):
            raise PermissionDenied
        back = redirect(reverse("admin:fairplay_report_change", args=[report_id]))
        try:
            hours_text = request.POST.get("hours", "").strip()
            hours = inputs.parse_int(hours_text, lo=1, hi=services.MAX_SANCTION_HOURS) if hours_text else None
            note = inputs.check_text(request.POST.get("note", ""), max_length=500)
            services.report_handle(
                report_id=report_id, staff=request.user, action=request.POST.get("action", ""), hours=hours, note=note
            )
        except (inputs.BadInput, services.Refused) as exc:
            messages.error(request, exc.message)
            return back
        messages.success(request, _("The report is handled; the reporter will see it on their fair-play page."))
        return redirect(reverse("admin:fairplay_report_changelist"))

    def collusion_view(self, request):
        if not self.has_view_permission(request):
            raise PermissionDenied
        try:
            days = inputs.parse_int(request.GET.get("days") or str(COLLUSION_DAYS), lo=1, hi=3650)
        except inputs.BadInput:
            days = COLLUSION_DAYS
        leads = selectors.collusion_leads(since=timezone.now() - timedelta(days=days))
        names = dict(
            get_user_model()
            .objects.filter(pk__in={p for lead in leads for p in (lead.a, lead.b)})
            .values_list("pk", "username")
        )
        context = {
            **self.admin_site.each_context(request),
            "title": _("Collusion leads"),
            "days": days,
            "rows": [{"lead": lead, "a": names.get(lead.a, lead.a), "b": names.get(lead.b, lead.b)} for lead in leads],
            "opts": self.model._meta,
        }
        return render(request, "admin/fairplay/collusion.html", context)


@admin.register(Sanction)
class SanctionAdmin(ReadOnly):
    list_display = ("user", "kind", "starts_at", "ends_at", "lifted_at", "by_rule", "created_by")
    list_filter = ("kind", "by_rule")
    search_fields = ("user__username",)
    actions = ["lift"]

    def has_change_permission(self, request, obj=None):
        return request.user.is_staff and obj is None  # the list's action, no edit form

    @admin.action(description=gettext_lazy("Lift the selected sanctions"))
    def lift(self, request, queryset):
        for sanction in queryset:
            services.sanction_lift(sanction_id=sanction.pk, staff=request.user)
        n = queryset.count()
        self.message_user(request, ngettext("%(n)d sanction lifted.", "%(n)d sanctions lifted.", n) % {"n": n})


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly):
    list_display = ("at", "action", "actor", "subject", "report", "note")
    list_filter = ("action",)
    search_fields = ("subject__username", "actor__username")


@admin.register(Abandon)
class AbandonAdmin(ReadOnly):
    list_display = ("user", "match", "at")
    search_fields = ("user__username",)


@admin.register(Block)
class BlockAdmin(ReadOnly):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
