"""The report form: a reason and, if the reporter wishes, what happened."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from fairplay.models import MAX_REPORT_DETAILS, ReportReason


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=_("Reason"), choices=ReportReason.choices, widget=forms.RadioSelect)
    details = forms.CharField(
        label=_("What happened (optional)"),
        required=False,
        max_length=MAX_REPORT_DETAILS,
        widget=forms.Textarea(attrs={"rows": 4, "maxlength": MAX_REPORT_DETAILS, "dir": "auto"}),
    )
