from django.contrib import admin

from notifications.models import Notice, NotificationSettings, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "label", "created", "last_push"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
    readonly_fields = ["endpoint", "p256dh", "auth"]


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(admin.ModelAdmin):
    list_display = ["user", "push", "mail", "quiet_start", "quiet_end", "time_zone"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "match", "created", "delivery", "pushed", "mailed_at", "read_at"]
    list_filter = ["kind", "delivery"]
    search_fields = ["user__username"]
    raw_id_fields = ["user", "match"]
