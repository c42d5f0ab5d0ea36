from django.urls import path

from fairplay import views

app_name = "fairplay"

urlpatterns = [
    path("fair-play/", views.standing, name="standing"),
    path("fair-play/rules/", views.rules, name="rules"),
    path("fair-play/report/", views.report, name="report"),
    path("fair-play/block/<int:user_id>/", views.block, name="block"),
    path("tables/<int:match_id>/mute-chat/", views.table_mute, name="table_mute"),
]
