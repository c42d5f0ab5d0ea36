"""ASGI entry point: HTTP through Django, websockets through Channels (DESIGN.md §5)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyhub.settings")
# Django must be set up before anything imports models.
django_asgi_app = get_asgi_application()

from channels.routing import ChannelNameRouter, ProtocolTypeRouter, URLRouter  # noqa: E402

from games.analysis.consumers import AnalysisConsumer  # noqa: E402
from games.live.clockloop import ClockMiddleware  # noqa: E402
from notifications.consumers import NotifyConsumer  # noqa: E402
from plumbing import gctune  # noqa: E402
from plumbing.origin import SameOriginValidator  # noqa: E402
from plumbing.realtime import ANALYSIS_CHANNEL, NOTIFY_CHANNEL  # noqa: E402
from plumbing.socketauth import SocketAuthMiddlewareStack  # noqa: E402
from rummyhub.routing import websocket_urlpatterns  # noqa: E402

application = ClockMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": SameOriginValidator(SocketAuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
            # `manage.py runworker analysis notifications` (the post-game analysis, games.analysis.worker;
            # the notices' push and mail, notifications.consumers).
            "channel": ChannelNameRouter(
                {ANALYSIS_CHANNEL: AnalysisConsumer.as_asgi(), NOTIFY_CHANNEL: NotifyConsumer.as_asgi()}
            ),
        }
    )
)

# Everything start-up made is loaded: keep it out of the collector's way (see gctune).
gctune.tune()
