"""What the game services ask of the site's fair-play rules, without importing them.

``fairplay`` (blocks, mutes, bars from rated play) sits above ``games``: it reads matches, seats and
chat lines.  The few places where the games must consult it (a seat taken, a table created, a chat
line posted or shown) ask the one :class:`Guards` installed here; ``fairplay.apps`` installs its own
at start-up (the composition root, like the signals of ``games.signals``).  Until then, and in a
site without ``fairplay``, :class:`Guards` allows everything.  Imports nothing of the project.
"""

from __future__ import annotations

from collections.abc import Iterable


class Guards:
    """Allows everything; ``fairplay.policy.FairPlayGuards`` overrides each question.

    Refusals are returned as text in the active language (or None: allowed).
    """

    def seating_refusal(self, *, user, others: Iterable[int]) -> str | None:
        """Why ``user`` may not sit at a table with the users ``others`` (ids), or None."""
        return None

    def rated_refusal(self, *, user) -> str | None:
        """Why ``user`` may not sit at a rated table now, or None."""
        return None

    def chat_refusal(self, *, user) -> str | None:
        """Why ``user`` may not post a chat line now, or None."""
        return None

    def lobby_notice(self, *, user) -> str | None:
        """What the lobby tells ``user`` of their standing (a warning, a bar), or None."""
        return None

    def chat_hidden_authors(self, *, viewer_id: int | None, match_id: int) -> frozenset[int] | None:
        """The authors (user ids) whose lines at this table ``viewer_id`` does not see; None: no line at all
        (the viewer muted the table's chat)."""
        return frozenset()

    def chat_line_hidden_from(self, *, author_id: int, match_id: int) -> frozenset[int]:
        """The viewers (user ids) who do not see a new line of ``author_id`` at this table: the other
        side of :meth:`chat_hidden_authors`, asked once per line for all of the table's sockets."""
        return frozenset()


_current: list[Guards] = [Guards()]


def install(guards: Guards) -> None:
    """Make ``guards`` the one every game service asks (``fairplay.apps.ready``; tests)."""
    _current[0] = guards


def current() -> Guards:
    return _current[0]
