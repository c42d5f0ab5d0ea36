"""Template tags of the notifications: the header's bell, the "Notify me" control (a table, the
profile), and the settings panel (the profile).  Pages outside this app load them by name, so no app
below this one imports it."""

from __future__ import annotations

from django import template
from django.urls import reverse

from notifications import push, selectors, services
from notifications.forms import NotificationSettingsForm, time_zones

register = template.Library()


@register.inclusion_tag("notifications/bell.html#notice-bell", takes_context=True)
def notice_bell(context):
    user = context.get("user")
    unread = selectors.unread_count(user.pk) if user is not None and user.is_authenticated else 0
    return {"unread": unread}


@register.inclusion_tag("notifications/notify_me.html", takes_context=True)
def notify_me(context):
    """The "Notify me" button: the page asks for permission only when it is pressed."""
    user = context.get("user")
    return {
        "enabled": push.enabled() and user is not None and user.is_authenticated,
        "push_key": push.application_server_key(),
        "subscribe_url": reverse("notifications:subscribe"),
        "settings_url": reverse("notifications:settings"),
    }


@register.inclusion_tag("notifications/panel.html", takes_context=True)
def notification_panel(context, form=None):
    """The settings (the profile, the settings page): the form (posted to the settings page; ``form``
    is the one with its errors there), the devices, "Notify me"."""
    user = context["user"]
    return {
        **notify_me(context),
        "form": form or NotificationSettingsForm(instance=services.settings_for(user.pk)),
        "devices": selectors.devices(user.pk),
        "time_zones": time_zones(),
        "csrf_token": context.get("csrf_token"),
        "user": user,
    }
