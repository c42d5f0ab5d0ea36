from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # The composition root: the packages above the game services hear of finished matches.
        from django.db.backends.signals import connection_created

        from games import signals
        from games.analysis.services import analysis_request
        from games.history.services import rating_update_for_match
        from games.puzzles.services import puzzles_generate
        from games.tournaments.services import tournament_record_result
        from plumbing import pgtime

        def rate(sender, match, **kwargs):
            rating_update_for_match(match=match)

        def record(sender, match, **kwargs):
            tournament_record_result(match=match)

        def analyse(sender, match, **kwargs):
            analysis_request(match_id=match.pk)

        def puzzles(sender, match_id, steps, **kwargs):
            puzzles_generate(match_id=match_id, steps=steps)

        # PostgreSQL's timestamps read by psycopg's compiled loader, not Django's pure-Python one (plumbing.pgtime).
        connection_created.connect(pgtime.use_compiled_loader, dispatch_uid="plumbing.pgtime")
        signals.analysis_done.connect(puzzles, weak=False, dispatch_uid="games.puzzles.generate")
        signals.match_finished.connect(rate, weak=False, dispatch_uid="games.history.rate")
        signals.match_finished.connect(analyse, weak=False, dispatch_uid="games.analysis.request")
        signals.match_finished.connect(record, weak=False, dispatch_uid="games.tournaments.record")
