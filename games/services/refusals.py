"""The refusals of the game services: a move or request that changes nothing, with a code."""

from __future__ import annotations

from django.utils.translation import gettext as _


class ActionRefused(Exception):
    """A request the table refuses; ``message`` is shown to that player only."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class StaleVersion(ActionRefused):
    def __init__(self, current: int) -> None:
        super().__init__("stale_version", _("The table changed before your move arrived; it has been refreshed."))
        self.current = current


class TableBusy(ActionRefused):
    """A command that found its table busy until its deadline (``with_retry``): nothing was done."""

    def __init__(self) -> None:
        super().__init__("table_busy", _("The table is busy with another move; try again."))
