"""DESIGN §3 keeps ``games.engine.scoring.manipulation_round_scores`` / ``manipulation_final_totals``:
Manipulation's scoring lives in :mod:`.manipulation.scoring`, Gin's in :mod:`.gin.scoring`."""

from .manipulation.scoring import MatchTally, RoundResult, manipulation_final_totals, manipulation_round_scores

__all__ = ["MatchTally", "RoundResult", "manipulation_final_totals", "manipulation_round_scores"]
