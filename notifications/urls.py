from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.notice_list, name="list"),
    path("read/", views.notices_read, name="read"),
    path("<str:notice_id>/open/", views.notice_open, name="open"),
    path("settings/", views.settings_page, name="settings"),
    path("devices/", views.subscribe, name="subscribe"),
    path("devices/<str:device_id>/delete/", views.device_delete, name="device_delete"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
