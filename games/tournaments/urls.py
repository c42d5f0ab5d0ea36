from django.urls import path

from games.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("tournaments/<int:tournament_id>/rounds/<int:number>/deals/", views.tournament_deals, name="deals"),
    path("tournaments/<int:tournament_id>/register/", views.tournament_register, name="register"),
    path("tournaments/<int:tournament_id>/withdraw/", views.tournament_withdraw, name="withdraw"),
]
