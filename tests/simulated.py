"""Simulated matches for tests, under any match id: the simulator's log with its start event's id replaced."""

from __future__ import annotations

import json
from pathlib import Path

from combat_analysis.simulate import write_match


def simulated_log(folder: Path, seed: int, match_id: str, *, scale: float = 0.1) -> Path:
    """`<folder>/match-<seed>.log`, a small simulated match whose id is `match_id` (any text: numeric, quoted,
    a path, emoji), written in the real framing."""
    log = Path(folder) / f"match-{seed}.log"
    write_match(log, seed, scale=scale)
    text = log.read_text(encoding="utf-8-sig").replace(f"sim-{seed:06d}", json.dumps(match_id)[1:-1])
    log.write_text(text, encoding="utf-8-sig", newline="")
    return log
