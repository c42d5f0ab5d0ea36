from django.contrib import admin

from accounts.models import Presence


@admin.register(Presence)
class PresenceAdmin(admin.ModelAdmin):
    list_display = ("user", "channel_name", "seen")
    readonly_fields = ("user", "channel_name", "seen")
