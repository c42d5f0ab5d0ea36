from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from accounts.forms import SignUpForm
from games.history import selectors as history_selectors


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = ""
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to RummyHub, %(name)s!") % {"name": user.username})
        return redirect(next_url or "home")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


def profile(request, username):
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    stats = history_selectors.player_stats(player=player, viewer=request.user)
    return render(request, "accounts/profile.html", {"player": player, "stats": stats})
