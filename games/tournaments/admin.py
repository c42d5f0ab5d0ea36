"""Staff run tournaments from the Django admin.

The tournament's change form edits its settings (validated by the engine);
the "Run" page (``ModelAdmin.get_urls``) does everything else: entrants,
registration, "Seat next round" (a preview with the reason for every table),
"Publish", forfeits, result overrides, "Close round", the standings CSV and
the audit log.  Every action goes through ``games.tournaments.services``,
which writes the audit row.
"""

from __future__ import annotations

import csv
import json
from functools import wraps

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.board import lists
from games.models import TIMER_CHOICES, Variant
from games.tournaments import deals, selectors, services
from games.tournaments.models import (
    Entry,
    RoundStatus,
    Tournament,
    TournamentAudit,
    TournamentRound,
    TournamentSeat,
    TournamentTable,
)
from games.variants import spec_for


class TournamentForm(forms.ModelForm):
    variant = forms.ChoiceField(label=_("variant"), choices=Variant.choices)

    class Meta:
        model = Tournament
        fields = [
            "name",
            "variant",
            "options",
            "format",
            "table_size",
            "rounds_count",
            "placement_points",
            "duplicate",
            "duplicate_average",
            "turn_timer",
            "registration_open",
            "starts_at",
        ]
        help_texts = {
            "options": _('Rule options as on the lobby form, e.g. {"game_target": 150}; empty for the defaults.'),
            "placement_points": _('Points per placement by table size, e.g. {"4": [4, 2, 1, 0]}.'),
            "rounds_count": _("Single elimination works this out from the number of entrants."),
        }

    def clean_turn_timer(self):
        value = self.cleaned_data["turn_timer"]
        if value not in TIMER_CHOICES:
            raise forms.ValidationError(gettext("Choose a turn timer of none, 30, 60 or 120 seconds."))
        return value

    def clean(self):
        data = super().clean()
        if self.errors:
            return data

        def value(name):  # a field read-only once the tournament started keeps the stored value
            return data[name] if name in self.fields else getattr(self.instance, name)

        try:
            services.tournament_check(
                variant=value("variant"),
                options=value("options") or {},
                table_size=value("table_size"),
                format=value("format"),
                placement_points=value("placement_points"),
                duplicate=bool(value("duplicate")),
                duplicate_average=bool(value("duplicate_average")),
            )
        except services.ActionRefused as exc:
            field = {
                "bad_option": "options",
                "bad_points": "placement_points",
                "bad_seats": "table_size",
                "bad_format": "format",
                "bad_variant": "variant",
                "bad_duplicate": "duplicate_average",
            }.get(exc.code)
            self.add_error(field if field in self.fields else None, exc.message)
        if "options" in self.fields:
            data["options"] = data.get("options") or {}
        return data


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["user", "seed", "rating", "withdrawn"]
    readonly_fields = ["rating"]
    raw_id_fields = ["user"]


def staff_action(view):
    """A Run-page view: staff with change permission only; a refusal becomes an error message."""

    @wraps(view)
    def wrapped(self, request, *args, **kwargs):
        if not self.has_change_permission(request):
            raise PermissionDenied
        if request.method != "POST" and view.__name__ != "run_view" and view.__name__ != "standings_csv":
            return HttpResponse(status=405)
        try:
            return view(self, request, *args, **kwargs)
        except services.ActionRefused as exc:
            messages.error(request, exc.message)
            return redirect(self._run_url(self._tournament_id_for(view.__name__, kwargs)))

    return wrapped


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    inlines = [EntryInline]
    list_display = ["name", "variant", "format", "duplicate", "status", "registration_open", "starts_at", "run_link"]
    list_filter = ["status", "format", "duplicate", "variant"]
    search_fields = ["name"]
    actions = ["open_registration", "close_registration", "sync_results", "export_standings"]
    change_form_template = "admin/games/tournament/change_form.html"

    # ------------------------------------------------------------- change form

    @admin.display(description=pgettext_lazy("run a tournament", "run"))
    def run_link(self, obj):
        return format_html('<a href="{}">{}</a>', self._run_url(obj.pk), pgettext("run a tournament", "Run"))

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.status != "upcoming":
            return ["variant", "format", "table_size", "options", "placement_points", "duplicate", "duplicate_average"]
        return []

    def save_model(self, request, obj, form, change):
        services.tournament_save(tournament=obj, by=request.user, created=not change, changed=list(form.changed_data))

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.has_changed():
            services.entries_edited(
                tournament_id=form.instance.pk,
                by=request.user,
                users=[
                    f.instance.user.username
                    for f in formset.forms
                    if f.has_changed() and getattr(f.instance, "user_id", None)
                ],
            )

    # ------------------------------------------------------------- list actions

    @admin.action(description=_("Open registration"))
    def open_registration(self, request, queryset):
        for t in queryset:
            services.tournament_set_registration(tournament_id=t.pk, by=request.user, is_open=True)

    @admin.action(description=_("Close registration"))
    def close_registration(self, request, queryset):
        for t in queryset:
            services.tournament_set_registration(tournament_id=t.pk, by=request.user, is_open=False)

    @admin.action(description=_("Record results of finished tables"))
    def sync_results(self, request, queryset):
        changed = sum(services.tournament_sync(tournament_id=t.pk, by=request.user) for t in queryset)
        self.message_user(
            request, ngettext("%(n)d table result recorded.", "%(n)d table results recorded.", changed) % {"n": changed}
        )

    @admin.action(description=_("Export standings as CSV"))
    def export_standings(self, request, queryset):
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="standings.csv"'
        writer = csv.writer(response)
        for i, t in enumerate(queryset.order_by("pk")):
            rows = selectors.standings_csv_rows(t)
            if i == 0:
                writer.writerow(["tournament", *rows[0]])
            writer.writerows([[t.name, *row] for row in rows[1:]])
        services.audit_export(tournaments=list(queryset), by=request.user)
        return response

    # ------------------------------------------------------------- the Run page

    def get_urls(self):
        def wrap(view):
            return self.admin_site.admin_view(view)

        mine = [
            path("<int:tournament_id>/run/", wrap(self.run_view), name="games_tournament_run"),
            path("<int:tournament_id>/run/import/", wrap(self.import_view), name="games_tournament_import"),
            path(
                "<int:tournament_id>/run/registration/",
                wrap(self.registration_view),
                name="games_tournament_registration",
            ),
            path("<int:tournament_id>/run/seat/", wrap(self.seat_view), name="games_tournament_seat"),
            path("<int:tournament_id>/run/sync/", wrap(self.sync_view), name="games_tournament_sync"),
            path("<int:tournament_id>/standings.csv", wrap(self.standings_csv), name="games_tournament_csv"),
            path("entry/<int:entry_id>/withdraw/", wrap(self.withdraw_view), name="games_tournament_withdraw"),
            path("round/<int:round_id>/publish/", wrap(self.publish_view), name="games_tournament_publish"),
            path("round/<int:round_id>/discard/", wrap(self.discard_view), name="games_tournament_discard"),
            path("round/<int:round_id>/close/", wrap(self.close_view), name="games_tournament_close"),
            path("table/<int:table_id>/override/", wrap(self.override_view), name="games_tournament_override"),
            path("seat/<int:seat_id>/forfeit/", wrap(self.forfeit_view), name="games_tournament_forfeit"),
        ]
        return mine + super().get_urls()

    def _run_url(self, tournament_id: int) -> str:
        return reverse("admin:games_tournament_run", args=[tournament_id])

    def _tournament_id_for(self, view_name: str, kwargs) -> int:
        if "tournament_id" in kwargs:
            return kwargs["tournament_id"]
        if "round_id" in kwargs:
            return get_object_or_404(TournamentRound, pk=kwargs["round_id"]).tournament_id
        if "table_id" in kwargs:
            return get_object_or_404(
                TournamentTable.objects.select_related("round"), pk=kwargs["table_id"]
            ).round.tournament_id
        if "seat_id" in kwargs:
            return get_object_or_404(
                TournamentSeat.objects.select_related("table__round"), pk=kwargs["seat_id"]
            ).table.round.tournament_id
        return get_object_or_404(Entry, pk=kwargs["entry_id"]).tournament_id

    @staff_action
    def run_view(self, request, tournament_id: int):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        rounds = selectors.tournament_rounds(tournament, include_draft=True)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": gettext("Run %(name)s") % {"name": tournament.name},
            "tournament": tournament,
            "entries": list(tournament.entries.select_related("user").order_by("withdrawn", "-seed", "pk")),
            "draft": next((r for r in rounds if r["round"].status == RoundStatus.DRAFT), None),
            "playing": next((r for r in rounds if r["round"].status == RoundStatus.PLAYING), None),
            "closed": [r for r in rounds if r["round"].status == RoundStatus.CLOSED],
            "standings": selectors.tournament_standings(tournament),
            "mixed_sizes": [c.round.number for c in deals.closed_rounds(tournament) if c.scores.mixed_sizes],
            "audit": selectors.audit_rows(tournament, limit=100),
            "option_defaults": _option_defaults(tournament),
        }
        return TemplateResponse(request, "admin/games/tournament/run.html", context)

    @staff_action
    def import_view(self, request, tournament_id: int):
        names = request.POST.get("usernames", "").replace(",", "\n").splitlines()
        added, unknown = services.entries_import(tournament_id=tournament_id, by=request.user, usernames=names)
        messages.success(
            request, ngettext("%(n)d entrant added.", "%(n)d entrants added.", len(added)) % {"n": len(added)}
        )
        if unknown:
            messages.warning(request, gettext("Unknown players: %(names)s") % {"names": lists.items(unknown)})
        return redirect(self._run_url(tournament_id))

    @staff_action
    def registration_view(self, request, tournament_id: int):
        services.tournament_set_registration(
            tournament_id=tournament_id, by=request.user, is_open=request.POST.get("open") == "1"
        )
        return redirect(self._run_url(tournament_id))

    @staff_action
    def seat_view(self, request, tournament_id: int):
        rnd = services.round_seat(tournament_id=tournament_id, by=request.user)
        messages.info(request, gettext("Round %(n)d seated: check the preview, then publish it.") % {"n": rnd.number})
        return redirect(self._run_url(tournament_id) + "#preview")

    @staff_action
    def sync_view(self, request, tournament_id: int):
        changed = services.tournament_sync(tournament_id=tournament_id, by=request.user)
        messages.info(
            request, ngettext("%(n)d table result recorded.", "%(n)d table results recorded.", changed) % {"n": changed}
        )
        return redirect(self._run_url(tournament_id))

    @staff_action
    def withdraw_view(self, request, entry_id: int):
        entry = get_object_or_404(Entry.objects.select_related("user"), pk=entry_id)
        services.entry_withdraw(
            tournament_id=entry.tournament_id, user=entry.user, by=request.user, reason=request.POST.get("reason", "")
        )
        return redirect(self._run_url(entry.tournament_id))

    @staff_action
    def publish_view(self, request, round_id: int):
        rnd = services.round_publish(round_id=round_id, by=request.user)
        messages.success(request, gettext("Round %(n)d published: the tables are open.") % {"n": rnd.number})
        return redirect(self._run_url(rnd.tournament_id))

    @staff_action
    def discard_view(self, request, round_id: int):
        tournament_id = get_object_or_404(TournamentRound, pk=round_id).tournament_id
        services.round_discard(round_id=round_id, by=request.user)
        return redirect(self._run_url(tournament_id))

    @staff_action
    def close_view(self, request, round_id: int):
        rnd = services.round_close(round_id=round_id, by=request.user)
        messages.success(request, gettext("Round %(n)d closed.") % {"n": rnd.number})
        return redirect(self._run_url(rnd.tournament_id))

    @staff_action
    def override_view(self, request, table_id: int):
        raw = request.POST.get("places", "").replace(",", " ").split()
        if not all(p.isdigit() for p in raw):
            raise services.ActionRefused("bad_places", gettext("Placements are whole numbers, one per seat."))
        table = services.table_override(
            table_id=table_id, by=request.user, places=[int(p) for p in raw], reason=request.POST.get("reason", "")
        )
        messages.success(request, gettext("Result of table %(n)d overridden.") % {"n": table.number})
        return redirect(self._run_url(table.round.tournament_id))

    @staff_action
    def forfeit_view(self, request, seat_id: int):
        seat = services.seat_forfeit(seat_id=seat_id, by=request.user, reason=request.POST.get("reason", ""))
        messages.success(request, gettext("Forfeit recorded."))
        return redirect(self._run_url(seat.table.round.tournament_id))

    @staff_action
    def standings_csv(self, request, tournament_id: int):
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-standings.csv"'
        csv.writer(response).writerows(selectors.standings_csv_rows(tournament))
        services.audit_export(tournaments=[tournament], by=request.user)
        return response


def _option_defaults(tournament: Tournament) -> str:
    try:
        return json.dumps(spec_for(tournament.variant).option_defaults(tournament.table_size), sort_keys=True)
    except Exception:  # an unknown variant: nothing to show
        return ""


@admin.register(TournamentAudit)
class TournamentAuditAdmin(admin.ModelAdmin):
    list_display = ["created_at", "tournament", "user", "action", "reason"]
    list_filter = ["action"]
    readonly_fields = ["tournament", "user", "action", "detail", "reason", "created_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
