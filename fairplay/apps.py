from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FairPlayConfig(AppConfig):
    name = "fairplay"
    verbose_name = _("Fair play")

    def ready(self) -> None:
        # The composition root: the game services ask fair play through games.guards, and fair play
        # hears of finished matches (abandons) through games.signals.
        from fairplay import policy, services
        from games import guards, signals

        guards.install(policy.FairPlayGuards())

        def count_abandons(sender, match, **kwargs):
            services.abandons_record(match_id=match.pk)

        signals.match_finished.connect(count_abandons, weak=False, dispatch_uid="fairplay.abandons")
