"""Admin registrations of the games app (each feature registers its own in its admin module)."""

from games.tournaments import admin as _tournament_admin  # noqa: F401
