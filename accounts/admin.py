from django.contrib import admin

from accounts.models import Presence, Profile


@admin.register(Presence)
class PresenceAdmin(admin.ModelAdmin):
    list_display = ("user", "channel_name", "seen")
    readonly_fields = ("user", "channel_name", "seen")


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "language")
    list_filter = ("language",)
    search_fields = ("user__username",)
    readonly_fields = ("user",)
