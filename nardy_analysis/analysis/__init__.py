"""The analysis layer: numbers from replayed matches (shots, per-turn frames, dice audit, engine,
luck)."""

from . import long_engine  # noqa: F401  (enters the long nardy engine in engine.GAME_ENGINES)
