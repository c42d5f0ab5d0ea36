from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        # The composition root: the game's notices reach this app through games.signals, and the
        # shared worker (games.analysis.worker) polls this app's channel too.
        from django.contrib.auth.signals import user_logged_out

        from games import signals
        from games.analysis import worker
        from notifications import receivers
        from plumbing.realtime import NOTIFY_CHANNEL

        signals.your_move.connect(receivers.on_your_move, dispatch_uid="notifications.your_move")
        signals.move_reminder.connect(receivers.on_move_reminder, dispatch_uid="notifications.move_reminder")
        signals.match_finished.connect(receivers.on_match_finished, dispatch_uid="notifications.match_finished")
        user_logged_out.connect(receivers.on_logged_out, dispatch_uid="notifications.logged_out")
        worker.POLLS[NOTIFY_CHANNEL] = ("notifications.poll", "RUMMYHUB_NOTIFY_POLL")
