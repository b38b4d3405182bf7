"""The analysis layer: numbers from replayed matches (shots, per-turn frames, dice audit, engine,
luck)."""
