"""A signed-in player's language: chosen from the footer's menu, kept on their profile, and brought
back by every log-in, in any browser.

Django keeps the language in a cookie (``settings.LANGUAGE_COOKIE_NAME``), which the pages
(``LocaleMiddleware``) and the sockets (``plumbing.realtime.scope_language``) read.  So:

- :func:`set_language` is Django's view, which sets the cookie, and stores the choice on the profile;
- :func:`on_logged_in` (the ``user_logged_in`` signal) makes the profile's language the request's,
  and :class:`ProfileLanguageMiddleware` writes it into the answer's cookie; a player who never
  chose keeps the language they signed in with, stored then.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views import i18n

from accounts.models import Profile

_LANGUAGE_ATTR = "_profile_language"


def supported(code: str | None) -> bool:
    return bool(code) and code in dict(settings.LANGUAGES) and translation.check_for_language(code)


def profile_language(user) -> str:
    return Profile.objects.filter(user=user).values_list("language", flat=True).first() or ""


def store(user, code: str) -> None:
    Profile.objects.update_or_create(user=user, defaults={"language": code})


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie and the redirect), the choice stored on a signed-in
    player's profile too."""
    response = i18n.set_language(request)
    code = request.POST.get("language") if request.method == "POST" else None
    if supported(code) and request.user.is_authenticated:
        store(request.user, code)
    return response


def on_logged_in(sender, request, user, **kwargs) -> None:
    if request is None:
        return
    code = profile_language(user)
    if not supported(code):
        current = translation.get_language_from_request(request)
        if supported(current):
            store(user, current)
        return
    translation.activate(code)
    request.LANGUAGE_CODE = code
    setattr(request, _LANGUAGE_ATTR, code)


class ProfileLanguageMiddleware:
    """Writes the language a log-in brought back (:func:`on_logged_in`) into the answer's cookie."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        code = getattr(request, _LANGUAGE_ATTR, None)
        if code:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                code,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
