from django.urls import path

from games import howto, views

app_name = "games"

urlpatterns = [
    path("play/", views.lobby, name="lobby"),
    path("how-to-play/", howto.page, name="howto_index"),
    path("how-to-play/<slug:variant>/", howto.page, name="howto"),
    path("play/new/", views.table_create, name="create"),
    path("tables/<int:match_id>/", views.table, name="table"),
    path("tables/<int:match_id>/join/", views.table_join, name="join"),
    path("tables/<int:match_id>/leave/", views.table_leave, name="leave"),
    path("tables/<int:match_id>/bots/add/", views.table_add_bot, name="add_bot"),
    path("tables/<int:match_id>/bots/remove/", views.table_remove_bot, name="remove_bot"),
    path("tables/<int:match_id>/start/", views.table_start, name="start"),
    path("tables/<int:match_id>/act/", views.table_act, name="act"),
    path("tables/<int:match_id>/draft/", views.table_draft, name="draft"),
    path("tables/<int:match_id>/typed/", views.table_typed, name="typed"),
    path("tables/<int:match_id>/ready/", views.table_ready, name="ready"),
    path("tables/<int:match_id>/chat/", views.table_chat, name="chat"),
    path("tables/<int:match_id>/rematch/", views.table_rematch, name="rematch"),
    path("tables/<int:match_id>/hint/", views.table_hint, name="hint"),
]
