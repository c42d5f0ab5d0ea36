"""DESIGN §3 keeps ``games.engine.solver.best_play``: the solver lives in :mod:`.manipulation.solver`."""

from .manipulation.solver import Play, SearchBudgetExceeded, best_play

__all__ = ["Play", "SearchBudgetExceeded", "best_play"]
