"""Models of this feature (imported by games.models)."""

__all__: list[str] = []
