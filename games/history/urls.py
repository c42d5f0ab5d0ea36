from django.urls import path

from games.history import views

app_name = "history"

urlpatterns = [
    path("history/", views.history_list, name="list"),
    path("history/players/", views.player_suggest, name="player_suggest"),
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("matches/<int:match_id>/analysis/", views.match_analysis, name="analysis"),
    path("matches/<int:match_id>/replay/", views.match_replay, name="replay"),
    path("matches/<int:match_id>/export.json", views.match_export, name="export"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
