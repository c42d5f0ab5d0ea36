from django.contrib import admin
from django.urls import include, path

from accounts import language as account_language
from accounts import views as account_views
from games import views as game_views
from notifications import views as notification_views

urlpatterns = [
    path("", game_views.home, name="home"),
    path("", include("games.urls")),
    path("", include("games.tournaments.urls")),
    path("", include("games.history.urls")),
    path("", include("games.puzzles.urls")),
    path("", include("fairplay.urls")),
    path("accounts/", include("accounts.urls")),
    # The service worker, from the root so that its scope is the whole site (notifications).
    path("sw.js", notification_views.service_worker, name="service_worker"),
    path("notifications/", include("notifications.urls")),
    path("players/<str:username>/", account_views.profile, name="profile"),
    # Django's set_language, which also stores a signed-in player's choice on their profile.
    path("i18n/setlang/", account_language.set_language, name="set_language"),
    # One log-in page for the whole site, with its rate limit: the admin's own is not served.
    path("admin/login/", account_views.admin_login),
    path("admin/", admin.site.urls),
]
