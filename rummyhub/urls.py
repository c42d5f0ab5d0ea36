from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from games import views as game_views

urlpatterns = [
    path("", game_views.home, name="home"),
    path("", include("games.urls")),
    path("", include("games.tournaments.urls")),
    path("", include("games.history.urls")),
    path("accounts/", include("accounts.urls")),
    path("players/<str:username>/", account_views.profile, name="profile"),
    path("i18n/", include("django.conf.urls.i18n")),
    # One log-in page for the whole site, with its rate limit: the admin's own is not served.
    path("admin/login/", account_views.admin_login),
    path("admin/", admin.site.urls),
]
