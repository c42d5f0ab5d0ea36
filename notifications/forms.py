"""The player's notification settings (on the profile and /notifications/settings/)."""

from __future__ import annotations

import re
import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from notifications.models import NotificationSettings

# ASCII digits only: Django's time parsing reads "٢٢:٣٠" (Arabic-Indic digits) as 22:30.
_TIME = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?")


def time_zones() -> list[str]:
    """The IANA zones offered (Area/City, and UTC): identifiers, shown as they are, not translated."""
    return sorted(name for name in zoneinfo.available_timezones() if "/" in name or name == "UTC")


class NotificationSettingsForm(forms.ModelForm):
    # A text field with a list to pick from (the page's <datalist id="time-zones">): typed or chosen.
    time_zone = forms.CharField(
        label=_("Time zone"),
        max_length=64,
        initial="UTC",
        help_text=_("Such as Europe/Bucharest or Asia/Tehran."),
        widget=forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off", "dir": "ltr"}),
    )

    class Meta:
        model = NotificationSettings
        fields = ["push", "mail", "quiet_start", "quiet_end", "time_zone"]
        labels = {
            "push": _("Push notifications on the devices where I chose “Notify me”"),
            "mail": _("E-mail “your move” when I have no device for push"),
            "quiet_start": _("Quiet hours from"),
            "quiet_end": _("Quiet hours until"),
        }
        help_texts = {
            "quiet_start": _(
                "Nothing is pushed or mailed in quiet hours; what is still true at their end is sent then."
            ),
        }
        widgets = {
            "quiet_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }

    def _ascii_time(self, name: str):
        raw = self.data.get(name, "")
        if raw and not _TIME.fullmatch(raw):
            raise forms.ValidationError(_("Write the time as hours and minutes, such as 22:30."))
        return self.cleaned_data.get(name)

    def clean_time_zone(self):
        zone = self.cleaned_data["time_zone"].strip()
        if zone not in time_zones():
            raise forms.ValidationError(_("Choose a time zone from the list, such as Europe/Bucharest."))
        return zone

    def clean_quiet_start(self):
        return self._ascii_time("quiet_start")

    def clean_quiet_end(self):
        return self._ascii_time("quiet_end")

    def clean(self):
        data = super().clean()
        if (data.get("quiet_start") is None) != (data.get("quiet_end") is None):
            raise forms.ValidationError(_("Give both ends of the quiet hours, or neither."))
        return data
