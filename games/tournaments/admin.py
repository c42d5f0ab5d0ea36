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
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.board import bidi, lists
from games.engine.errors import InvalidAction
from games.forms import rule_option_fields, rule_option_initial, rule_options_of
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
    default_placement_points,
)
from games.tournaments.standings import check_points_scheme
from games.variants import spec_for
from plumbing import inputs

MAX_PLACEMENT_POINTS = 10_000  # a place's tournament points, and a placement, typed by staff

POINT_SIZES = (2, 3, 4, 5)  # the table sizes a tournament seats (placement points for each)


def _points_text(values) -> str:
    return " ".join(str(v) for v in values)


class TournamentForm(forms.ModelForm):
    """A tournament's settings as the lobby offers a table's: every house rule a field (``games.forms``:
    one source of the options' fields), placement points per table size as numbers, entrants by
    username; the JSON the model keeps is built from them.  Once the first round is published the
    rules are read-only (``TournamentAdmin.get_readonly_fields``) and these fields are left out."""

    variant = forms.ChoiceField(label=capfirst(_("variant")), choices=Variant.choices)
    usernames = forms.CharField(
        label=_("Entrants (usernames)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 40, "autocomplete": "off", "spellcheck": "false"}),
        help_text=_("One per line or separated by commas. Players may also register on the tournament page."),
    )

    RULE_FIELDS = tuple(rule_option_fields())
    POINT_FIELDS = tuple(f"points_{n}" for n in POINT_SIZES)

    class Meta:
        model = Tournament
        fields = [
            "name",
            "variant",
            "format",
            "table_size",
            "rounds_count",
            "duplicate",
            "duplicate_average",
            "turn_timer",
            "registration_open",
            "starts_at",
        ]
        help_texts = {
            "rounds_count": _("Single elimination works this out from the number of entrants."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        instance = self.instance
        self.rules_editable = "format" in self.fields  # read-only once the first round is published
        if not self.rules_editable:
            for name in (*self.RULE_FIELDS, *self.POINT_FIELDS):
                self.fields.pop(name, None)
            return
        if instance.pk:
            for name, value in rule_option_initial(instance.variant, instance.options).items():
                if name in self.fields:
                    self.initial[name] = value
            for n in POINT_SIZES:
                if str(n) in (instance.placement_points or {}):
                    self.initial[f"points_{n}"] = _points_text(instance.placement_points[str(n)])
                else:
                    self.initial[f"points_{n}"] = ""
        for name in self.RULE_FIELDS:  # a blank option is the game's default (and Gin needs none of Manipulation's)
            self.fields[name].required = False

    def clean_turn_timer(self):
        value = self.cleaned_data["turn_timer"]
        if value not in TIMER_CHOICES:
            raise forms.ValidationError(gettext("Choose a turn timer of none, 30, 60 or 120 seconds."))
        return value

    def clean_usernames(self):
        names = list(dict.fromkeys(n.strip() for n in self.cleaned_data["usernames"].replace(",", "\n").splitlines()))
        names = [n for n in names if n]
        known = services.known_usernames(names)
        unknown = [n for n in names if n.casefold() not in known]
        if unknown:
            raise forms.ValidationError(
                ngettext(
                    "No player has the username %(names)s: check the spelling, or remove it.",
                    "No player has these usernames: %(names)s. Check the spelling, or remove them.",
                    len(unknown),
                )
                % {"names": lists.items(unknown)},
                code="unknown_players",
            )
        return [known[n.casefold()] for n in names]

    def _clean_points(self, n: int):
        text = (self.cleaned_data.get(f"points_{n}") or "").replace(",", " ")
        if not text.strip():
            return None
        try:  # ASCII digits only (isdigit() takes "²", which int() refuses), each within reason
            values = [inputs.parse_int(p, lo=0, hi=MAX_PLACEMENT_POINTS) for p in text.split()]
        except inputs.BadInput:
            raise forms.ValidationError(
                gettext("Whole numbers of at least 0, one per place, e.g. %(example)s.")
                % {"example": _points_text(default_placement_points()[str(n)])},
                code="not_whole",
            ) from None
        problem = check_points_scheme({str(n): values})
        if problem == "wrong_length":
            raise forms.ValidationError(
                ngettext(
                    "A table of %(n)d seats needs %(n)d numbers, one per place.",
                    "A table of %(n)d seats needs %(n)d numbers, one per place.",
                    n,
                )
                % {"n": n},
                code=problem,
            )
        if problem == "not_descending":
            raise forms.ValidationError(gettext("A better placement cannot score fewer points."), code=problem)
        return values

    def clean(self):
        data = super().clean()
        if self.rules_editable:
            points = {}
            for n in POINT_SIZES:
                try:
                    values = self._clean_points(n)
                except forms.ValidationError as exc:
                    self.add_error(f"points_{n}", exc)
                    continue
                if values is not None:
                    points[str(n)] = values
            if not points and not self.errors:
                self.add_error(
                    f"points_{data.get('table_size') or 4}" if data.get("table_size") in POINT_SIZES else None,
                    gettext("Give the placement points of at least the chosen table size."),
                )
            if not self.errors:
                self.instance.placement_points = points
                try:
                    self.instance.options = rule_options_of(data, data["variant"], data["table_size"])
                except (InvalidAction, ValueError, TypeError):  # a table size the game does not seat:
                    self.instance.options = {}  # tournament_check below says so
        if self.errors:
            return data

        def value(name):  # a field read-only once the tournament started keeps the stored value
            return data[name] if name in self.fields else getattr(self.instance, name)

        try:
            services.tournament_check(
                variant=value("variant"),
                options=self.instance.options or {},
                table_size=value("table_size"),
                format=value("format"),
                placement_points=self.instance.placement_points,
                duplicate=bool(value("duplicate")),
                duplicate_average=bool(value("duplicate_average")),
            )
        except services.ActionRefused as exc:
            field = {
                "bad_points": f"points_{value('table_size')}",
                "bad_seats": "table_size",
                "bad_format": "format",
                "bad_variant": "variant",
                "bad_duplicate": "duplicate_average",
            }.get(exc.code)
            self.add_error(field if field in self.fields else None, exc.message)
        return data


for _name, _field in {
    **rule_option_fields(),
    **{
        f"points_{n}": forms.CharField(
            label=format_lazy(_("Tables of {n}"), n=n),
            required=False,
            initial=_points_text(default_placement_points()[str(n)]),
            widget=forms.TextInput(attrs={"size": 12, "inputmode": "numeric"}),
            help_text=_("Points for first, second, … place, separated by spaces."),
        )
        for n in POINT_SIZES
    },
}.items():
    # Declared on the class so that the admin's fieldsets may name them.
    TournamentForm.base_fields[_name] = TournamentForm.declared_fields[_name] = _field


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["user", "seed", "rating", "withdrawn"]
    readonly_fields = ["rating"]
    autocomplete_fields = ["user"]  # type a few letters of the username
    verbose_name = _("entrant")
    verbose_name_plural = _("entrants (type a few letters of a username to find the player)")


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


class VariantFilter(admin.SimpleListFilter):
    """The list's variant filter, by the variants' names (the field stores their keys)."""

    title = _("variant")
    parameter_name = "variant"

    def lookups(self, request, model_admin):
        return Variant.choices

    def queryset(self, request, queryset):
        return queryset.filter(variant=self.value()) if self.value() else queryset


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    inlines = [EntryInline]
    list_display = [
        "name",
        "variant_label",
        "format",
        "duplicate",
        "status",
        "registration_open",
        "starts_at",
        "run_link",
    ]
    list_filter = ["status", "format", "duplicate", VariantFilter]
    search_fields = ["name"]
    actions = ["open_registration", "close_registration", "sync_results", "export_standings"]
    change_form_template = "admin/games/tournament/change_form.html"

    # ------------------------------------------------------------- change form

    @admin.display(description=pgettext_lazy("run a tournament", "run"))
    def run_link(self, obj):
        return format_html('<a href="{}">{}</a>', self._run_url(obj.pk), pgettext("run a tournament", "Run"))

    @admin.display(description=_("variant"), ordering="variant")
    def variant_label(self, obj):
        return obj.variant_label

    @admin.display(description=_("house rules"))
    def house_rules(self, obj):
        return rules_summary(obj) or gettext("The game's defaults.")

    @admin.display(description=_("placement points by table size"))
    def points_summary(self, obj):
        return lists.clauses(
            [
                gettext("tables of %(n)s: %(points)s") % {"n": n, "points": _points_text(v)}
                for n, v in sorted((obj.placement_points or {}).items())
            ]
        )

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.status != "upcoming":
            return [
                "variant",  # (the declared field is left out of the form; the page shows its label)
                "variant_label",
                "format",
                "table_size",
                "house_rules",
                "points_summary",
                "duplicate",
                "duplicate_average",
            ]
        return []

    def get_fieldsets(self, request, obj=None):
        main = [
            "name",
            "variant",
            "format",
            "table_size",
            "rounds_count",
            "turn_timer",
            "starts_at",
            "registration_open",
        ]
        duplicate = (_("Duplicate"), {"fields": ["duplicate", "duplicate_average"]})
        entrants = (
            _("Entrants"),
            {
                "fields": ["usernames"],
                "description": _(
                    "Type or paste the players' usernames; or add them one by one in the entrants list "
                    "below, which finds a player from the first letters of the name."
                ),
            },
        )
        if obj is not None and obj.status != "upcoming":
            main = ["name", "variant_label", "format", "table_size", "rounds_count", "turn_timer", "starts_at"]
            rules = (
                _("Rules (fixed once the first round is published)"),
                {"fields": ["house_rules", "points_summary"]},
            )
            return [(None, {"fields": [*main, "registration_open"]}), rules, entrants, (duplicate[0], duplicate[1])]
        manipulation = [n for n in TournamentForm.RULE_FIELDS if n.startswith("opt_")]
        gin_fields = [n for n in TournamentForm.RULE_FIELDS if n.startswith("gin_")]
        return [
            (None, {"fields": main}),
            entrants,
            (
                _("House rules: Manipulation Rummy"),
                {
                    "classes": ["collapse"],
                    "fields": manipulation,
                    "description": _(
                        "Every option shows its default; change only what your tournament plays differently."
                    ),
                },
            ),
            (
                _("House rules: Gin"),
                {
                    "classes": ["collapse"],
                    "fields": gin_fields,
                    "description": _(
                        "For the Gin games. A blank choice means the chosen game's default; an option "
                        "of another Gin game does not apply."
                    ),
                },
            ),
            (
                _("Placement points"),
                {
                    "fields": list(TournamentForm.POINT_FIELDS),
                    "description": _(
                        "The tournament points for each place at a table, by table size (a table of "
                        "another size than the one chosen is seated only when the numbers do not divide)."
                    ),
                },
            ),
            duplicate,
        ]

    def save_model(self, request, obj, form, change):
        services.tournament_save(tournament=obj, by=request.user, created=not change, changed=list(form.changed_data))

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        names = form.cleaned_data.get("usernames") or []
        if names:
            added, _unknown = services.entries_import(tournament_id=form.instance.pk, by=request.user, usernames=names)
            if change:  # a new tournament's message counts every entrant (response_add)
                messages.success(
                    request, ngettext("%(n)d entrant added.", "%(n)d entrants added.", len(added)) % {"n": len(added)}
                )

    def save_formset(self, request, form, formset, change):
        if formset.model is not Entry:
            return super().save_formset(request, form, formset, change)
        instances = formset.save(commit=False)
        for gone in formset.deleted_objects:
            gone.delete()
        new = [e for e in instances if e.pk is None]
        for entry in instances:
            if entry.pk is not None:
                entry.save()
        if new:  # seeded by their rating, as every other way in (a seed typed in the row is kept)
            services.entries_import(
                tournament_id=form.instance.pk, by=request.user, usernames=[e.user.username for e in new]
            )
            for e in new:
                if e.seed:
                    Entry.objects.filter(tournament_id=form.instance.pk, user=e.user).update(seed=e.seed)
        edited = [
            f.instance.user.username
            for f in formset.forms
            if f.has_changed() and getattr(f.instance, "user_id", None) and f.instance not in new
        ]
        if edited or formset.deleted_objects:
            services.entries_edited(tournament_id=form.instance.pk, by=request.user, users=edited)

    def response_add(self, request, obj, post_url_continue=None):
        """After "Save": the change page, where the next step (seat round 1) is waiting."""
        if "_addanother" in request.POST or "_popup" in request.POST:
            return super().response_add(request, obj, post_url_continue)
        n = obj.entries.filter(withdrawn=False).count()
        messages.success(
            request,
            ngettext(
                "The tournament %(name)s was created with %(n)d entrant.",
                "The tournament %(name)s was created with %(n)d entrants.",
                n,
            )
            % {"name": bidi.isolate(obj.name), "n": n},
        )
        return redirect(reverse("admin:games_tournament_change", args=[obj.pk]))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        try:  # the URL's id as typed: ASCII digits in range, else Django's own "doesn't exist"
            tournament = Tournament.objects.filter(pk=inputs.parse_int(str(object_id), lo=1, hi=2**63 - 1)).first()
        except inputs.BadInput:
            tournament = None
        extra = {**(extra_context or {})}
        if tournament is not None:
            extra["next_step"] = next_step(tournament)
        return super().change_view(request, object_id, form_url, extra)

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
        tables = rnd.tables.filter(is_bye=False).count()
        messages.success(
            request,
            ngettext(
                "Round %(n)d published: %(tables)d table is open. Its players find it on the tournament page "
                "and in the lobby; the links to watch it are below.",
                "Round %(n)d published: %(tables)d tables are open. Their players find them on the tournament "
                "page and in the lobby; the links to watch them are below.",
                tables,
            )
            % {"n": rnd.number, "tables": tables},
        )
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
        try:
            places = [inputs.parse_int(p, lo=0, hi=MAX_PLACEMENT_POINTS) for p in raw]
        except inputs.BadInput:
            raise services.ActionRefused("bad_places", gettext("Placements are whole numbers, one per seat.")) from None
        table = services.table_override(
            table_id=table_id, by=request.user, places=places, reason=request.POST.get("reason", "")
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


def next_step(tournament: Tournament) -> dict:
    """What the organiser does next, for the change page's "Next step" box: a sentence, and the one
    button (a form posted to the Run page's action) or link that does it."""
    rounds = list(tournament.rounds.order_by("-number"))
    draft = next((r for r in rounds if r.status == RoundStatus.DRAFT), None)
    playing = next((r for r in rounds if r.status == RoundStatus.PLAYING), None)
    run = reverse("admin:games_tournament_run", args=[tournament.pk])
    if tournament.status == "finished":
        return {"text": gettext("The tournament is over: its standings are final."), "link": run}
    if playing is not None:
        tables = playing.tables.filter(is_bye=False)
        done = tables.exclude(seats__placement__isnull=True).count()
        return {
            "text": ngettext(
                "Round %(n)d is in play: %(done)d of %(total)d table has a result. The Run page lists "
                "the tables (with links to watch them) and closes the round once every table is done.",
                "Round %(n)d is in play: %(done)d of %(total)d tables have a result. The Run page lists "
                "the tables (with links to watch them) and closes the round once every table is done.",
                tables.count(),
            )
            % {"n": playing.number, "done": done, "total": tables.count()},
            "link": run + "#playing",
            "link_text": gettext("Open the Run page"),
        }
    if draft is not None:
        return {
            "text": gettext(
                "Round %(n)d is seated as a preview: check the tables, then publish the round to open them."
            )
            % {"n": draft.number},
            "action": reverse("admin:games_tournament_publish", args=[draft.pk]),
            "button": gettext("Publish round %(n)d") % {"n": draft.number},
            "link": run + "#preview",
            "link_text": gettext("See the preview"),
        }
    number = sum(1 for r in rounds if r.status == RoundStatus.CLOSED) + 1
    active = tournament.entries.filter(withdrawn=False).count()
    if active < 2:
        return {
            "text": ngettext(
                "%(n)d entrant so far: add at least two (above, by username) to seat round 1.",
                "%(n)d entrants so far: add at least two (above, by username) to seat round 1.",
                active,
            )
            % {"n": active}
        }
    return {
        "text": ngettext(
            "%(n)d entrant. Next: seat round %(round)d. You will see every table, and why its players "
            "sit together, before you publish it.",
            "%(n)d entrants. Next: seat round %(round)d. You will see every table, and why its players "
            "sit together, before you publish it.",
            active,
        )
        % {"n": active, "round": number},
        "action": reverse("admin:games_tournament_seat", args=[tournament.pk]),
        "button": gettext("Seat round %(n)d") % {"n": number},
    }


def rules_summary(tournament: Tournament) -> str:
    """The house rules that differ from the game's defaults, as "label: value; …" (the lobby's labels)."""
    fields = rule_option_fields()
    initial = rule_option_initial(tournament.variant, tournament.options)
    parts = []
    for name, value in initial.items():
        field = fields.get(name)
        if field is None:
            continue
        shown = dict(getattr(field, "choices", [])).get(value, value)
        if isinstance(value, bool):
            shown = gettext("yes") if value else gettext("no")
        parts.append(f"{field.label}: {shown}")
    return lists.clauses(parts)


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
