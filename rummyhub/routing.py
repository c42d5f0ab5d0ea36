"""Every websocket route of the site, in one place."""

from django.urls import path

from accounts.consumers import PresenceConsumer
from games.live.consumers import LobbyConsumer, TableConsumer
from games.tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/presence/", PresenceConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<int:match_id>/", TableConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
