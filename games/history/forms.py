"""The history list's filters (a GET form: the query string is the shareable state)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Tournament, Variant


class HistoryFilterForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"), required=False, choices=[("", _("All games")), *Variant.choices])
    player = forms.CharField(label=_("Player"), required=False, max_length=150)
    date_from = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    mine = forms.BooleanField(label=_("Only my matches"), required=False)
    live = forms.BooleanField(label=_("Include matches in play"), required=False)
    tournament = forms.ModelChoiceField(
        label=_("Tournament"),
        required=False,
        queryset=Tournament.objects.none(),
        empty_label=_("Any tournament or none"),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = Tournament.objects.order_by("-created_at")

    def clean(self):
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The end date is before the start date."))
        return data
