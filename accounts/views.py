from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts import ratelimit
from accounts.forms import SignUpForm
from accounts.models import Profile
from fairplay import selectors as fairplay_selectors
from games.history import selectors as history_selectors

# Set in the session that created the account (read by templates/home.html as request.session.signed_up_here).
SIGNED_UP_SESSION_KEY = "signed_up_here"


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
        # The session of the sign-up is no return: templates/home.html says "Welcome back" only in a
        # later one (this message is the welcome).  Log-out flushes the session, and the flag with it.
        request.session[SIGNED_UP_SESSION_KEY] = True
        messages.success(request, _("Welcome to RummyHub, %(name)s!") % {"name": user.username})
        return redirect(next_url or "home")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


def profile(request, username):
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    stats = history_selectors.player_stats(player=player, viewer=request.user)
    ctx = {"player": player, "stats": stats, "figures": fairplay_selectors.games_figures(player=player)}
    if request.user.is_authenticated and request.user != player:
        ctx["blocking"] = fairplay_selectors.is_blocking(user=request.user, other=player)
    if request.user == player:
        ctx["reports_handled"] = fairplay_selectors.handled_reports_untold(user=player)
    return render(request, "accounts/profile.html", ctx)


@login_required
@require_POST
def typed_commands(request):
    """The profile's setting for the tables' command line (on when the box is ticked)."""
    on = request.POST.get("typed_commands") == "on"
    Profile.objects.update_or_create(user=request.user, defaults={"typed_commands": on})
    if on:
        messages.success(request, _("The command line is shown at every table."))
    else:
        messages.success(request, _("The command line is hidden; the link at the top of a table still opens it."))
    return redirect("profile", username=request.user.username)


def admin_login(request):
    """The admin's log-in page is the site's (and so rate-limited like it): go there, then back."""
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = ""
    url = reverse("accounts:login") + "?" + urlencode({"next": target or reverse("admin:index")})
    return redirect(url)


class LoginView(auth_views.LoginView):
    """Django's log-in; over a rate limit (accounts.ratelimit) a 429 page, the password unchecked."""

    def post(self, request, *args, **kwargs):
        minutes = ratelimit.login_wait_minutes(request)
        if minutes is None:
            return super().post(request, *args, **kwargs)
        message = ngettext(
            "Too many attempts to sign in. Wait %(minutes)d minute and try again.",
            "Too many attempts to sign in. Wait %(minutes)d minutes and try again.",
            minutes,
        ) % {"minutes": minutes}
        form = self.get_form_class()(request, initial={"username": request.POST.get("username", "")})
        return self.render_to_response(self.get_context_data(form=form, rate_limited=message), status=429)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset; over a rate limit (accounts.ratelimit) a 429 page and no e-mail."""

    def post(self, request, *args, **kwargs):
        minutes = ratelimit.password_reset_wait_minutes(request)
        if minutes is None:
            return super().post(request, *args, **kwargs)
        message = ngettext(
            "Too many requests for a password reset. Wait %(minutes)d minute and try again.",
            "Too many requests for a password reset. Wait %(minutes)d minutes and try again.",
            minutes,
        ) % {"minutes": minutes}
        form = self.get_form_class()(initial={"email": request.POST.get("email", "")})
        return self.render_to_response(self.get_context_data(form=form, rate_limited=message), status=429)
