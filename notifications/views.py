"""The notifications' pages and endpoints: the service worker, "Notify me" (a device's
subscription), the list behind the header's bell, the settings, and the mail's unsubscribe."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_ratelimit.core import get_usage

from notifications import parsing, push, selectors, services
from notifications.forms import NotificationSettingsForm
from plumbing.inputs import BadInput, parse_int


@require_GET
def service_worker(request):
    """/sw.js: served from the site's root so that it may control every page (its scope is /)."""
    response = HttpResponse(render_to_string("notifications/sw.js"), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


def _refused(code: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"ok": False, "error": code, "message": message}, status=status)


@require_POST
def subscribe(request):
    """Store this device's push subscription (JSON body: PushSubscription.toJSON())."""
    if not request.user.is_authenticated:
        return _refused("login", _("Log in first."), 403)
    if not push.enabled():
        return _refused("push_off", _("This site does not send push notifications."), 404)
    usage = get_usage(
        request,
        group="notifications.subscribe",
        key=lambda _group, _request: str(request.user.pk),
        rate=settings.RUMMYHUB_PUSH_SUBSCRIBE_LIMIT,
        increment=True,
    )
    if usage is not None and usage["should_limit"]:
        return _refused("rate_limited", _("Too many requests. Wait a while and try again."), 429)
    try:
        sub = parsing.parse_subscription(request.body)
    except BadInput as exc:
        return _refused(exc.code, exc.message)
    label = parsing.device_label(request.headers.get("User-Agent", ""))
    stored = services.subscription_save(
        user_id=request.user.pk, endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth, label=label
    )
    # Logging out of this session forgets this device (receivers.on_logged_out): the next person at
    # this browser is not told the player's moves.
    request.session[services.SESSION_DEVICE] = stored.pk
    return JsonResponse({"ok": True, "id": stored.pk, "label": stored.label}, status=201)


@login_required
@require_POST
def device_delete(request, device_id):
    try:
        device_id = parse_int(device_id, lo=1, hi=2**62)
    except BadInput as exc:
        return _refused(exc.code, exc.message)
    services.subscription_delete(user_id=request.user.pk, subscription_id=device_id)
    messages.success(request, _("That device gets no more notifications."))
    return redirect("notifications:settings")


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    prefs = services.settings_for(request.user.pk)
    form = NotificationSettingsForm(request.POST or None, instance=prefs)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your notification settings are saved."))
        return redirect("notifications:settings")
    return render(
        request,
        "notifications/settings.html",
        {"form": form},
        status=400 if form.errors else 200,
    )


@login_required
@never_cache
def notice_list(request):
    """The list behind the bell (the whole page, or its list for htmx)."""
    context = {"lines": selectors.notice_lines(request.user.pk), "unread": selectors.unread_count(request.user.pk)}
    template = "notifications/list.html#notice-list" if request.htmx else "notifications/list.html"
    return render(request, template, context)


@login_required
@require_POST
def notice_open(request, notice_id):
    """Open a notice: marked read, then its table."""
    try:
        notice_id = parse_int(notice_id, lo=1, hi=2**62)
    except BadInput as exc:
        return _refused(exc.code, exc.message)
    url = selectors.notice_url(request.user.pk, notice_id)
    services.notices_mark_read(user_id=request.user.pk, notice_id=notice_id)
    return redirect(url or "notifications:list")


@login_required
@require_POST
def notices_read(request):
    services.notices_mark_read(user_id=request.user.pk)
    if request.htmx:
        return notice_list(request)
    return redirect("notifications:list")


@csrf_exempt  # the signed token is the authority; a mail client's one-click POST carries no CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token):
    """The mail's unsubscribe link.  GET shows one button (a link scanner's GET changes nothing, RFC
    8058); POST — that button, or the mail client's own List-Unsubscribe-Post — turns mail off."""
    if len(token) > 200:
        return render(request, "notifications/unsubscribe.html", {"bad": True}, status=400)
    if request.method == "GET":
        valid = services.mail_unsubscribe_check(token=token)
        return render(
            request, "notifications/unsubscribe.html", {"token": token, "bad": not valid}, status=200 if valid else 400
        )
    user_id = services.mail_unsubscribe(token=token)
    if user_id is None:
        return render(request, "notifications/unsubscribe.html", {"bad": True}, status=400)
    return render(request, "notifications/unsubscribe.html", {"done": True})
