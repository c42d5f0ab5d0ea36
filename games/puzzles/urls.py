from django.urls import path

from games.puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("puzzles/", views.puzzle_index, name="index"),
    path("puzzles/next/", views.puzzle_next, name="next"),
    path("puzzles/<str:pk>/", views.puzzle_play, name="play"),
    path("puzzles/<str:pk>/draft/", views.puzzle_draft, name="draft"),
    path("puzzles/<str:pk>/answer/", views.puzzle_answer, name="answer"),
]
