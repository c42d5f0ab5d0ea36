"""RummyHub's rules engine: pure Python, standard library only.

Nothing in this package imports Django, Channels or the database (an
import-linter contract checks it). States and actions are plain values;
``apply(state, seat, action)`` returns a new state or raises a ``RulesError``.
"""
